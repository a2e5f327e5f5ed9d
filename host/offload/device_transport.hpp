// The batched transport of the protocol core (protocol_core.hpp): command
// words collect in a device buffer, one launch per full batch; after a
// launch the race and escalation records are read back, decoded by the
// driver's decoders and handed to the core, escalations first and in the
// order the device wrote them (docs/kernel-interface.md).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "driver/device.hpp"
#include "driver/records.hpp"
#include "offload/protocol_core.hpp"

namespace raceaccel::offload {

// The bucket table (docs/kernel-interface.md, "Metadata bucket table") has
// 2^bucket_bits buckets of cap_bucket_ways ways of 128 bytes in device
// memory and holds the lines the cache evicts; a line whose bucket is full
// goes to the host (a bucket spill) and is host-owned until re-imported.
// Two defaults:
//  - a card (the XRT backend) has GiBs of DDR or HBM, so it gets 2^20
//    buckets: 4 Mi lines in 4 ways, 512 MiB. The recorded bench programs
//    need it: bytescan's 512 Ki granules spilled 535,288 times at 2^16
//    buckets (256 Ki lines) and 392 times at 2^20 (docs/hardware.md, "A
//    card-sized bucket table").
//  - the models (software, Verilator) keep the table in host memory, twice
//    (host and device copy): 2^16 buckets, 32 MiB; --bucket-bits (check)
//    and the sweep's bucket_bits knob (default: the card's) set another.
inline constexpr unsigned kCardBucketBits = 20;
inline constexpr unsigned kModelBucketBits = 16;
// kCardBucketBits on the XRT backend, kModelBucketBits on the models.
unsigned default_bucket_bits(const driver::Device& device);
// Bucket table bytes for a shape (2^bits × ways × 128).
inline constexpr size_t bucket_table_bytes(unsigned bucket_bits, unsigned bucket_ways) {
  return (size_t{1} << bucket_bits) * bucket_ways * 128;
}

struct DeviceTransportOptions {
  size_t batch_words = 64 * 1024;
  unsigned bucket_bits = 0;  // 0: default_bucket_bits(device)
  std::chrono::milliseconds timeout{120'000};
};

// What only the batched transport counts.
struct DeviceTransportStats {
  uint64_t command_words = 0;  // sent to the device, set-row data included
  uint64_t batches = 0;
  std::chrono::nanoseconds launch_time{0};   // host clock, from to_device of the words to ap_done
  std::chrono::nanoseconds records_time{0};  // reading back and answering the records
};

class DeviceTransport final : public Transport {
 public:
  // Checks the device's capabilities against the contract (DeviceError
  // Protocol) and allocates the batch buffers and the bucket table.
  DeviceTransport(driver::Device& device, const DeviceTransportOptions& options);
  const driver::Capabilities& capabilities() const { return caps_; }
  const driver::LineShape& shape() const { return shape_; }
  size_t batch_words() const { return batch_words_; }
  const DeviceTransportStats& stats() const { return stats_; }

  void connect(RecordSink& sink) override { sink_ = &sink; }
  std::string_view name() const override { return name_; }
  void send(const driver::CommandWord& word, uint64_t number, std::span<const uint64_t> row) override;
  void send_line(const driver::CommandWord& word, uint64_t number, const driver::Line& line,
                 std::span<const uint64_t> read_clock) override;
  void flush() override { launch(); }

 private:
  [[noreturn]] void protocol_error(const std::string& what) const;
  void launch();
  // Room for a command of 1 + data_words words (launching the batch first if
  // it is full); returns the byte offset of the command in the buffer.
  size_t reserve(uint64_t number, size_t data_words);

  driver::Device& device_;
  DeviceTransportOptions options_;
  std::string name_;
  driver::Capabilities caps_;
  driver::LineShape shape_;
  size_t batch_words_;
  size_t esc_records_per_word_ = 3;  // esc_capacity per command word
  std::unique_ptr<driver::Buffer> commands_, race_records_, esc_records_, buckets_;
  bool first_launch_ = true;
  RecordSink* sink_ = nullptr;
  // Records name words of the batch; the core knows commands by number.
  // Numbers are consecutive, so a word's number is the batch's first number
  // plus the commands before it, and only the commands with data words
  // (set-row, load-object, import-line, op 8: a few in a hundred) are kept,
  // in word order (a data word names no command: kDataWord).
  static constexpr uint64_t kDataWord = UINT64_MAX;
  struct DataRun {
    size_t word;         // the command's word
    size_t data;         // its data words, right behind it
    size_t data_before;  // data words of the batch's earlier commands
  };
  uint64_t number_of(uint64_t word) const;
  std::vector<DataRun> data_runs_;
  size_t data_words_ = 0;      // data words in the batch so far
  uint64_t first_number_ = 0;  // the batch's first command
  size_t words_ = 0;           // words in the batch so far
  uint64_t next_number_ = 0;   // one past the last command sent
  std::vector<driver::RaceRecord> race_scratch_;
  DeviceTransportStats stats_;
};

}  // namespace raceaccel::offload
