// GENERATED from rtl/regmap/rac_kernel_regs.json by cmake/gen_regmap.cmake. Do not edit.
// The rac_kernel register map and record constants (docs/kernel-interface.md).
#pragma once

#include <cstdint>
#include <string_view>

namespace raceaccel::regs {

inline constexpr std::string_view kKernelName = "rac_kernel";
inline constexpr uint32_t kRegMapVersion = 8;
inline constexpr uint32_t kMagic = 0x52414345;

enum class Access : uint8_t { ReadWrite, ReadOnly };
enum class Group : uint8_t { Control, Argument, Result, Statistic, Capability };

struct Register {
  std::string_view name;
  uint32_t offset;
  uint32_t bits;  // 32 or 64 (64: low word at offset, high word at offset + 4)
  Access access;
  Group group;
  std::string_view port;  // m_axi port of a pointer argument, else empty
  std::string_view doc;
};

// bit0 ap_start, bit1 ap_done (clear on read), bit2 ap_idle, bit3 ap_ready (clear on read)
inline constexpr uint32_t kCtrl = 0x0;
// bit0 global interrupt enable
inline constexpr uint32_t kGie = 0x4;
// bit0 ap_done interrupt enable, bit1 ap_ready interrupt enable
inline constexpr uint32_t kIer = 0x8;
// bit0 ap_done, bit1 ap_ready interrupt status (toggle on write 1)
inline constexpr uint32_t kIsr = 0xc;
// device address of the command words (16-byte aligned)
inline constexpr uint32_t kCommands = 0x10;
// number of 16-byte command words in this batch
inline constexpr uint32_t kCommandWords = 0x18;
// bit0 clear_state: invalidate the metadata cache before the batch (the host zeroes the bucket table)
inline constexpr uint32_t kFlags = 0x1c;
// device address of the race-record buffer (64-byte aligned)
inline constexpr uint32_t kRaces = 0x20;
// race records the buffer holds; must be >= command_words
inline constexpr uint32_t kRaceCapacity = 0x28;
// device address of the escalation-record buffer (64-byte aligned)
inline constexpr uint32_t kEscalations = 0x30;
// escalation records the buffer holds; must be >= 2 * command_words without a pool, >= (2 * cap_read_vc_ways + 1) * command_words with one
inline constexpr uint32_t kEscCapacity = 0x38;
// device address of the metadata bucket table (4 KB aligned; 2^bucket_bits * cap_bucket_ways * 128 bytes)
inline constexpr uint32_t kBuckets = 0x40;
// the bucket table has 2^bucket_bits buckets of cap_bucket_ways ways of 128 bytes (1..30)
inline constexpr uint32_t kBucketBits = 0x48;
// 0 ok; otherwise a status code (constants status_*) and the batch stopped
inline constexpr uint32_t kStatus = 0x80;
// race records written by the last batch
inline constexpr uint32_t kRacesWritten = 0x84;
// escalation records written by the last batch
inline constexpr uint32_t kEscalationsWritten = 0x88;
// command words consumed by the last batch
inline constexpr uint32_t kWordsDone = 0x8c;
// clock cycles since reset
inline constexpr uint32_t kStatCycles = 0x90;
// cycles with a batch running (ap_start to ap_done), since reset
inline constexpr uint32_t kStatBusyCycles = 0x98;
// commands executed by the engine
inline constexpr uint32_t kStatCommands = 0xa0;
// read/write commands
inline constexpr uint32_t kStatAccesses = 0xa8;
// metadata cache misses
inline constexpr uint32_t kStatMisses = 0xb0;
// dirty lines written back
inline constexpr uint32_t kStatWritebacks = 0xb8;
// escalation records other than spills
inline constexpr uint32_t kStatEscalations = 0xc0;
// write-backs that found every way of their bucket taken by other granules and went to the host
inline constexpr uint32_t kStatSpills = 0xc8;
// race records
inline constexpr uint32_t kStatRaces = 0xd0;
// 0x52414345 ('RACE')
inline constexpr uint32_t kCapMagic = 0xe0;
// register map version
inline constexpr uint32_t kCapVersion = 0xe4;
// hardware thread slots (NumSlots)
inline constexpr uint32_t kCapSlots = 0xe8;
// bits per clock lane (ClkW)
inline constexpr uint32_t kCapClockBits = 0xec;
// metadata cache sets
inline constexpr uint32_t kCapSets = 0xf0;
// metadata cache ways
inline constexpr uint32_t kCapWays = 0xf4;
// bits of one line record (LineW)
inline constexpr uint32_t kCapLineBits = 0xf8;
// entries of the sync-object clock store (Objects); object indices of ops 4-6 must be below it
inline constexpr uint32_t kCapObjects = 0xfc;
// entries of the read-VC pool (ReadVcs; 0: none, every READ SHARE goes to the host)
inline constexpr uint32_t kCapReadVcs = 0x100;
// bytes per escalation record: 128 without a pool, else 128 + 64 * ceil(slots * clock_bits / 512) (the read clock at byte 128)
inline constexpr uint32_t kCapEscRecordBytes = 0x104;
// optional commands the kernel executes: bit0 import-line (op 7; constant feature_import_line), bit1 atomic accesses (ops 9 and 10; constant feature_atomic_access); 0 on a kernel without them
inline constexpr uint32_t kCapFeatures = 0x108;
// ways (128-byte entries) per metadata bucket, a power of two <= 8; a bucket is cap_bucket_ways * 128 bytes, read in one burst
inline constexpr uint32_t kCapBucketWays = 0x10c;
// ways of the read-VC pool (cap_read_vcs / cap_read_vc_ways sets); a line holds up to this many read clocks, each for its own shared bytes (escalation byte 18, op 8); 1: one clock per line, direct-mapped (the version-5 rules)
inline constexpr uint32_t kCapReadVcWays = 0x110;

// Every register, in offset order.
inline constexpr Register kRegisters[] = {
    {"ctrl", 0x0, 32, Access::ReadWrite, Group::Control, "", "bit0 ap_start, bit1 ap_done (clear on read), bit2 ap_idle, bit3 ap_ready (clear on read)"},
    {"gie", 0x4, 32, Access::ReadWrite, Group::Control, "", "bit0 global interrupt enable"},
    {"ier", 0x8, 32, Access::ReadWrite, Group::Control, "", "bit0 ap_done interrupt enable, bit1 ap_ready interrupt enable"},
    {"isr", 0xc, 32, Access::ReadWrite, Group::Control, "", "bit0 ap_done, bit1 ap_ready interrupt status (toggle on write 1)"},
    {"commands", 0x10, 64, Access::ReadWrite, Group::Argument, "m_axi_cmd", "device address of the command words (16-byte aligned)"},
    {"command_words", 0x18, 32, Access::ReadWrite, Group::Argument, "", "number of 16-byte command words in this batch"},
    {"flags", 0x1c, 32, Access::ReadWrite, Group::Argument, "", "bit0 clear_state: invalidate the metadata cache before the batch (the host zeroes the bucket table)"},
    {"races", 0x20, 64, Access::ReadWrite, Group::Argument, "m_axi_race", "device address of the race-record buffer (64-byte aligned)"},
    {"race_capacity", 0x28, 32, Access::ReadWrite, Group::Argument, "", "race records the buffer holds; must be >= command_words"},
    {"escalations", 0x30, 64, Access::ReadWrite, Group::Argument, "m_axi_esc", "device address of the escalation-record buffer (64-byte aligned)"},
    {"esc_capacity", 0x38, 32, Access::ReadWrite, Group::Argument, "", "escalation records the buffer holds; must be >= 2 * command_words without a pool, >= (2 * cap_read_vc_ways + 1) * command_words with one"},
    {"buckets", 0x40, 64, Access::ReadWrite, Group::Argument, "m_axi_meta", "device address of the metadata bucket table (4 KB aligned; 2^bucket_bits * cap_bucket_ways * 128 bytes)"},
    {"bucket_bits", 0x48, 32, Access::ReadWrite, Group::Argument, "", "the bucket table has 2^bucket_bits buckets of cap_bucket_ways ways of 128 bytes (1..30)"},
    {"status", 0x80, 32, Access::ReadOnly, Group::Result, "", "0 ok; otherwise a status code (constants status_*) and the batch stopped"},
    {"races_written", 0x84, 32, Access::ReadOnly, Group::Result, "", "race records written by the last batch"},
    {"escalations_written", 0x88, 32, Access::ReadOnly, Group::Result, "", "escalation records written by the last batch"},
    {"words_done", 0x8c, 32, Access::ReadOnly, Group::Result, "", "command words consumed by the last batch"},
    {"stat_cycles", 0x90, 64, Access::ReadOnly, Group::Statistic, "", "clock cycles since reset"},
    {"stat_busy_cycles", 0x98, 64, Access::ReadOnly, Group::Statistic, "", "cycles with a batch running (ap_start to ap_done), since reset"},
    {"stat_commands", 0xa0, 64, Access::ReadOnly, Group::Statistic, "", "commands executed by the engine"},
    {"stat_accesses", 0xa8, 64, Access::ReadOnly, Group::Statistic, "", "read/write commands"},
    {"stat_misses", 0xb0, 64, Access::ReadOnly, Group::Statistic, "", "metadata cache misses"},
    {"stat_writebacks", 0xb8, 64, Access::ReadOnly, Group::Statistic, "", "dirty lines written back"},
    {"stat_escalations", 0xc0, 64, Access::ReadOnly, Group::Statistic, "", "escalation records other than spills"},
    {"stat_spills", 0xc8, 64, Access::ReadOnly, Group::Statistic, "", "write-backs that found every way of their bucket taken by other granules and went to the host"},
    {"stat_races", 0xd0, 64, Access::ReadOnly, Group::Statistic, "", "race records"},
    {"cap_magic", 0xe0, 32, Access::ReadOnly, Group::Capability, "", "0x52414345 ('RACE')"},
    {"cap_version", 0xe4, 32, Access::ReadOnly, Group::Capability, "", "register map version"},
    {"cap_slots", 0xe8, 32, Access::ReadOnly, Group::Capability, "", "hardware thread slots (NumSlots)"},
    {"cap_clock_bits", 0xec, 32, Access::ReadOnly, Group::Capability, "", "bits per clock lane (ClkW)"},
    {"cap_sets", 0xf0, 32, Access::ReadOnly, Group::Capability, "", "metadata cache sets"},
    {"cap_ways", 0xf4, 32, Access::ReadOnly, Group::Capability, "", "metadata cache ways"},
    {"cap_line_bits", 0xf8, 32, Access::ReadOnly, Group::Capability, "", "bits of one line record (LineW)"},
    {"cap_objects", 0xfc, 32, Access::ReadOnly, Group::Capability, "", "entries of the sync-object clock store (Objects); object indices of ops 4-6 must be below it"},
    {"cap_read_vcs", 0x100, 32, Access::ReadOnly, Group::Capability, "", "entries of the read-VC pool (ReadVcs; 0: none, every READ SHARE goes to the host)"},
    {"cap_esc_record_bytes", 0x104, 32, Access::ReadOnly, Group::Capability, "", "bytes per escalation record: 128 without a pool, else 128 + 64 * ceil(slots * clock_bits / 512) (the read clock at byte 128)"},
    {"cap_features", 0x108, 32, Access::ReadOnly, Group::Capability, "", "optional commands the kernel executes: bit0 import-line (op 7; constant feature_import_line), bit1 atomic accesses (ops 9 and 10; constant feature_atomic_access); 0 on a kernel without them"},
    {"cap_bucket_ways", 0x10c, 32, Access::ReadOnly, Group::Capability, "", "ways (128-byte entries) per metadata bucket, a power of two <= 8; a bucket is cap_bucket_ways * 128 bytes, read in one burst"},
    {"cap_read_vc_ways", 0x110, 32, Access::ReadOnly, Group::Capability, "", "ways of the read-VC pool (cap_read_vcs / cap_read_vc_ways sets); a line holds up to this many read clocks, each for its own shared bytes (escalation byte 18, op 8); 1: one clock per line, direct-mapped (the version-5 rules)"},
};

inline constexpr uint32_t kCtrlStart = 1;  // ctrl bit: ap_start
inline constexpr uint32_t kCtrlDone = 2;  // ctrl bit: ap_done
inline constexpr uint32_t kCtrlIdle = 4;  // ctrl bit: ap_idle
inline constexpr uint32_t kCtrlReady = 8;  // ctrl bit: ap_ready
inline constexpr uint32_t kFlagClearState = 1;  // flags bit: clear the checker state first
inline constexpr uint32_t kCommandBytes = 16;  // bytes per command word
inline constexpr uint32_t kRaceRecordBytes = 64;  // bytes per race record
inline constexpr uint32_t kEscRecordBaseBytes = 128;  // bytes of an escalation record up to its read clock (the whole record when cap_read_vcs = 0; cap_esc_record_bytes)
inline constexpr uint32_t kEscFlagReadClock = 1;  // escalation record byte 17 bit: the read clock at byte 128 is valid
inline constexpr uint32_t kEscClockMaskByte = 18;  // escalation record byte: the shared bytes the read clock at byte 128 covers (0: every shared byte of the line, as on kernels with cap_read_vc_ways 1)
inline constexpr uint32_t kBucketWayBytes = 128;  // bytes per way of a metadata bucket (a bucket is cap_bucket_ways ways)
inline constexpr uint32_t kBucketFilterBits = 64;  // bits of a bucket's spill filter (way 0, bytes 8-15): bit h set when a granule whose filter hash is h was spilled from the bucket
inline constexpr uint32_t kOpRead = 0;  // command op: read of mask bytes of granule
inline constexpr uint32_t kOpWrite = 1;  // command op: write
inline constexpr uint32_t kOpFree = 2;  // command op: the bytes lose their history
inline constexpr uint32_t kOpSetRow = 3;  // command op: the slot's clock row := the data words that follow
inline constexpr uint32_t kOpAcquire = 4;  // command op: the slot's clock row joins sync object granule (C := C join V[obj])
inline constexpr uint32_t kOpRelease = 5;  // command op: sync object granule joins the slot's row, then the slot ticks (V[obj] := V[obj] join C; C[slot] += 1)
inline constexpr uint32_t kOpLoadObject = 6;  // command op: sync object granule := the data words that follow (as set-row)
inline constexpr uint32_t kOpImportLine = 7;  // command op: granule's line := the line in the ceil(LineW / 128) data words that follow (INSOFTWARE clear); mask = the line's shared bytes, and when nonzero (a kernel with a pool) the line's read clock follows in set-row layout and takes the granule's pool entry; only on kernels with feature_import_line
inline constexpr uint32_t kOpImportReadClock = 8;  // command op: the bytes in mask of granule's line (on chip, just imported) become shared with the read clock in the set-row data words that follow, which takes a way of the granule's pool set; only on kernels with cap_read_vc_ways > 1
inline constexpr uint32_t kOpAtomicRead = 9;  // command op: the atomic read of mask bytes of granule (an atomic load): checked against the line's last plain write only, never recorded (the host keeps the atomic history); only on kernels with feature_atomic_access
inline constexpr uint32_t kOpAtomicWrite = 10;  // command op: the atomic write of mask bytes of granule (an atomic store or RMW, which also reads): checked against the line's last plain write and its plain reads, never recorded; only on kernels with feature_atomic_access
inline constexpr uint32_t kFeatureImportLine = 1;  // cap_features bit: op 7 import-line is executed
inline constexpr uint32_t kFeatureAtomicAccess = 2;  // cap_features bit: ops 9 and 10 (atomic read, atomic write) are executed
inline constexpr uint32_t kReasonInSoftware = 0;  // escalation: the line is owned by the host
inline constexpr uint32_t kReasonReadShare = 1;  // escalation: reads became concurrent; the line goes to the host
inline constexpr uint32_t kReasonForced = 2;  // escalation: the command asked for it (thread without a slot)
inline constexpr uint32_t kReasonReclaim = 3;  // escalation: a full free returned a host-owned line to hardware
inline constexpr uint32_t kReasonSpill = 4;  // escalation: an evicted line found every way of its bucket taken; the host keeps it
inline constexpr uint32_t kReasonReadVcSpill = 5;  // escalation: another line took the granule's read-VC pool entry; its read clock goes to the host, the line becomes LASTWRITE
inline constexpr uint32_t kReasonPartialReadVcSpill = 6;  // escalation (several read clocks per line): a clock of the reads made since the bytes it names lost their clock to the host (reason 5) leaves the pool; the host joins it into the clock it keeps for those bytes
inline constexpr uint32_t kStatusOk = 0;  // batch completed
inline constexpr uint32_t kStatusBadOp = 1;  // a command word had a reserved op, an out-of-range slot or an out-of-range object index
inline constexpr uint32_t kStatusBadArgs = 2;  // capacities too small, bucket_bits out of range or a misaligned buffer
inline constexpr uint32_t kStatusTruncated = 3;  // the batch ended inside a set-row or load-object command's data words
inline constexpr uint32_t kStatusBusError = 4;  // a device-memory access was answered with SLVERR or DECERR; the batch stopped at a word boundary; status bits 8-11 name the ports (constants status_bus_error_*); the host must start again with clear_state
inline constexpr uint32_t kStatusBusErrorCmd = 256;  // status bit: m_axi_cmd read error
inline constexpr uint32_t kStatusBusErrorRace = 512;  // status bit: m_axi_race write error
inline constexpr uint32_t kStatusBusErrorEsc = 1024;  // status bit: m_axi_esc write error
inline constexpr uint32_t kStatusBusErrorMeta = 2048;  // status bit: m_axi_meta read or write error

// The bucket hash (docs/kernel-interface.md, "Metadata bucket table"): state
// {x, y} := {0, granule} (x the high word), kBucketHashRounds rounds of
// x := (rotr(x, 8) + y) ^ (kBucketHashKey ^ round), y := rotl(y, 3) ^ x.
// The bucket is the low bucket_bits bits of y, the spill-filter bit the low
// 6 bits of x.
inline constexpr uint32_t kBucketHashRounds = 4;
inline constexpr uint32_t kBucketHashKey = 1013904242;
inline constexpr uint64_t bucket_hash_round(uint64_t s, uint32_t round) {
  const uint32_t x0 = static_cast<uint32_t>(s >> 32), y0 = static_cast<uint32_t>(s);
  const uint32_t x = ((x0 >> 8 | x0 << 24) + y0) ^ (kBucketHashKey ^ round);
  const uint32_t y = (y0 << 3 | y0 >> 29) ^ x;
  return uint64_t{x} << 32 | y;
}
inline constexpr uint64_t bucket_hash(uint64_t granule) {
  uint64_t s = granule;
  for (uint32_t round = 0; round < kBucketHashRounds; ++round) s = bucket_hash_round(s, round);
  return s;
}

// The line record (docs/kernel-interface.md): a little-endian bit string.
// Offsets and widths in bits for slot_bits = ceil(log2 slots) (at least
// 1), clock_bits and read_vcs (cap_read_vcs).
// INSOFTWARE: the host owns the line: offset
inline constexpr uint32_t line_in_software_lo([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 0; }
// INSOFTWARE: the host owns the line: width
inline constexpr uint32_t line_in_software_bits([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 1; }
// byte record: a race on this byte was reported, offset in the record
inline constexpr uint32_t line_byte_raced_lo([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 0; }
// byte record: a race on this byte was reported, width
inline constexpr uint32_t line_byte_raced_bits([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 1; }
// byte record: last write: slot, offset in the record
inline constexpr uint32_t line_byte_w_slot_lo([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 1; }
// byte record: last write: slot, width
inline constexpr uint32_t line_byte_w_slot_bits([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return slot_bits; }
// byte record: last write: clock, offset in the record
inline constexpr uint32_t line_byte_w_clock_lo([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 1 + slot_bits; }
// byte record: last write: clock, width
inline constexpr uint32_t line_byte_w_clock_bits([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return clock_bits; }
// byte record: last read: slot, offset in the record
inline constexpr uint32_t line_byte_r_slot_lo([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 1 + slot_bits + clock_bits; }
// byte record: last read: slot, width
inline constexpr uint32_t line_byte_r_slot_bits([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return slot_bits; }
// byte record: last read: clock, offset in the record
inline constexpr uint32_t line_byte_r_clock_lo([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 1 + slot_bits + clock_bits + slot_bits; }
// byte record: last read: clock, width
inline constexpr uint32_t line_byte_r_clock_bits([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return clock_bits; }
// bits of one byte record
inline constexpr uint32_t line_byte_bits([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 1 + slot_bits + clock_bits + slot_bits + clock_bits; }
inline constexpr uint32_t line_byte_count = 8;  // byte records per line
// the state of byte b of the granule (record k at lo + k * line_byte_bits): offset
inline constexpr uint32_t line_byte_lo([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 1; }
// bytes whose reads are the line's read clock (read-VC pool) (0 bits without a read-VC pool): offset
inline constexpr uint32_t line_shared_lo([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 1 + 8 * (1 + slot_bits + clock_bits + slot_bits + clock_bits); }
// bytes whose reads are the line's read clock (read-VC pool) (0 bits without a read-VC pool): width
inline constexpr uint32_t line_shared_bits([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return (read_vcs > 0 ? 8 : 0); }
// bits of one line record (cap_line_bits)
inline constexpr uint32_t line_bits([[maybe_unused]] uint32_t slot_bits, [[maybe_unused]] uint32_t clock_bits, [[maybe_unused]] uint32_t read_vcs) { return 1 + 8 * (1 + slot_bits + clock_bits + slot_bits + clock_bits) + (read_vcs > 0 ? 8 : 0); }

}  // namespace raceaccel::regs
