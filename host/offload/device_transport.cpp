#include "offload/device_transport.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

#include "driver/rac_kernel_regs.hpp"

namespace raceaccel::offload {
namespace {

using driver::DeviceError;
using driver::DeviceErrorKind;

constexpr uint32_t kMaxObjects = 65536;  // the contract's limit of cap_objects
constexpr uint32_t kMaxReadVcs = 65536;  // and of cap_read_vcs
// Escalation records one command word can produce: the read-clock spill of
// the line its miss evicts, that line's bucket spill, and its own
// escalation or read-clock spill (docs/kernel-interface.md, the capacity
// rule; the kernel checks only the 2 × words of a kernel without a pool).

// The ports named by a status_bus_error status (bits 8-11), e.g.
// "m_axi_cmd, m_axi_meta".
std::string bus_error_ports(uint32_t status) {
  constexpr std::pair<uint32_t, const char*> kPorts[] = {{regs::kStatusBusErrorCmd, "m_axi_cmd"},
                                                         {regs::kStatusBusErrorRace, "m_axi_race"},
                                                         {regs::kStatusBusErrorEsc, "m_axi_esc"},
                                                         {regs::kStatusBusErrorMeta, "m_axi_meta"}};
  std::string out;
  for (const auto& [bit, name] : kPorts) {
    if ((status & bit) == 0) continue;
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out.empty() ? std::string("no port named") : out;
}

}  // namespace

unsigned default_bucket_bits(const driver::Device& device) {
  return device.backend() == "xrt" ? kCardBucketBits : kModelBucketBits;
}

void DeviceTransport::protocol_error(const std::string& what) const {
  throw DeviceError(DeviceErrorKind::Protocol, fmt::format("{}: {}", name_, what));
}

DeviceTransport::DeviceTransport(driver::Device& device, const DeviceTransportOptions& options)
    : device_(device), options_(options), name_(fmt::format("{} device", device.backend())) {
  caps_ = device_.capabilities();
  if (caps_.slots < 1 || caps_.slots > 256 || caps_.clock_bits < 1 || caps_.clock_bits > 32 ||
      caps_.objects > kMaxObjects) {
    protocol_error(fmt::format("capabilities outside the contract: {} slots, {}-bit clocks, {} sync objects",
                               caps_.slots, caps_.clock_bits, caps_.objects));
  }
  shape_ = {caps_.slots, caps_.clock_bits, caps_.read_vcs, caps_.read_vc_ways};
  if (caps_.read_vc_ways < 1 || caps_.read_vc_ways > 8 || (caps_.read_vc_ways & (caps_.read_vc_ways - 1)) != 0 ||
      (caps_.read_vcs != 0 && caps_.read_vc_ways > caps_.read_vcs)) {
    protocol_error(
        fmt::format("cap_read_vc_ways is {}, not a power of two up to 8 and the pool's entries", caps_.read_vc_ways));
  }
  if (caps_.read_vcs == 0) shape_.read_vc_ways = 1;
  // 3 records per word at least (the version-5 rule), more with several
  // read clocks per line (LineShape::esc_records_per_word).
  esc_records_per_word_ = std::max<size_t>(3, shape_.esc_records_per_word());
  if ((caps_.read_vcs & (caps_.read_vcs - 1)) != 0 || caps_.read_vcs > kMaxReadVcs) {
    protocol_error(fmt::format("cap_read_vcs is {}, not 0 or a power of two up to {}", caps_.read_vcs, kMaxReadVcs));
  }
  if (caps_.line_bits != shape_.line_bits()) {
    protocol_error(fmt::format("cap_line_bits is {}, but {} slots of {}-bit clocks make {}-bit lines", caps_.line_bits,
                               caps_.slots, caps_.clock_bits, shape_.line_bits()));
  }
  if (caps_.esc_record_bytes != shape_.esc_record_bytes()) {
    protocol_error(fmt::format("cap_esc_record_bytes is {}, but the contract gives {} for this shape",
                               caps_.esc_record_bytes, shape_.esc_record_bytes()));
  }
  if (caps_.bucket_ways == 0 || caps_.bucket_ways > 8 || (caps_.bucket_ways & (caps_.bucket_ways - 1)) != 0) {
    protocol_error(fmt::format("cap_bucket_ways is {}, not a power of two up to 8", caps_.bucket_ways));
  }
  if (options_.bucket_bits == 0) options_.bucket_bits = default_bucket_bits(device_);
  if (options_.bucket_bits < 1 || options_.bucket_bits > 30) {
    throw std::invalid_argument("bucket_bits must be in 1..30");
  }
  // A set-row or import-line command must fit in one batch; esc_capacity
  // (3 × words) must fit in 32 bits.
  batch_words_ = std::clamp<size_t>(
      options_.batch_words,
      1 + std::max(shape_.row_words(), shape_.line_words() + (shape_.read_vcs > 0 ? shape_.row_words() : 0)),
      size_t{1} << 30);
  const size_t batch_bytes =
      batch_words_ * (regs::kCommandBytes + regs::kRaceRecordBytes + esc_records_per_word_ * shape_.esc_record_bytes());
  try {
    commands_ = device_.allocate(batch_words_ * regs::kCommandBytes);
    race_records_ = device_.allocate(batch_words_ * regs::kRaceRecordBytes);
    esc_records_ = device_.allocate(esc_records_per_word_ * batch_words_ * shape_.esc_record_bytes());
  } catch (const std::bad_alloc&) {  // a batch size too large for this host: a clear error, not a crash
    throw DeviceError(DeviceErrorKind::BadOptions,
                      fmt::format("{}: batches of {} command words need {} bytes of buffers, more than "
                                  "this host can allocate; use smaller batches",
                                  name_, batch_words_, batch_bytes));
  }
  // The bucket table starts empty and is the device's from then on.
  static_assert(regs::kBucketWayBytes == 128, "bucket_table_bytes counts 128-byte ways");
  buckets_ = device_.allocate(bucket_table_bytes(options_.bucket_bits, caps_.bucket_ways));
  std::memset(buckets_->host().data(), 0, buckets_->size());
  buckets_->to_device(0, buckets_->size());
}

size_t DeviceTransport::reserve(uint64_t number, size_t data_words) {
  if (words_ + 1 + data_words > batch_words_) launch();
  if (words_ == 0) {
    first_number_ = number;
  } else if (number != next_number_) {  // the Transport contract: consecutive numbers
    throw std::logic_error(fmt::format("offload: command {} sent after command {}", number, next_number_ - 1));
  }
  const size_t at = words_ * regs::kCommandBytes;
  if (data_words != 0) {
    data_runs_.push_back({words_, data_words, data_words_});
    data_words_ += data_words;
  }
  words_ += 1 + data_words;
  next_number_ = number + 1;
  return at;
}

uint64_t DeviceTransport::number_of(uint64_t word) const {
  if (word >= words_) return kDataWord;
  // The last command with data before `word` (records are few: a search each).
  const auto after = std::lower_bound(data_runs_.begin(), data_runs_.end(), word,
                                      [](const DataRun& r, uint64_t w) { return r.word < w; });
  if (after == data_runs_.begin()) return first_number_ + word;
  const DataRun& r = *std::prev(after);
  if (word <= r.word + r.data) return kDataWord;
  return first_number_ + (word - r.data_before - r.data);
}

void DeviceTransport::send(const driver::CommandWord& word, uint64_t number, std::span<const uint64_t> row) {
  const bool has_row =
      word.op == regs::kOpSetRow || word.op == regs::kOpLoadObject || word.op == regs::kOpImportReadClock;
  const size_t row_words = has_row ? shape_.row_words() : 0;
  const size_t at = reserve(number, row_words);
  std::span<std::byte> host = commands_->host();
  driver::encode_command(word, host.subspan(at).first<16>());
  if (row_words != 0) {
    driver::encode_row(row, shape_, host.subspan(at + regs::kCommandBytes, row_words * regs::kCommandBytes));
  }
}

void DeviceTransport::send_line(const driver::CommandWord& word, uint64_t number, const driver::Line& line,
                                std::span<const uint64_t> read_clock) {
  const size_t line_words = shape_.line_words(), clock_words = word.mask != 0 ? shape_.row_words() : 0;
  const size_t at = reserve(number, line_words + clock_words);
  std::span<std::byte> host = commands_->host();
  driver::encode_command(word, host.subspan(at).first<16>());
  const size_t data = at + regs::kCommandBytes;
  driver::encode_line_words(line, shape_, host.subspan(data, line_words * regs::kCommandBytes));
  if (clock_words != 0) {
    driver::encode_row(read_clock, shape_,
                       host.subspan(data + line_words * regs::kCommandBytes, clock_words * regs::kCommandBytes));
  }
}

void DeviceTransport::launch() {
  if (words_ == 0) {
    if (sink_ != nullptr) sink_->answered(next_number_);
    return;
  }
  const auto words = static_cast<uint32_t>(words_);
  const auto launched = std::chrono::steady_clock::now();
  commands_->to_device(0, size_t{words} * regs::kCommandBytes);
  device_.write_register64(regs::kCommands, commands_->device_address());
  device_.write_register(regs::kCommandWords, words);
  device_.write_register(regs::kFlags, first_launch_ ? regs::kFlagClearState : 0u);
  device_.write_register64(regs::kRaces, race_records_->device_address());
  device_.write_register(regs::kRaceCapacity, static_cast<uint32_t>(batch_words_));
  device_.write_register64(regs::kEscalations, esc_records_->device_address());
  device_.write_register(regs::kEscCapacity, static_cast<uint32_t>(esc_records_per_word_ * batch_words_));
  device_.write_register64(regs::kBuckets, buckets_->device_address());
  device_.write_register(regs::kBucketBits, options_.bucket_bits);
  device_.start();
  if (!device_.wait(options_.timeout)) {
    throw DeviceError(DeviceErrorKind::Timeout,
                      fmt::format("{}: a batch of {} command words did not finish within {} ms", name_, words,
                                  options_.timeout.count()));
  }
  const uint32_t status = device_.read_register(regs::kStatus);
  const uint32_t done = device_.read_register(regs::kWordsDone);
  const uint32_t races = device_.read_register(regs::kRacesWritten);
  const uint32_t escalations = device_.read_register(regs::kEscalationsWritten);
  if ((status & 0xFFu) == regs::kStatusBusError) {
    // The card's memory failed an access: nothing of this batch can be
    // trusted, and the bucket table may disagree with the chip.
    protocol_error(
        fmt::format("device memory error: an AXI access on {} was answered with SLVERR/DECERR "
                    "(status {:#x}); the batch stopped after {} of {} command words",
                    bus_error_ports(status), status, done, words));
  }
  if (status != regs::kStatusOk || done != words) {
    protocol_error(fmt::format("batch ended with status {} after {} of {} command words", status, done, words));
  }
  if (races > words || escalations > esc_records_per_word_ * uint64_t{words}) {
    protocol_error(fmt::format("{} race and {} escalation records for {} command words", races, escalations, words));
  }
  const auto finished = std::chrono::steady_clock::now();
  stats_.launch_time += finished - launched;
  first_launch_ = false;
  ++stats_.batches;
  stats_.command_words += words;

  // Escalations change the host's lines, so they go first and in the order
  // the device wrote them (per granule, command order); race records only
  // read the site log.
  const size_t record_bytes = shape_.esc_record_bytes();
  esc_records_->from_device(0, size_t{escalations} * record_bytes);
  race_records_->from_device(0, size_t{races} * regs::kRaceRecordBytes);
  const std::span<const std::byte> rr = race_records_->host();
  race_scratch_.clear();
  for (uint32_t i = 0; i < races; ++i) {
    race_scratch_.push_back(driver::decode_race(rr.subspan(size_t{i} * regs::kRaceRecordBytes).first<64>()));
  }
  const std::span<const std::byte> esc = esc_records_->host();
  for (uint32_t i = 0; i < escalations; ++i) {
    driver::EscalationRecord r = driver::decode_escalation(esc.subspan(size_t{i} * record_bytes, record_bytes));
    const uint64_t number = number_of(r.word);
    if (number == kDataWord) protocol_error(fmt::format("escalation record for word {} of {}", r.word, words));
    r.word = number;
    sink_->on_escalation(r);
  }
  for (driver::RaceRecord& r : race_scratch_) {
    const uint64_t number = number_of(r.word);
    if (number == kDataWord) protocol_error(fmt::format("race record for word {} of {}", r.word, words));
    r.word = number;
    sink_->on_race(r);
  }
  data_runs_.clear();
  data_words_ = 0;
  words_ = 0;
  sink_->answered(next_number_);
  stats_.records_time += std::chrono::steady_clock::now() - finished;
}

}  // namespace raceaccel::offload
