// GENERATED from rtl/regmap/rac_kernel_regs.json by cmake/gen_regmap.cmake. Do not edit.
// Reference as rac_kernel_regs_pkg::Name (no import: Yosys 0.23).
package rac_kernel_regs_pkg;

  localparam int unsigned RegMapVersion = 8;
  localparam logic [31:0] RegMagic = 32'h52414345;

  // Register byte offsets in s_axi_control (64-bit registers: low word here, high word at +4)
  localparam logic [11:0] AddrCtrl = 12'h0;  // bit0 ap_start, bit1 ap_done (clear on read), bit2 ap_idle, bit3 ap_ready (clear on read)
  localparam logic [11:0] AddrGie = 12'h4;  // bit0 global interrupt enable
  localparam logic [11:0] AddrIer = 12'h8;  // bit0 ap_done interrupt enable, bit1 ap_ready interrupt enable
  localparam logic [11:0] AddrIsr = 12'hc;  // bit0 ap_done, bit1 ap_ready interrupt status (toggle on write 1)
  localparam logic [11:0] AddrCommands = 12'h10;  // device address of the command words (16-byte aligned)
  localparam logic [11:0] AddrCommandWords = 12'h18;  // number of 16-byte command words in this batch
  localparam logic [11:0] AddrFlags = 12'h1c;  // bit0 clear_state: invalidate the metadata cache before the batch (the host zeroes the bucket table)
  localparam logic [11:0] AddrRaces = 12'h20;  // device address of the race-record buffer (64-byte aligned)
  localparam logic [11:0] AddrRaceCapacity = 12'h28;  // race records the buffer holds; must be >= command_words
  localparam logic [11:0] AddrEscalations = 12'h30;  // device address of the escalation-record buffer (64-byte aligned)
  localparam logic [11:0] AddrEscCapacity = 12'h38;  // escalation records the buffer holds; must be >= 2 * command_words without a pool, >= (2 * cap_read_vc_ways + 1) * command_words with one
  localparam logic [11:0] AddrBuckets = 12'h40;  // device address of the metadata bucket table (4 KB aligned; 2^bucket_bits * cap_bucket_ways * 128 bytes)
  localparam logic [11:0] AddrBucketBits = 12'h48;  // the bucket table has 2^bucket_bits buckets of cap_bucket_ways ways of 128 bytes (1..30)
  localparam logic [11:0] AddrStatus = 12'h80;  // 0 ok; otherwise a status code (constants status_*) and the batch stopped
  localparam logic [11:0] AddrRacesWritten = 12'h84;  // race records written by the last batch
  localparam logic [11:0] AddrEscalationsWritten = 12'h88;  // escalation records written by the last batch
  localparam logic [11:0] AddrWordsDone = 12'h8c;  // command words consumed by the last batch
  localparam logic [11:0] AddrStatCycles = 12'h90;  // clock cycles since reset
  localparam logic [11:0] AddrStatBusyCycles = 12'h98;  // cycles with a batch running (ap_start to ap_done), since reset
  localparam logic [11:0] AddrStatCommands = 12'ha0;  // commands executed by the engine
  localparam logic [11:0] AddrStatAccesses = 12'ha8;  // read/write commands
  localparam logic [11:0] AddrStatMisses = 12'hb0;  // metadata cache misses
  localparam logic [11:0] AddrStatWritebacks = 12'hb8;  // dirty lines written back
  localparam logic [11:0] AddrStatEscalations = 12'hc0;  // escalation records other than spills
  localparam logic [11:0] AddrStatSpills = 12'hc8;  // write-backs that found every way of their bucket taken by other granules and went to the host
  localparam logic [11:0] AddrStatRaces = 12'hd0;  // race records
  localparam logic [11:0] AddrCapMagic = 12'he0;  // 0x52414345 ('RACE')
  localparam logic [11:0] AddrCapVersion = 12'he4;  // register map version
  localparam logic [11:0] AddrCapSlots = 12'he8;  // hardware thread slots (NumSlots)
  localparam logic [11:0] AddrCapClockBits = 12'hec;  // bits per clock lane (ClkW)
  localparam logic [11:0] AddrCapSets = 12'hf0;  // metadata cache sets
  localparam logic [11:0] AddrCapWays = 12'hf4;  // metadata cache ways
  localparam logic [11:0] AddrCapLineBits = 12'hf8;  // bits of one line record (LineW)
  localparam logic [11:0] AddrCapObjects = 12'hfc;  // entries of the sync-object clock store (Objects); object indices of ops 4-6 must be below it
  localparam logic [11:0] AddrCapReadVcs = 12'h100;  // entries of the read-VC pool (ReadVcs; 0: none, every READ SHARE goes to the host)
  localparam logic [11:0] AddrCapEscRecordBytes = 12'h104;  // bytes per escalation record: 128 without a pool, else 128 + 64 * ceil(slots * clock_bits / 512) (the read clock at byte 128)
  localparam logic [11:0] AddrCapFeatures = 12'h108;  // optional commands the kernel executes: bit0 import-line (op 7; constant feature_import_line), bit1 atomic accesses (ops 9 and 10; constant feature_atomic_access); 0 on a kernel without them
  localparam logic [11:0] AddrCapBucketWays = 12'h10c;  // ways (128-byte entries) per metadata bucket, a power of two <= 8; a bucket is cap_bucket_ways * 128 bytes, read in one burst
  localparam logic [11:0] AddrCapReadVcWays = 12'h110;  // ways of the read-VC pool (cap_read_vcs / cap_read_vc_ways sets); a line holds up to this many read clocks, each for its own shared bytes (escalation byte 18, op 8); 1: one clock per line, direct-mapped (the version-5 rules)

  // Constants
  localparam int unsigned CtrlStart = 1;  // ctrl bit: ap_start
  localparam int unsigned CtrlDone = 2;  // ctrl bit: ap_done
  localparam int unsigned CtrlIdle = 4;  // ctrl bit: ap_idle
  localparam int unsigned CtrlReady = 8;  // ctrl bit: ap_ready
  localparam int unsigned FlagClearState = 1;  // flags bit: clear the checker state first
  localparam int unsigned CommandBytes = 16;  // bytes per command word
  localparam int unsigned RaceRecordBytes = 64;  // bytes per race record
  localparam int unsigned EscRecordBaseBytes = 128;  // bytes of an escalation record up to its read clock (the whole record when cap_read_vcs = 0; cap_esc_record_bytes)
  localparam int unsigned EscFlagReadClock = 1;  // escalation record byte 17 bit: the read clock at byte 128 is valid
  localparam int unsigned EscClockMaskByte = 18;  // escalation record byte: the shared bytes the read clock at byte 128 covers (0: every shared byte of the line, as on kernels with cap_read_vc_ways 1)
  localparam int unsigned BucketWayBytes = 128;  // bytes per way of a metadata bucket (a bucket is cap_bucket_ways ways)
  localparam int unsigned BucketFilterBits = 64;  // bits of a bucket's spill filter (way 0, bytes 8-15): bit h set when a granule whose filter hash is h was spilled from the bucket
  localparam int unsigned OpRead = 0;  // command op: read of mask bytes of granule
  localparam int unsigned OpWrite = 1;  // command op: write
  localparam int unsigned OpFree = 2;  // command op: the bytes lose their history
  localparam int unsigned OpSetRow = 3;  // command op: the slot's clock row := the data words that follow
  localparam int unsigned OpAcquire = 4;  // command op: the slot's clock row joins sync object granule (C := C join V[obj])
  localparam int unsigned OpRelease = 5;  // command op: sync object granule joins the slot's row, then the slot ticks (V[obj] := V[obj] join C; C[slot] += 1)
  localparam int unsigned OpLoadObject = 6;  // command op: sync object granule := the data words that follow (as set-row)
  localparam int unsigned OpImportLine = 7;  // command op: granule's line := the line in the ceil(LineW / 128) data words that follow (INSOFTWARE clear); mask = the line's shared bytes, and when nonzero (a kernel with a pool) the line's read clock follows in set-row layout and takes the granule's pool entry; only on kernels with feature_import_line
  localparam int unsigned OpImportReadClock = 8;  // command op: the bytes in mask of granule's line (on chip, just imported) become shared with the read clock in the set-row data words that follow, which takes a way of the granule's pool set; only on kernels with cap_read_vc_ways > 1
  localparam int unsigned OpAtomicRead = 9;  // command op: the atomic read of mask bytes of granule (an atomic load): checked against the line's last plain write only, never recorded (the host keeps the atomic history); only on kernels with feature_atomic_access
  localparam int unsigned OpAtomicWrite = 10;  // command op: the atomic write of mask bytes of granule (an atomic store or RMW, which also reads): checked against the line's last plain write and its plain reads, never recorded; only on kernels with feature_atomic_access
  localparam int unsigned FeatureImportLine = 1;  // cap_features bit: op 7 import-line is executed
  localparam int unsigned FeatureAtomicAccess = 2;  // cap_features bit: ops 9 and 10 (atomic read, atomic write) are executed
  localparam int unsigned ReasonInSoftware = 0;  // escalation: the line is owned by the host
  localparam int unsigned ReasonReadShare = 1;  // escalation: reads became concurrent; the line goes to the host
  localparam int unsigned ReasonForced = 2;  // escalation: the command asked for it (thread without a slot)
  localparam int unsigned ReasonReclaim = 3;  // escalation: a full free returned a host-owned line to hardware
  localparam int unsigned ReasonSpill = 4;  // escalation: an evicted line found every way of its bucket taken; the host keeps it
  localparam int unsigned ReasonReadVcSpill = 5;  // escalation: another line took the granule's read-VC pool entry; its read clock goes to the host, the line becomes LASTWRITE
  localparam int unsigned ReasonPartialReadVcSpill = 6;  // escalation (several read clocks per line): a clock of the reads made since the bytes it names lost their clock to the host (reason 5) leaves the pool; the host joins it into the clock it keeps for those bytes
  localparam int unsigned StatusOk = 0;  // batch completed
  localparam int unsigned StatusBadOp = 1;  // a command word had a reserved op, an out-of-range slot or an out-of-range object index
  localparam int unsigned StatusBadArgs = 2;  // capacities too small, bucket_bits out of range or a misaligned buffer
  localparam int unsigned StatusTruncated = 3;  // the batch ended inside a set-row or load-object command's data words
  localparam int unsigned StatusBusError = 4;  // a device-memory access was answered with SLVERR or DECERR; the batch stopped at a word boundary; status bits 8-11 name the ports (constants status_bus_error_*); the host must start again with clear_state
  localparam int unsigned StatusBusErrorCmd = 256;  // status bit: m_axi_cmd read error
  localparam int unsigned StatusBusErrorRace = 512;  // status bit: m_axi_race write error
  localparam int unsigned StatusBusErrorEsc = 1024;  // status bit: m_axi_esc write error
  localparam int unsigned StatusBusErrorMeta = 2048;  // status bit: m_axi_meta read or write error

  // The bucket hash (docs/kernel-interface.md, "Metadata bucket table"):
  // state {x, y} := {0, granule}; BucketHashRounds rounds of
  // x := (rotr(x, 8) + y) ^ (BucketHashKey ^ round), y := rotl(y, 3) ^ x.
  // Bucket: the low bucket_bits bits of y; spill-filter bit: the low 6 bits of x.
  localparam int unsigned BucketHashRounds = 4;
  localparam logic [31:0] BucketHashKey = 32'd1013904242;
  function automatic logic [31:0] BucketHashX(input logic [63:0] s, input logic [31:0] round);
    BucketHashX = ({s[7+32:32], s[63:8+32]} + s[31:0]) ^ (BucketHashKey ^ round);
  endfunction
  function automatic logic [63:0] BucketHashRound(input logic [63:0] s, input logic [31:0] round);
    BucketHashRound = {BucketHashX(s, round), {s[28:0], s[31:29]} ^ BucketHashX(s, round)};
  endfunction

endpackage
