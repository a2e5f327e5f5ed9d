// FastTrack check engine with a set-associative metadata cache.
//
// Commands arrive in trace order on a valid/ready stream:
//   OpRead / OpWrite  an access by thread slot `slot` to the bytes `mask` of
//                     the 8-byte granule `granule`, trace position `seq`
//   OpFree            the bytes `mask` of `granule` lose their history
//   OpSetRow          C_slot := row (the host keeps synchronization
//                     exact in software and mirrors thread clocks here)
//   OpAcquire         C_slot := C_slot ⊔ V[obj]       (obj = granule's low bits)
//   OpRelease         V[obj] := V[obj] ⊔ C_slot; C_slot[slot] += 1
//   OpLoadObj         V[obj] := row
//   OpImportLine      the host hands back a line it owns: looked up as an
//                     access (a miss evicts and fills), then the line :=
//                     `line` with INSOFTWARE clear and shared = `mask`;
//                     shared bytes take a way of the granule's pool set
//                     with the clock `row` (another granule's clock there
//                     leaves in a read-clock spill record)
//   OpImportLine with cmd_atomic_i (op 8, import-read-clock; ReadVcWays > 1)
//                     the bytes `mask` of the line just imported become
//                     shared with the clock `row`, in a way of the
//                     granule's pool set
// V is the sync-object clock store: Objects vector clocks on chip, managed
// by the host (which places lock clocks in it, reloads them after evictions
// and always knows their exact value, so nothing is ever written back).
//
// Each cache line holds one granule: per byte the last-write epoch W, the
// last-read epoch R and a "raced" flag, a mask of "shared" bytes, and the
// line's in-hardware status. Bytes whose reads became concurrent (shared)
// keep one read vector clock, common to the line's shared bytes, in the
// read-VC pool: ReadVcs clocks on chip, direct-mapped by the granule's cache
// set and tagged with the granule, held only while the line is in the cache
// (an evicted line's clock is spilled to the host). With ReadVcWays > 1
// (register map versions 6 and 8) the pool is set-associative: ReadVcs /
// ReadVcWays sets of ReadVcWays ways, each entry tagged with a granule, the
// shared bytes it covers and whether it is partial (the reads since those
// bytes' clock went to the host), so a line holds up to ReadVcWays clocks;
// reads split a clock they read on some of its bytes only, READ SHAREs take
// a new way beside the line's other clocks, and a concurrent read of
// LASTWRITE bytes starts a partial clock (docs/kernel-interface.md,
// "Several read clocks per line" and "Partial read clocks"). Status
// (RADISH): EVERYTHING (W and every last read on chip),
// LASTWRITE (W on chip; the shared bytes' read clock left the pool for the
// host, and R now holds only the latest read since), INSOFTWARE (the host
// owns the line). What the hardware cannot decide exactly is escalated with
// the line's state (and its read clock, if on chip), never guessed. Misses
// fill from, and dirty evictions write to, a backing store in host-owned
// memory (one LineW-bit record per granule).
//
// Pipeline (one command per cycle on hits):
//   SN  the next command: the input register, with the set index folded as
//       the command arrives (every RAM read address is a register or a
//       register-selected mux of registers)
//   S0  registered reads of the tag, line, clock-row, sync-object and pool
//       RAMs at SN's indices, or S0's own again when S0 surely keeps its
//       command (a re-read: replay when the guess was wrong)
//   S1  way select, with the hit vector (tag compare) and the victim chosen
//       as the command entered (registered); misses (evict, fill) wait
//       here until S2 and S3 are empty, then block the pipeline
//   S2  the thread's own clock, the 16 epoch checks (lane select and
//       compare) and the read clock against the thread's row, and per byte
//       the pool facts S3's rules need; sync ops (join, tick) and their row
//       and object writes
//   S3  the FastTrack rules on all 8 bytes and the status rules; line and
//       pool writes (the only ones besides fills and S2's) and records
// Two commands to one line behave as if processed one after another: every
// stage's copy of what it read is patched by each array write it could have
// missed (the write at the edge of the RAM read and at the edge it leaves
// S0, and every write while it waits in S1 or S2), and an access waits in S2
// while the access in S3 may write its line or its pool set (rare: it
// then re-selects with the new values).
// Sets, Ways, Objects, ReadVcs and ReadVcWays must be powers of two. See
// docs/hardware.md ("The read-VC pool", "Several read clocks per line in
// the RTL", "RTL blocks").
//
// Blocks: the arrays, their post-reset sweep and the forwarding of S0's
// reads are in rac_engine_store (RAM-IO ports in array indices); every
// other stage's patch of what it holds is a rac_patch_comb; S2's per-byte
// epoch checks are rac_byte_check_comb and S3's per-byte FastTrack rules
// rac_byte_rules_comb, eight of each. This module keeps the pipeline
// registers, the miss FSM, the line-wide rules, pool management, records
// and statistics, in banner sections; assertions and cover points at the
// bottom.
`include "rac_assert.svh"

module rac_check_engine #(
  parameter int unsigned NumSlots   = 8,   // hardware thread slots
  parameter int unsigned ClkW       = 16,  // clock width
  parameter int unsigned Sets       = 64,
  parameter int unsigned Ways       = 4,
  parameter int unsigned ReplPolicy = 0,   // 0: round-robin per set, 1: pseudo-random (LFSR)
  parameter int unsigned GranW      = 61,  // granule address width (64-bit byte addresses >> 3)
  parameter int unsigned SeqW       = 64,
  parameter int unsigned Objects    = 64,  // sync-object clocks on chip (power of two)
  parameter int unsigned ReadVcs    = 64,  // read vector clocks on chip (0: none, or a power of two)
  parameter int unsigned ReadVcWays = 1,   // ways per pool set: read clocks a line may hold (power of two <= 8)
  // Derived
  parameter int unsigned SlotW  = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  // The line layout's one source is rtl/regmap/rac_kernel_regs.json
  // (rac_line_layout_pkg, generated; the host's decoders use the same).
  parameter int unsigned ByteW  = rac_line_layout_pkg::LineByteBits(SlotW, ClkW, ReadVcs),
  parameter int unsigned LineW  = rac_line_layout_pkg::LineBits(SlotW, ClkW, ReadVcs),
  parameter int unsigned SetW   = (Sets > 1) ? $clog2(Sets) : 1,
  parameter int unsigned WayW   = (Ways > 1) ? $clog2(Ways) : 1,
  parameter int unsigned RowW   = NumSlots * ClkW,
  parameter int unsigned ObjW   = (Objects > 1) ? $clog2(Objects) : 1
) (
  input  logic                 clk_i,
  input  logic                 rst_i,

  // Command stream
  input  logic                 cmd_valid_i,
  output logic                 cmd_ready_o,
  input  logic [2:0]           cmd_op_i,
  input  logic                 cmd_force_sw_i,  // escalate regardless of state (thread without a slot)
  input  logic                 cmd_atomic_i,    // OpRead/OpWrite: the access part of an atomic operation
                                                // (ops 9-10): checked against the plain history only,
                                                // nothing recorded but raced flags; OpImportLine: op 8,
                                                // import-read-clock (only the clock `row` for `mask`)
  input  logic [SlotW-1:0]     cmd_slot_i,
  input  logic [7:0]           cmd_mask_i,
  input  logic [GranW-1:0]     cmd_granule_i,
  input  logic [SeqW-1:0]      cmd_seq_i,
  input  logic [RowW-1:0]      cmd_row_i,       // OpSetRow/OpLoadObj: a clock, lane i at [i*ClkW +: ClkW]
                                                // (OpImportLine: the shared bytes' read clock)
  input  logic [LineW-1:0]     cmd_line_i,      // OpImportLine: the line (its INSOFTWARE and shared bits ignored)

  // Race records: one per access that raced on at least one byte
  output logic                 race_valid_o,
  input  logic                 race_ready_i,
  output logic [SeqW-1:0]      race_seq_o,
  output logic [GranW-1:0]     race_granule_o,
  output logic [7:0]           race_mask_o,        // bytes that raced
  output logic [15:0]          race_kinds_o,       // per byte: 0 write-write, 1 write-read, 2 read-write
  output logic [8*SlotW-1:0]   race_prev_slots_o,  // per byte: the earlier access's epoch
  output logic [8*ClkW-1:0]    race_prev_clks_o,

  // Escalations: the host checks the command in software
  output logic                 esc_valid_o,
  input  logic                 esc_ready_i,
  output logic [SeqW-1:0]      esc_seq_o,
  output logic [2:0]           esc_reason_o,  // rac_pkg::Esc*
  output logic [GranW-1:0]     esc_granule_o,
  output logic [LineW-1:0]     esc_line_o,    // the line's state before the command
  output logic                 esc_rvc_valid_o,  // the shared bytes' read clock comes with it
  output logic [RowW-1:0]      esc_rvc_o,        // (EscReadVcSpill: always; its line is zero)
  output logic [7:0]           esc_rvc_mask_o,   // the shared bytes that clock covers (0 with ReadVcWays 1: all)

  // Backing store: one request at a time. A write-back counts as done only
  // when mem_wack_i acknowledges it, so the fill that follows can never
  // overtake it (AXI orders neither reads against writes).
  output logic                 mem_req_valid_o,
  input  logic                 mem_req_ready_i,
  output logic                 mem_req_write_o,
  output logic [GranW-1:0]     mem_req_granule_o,
  output logic [LineW-1:0]     mem_req_data_o,
  output logic [SeqW-1:0]      mem_req_seq_o,   // the command whose miss made the request
  input  logic                 mem_wack_i,
  input  logic                 mem_rsp_valid_i,
  input  logic [LineW-1:0]     mem_rsp_data_i,
  // A fill is installed (granule mem_req_granule_o) into this way of its set:
  // the kernel's miss-ahead unit keeps a shadow of the tags from these.
  output logic                 fill_install_o,
  output logic [WayW-1:0]      fill_way_o,

  // Statistics
  output logic [63:0]          stat_cycles_o,
  output logic [63:0]          stat_commands_o,
  output logic [63:0]          stat_accesses_o,
  output logic [63:0]          stat_misses_o,
  output logic [63:0]          stat_writebacks_o,
  output logic [63:0]          stat_escalations_o,
  output logic                 idle_o
);

  // Commands
  localparam logic [2:0] OpRead = 3'd0, OpWrite = 3'd1, OpFree = 3'd2, OpSetRow = 3'd3;
  localparam logic [2:0] OpAcquire = 3'd4, OpRelease = 3'd5, OpLoadObj = 3'd6, OpImportLine = 3'd7;
  localparam int unsigned TagW = GranW - ((Sets > 1) ? SetW : 0);
  // Byte-state fields (offsets within a byte state; rac_line_layout_pkg)
  localparam int unsigned RacedBit = rac_line_layout_pkg::LineByteRacedLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned WSlotLo  = rac_line_layout_pkg::LineByteWSlotLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned WClkLo   = rac_line_layout_pkg::LineByteWClockLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned RSlotLo  = rac_line_layout_pkg::LineByteRSlotLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned RClkLo   = rac_line_layout_pkg::LineByteRClockLo(SlotW, ClkW, ReadVcs);
  // Line layout: INSOFTWARE, then 8 bytes of ByteW bits from ByteLo (the
  // body, below SharedLo); with a read-VC pool, then the shared-byte mask
  // (the static assertions at the bottom check the layout has this shape).
  localparam int unsigned InSwBit  = rac_line_layout_pkg::LineInSoftwareLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned ByteLo   = rac_line_layout_pkg::LineByteLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned SharedLo = rac_line_layout_pkg::LineSharedLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned BodyW  = SharedLo;
  localparam int unsigned PoolOn = (ReadVcs > 0) ? 1 : 0;
  localparam int unsigned RvcN   = (ReadVcs > 0) ? ReadVcs : 1;
  localparam int unsigned RvcWays = (ReadVcs > 0 && ReadVcWays > 1) ? ReadVcWays : 1;
  localparam int unsigned Multi   = (RvcWays > 1) ? 1 : 0;  // several read clocks per line
  localparam int unsigned PsN     = RvcN / RvcWays;  // pool sets
  localparam int unsigned RvcW    = (PsN > 1) ? $clog2(PsN) : 1;  // a pool set's index
  localparam int unsigned RWayW   = (RvcWays > 1) ? $clog2(RvcWays) : 1;
  // A pool entry's tag: {valid, partial, mask[8], granule}. (Not a package
  // function: a function in rac_pkg makes Verilator -Wall report the
  // package's unused constants in every model that reads it.)
  localparam int unsigned PTagW    = GranW + 10;
  localparam int unsigned PMaskLo  = GranW;
  localparam int unsigned PPartBit = GranW + 8;
  localparam int unsigned PValBit  = GranW + 9;
  // The words the forwarding patches: a cache way {valid, dirty, tag, line},
  // a pool way {tag, clock}.
  localparam int unsigned WayDataW  = 2 + TagW + LineW;
  localparam int unsigned PoolDataW = PTagW + RowW;

  // ---------------------------------------------------------------------------
  // Index functions
  // ---------------------------------------------------------------------------
  // A granule's tag is its high address bits; its set is the low bits XORed
  // with the tag folded to SetW bits, so that regions at power-of-two
  // strides (per-thread stacks, arrays of structs) spread over all sets.
  // The fold is invertible given the tag: a write-back recovers the granule.
  /* verilator lint_off UNUSEDSIGNAL */
  // Folded bits enter the index bit-reversed: the low tag bits (the ones
  // that vary between nearby objects) then land on the high set bits and
  // cannot cancel the low address bits, as a plain XOR fold would for
  // strided layouts such as an array of 256-byte lock-protected structs.
  function automatic logic [SetW-1:0] fold(input logic [TagW-1:0] t);
    fold = '0;
    for (int i = 0; i < TagW; i++) fold[SetW - 1 - (i % SetW)] = fold[SetW - 1 - (i % SetW)] ^ t[i];
  endfunction
  function automatic logic [TagW-1:0] tag_of(input logic [GranW-1:0] g);
    tag_of = g[GranW-1 -: TagW];
  endfunction
  function automatic logic [SetW-1:0] set_of(input logic [GranW-1:0] g);
    set_of = (Sets > 1) ? (g[SetW-1:0] ^ fold(tag_of(g))) : '0;
  endfunction
  function automatic logic [ObjW-1:0] obj_of(input logic [GranW-1:0] g);
    obj_of = (Objects > 1) ? g[ObjW-1:0] : '0;
  endfunction
  // The pool set of a granule is the low bits of its cache set (ReadVcs /
  // ReadVcWays <= Sets): a miss's victim then shares the missing command's
  // pool set, which S1 already holds, so an evicted line's clocks can leave
  // the pool with it.
  function automatic logic [RvcW-1:0] rvc_of_set(input logic [SetW-1:0] s);
    rvc_of_set = '0;
    if (PsN > 1) rvc_of_set = s[RvcW-1:0];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  // A line's shared-byte mask (none without a pool).
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [7:0] shared_of(input logic [LineW-1:0] l);
    shared_of = '0;
    if (PoolOn != 0) shared_of = l[LineW-1 -: 8];  // SharedLo +: 8 (LineSharedAtTop), in range without a pool too
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  function automatic logic is_access_op(input logic [2:0] op);
    is_access_op = op == OpRead || op == OpWrite || op == OpFree;
  endfunction
  // Commands that look their granule up in the cache (a miss evicts and
  // fills) and write its line in S3: the accesses and the import.
  function automatic logic is_lookup_op(input logic [2:0] op);
    is_lookup_op = is_access_op(op) || op == OpImportLine;
  endfunction
  // The ways of a pool set (tags as S1-S3 hold them) that hold a clock of
  // granule g.
  function automatic logic [RvcWays-1:0] pool_hits(input logic [RvcWays*PTagW-1:0] t, input logic [GranW-1:0] g);
    for (int w = 0; w < RvcWays; w++) begin
      pool_hits[w] = t[w*PTagW + PValBit] && t[w*PTagW +: GranW] == g;
    end
  endfunction
  // The lowest set bit's way (0 if none).
  function automatic logic [RWayW-1:0] lowest_way(input logic [RvcWays-1:0] m);
    lowest_way = '0;
    for (int w = RvcWays - 1; w >= 0; w--) begin
      if (m[w]) lowest_way = w[RWayW-1:0];
    end
  endfunction
  function automatic logic [RvcWays-1:0] way_bit(input logic [RWayW-1:0] w);
    way_bit = '0;
    for (int i = 0; i < RvcWays; i++) begin
      if (w == i[RWayW-1:0]) way_bit[i] = 1'b1;
    end
  endfunction
  // Byte states (byte b at [b*ByteW +: ByteW]) with the R epochs of the
  // bytes in m cleared: their reads are now a read clock's.
  function automatic logic [8*ByteW-1:0] without_reads(input logic [8*ByteW-1:0] bytes, input logic [7:0] m);
    without_reads = bytes;
    for (int b = 0; b < 8; b++) begin
      if (m[b]) without_reads[b*ByteW + RSlotLo +: SlotW + ClkW] = '0;  // RClkLo == RSlotLo + SlotW
    end
  endfunction
  function automatic logic writes_row(input logic [2:0] op);
    writes_row = op == OpSetRow || op == OpAcquire || op == OpRelease;
  endfunction
  function automatic logic writes_obj(input logic [2:0] op);
    writes_obj = op == OpRelease || op == OpLoadObj;
  endfunction

  // ---------------------------------------------------------------------------
  // The array write ports. Lines are written by S3 (commits) and by S1
  // (installing a fill, only while S2 and S3 are empty); rows, sync objects
  // and pool entries by S3 only. Every stage patches its copies with them.
  // ---------------------------------------------------------------------------
  logic             wr_en;
  logic [GranW-1:0] wr_gran;
  logic [WayW-1:0]  wr_way;
  logic             wr_dirty;
  logic [LineW-1:0] wr_line;
  logic             row_wr_en;
  logic             row_wr_due, obj_wr_due;  // S2 holds a row (object) write: it lands as S2 moves on
  logic [SlotW-1:0] row_wr_slot;
  logic [RowW-1:0]  row_wr_data;
  logic             obj_wr_en;
  logic [GranW-1:0] obj_wr_gran;
  logic [RowW-1:0]  obj_wr_data;
  // The pool is written a pool set at a time (rvc_wr_pset), each
  // way on its own port: one command may free, narrow, raise and take
  // several of its set's ways at once.
  logic [RvcWays-1:0]       rvc_wr_en;
  logic [RvcWays*PTagW-1:0] rvc_wr_tag;
  logic [RvcWays*RowW-1:0]  rvc_wr_vc;
  // The writes in array indices (the arrays' keys, also for every stage's
  // forwarding), and as the words the forwarding patches in: a cache way's
  // {valid, dirty, tag, line}, a pool way's {tag, clock}.
  logic [SetW-1:0]              wr_set;
  logic [Ways-1:0]              wr_ways;  // the way written (one-hot)
  logic [WayDataW-1:0]          wr_way_data;
  logic [ObjW-1:0]              obj_wr_idx;
  logic [RvcW-1:0]              rvc_wr_pset;
  logic [RvcWays*PoolDataW-1:0] rvc_wr_data;
  assign wr_way_data = {1'b1, wr_dirty, tag_of(wr_gran), wr_line};
  assign obj_wr_idx  = obj_of(obj_wr_gran);
  for (genvar w = 0; w < Ways; w++) begin : g_wr_way
    assign wr_ways[w] = wr_en && wr_way == w[WayW-1:0];
  end
  for (genvar w = 0; w < RvcWays; w++) begin : g_rvc_wr_data
    assign rvc_wr_data[w*PoolDataW +: PoolDataW] = {rvc_wr_tag[w*PTagW +: PTagW], rvc_wr_vc[w*RowW +: RowW]};
  end

  // ---------------------------------------------------------------------------
  // SN: the next command (the engine's input register)
  // ---------------------------------------------------------------------------
  // A command is taken into SN with its array indices computed from the
  // command (the set fold) and registered, so every array read address is a
  // register or a mux of registers chosen by registers: no path from the
  // valid/ready chain (S1's tag compare, S2's hazard, S3's record registers
  // and their ready inputs) reaches a RAM address or enable.
  logic                 nx_valid_q;
  logic [2:0]           nx_op_q;
  logic                 nx_force_q;
  logic                 nx_atomic_q;
  logic [SlotW-1:0]     nx_slot_q;
  logic [7:0]           nx_mask_q;
  logic [GranW-1:0]     nx_gran_q;
  logic [SeqW-1:0]      nx_seq_q;
  logic [RowW-1:0]      nx_crow_q;
  logic [LineW-1:0]     nx_cline_q;
  logic [SetW-1:0]      nx_set_q;  // set_of(nx_gran_q), folded as the command arrived

  // ---------------------------------------------------------------------------
  // S0: the command whose array reads are registered (rac_engine_store)
  // ---------------------------------------------------------------------------
  // The arrays are read at every edge, at the indices of SN's command (the
  // command expected in S0 after the edge) unless S0 will surely still hold
  // its own: then S0 re-reads its indices. "Surely" is decided from
  // registers alone: S0's data is not valid yet (it is being re-read), SN is
  // empty, S1 is in its miss FSM (it takes nothing before its miss is
  // done), or S2 waits on S3 (hz_pred_q: S2's hazard, predicted a cycle
  // ahead). When S0 stalls for another reason (S1's miss starting, a
  // record S3 cannot hand on), SN's
  // read has replaced S0's: S0 re-reads (replay) and moves on a cycle
  // later. A wrong guess either way costs a cycle, never a wrong read:
  // s0_rd_ok_q says whose indices the last edge read.
  logic                 s0_valid_q;
  logic                 s0_rd_ok_q;  // the last edge's reads were at S0's indices
  logic [2:0]           s0_op_q;
  logic                 s0_force_q;
  logic                 s0_atomic_q;
  logic [SlotW-1:0]     s0_slot_q;
  logic [7:0]           s0_mask_q;
  logic [GranW-1:0]     s0_gran_q;
  logic [SeqW-1:0]      s0_seq_q;
  logic [RowW-1:0]      s0_crow_q;
  logic [LineW-1:0]     s0_cline_q;  // OpImportLine's line, carried to S3 (the import's only use of it)
  logic [SetW-1:0]      s0_set_q;

  logic s1_ready;    // S1 takes a new command at the coming edge
  logic hz_pred_q;   // S2 surely waits on S3 in this cycle (its hazard, predicted)
  logic s1_stuck;    // S1 surely takes nothing at the coming edge (registers only)
  logic s0_offer;    // S0 holds a command with its reads
  logic s0_ready, nx_advance, rd_s0;
  logic store_init;  // the store's post-reset sweep (it invalidates every way) runs
  assign s0_offer    = s0_valid_q && s0_rd_ok_q;
  assign s0_ready    = !s0_valid_q || (s0_rd_ok_q && s1_ready);
  assign nx_advance  = nx_valid_q && s0_ready;
  assign cmd_ready_o = !store_init && (!nx_valid_q || s0_ready);
  assign rd_s0       = s0_valid_q && (!s0_rd_ok_q || !nx_valid_q || s1_stuck);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      nx_valid_q <= 1'b0;
    end else if (cmd_ready_o) begin
      nx_valid_q <= cmd_valid_i;
    end
    if (cmd_ready_o && cmd_valid_i) begin
      nx_op_q     <= cmd_op_i;
      nx_force_q  <= cmd_force_sw_i;
      nx_atomic_q <= cmd_atomic_i;
      nx_slot_q   <= cmd_slot_i;
      nx_mask_q   <= cmd_mask_i;
      nx_gran_q   <= cmd_granule_i;
      nx_seq_q    <= cmd_seq_i;
      nx_crow_q   <= cmd_row_i;
      nx_cline_q  <= cmd_line_i;
      nx_set_q    <= set_of(cmd_granule_i);
    end
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s0_valid_q <= 1'b0;
      s0_rd_ok_q <= 1'b0;
    end else begin
      if (s0_ready) s0_valid_q <= nx_valid_q;
      // The reads of this edge are S0's command's when it re-reads and
      // keeps its command, or when it reads SN's indices and SN's command
      // moves in.
      s0_rd_ok_q <= nx_advance ? !rd_s0 : rd_s0;
    end
    if (nx_advance) begin
      s0_op_q     <= nx_op_q;
      s0_force_q  <= nx_force_q;
      s0_atomic_q <= nx_atomic_q;
      s0_slot_q   <= nx_slot_q;
      s0_mask_q   <= nx_mask_q;
      s0_gran_q   <= nx_gran_q;
      s0_seq_q    <= nx_seq_q;
      s0_crow_q   <= nx_crow_q;
      s0_cline_q  <= nx_cline_q;
      s0_set_q    <= nx_set_q;
    end
  end

  // The read indices for the coming edge: registers, chosen by a register
  // function.
  logic [SetW-1:0]  rd_set;
  logic [SlotW-1:0] rd_slot;
  logic [GranW-1:0] rd_gran;
  assign rd_set  = rd_s0 ? s0_set_q : nx_set_q;
  assign rd_slot = rd_s0 ? s0_slot_q : nx_slot_q;
  assign rd_gran = rd_s0 ? s0_gran_q : nx_gran_q;

  // The arrays (rac_engine_store), reached in array indices: the reads for
  // the coming edge at rd_*, forwarded at the indices S0 holds, so the view
  // S0's command takes into S1 (when its reads are its own) is the
  // registered read, then the write of the last edge, then the write of
  // this cycle.
  logic [Ways*TagW-1:0]  in_tag;
  logic [Ways-1:0]       in_valid, in_dirty;
  logic [Ways-1:0]       s0_hitv;  // S0's command's hits, for s1_hitv_q (below)
  logic [Ways*LineW-1:0] in_line;
  logic [RowW-1:0]       in_row, in_obj;
  logic [RvcWays*RowW-1:0]  in_rvc;
  logic [RvcWays*PTagW-1:0] in_rvc_tag;
  rac_engine_store #(
    .NumSlots(NumSlots),
    .ClkW    (ClkW),
    .Sets    (Sets),
    .Ways    (Ways),
    .Objects (Objects),
    .PoolSets(PsN),
    .PoolWays(RvcWays),
    .TagW    (TagW),
    .LineW   (LineW),
    .PTagW   (PTagW)
  ) u_store (
    .clk_i        (clk_i),
    .rst_i        (rst_i),
    .init_o       (store_init),
    .rd_set_i     (rd_set),
    .rd_slot_i    (rd_slot),
    .rd_obj_i     (obj_of(rd_gran)),
    .rd_pset_i    (rvc_of_set(rd_set)),
    .s0_set_i     (s0_set_q),
    .s0_slot_i    (s0_slot_q),
    .s0_obj_i     (obj_of(s0_gran_q)),
    .s0_pset_i    (rvc_of_set(s0_set_q)),
    .tag_o        (in_tag),
    .valid_o      (in_valid),
    .dirty_o      (in_dirty),
    .hit_tag_i    (tag_of(s0_gran_q)),
    .hit_last_o   (s0_hitv),
    .line_o       (in_line),
    .row_o        (in_row),
    .obj_o        (in_obj),
    .rvc_tag_o    (in_rvc_tag),
    .rvc_o        (in_rvc),
    .wr_ways_i    (wr_ways),
    .wr_set_i     (wr_set),
    .wr_tag_i     (tag_of(wr_gran)),
    .wr_dirty_i   (wr_dirty),
    .wr_line_i    (wr_line),
    .row_wr_en_i  (row_wr_en),
    .row_wr_slot_i(row_wr_slot),
    .row_wr_data_i(row_wr_data),
    .obj_wr_en_i  (obj_wr_en),
    .obj_wr_idx_i (obj_wr_idx),
    .obj_wr_data_i(obj_wr_data),
    .rvc_wr_en_i  (rvc_wr_en),
    .rvc_wr_pset_i(rvc_wr_pset),
    .rvc_wr_tag_i (rvc_wr_tag),
    .rvc_wr_vc_i  (rvc_wr_vc)
  );

  // ---------------------------------------------------------------------------
  // S1: lookup (tag compare, way select, victim choice)
  // ---------------------------------------------------------------------------
  typedef enum logic [2:0] {
    S1Idle, S1Exec, S1EvSpill, S1WbReq, S1WbWait, S1FillReq, S1FillWait
  } s1_state_e;
  s1_state_e s1_state_q, s1_state_d;

  logic                 s1_valid_q;
  logic [2:0]           s1_op_q;
  logic                 s1_force_q;
  logic                 s1_atomic_q;
  logic [SlotW-1:0]     s1_slot_q;
  logic [7:0]           s1_mask_q;
  logic [GranW-1:0]     s1_gran_q;
  logic [SeqW-1:0]      s1_seq_q;
  logic [RowW-1:0]      s1_crow_q;
  logic [LineW-1:0]     s1_cline_q;
  // S1's copy of its set, its thread's clock row, its sync object and its
  // pool set, patched by every write while it waits.
  logic [Ways*TagW-1:0]  s1_tag_q;
  logic [Ways-1:0]       s1_tvalid_q, s1_dirty_q;
  logic [Ways*LineW-1:0] s1_line_q;
  logic [RowW-1:0]       s1_row_q;
  logic [RowW-1:0]       s1_obj_q;
  logic [RvcWays*PTagW-1:0] s1_rvc_tag_q;  // per way {valid, partial, mask, granule}
  logic [RvcWays*RowW-1:0]  s1_rvc_q;
  logic [SetW-1:0]       s1_set_q;
  // The way a miss of S1's command evicts, chosen as the command entered S1
  // (from S0's view of the set's valid bits and the set's replacement
  // state): while it waits nothing but its own install changes either.
  logic [WayW-1:0]       s1_victim_q;
  logic                  s1_victim_free_q;  // s1_victim_q is an invalid way
  // The ways holding S1's granule, compared in S0 (on S0's view of the set)
  // as the command enters S1, so the miss decision and the ready chain do
  // not wait on a tag compare. Only S1's own install changes them while it
  // waits: a commit rewrites the way its command hit with the same tag, and
  // a fill is installed only with S2 and S3 empty (HitVectorHeld checks it).
  logic [Ways-1:0]       s1_hitv_q;

  // What S1 holds with the writes of this edge (rac_patch_comb, keyed by
  // S1's indices): S1 takes it while it waits, and S2 takes S1's row, sync
  // object and pool set from here when the command moves on.
  logic [Ways*WayDataW-1:0]     s1_ways_held, s1_ways_now;
  logic [RvcWays*PoolDataW-1:0] s1_pool_held, s1_pool_now;
  logic [Ways*TagW-1:0]         s1_tag_now;
  logic [Ways-1:0]              s1_tvalid_now, s1_dirty_now;
  logic [Ways*LineW-1:0]        s1_line_now;
  logic [RowW-1:0]              s1_row_now, s1_obj_now;
  logic [RvcWays*PTagW-1:0]     s1_rvc_tag_now;
  logic [RvcWays*RowW-1:0]      s1_rvc_now;
  for (genvar w = 0; w < Ways; w++) begin : g_s1_way
    assign s1_ways_held[w*WayDataW +: WayDataW] =
        {s1_tvalid_q[w], s1_dirty_q[w], s1_tag_q[w*TagW +: TagW], s1_line_q[w*LineW +: LineW]};
    assign {s1_tvalid_now[w], s1_dirty_now[w], s1_tag_now[w*TagW +: TagW], s1_line_now[w*LineW +: LineW]} =
        s1_ways_now[w*WayDataW +: WayDataW];
  end
  for (genvar w = 0; w < RvcWays; w++) begin : g_s1_pool_way
    assign s1_pool_held[w*PoolDataW +: PoolDataW] = {s1_rvc_tag_q[w*PTagW +: PTagW], s1_rvc_q[w*RowW +: RowW]};
    assign {s1_rvc_tag_now[w*PTagW +: PTagW], s1_rvc_now[w*RowW +: RowW]} = s1_pool_now[w*PoolDataW +: PoolDataW];
  end
  rac_patch_comb #(.KeyW(SetW), .DataW(WayDataW), .Lanes(Ways), .OneWord(1)) u_s1_ways (
    .held_i(s1_ways_held), .key_i(s1_set_q),
    .wr_en_i(wr_ways), .wr_key_i(wr_set), .wr_data_i(wr_way_data), .patched_o(s1_ways_now)
  );
  // S1's row and sync object take S2's write as soon as S2 holds it, not
  // when it lands (row_wr_due, obj_wr_due: registers, not s2_advance and
  // its ready chain): S2's write data and index are functions of S2's
  // registers, which do not change while S2 waits (only S2 writes rows and
  // objects), and S1's command moves on only with or after S2's
  // (S1MovesBehindS2), so what S1 passes on is the same.
  rac_patch_comb #(.KeyW(SlotW), .DataW(RowW)) u_s1_row (
    .held_i(s1_row_q), .key_i(s1_slot_q),
    .wr_en_i(row_wr_due), .wr_key_i(row_wr_slot), .wr_data_i(row_wr_data), .patched_o(s1_row_now)
  );
  rac_patch_comb #(.KeyW(ObjW), .DataW(RowW)) u_s1_obj (
    .held_i(s1_obj_q), .key_i(obj_of(s1_gran_q)),
    .wr_en_i(obj_wr_due), .wr_key_i(obj_wr_idx), .wr_data_i(obj_wr_data), .patched_o(s1_obj_now)
  );
  rac_patch_comb #(.KeyW(RvcW), .DataW(PoolDataW), .Lanes(RvcWays)) u_s1_pool (
    .held_i(s1_pool_held), .key_i(rvc_of_set(s1_set_q)),
    .wr_en_i(rvc_wr_en), .wr_key_i(rvc_wr_pset), .wr_data_i(rvc_wr_data), .patched_o(s1_pool_now)
  );

  // The way leaving on a miss (s1_victim_q).
  logic [WayW-1:0]  victim_sel;
  logic             victim_valid, victim_dirty;
  logic             hit;
  logic [WayW-1:0]  hit_way;
  logic [LineW-1:0] hit_line, victim_line;
  logic [TagW-1:0]  victim_tag;
  always_comb begin
    hit = 1'b0;
    hit_way = '0;
    hit_line = '0;
    victim_line = '0;
    victim_tag = '0;
    victim_valid = 1'b0;
    victim_dirty = 1'b0;
    for (int w = 0; w < Ways; w++) begin  // one-hot muxes: no index arithmetic on LineW
      if (s1_hitv_q[w]) begin
        hit = 1'b1;
        hit_way = w[WayW-1:0];
        hit_line = s1_line_q[w*LineW +: LineW];
      end
      if (victim_sel == w[WayW-1:0]) begin
        victim_line = s1_line_q[w*LineW +: LineW];
        victim_tag = s1_tag_q[w*TagW +: TagW];
        victim_valid = s1_tvalid_q[w];
        victim_dirty = s1_dirty_q[w];
      end
    end
  end

  // S0's command's hits, for s1_hitv_q (s0_hitv, the store's hit_last_o):
  // compared on S0's view before this cycle's write, which is S0's view of
  // the tags whenever S1 takes the command: only an install changes a tag or
  // a valid bit (a commit rewrites its own way's), and S1 takes nothing
  // while it installs. So no write enable (S3's rules, the record
  // registers' ready inputs) is in front of the compare (S0HitsFromLastView
  // checks it); the store compares the registered read and the last edge's
  // write separately and chooses by registers, so neither is the bypass
  // patch.

  logic s1_is_lookup, s2_ready, s1_advance, s2_valid_q, s3_valid_q;
  assign s1_is_lookup = is_lookup_op(s1_op_q);
  assign s1_advance   = s1_valid_q && s1_state_q == S1Exec && (!s1_is_lookup || hit) && s2_ready;
  assign s1_ready     = !s1_valid_q || s1_advance;
  assign s1_stuck     = s1_valid_q && (s1_state_q != S1Exec || hz_pred_q);

  // Victim choice on a miss: a free way first, else the policy's choice,
  // made for S0's command from S0's view of its set (registered into
  // s1_victim_q as it enters S1). A miss starts only when S2 and S3 are
  // empty: nothing else then writes the set, and no command in flight holds
  // the victim.
  logic [WayW-1:0] victim, repl_choice;
  logic            free_way_found, miss_now;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [16+Sets*WayW-1:0] repl_state;  // for formal harnesses only
  /* verilator lint_on UNUSEDSIGNAL */
  rac_repl_state #(.Sets(Sets), .Ways(Ways), .ReplPolicy(ReplPolicy)) u_repl (
    .clk_i       (clk_i),
    .rst_i       (rst_i),
    .choice_set_i(s0_set_q),
    .choice_o    (repl_choice),
    .set_i       (s1_set_q),
    .advance_i   (miss_now && !s1_victim_free_q),
    .state_o     (repl_state)
  );
  rac_victim_sel_comb #(.Ways(Ways)) u_victim (
    .valid_i    (in_valid),
    .preferred_i(repl_choice),
    .victim_o   (victim),
    .free_o     (free_way_found)
  );

  assign miss_now = s1_valid_q && s1_state_q == S1Exec && s1_is_lookup && !hit && !s2_valid_q && !s3_valid_q;
  assign victim_sel = s1_victim_q;

  // ---------------------------------------------------------------------------
  // S1: the miss FSM (eviction spill, write-back, fill, install)
  // ---------------------------------------------------------------------------
  // The eviction spill: a victim whose clocks are in the pool (the pool set
  // S1 holds, since the victim shares the missing command's set) hands them
  // to the host in read-clock spill records before it leaves, one record a
  // cycle from the lowest way up (reason 6 for a partial clock; the record
  // names the bytes the clock covers), and each entry is freed as its record
  // goes: a clock is in the pool only while its line is on chip. The line
  // keeps its shared mask, so a later fill finds it LASTWRITE. (S2 and S3
  // are empty during a miss: the record and the pool ports are free of
  // them.)
  logic [GranW-1:0]   victim_gran;
  logic [7:0]         victim_shared;
  logic [RvcWays-1:0] ev_ways;         // the victim's clocks in the pool (S1's registers)
  logic [RvcWays-1:0] s1_ev_ways_q;    // those still to leave (taken in S1Exec, cleared as they go)
  logic [RWayW-1:0]   ev_way;          // the one leaving now
  logic               ev_may_spill, ev_spill_fire, ev_spill_last, esc_free;
  if (Sets > 1) begin : g_victim_gran
    assign victim_gran = {victim_tag, s1_set_q ^ fold(victim_tag)};
  end else begin : g_victim_gran_one_set
    assign victim_gran = victim_tag;
  end
  assign victim_shared = shared_of(victim_line);
  // The victim's pool clocks are looked up in S1Exec and registered, so
  // neither the miss decision nor the spill's records and pool writes wait
  // on the victim's tag, its fold and the pool-tag compare: a victim with
  // shared bytes always goes through S1EvSpill (a cycle there when none of
  // its clocks is in the pool: a LASTWRITE line). S2 and S3 are empty when
  // the miss starts, so the pool set S1 holds no longer changes but by the
  // spill's own writes.
  assign ev_may_spill = PoolOn != 0 && victim_valid && victim_shared != '0;
  assign ev_ways = ev_may_spill ? pool_hits(s1_rvc_tag_q, victim_gran) : '0;
  assign ev_way  = lowest_way(s1_ev_ways_q);
  assign ev_spill_last   = (s1_ev_ways_q & ~way_bit(ev_way)) == '0;
  assign esc_free        = !esc_valid_o || esc_ready_i;  // the escalation register takes a record now
  assign ev_spill_fire   = s1_valid_q && s1_state_q == S1EvSpill && esc_free && s1_ev_ways_q != '0;

  always_comb begin
    s1_state_d = s1_state_q;
    case (s1_state_q)
      S1Exec: begin
        if (miss_now) begin
          if (ev_may_spill) s1_state_d = S1EvSpill;
          else s1_state_d = (victim_valid && victim_dirty) ? S1WbReq : S1FillReq;
        end
      end
      S1EvSpill:  if (s1_ev_ways_q == '0 || (esc_free && ev_spill_last)) s1_state_d = victim_dirty ? S1WbReq : S1FillReq;
      S1WbReq:    if (mem_req_ready_i) s1_state_d = S1WbWait;
      S1WbWait:   if (mem_wack_i) s1_state_d = S1FillReq;
      S1FillReq:  if (mem_req_ready_i) s1_state_d = S1FillWait;
      S1FillWait: if (mem_rsp_valid_i) s1_state_d = S1Exec;
      default:    s1_state_d = s1_state_q;
    endcase
  end

  assign mem_req_valid_o   = s1_valid_q && (s1_state_q == S1WbReq || s1_state_q == S1FillReq);
  assign mem_req_write_o   = s1_state_q == S1WbReq;
  assign mem_req_data_o    = victim_line;
  assign mem_req_seq_o     = s1_seq_q;
  assign mem_req_granule_o = (s1_state_q == S1WbReq) ? victim_gran : s1_gran_q;

  logic install;
  assign install = s1_valid_q && s1_state_q == S1FillWait && mem_rsp_valid_i;
  assign fill_install_o = install;

  always_ff @(posedge clk_i) begin
    if (s1_state_q == S1Exec) begin
      s1_ev_ways_q <= ev_ways;
    end else if (ev_spill_fire) begin
      s1_ev_ways_q <= s1_ev_ways_q & ~way_bit(ev_way);
    end
  end
  assign fill_way_o     = s1_victim_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s1_valid_q <= 1'b0;
      s1_state_q <= S1Idle;
    end else if (s1_ready) begin
      s1_valid_q <= s0_offer;
      s1_state_q <= s0_offer ? S1Exec : S1Idle;
    end else begin
      s1_state_q <= s1_state_d;
    end
    if (s1_ready && s0_offer) begin
      s1_op_q      <= s0_op_q;
      s1_force_q   <= s0_force_q;
      s1_atomic_q  <= s0_atomic_q;
      s1_slot_q    <= s0_slot_q;
      s1_mask_q    <= s0_mask_q;
      s1_gran_q    <= s0_gran_q;
      s1_set_q     <= s0_set_q;
      s1_victim_q  <= victim;
      s1_victim_free_q <= free_way_found;
      s1_hitv_q    <= s0_hitv;
      s1_seq_q     <= s0_seq_q;
      s1_crow_q    <= s0_crow_q;
      s1_cline_q   <= s0_cline_q;
      s1_tag_q     <= in_tag;
      s1_tvalid_q  <= in_valid;
      s1_dirty_q   <= in_dirty;
      s1_line_q    <= in_line;
      s1_row_q     <= in_row;
      s1_obj_q     <= in_obj;
      s1_rvc_tag_q <= in_rvc_tag;
      s1_rvc_q     <= in_rvc;
    end else begin
      // Waiting (or filling): take every write to what S1 holds; the
      // install makes the victim's way the one hit.
      if (install) s1_hitv_q <= wr_ways;
      s1_tag_q     <= s1_tag_now;
      s1_tvalid_q  <= s1_tvalid_now;
      s1_dirty_q   <= s1_dirty_now;
      s1_line_q    <= s1_line_now;
      s1_row_q     <= s1_row_now;
      s1_obj_q     <= s1_obj_now;
      s1_rvc_tag_q <= s1_rvc_tag_now;
      s1_rvc_q     <= s1_rvc_now;
    end
  end

  // ---------------------------------------------------------------------------
  // S2: epoch checks against the thread's clock row
  // ---------------------------------------------------------------------------
  logic [2:0]           s2_op_q;
  logic                 s2_force_q;
  logic                 s2_atomic_q;
  logic [SlotW-1:0]     s2_slot_q;
  logic [7:0]           s2_mask_q;
  logic [GranW-1:0]     s2_gran_q;
  logic [SetW-1:0]      s2_set_q;
  logic [SeqW-1:0]      s2_seq_q;
  logic [RowW-1:0]      s2_crow_q;
  logic [LineW-1:0]     s2_cline_q;
  logic [WayW-1:0]      s2_way_q;
  logic                 s2_dirty_q;
  logic [LineW-1:0]     s2_line_q;
  logic [RowW-1:0]      s2_row_q;
  logic [RowW-1:0]      s2_obj_q;
  logic [RvcWays*PTagW-1:0] s2_rvc_tag_q;
  logic [RvcWays*RowW-1:0]  s2_rvc_q;

  // The thread's own clock, and per byte (rac_byte_check_comb) W_x ≼ C_t and
  // R_x ≼ C_t, whether W and R are the thread's current epoch and whether
  // the byte has history: everything S3's rules compare is compared here,
  // so that S3 starts from registered bits.
  logic [ClkW-1:0]     s2_own_clk;
  logic [8*ByteW-1:0]  s2_bytes;  // the line's byte states, byte b at [b*ByteW +: ByteW]
  logic [7:0]          s2_w_ok, s2_r_ok, s2_same_w, s2_same_r;
  logic [7:0]          s2_byte_set;  // bytes with any history (a free of them changes the line)
  logic [RvcWays*NumSlots-1:0] s2_rvc_greater;  // per way: lanes where its read clock exceeds C_t
  vc_lane_sel_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_own_clk (
    .vc_i(s2_row_q), .slot_i(s2_slot_q), .lane_o(s2_own_clk)
  );
  assign s2_bytes = s2_line_q[ByteLo +: 8*ByteW];
  for (genvar b = 0; b < 8; b++) begin : g_byte_check
    rac_byte_check_comb #(.NumSlots(NumSlots), .ClkW(ClkW), .ReadVcs(ReadVcs)) u_check (
      .byte_i   (s2_bytes[b*ByteW +: ByteW]),
      .slot_i   (s2_slot_q),
      .own_clk_i(s2_own_clk),
      .row_i    (s2_row_q),
      .w_ok_o   (s2_w_ok[b]),
      .r_ok_o   (s2_r_ok[b]),
      .same_w_o (s2_same_w[b]),
      .same_r_o (s2_same_r[b]),
      .set_o    (s2_byte_set[b])
    );
  end
  logic [RvcWays-1:0] s2_rvc_hit, s2_rvc_same;  // per way: holds this granule; its lane of the thread is current
  for (genvar w = 0; w < RvcWays; w++) begin : g_rvc_check
    logic [ClkW-1:0] rvc_own;  // the thread's lane of the way's read clock
    vc_lane_sel_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_rvc_own (
      .vc_i(s2_rvc_q[w*RowW +: RowW]), .slot_i(s2_slot_q), .lane_o(rvc_own)
    );
    vc_lanes_gt_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_rvc_gt (
      .a_i(s2_rvc_q[w*RowW +: RowW]), .b_i(s2_row_q), .gt_o(s2_rvc_greater[w*NumSlots +: NumSlots])
    );
    assign s2_rvc_same[w] = rvc_own == s2_own_clk;
  end
  assign s2_rvc_hit = (PoolOn != 0) ? pool_hits(s2_rvc_tag_q, s2_gran_q) : '0;

  // Per way of the pool set (above): whether it holds this granule and its
  // lane of the thread is current. And which bytes have equal R epochs (an
  // allocation needs the sharing bytes to have one).
  logic [63:0] s2_r_eq;  // [8*b + c]: bytes b and c have the same R epoch
  always_comb begin
    for (int b = 0; b < 8; b++) begin
      for (int c = 0; c < 8; c++) begin
        s2_r_eq[8*b + c] = s2_bytes[b*ByteW + RSlotLo +: SlotW + ClkW] == s2_bytes[c*ByteW + RSlotLo +: SlotW + ClkW];
      end
    end
  end

  // What S3's rules need to know of the pool, per byte, computed here so
  // that S3 starts from registered bits (issue 12: the pool-hit, first-lane
  // and one-hot logic was the head of S3's deepest paths). S3 takes S2's
  // registers unchanged (S2 moves on only when S3 writes neither its line
  // nor its pool set: the hazard below), so this is S3's function of what
  // it holds, one stage early. Per way: the entry's fields, whether its
  // clock covers bytes that are neither read now nor raced (a read of it
  // must then split it), and the lowest lane above C_t (a concurrent
  // reader, for a race record). Per byte: the way holding its clock (at
  // most one) and that clock's facts: the thread's lane current, partial,
  // some lane above C_t, and which lane.
  logic [7:0]               s2_shared, s2_raced;
  logic [8*RvcWays-1:0]     s2_way_mask;  // per way: the shared bytes its clock covers
  logic [RvcWays-1:0]       s2_pool_partial, s2_way_live, s2_way_greater;
  logic [RvcWays*SlotW-1:0] s2_way_prev_slot;
  logic [8*RvcWays-1:0]     s2_byte_way;
  logic [7:0]               s2_byte_clk, s2_byte_same, s2_byte_partial, s2_byte_greater;
  logic [8*SlotW-1:0]       s2_byte_prev_slot;
  assign s2_shared = shared_of(s2_line_q);
  for (genvar b = 0; b < 8; b++) begin : g_s2_raced
    assign s2_raced[b] = s2_bytes[b*ByteW + RacedBit];
  end
  for (genvar w = 0; w < RvcWays; w++) begin : g_s2_way_first
    rac_first_one #(.Width(NumSlots)) u_rvc_first (
      .in_i(s2_rvc_greater[w*NumSlots +: NumSlots]), .any_o(s2_way_greater[w]),
      .idx_o(s2_way_prev_slot[w*SlotW +: SlotW])
    );
  end
  always_comb begin
    for (int w = 0; w < RvcWays; w++) begin
      s2_pool_partial[w] = Multi != 0 && s2_rvc_tag_q[w*PTagW + PPartBit];
      s2_way_mask[8*w +: 8] = (Multi != 0) ? s2_rvc_tag_q[w*PTagW + PMaskLo +: 8] : s2_shared;
      s2_way_live[w] = (s2_way_mask[8*w +: 8] & ~s2_mask_q & ~s2_raced) != '0;
    end
    s2_byte_way = '0;
    s2_byte_clk = '0;
    s2_byte_same = '0;
    s2_byte_partial = '0;
    s2_byte_greater = '0;
    s2_byte_prev_slot = '0;
    for (int b = 0; b < 8; b++) begin
      for (int w = 0; w < RvcWays; w++) begin  // one-hot muxes
        if (PoolOn != 0 && s2_rvc_hit[w] && s2_way_mask[8*w + b] && s2_shared[b]) begin
          s2_byte_way[RvcWays*b + w] = 1'b1;
          s2_byte_clk[b] = 1'b1;
          s2_byte_same[b] = s2_rvc_same[w];
          s2_byte_partial[b] = s2_pool_partial[w];
          s2_byte_greater[b] = s2_way_greater[w];
          s2_byte_prev_slot[b*SlotW +: SlotW] = s2_way_prev_slot[w*SlotW +: SlotW];
        end
      end
    end
  end

  // What S3's rules ask of the line per byte (a READ SHARE, a LASTWRITE
  // share, a raised lane of a clock, the host), computed here on S2's
  // registers and registered into S3 (issue 12: these feed S3's line-wide
  // decisions, the allocation, need_share and escalate, whose outcome the
  // line and pool writes wait on). S3 takes S2's registers unchanged (the
  // hazard below), so S3's rules give the same (RulesFromS2 checks it);
  // the rules' other outputs (the byte after, the race) stay in S3. The
  // concurrent reader's clock (a race record's) is not known here and not
  // needed for these.
  logic [7:0] s2_share_b, s2_lw_share_b, s2_touch_b, s2_lw_esc_b;
  for (genvar b = 0; b < 8; b++) begin : g_s2_rules
    /* verilator lint_off UNUSEDSIGNAL */
    logic [ByteW-1:0] byte_after;
    logic             raced_b, unshare_b, r_upd_b, w_upd_b;
    logic [1:0]       kind_b;
    logic [SlotW-1:0] prev_slot_b;
    logic [ClkW-1:0]  prev_clk_b;
    /* verilator lint_on UNUSEDSIGNAL */
    rac_byte_rules_comb #(.SlotW(SlotW), .ClkW(ClkW), .ReadVcs(ReadVcs)) u_rules (
      .access_i       (s2_mask_q[b]),
      .free_i         (s2_op_q == OpFree),
      .read_i         (s2_op_q == OpRead),
      .atomic_i       (s2_atomic_q),
      .slot_i         (s2_slot_q),
      .own_clk_i      (s2_own_clk),
      .byte_i         (s2_bytes[b*ByteW +: ByteW]),
      .w_ok_i         (s2_w_ok[b]),
      .r_ok_i         (s2_r_ok[b]),
      .same_w_i       (s2_same_w[b]),
      .same_r_i       (s2_same_r[b]),
      .shared_i       (s2_shared[b]),
      .has_clk_i      (s2_byte_clk[b]),
      .clk_same_i     (s2_byte_same[b]),
      .clk_partial_i  (s2_byte_partial[b]),
      .clk_greater_i  (s2_byte_greater[b]),
      .clk_prev_slot_i(s2_byte_prev_slot[b*SlotW +: SlotW]),
      .clk_prev_clk_i ({ClkW{1'b0}}),
      .byte_o         (byte_after),
      .raced_o        (raced_b),
      .kind_o         (kind_b),
      .prev_slot_o    (prev_slot_b),
      .prev_clk_o     (prev_clk_b),
      .share_o        (s2_share_b[b]),
      .lw_share_o     (s2_lw_share_b[b]),
      .touch_o        (s2_touch_b[b]),
      .lw_esc_o       (s2_lw_esc_b[b]),
      .unshare_o      (unshare_b),
      .r_upd_o        (r_upd_b),
      .w_upd_o        (w_upd_b)
    );
  end

  // S2 waits while the access or import in S3 may write what S2's access or
  // import read: its line, or its pool set (an access in S3 may allocate,
  // raise, split or free an entry only if its line has shared bytes or it
  // is a read that is not ordered after some byte's last read; an import
  // may always). Decided from registers alone, so the wait never lengthens a
  // path. Rows and sync objects need no wait: they are written by S2 itself.
  logic s2_is_lookup, s3_is_access, s3_is_import, s3_is_lookup;
  logic hazard, s3_ready, s2_advance, s2_may_write_pool, s3_may_write_pool;
  logic [8:0] s2_pool_wr_why, s3_pool_wr_why_q;
  logic [2:0]       s3_op_q;
  logic [SlotW-1:0] s3_slot_q;
  logic [GranW-1:0] s3_gran_q;
  logic [SetW-1:0]  s3_set_q;
  logic [7:0]       s3_mask_q;
  logic [LineW-1:0] s3_line_q;
  logic [7:0]       s3_r_ok_q;
  logic [7:0]       cur_shared;  // S3's line's shared bytes (reads in the line's read clock)
  assign s2_is_lookup = is_lookup_op(s2_op_q);
  // S3's op classes are decoded in S2 and registered with the op (they
  // head S3's completion, exec_done, and so the ready chain).
  logic s3_is_access_q, s3_is_import_q;
  assign s3_is_access = s3_is_access_q;
  assign s3_is_import = s3_is_import_q;
  assign s3_is_lookup = s3_is_access || s3_is_import;
  // Why the command may write its pool set, per reason ([8]: an import, or
  // a line with shared bytes; [b]: a read of byte b not ordered after its
  // last read), found in S2 and registered as the command moves into S3
  // (issue 12: S3's OR over the bytes' masked R checks was at the head of
  // the ready chain); MayWritePoolHeld checks S3's copy.
  always_comb begin
    s2_pool_wr_why[8] = s2_op_q == OpImportLine || shared_of(s2_line_q) != '0;
    for (int b = 0; b < 8; b++) s2_pool_wr_why[b] = s2_op_q == OpRead && s2_mask_q[b] && !s2_r_ok[b];
  end
  assign s2_may_write_pool = (PoolOn != 0) && s2_pool_wr_why != '0;
  assign s3_may_write_pool = (PoolOn != 0) && s3_pool_wr_why_q != '0;
  // Whether S2's and S3's granules are the same is registered (issue 12:
  // the wide compare was on the ready chain), from the pair that meets
  // next: S1's and S2's when S2 moves on; S1's and S3's when S1 moves into
  // an empty S2 while S3 keeps its command; else S2 and S3 keep theirs (or
  // one of them is empty next). GranEqHeld checks it. The equality of
  // their pool sets likewise (PsetEqHeld; the compare was on that chain
  // too).
  logic gran_eq_q, s1_s2_eq, s1_s3_eq;
  logic pset_eq_q, s1_s2_pset_eq, s1_s3_pset_eq;
  assign s1_s2_eq = s1_gran_q == s2_gran_q;
  assign s1_s3_eq = s1_gran_q == s3_gran_q;
  assign s1_s2_pset_eq = rvc_of_set(s1_set_q) == rvc_of_set(s2_set_q);
  assign s1_s3_pset_eq = rvc_of_set(s1_set_q) == rvc_of_set(s3_set_q);
  always_ff @(posedge clk_i) begin
    if (s2_advance) begin
      gran_eq_q <= s1_s2_eq;
      pset_eq_q <= s1_s2_pset_eq;
      s3_pool_wr_why_q <= s2_pool_wr_why;
      s3_is_access_q <= is_access_op(s2_op_q);
      s3_is_import_q <= s2_op_q == OpImportLine;
    end else if (!s2_valid_q) begin
      gran_eq_q <= s1_s3_eq;
      pset_eq_q <= s1_s3_pset_eq;
    end
  end
  always_comb begin
    hazard = 1'b0;
    if (s2_valid_q && s3_valid_q && s2_is_lookup && s3_is_lookup) begin
      hazard = gran_eq_q || (s3_may_write_pool && pset_eq_q);
    end
  end
  assign s2_advance = s2_valid_q && s3_ready && !hazard;
  assign s2_ready   = !s2_valid_q || s2_advance;

  // The hazard of the next cycle, for S0's read-index choice (from
  // registers only there): S1's and S2's lookups both move on now and would
  // meet the hazard rule above as S2 and S3 (s2_may_write_pool is
  // s3_may_write_pool of S2's command as S3 will hold it), or the hazard of
  // this cycle stays (S3 keeps its command, so S2 keeps its own).
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      hz_pred_q <= 1'b0;
    end else begin
      hz_pred_q <= (s1_advance && s2_advance && s1_is_lookup && s2_is_lookup &&
                    (s1_s2_eq ||
                     (s2_may_write_pool && s1_s2_pset_eq))) ||
                   (hz_pred_q && s3_valid_q && !exec_done);
    end
  end

  // Synchronization on chip, done in S2 and written as the command leaves
  // it, so the next command of the thread (in S1 then) takes the new row
  // without waiting: one join unit serves acquire (into the thread's row) and
  // release (into the object); release then ticks the thread's own lane. The
  // host never asks for a tick past ClkW.
  logic [RowW-1:0] join_row_obj, ticked_row;
  vc_join_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_sync_join (
    .a_i(s2_row_q), .b_i(s2_obj_q), .join_o(join_row_obj)
  );
  // The tick increments every lane and keeps the own one's: the lane select
  // (s2_own_clk) is then not in front of the adder, whose carry chain feeds
  // S1's row copy through the patch (the write lands there this edge).
  always_comb begin
    ticked_row = s2_row_q;
    for (int l = 0; l < NumSlots; l++) begin  // constant offsets: a mux per lane, no index arithmetic
      if (l[SlotW-1:0] == s2_slot_q) ticked_row[l*ClkW +: ClkW] = s2_row_q[l*ClkW +: ClkW] + 1'b1;
    end
  end
  always_comb begin
    case (s2_op_q)
      OpAcquire: row_wr_data = join_row_obj;
      OpRelease: row_wr_data = ticked_row;
      default:   row_wr_data = s2_crow_q;  // OpSetRow
    endcase
    row_wr_due  = s2_valid_q && writes_row(s2_op_q);
    obj_wr_due  = s2_valid_q && writes_obj(s2_op_q);
    row_wr_en   = s2_advance && writes_row(s2_op_q);
    row_wr_slot = s2_slot_q;
    obj_wr_en   = s2_advance && writes_obj(s2_op_q);
    obj_wr_gran = s2_gran_q;
    obj_wr_data = (s2_op_q == OpRelease) ? join_row_obj : s2_crow_q;
  end

  // What S2 takes from S1 (its line; the rest is S1's, patched above) and
  // what S2 holds, with the writes of this edge (rac_patch_comb). A line is
  // patched only by a write to its own granule: the hit way's line.
  logic [LineW:0]               s2_take_line, s2_line_now;  // {dirty, line}
  logic [RowW-1:0]              s2_row_now, s2_obj_now;
  logic [RvcWays*PoolDataW-1:0] s2_pool_held, s2_pool_now;
  logic [RvcWays*PTagW-1:0]     s2_rvc_tag_now;
  logic [RvcWays*RowW-1:0]      s2_rvc_now;
  rac_patch_comb #(.KeyW(GranW), .DataW(LineW + 1)) u_s2_take_line (
    .held_i({s1_dirty_q[hit_way], hit_line}), .key_i(s1_gran_q),
    .wr_en_i(wr_en), .wr_key_i(wr_gran), .wr_data_i({wr_dirty, wr_line}), .patched_o(s2_take_line)
  );
  rac_patch_comb #(.KeyW(GranW), .DataW(LineW + 1)) u_s2_line (
    .held_i({s2_dirty_q, s2_line_q}), .key_i(s2_gran_q),
    .wr_en_i(wr_en), .wr_key_i(wr_gran), .wr_data_i({wr_dirty, wr_line}), .patched_o(s2_line_now)
  );
  // S2's row and sync object: only S2 writes the rows and the objects, and
  // only as its command leaves (row_wr_en, obj_wr_en need s2_advance), so
  // a waiting S2 holds its copies unpatched and its own write is not in
  // front of them (S1's copies, which S2 takes, do take it: u_s1_row).
  assign s2_row_now = s2_row_q;
  assign s2_obj_now = s2_obj_q;
  for (genvar w = 0; w < RvcWays; w++) begin : g_s2_pool_way
    assign s2_pool_held[w*PoolDataW +: PoolDataW] = {s2_rvc_tag_q[w*PTagW +: PTagW], s2_rvc_q[w*RowW +: RowW]};
    assign {s2_rvc_tag_now[w*PTagW +: PTagW], s2_rvc_now[w*RowW +: RowW]} = s2_pool_now[w*PoolDataW +: PoolDataW];
  end
  rac_patch_comb #(.KeyW(RvcW), .DataW(PoolDataW), .Lanes(RvcWays)) u_s2_pool (
    .held_i(s2_pool_held), .key_i(rvc_of_set(s2_set_q)),
    .wr_en_i(rvc_wr_en), .wr_key_i(rvc_wr_pset), .wr_data_i(rvc_wr_data), .patched_o(s2_pool_now)
  );

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s2_valid_q <= 1'b0;
    end else if (s2_ready) begin
      s2_valid_q <= s1_advance;
    end
    if (s1_advance) begin
      s2_op_q      <= s1_op_q;
      s2_force_q   <= s1_force_q;
      s2_atomic_q  <= s1_atomic_q;
      s2_slot_q    <= s1_slot_q;
      s2_mask_q    <= s1_mask_q;
      s2_gran_q    <= s1_gran_q;
      s2_set_q     <= s1_set_q;
      s2_seq_q     <= s1_seq_q;
      s2_crow_q    <= s1_crow_q;
      s2_cline_q   <= s1_cline_q;
      s2_way_q     <= hit_way;
      // With the writes of this edge (S3's commit), when they are to what S1
      // passes on.
      {s2_dirty_q, s2_line_q} <= s2_take_line;
      s2_row_q     <= s1_row_now;
      s2_obj_q     <= s1_obj_now;
      s2_rvc_tag_q <= s1_rvc_tag_now;
      s2_rvc_q     <= s1_rvc_now;
    end else if (!s2_advance) begin
      // Waiting: take every write to what S2 holds.
      {s2_dirty_q, s2_line_q} <= s2_line_now;
      s2_row_q     <= s2_row_now;
      s2_obj_q     <= s2_obj_now;
      s2_rvc_tag_q <= s2_rvc_tag_now;
      s2_rvc_q     <= s2_rvc_now;
    end
  end

  // ---------------------------------------------------------------------------
  // S3: the FastTrack rules on the line's 8 bytes (rac_byte_rules_comb per byte)
  // ---------------------------------------------------------------------------
  logic                 s3_force_q;
  logic                 s3_atomic_q;
  logic [SeqW-1:0]      s3_seq_q;
  logic [WayW-1:0]      s3_way_q;
  logic                 s3_dirty_q;
  logic [RvcWays*PTagW-1:0] s3_rvc_tag_q;
  logic [RvcWays*RowW-1:0]  s3_rvc_q;
  logic [ClkW-1:0]      s3_own_clk_q;
  logic [7:0]           s3_w_ok_q;
  logic [7:0]           s3_same_w_q, s3_same_r_q, s3_byte_set_q;
  logic [RvcWays-1:0]   s3_rvc_hit_q;
  // The pool facts S2 derived (above): per way, per byte.
  logic [RvcWays-1:0]       s3_way_live_q;
  logic [RvcWays*SlotW-1:0] s3_way_prev_slot_q;
  logic [8*RvcWays-1:0]     s3_byte_way_q;
  logic [7:0]               s3_byte_clk_q, s3_byte_same_q, s3_byte_partial_q, s3_byte_greater_q;
  logic [8*SlotW-1:0]       s3_byte_prev_slot_q;
  logic [63:0]          s3_r_eq_q;
  logic [7:0]           s3_share_b_q, s3_lw_share_b_q, s3_touch_b_q, s3_lw_esc_b_q;  // S2's rules (above)
  logic [RowW-1:0]      s3_crow_q;   // OpImportLine: the read clock
  logic [LineW-1:0]     s3_cline_q;  // OpImportLine: the line

  logic exec_done;  // S3 finishes its command at this edge
  assign s3_ready = !s3_valid_q || exec_done;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s3_valid_q <= 1'b0;
    end else if (s3_ready) begin
      s3_valid_q <= s2_advance;
    end
    if (s2_advance) begin
      s3_op_q          <= s2_op_q;
      s3_force_q       <= s2_force_q;
      s3_atomic_q      <= s2_atomic_q;
      s3_slot_q        <= s2_slot_q;
      s3_mask_q        <= s2_mask_q;
      s3_gran_q        <= s2_gran_q;
      s3_set_q         <= s2_set_q;
      s3_seq_q         <= s2_seq_q;
      s3_way_q         <= s2_way_q;
      s3_dirty_q       <= s2_dirty_q;
      s3_line_q        <= s2_line_q;
      s3_rvc_tag_q     <= s2_rvc_tag_q;
      s3_rvc_q         <= s2_rvc_q;
      s3_own_clk_q     <= s2_own_clk;
      s3_w_ok_q        <= s2_w_ok;
      s3_r_ok_q        <= s2_r_ok;
      s3_same_w_q      <= s2_same_w;
      s3_same_r_q      <= s2_same_r;
      s3_byte_set_q    <= s2_byte_set;
      s3_rvc_hit_q     <= s2_rvc_hit;
      s3_way_live_q    <= s2_way_live;
      s3_way_prev_slot_q  <= s2_way_prev_slot;
      s3_byte_way_q       <= s2_byte_way;
      s3_byte_clk_q       <= s2_byte_clk;
      s3_byte_same_q      <= s2_byte_same;
      s3_byte_partial_q   <= s2_byte_partial;
      s3_byte_greater_q   <= s2_byte_greater;
      s3_byte_prev_slot_q <= s2_byte_prev_slot;
      s3_r_eq_q        <= s2_r_eq;
      s3_share_b_q     <= s2_share_b;
      s3_lw_share_b_q  <= s2_lw_share_b;
      s3_touch_b_q     <= s2_touch_b;
      s3_lw_esc_b_q    <= s2_lw_esc_b;
      s3_crow_q        <= s2_crow_q;
      s3_cline_q       <= s2_cline_q;
    end
  end

  // FastTrack rules on the 8 byte lanes of the line, all at once
  logic [LineW-1:0]   cur_line;
  logic [BodyW-1:0]   cur_body, new_body;
  logic [ClkW-1:0]    own_clk;
  logic [7:0]         raced;
  logic [15:0]        kinds;
  logic [8*SlotW-1:0] prev_slots;
  logic [8*ClkW-1:0]  prev_clks;
  logic [7:0]         share_b;     // epoch bytes whose reads became concurrent [FT READ SHARE]
  logic [7:0]         lw_share_b;  // LASTWRITE bytes read concurrently with the read since the spill
  logic [RvcWays-1:0] touched;     // ways whose clock a read must raise its thread's lane of
  logic               lw_esc;      // a LASTWRITE byte needs the reads the host holds
  logic [7:0]         unshare;     // shared bytes a write made exclusive [FT WRITE SHARED]
  logic [7:0]         r_upd;       // bytes whose R a read replaced [FT READ EXCLUSIVE]
  logic [7:0]         w_upd;       // bytes whose W a write replaced
  logic [8*ByteW-1:0] cur_bytes, new_bytes;  // byte b at [b*ByteW +: ByteW]
  assign cur_line  = s3_line_q;
  assign cur_body  = cur_line[BodyW-1:0];
  assign cur_bytes = cur_body[ByteLo +: 8*ByteW];
  assign own_clk   = s3_own_clk_q;
  assign cur_shared = shared_of(cur_line);

  // The pool set as S3 holds it, per way: the entry's fields, and whether it
  // holds one of this line's clocks (EVERYTHING for the bytes it covers).
  // Once another granule took an entry, its clock went to the host in a
  // spill record and its bytes are LASTWRITE: W is still exact on chip, and
  // a shared byte's R holds only the latest read since (kept by the [FT READ
  // EXCLUSIVE] rule). An entry names bytes of this granule again only
  // through a new allocation of bytes that have no clock, so a spilled clock
  // is never mistaken for a current one (the stale-read hazard, RADISH
  // digest §2.14). With one way the entry covers all shared bytes.
  logic [RvcWays-1:0] rvc_hit, pool_valid, pool_partial;
  logic [8*RvcWays-1:0] way_mask;  // per way: the shared bytes its clock covers
  always_comb begin
    rvc_hit = s3_rvc_hit_q;
    for (int w = 0; w < RvcWays; w++) begin
      pool_valid[w]   = s3_rvc_tag_q[w*PTagW + PValBit];
      pool_partial[w] = Multi != 0 && s3_rvc_tag_q[w*PTagW + PPartBit];
      way_mask[8*w +: 8] = (Multi != 0) ? s3_rvc_tag_q[w*PTagW + PMaskLo +: 8] : cur_shared;
    end
  end
  // Per byte: the way holding its clock (at most one) and that clock's
  // facts, as S2 derived them (registered); the concurrent reader's clock
  // for a race record is the lane S2 found of the way's clock.
  logic [8*RvcWays-1:0] byte_way;
  logic [7:0]           byte_clk, byte_same, byte_partial, byte_greater;
  logic [8*SlotW-1:0]   byte_prev_slot;
  logic [8*ClkW-1:0]    byte_prev_clk;
  logic [RvcWays*ClkW-1:0] way_prev_clk;
  assign byte_way       = s3_byte_way_q;
  assign byte_clk       = s3_byte_clk_q;
  assign byte_same      = s3_byte_same_q;
  assign byte_partial   = s3_byte_partial_q;
  assign byte_greater   = s3_byte_greater_q;
  assign byte_prev_slot = s3_byte_prev_slot_q;
  for (genvar w = 0; w < RvcWays; w++) begin : g_way_prev
    vc_lane_sel_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_rvc_prev (
      .vc_i(s3_rvc_q[w*RowW +: RowW]), .slot_i(s3_way_prev_slot_q[w*SlotW +: SlotW]),
      .lane_o(way_prev_clk[w*ClkW +: ClkW])
    );
  end
  always_comb begin
    byte_prev_clk = '0;
    for (int b = 0; b < 8; b++) begin
      for (int w = 0; w < RvcWays; w++) begin  // one-hot muxes
        if (byte_way[RvcWays*b + w]) byte_prev_clk[b*ClkW +: ClkW] = way_prev_clk[w*ClkW +: ClkW];
      end
    end
  end

  // The rules of each byte (rac_byte_rules_comb), then what they ask of the
  // line's read clocks: the ways a read raises its lane of, and whether a
  // write needs the host. What they ask of the line S2 computed (the same
  // rules on the same registers, one stage early: s3_share_b_q and the
  // rest); the outputs of this stage's rules for it are only checked
  // against those (RulesFromS2).
  logic [7:0] touch_b, lw_esc_b;
  logic [7:0] share_chk, lw_share_chk, touch_chk, lw_esc_chk;
  assign share_b    = s3_share_b_q;
  assign lw_share_b = s3_lw_share_b_q;
  assign touch_b    = s3_touch_b_q;
  assign lw_esc_b   = s3_lw_esc_b_q;
  logic       is_free, is_read;
  assign is_free = s3_op_q == OpFree;
  assign is_read = s3_op_q == OpRead;
  for (genvar b = 0; b < 8; b++) begin : g_byte_rules
    rac_byte_rules_comb #(.SlotW(SlotW), .ClkW(ClkW), .ReadVcs(ReadVcs)) u_rules (
      .access_i       (s3_mask_q[b]),
      .free_i         (is_free),
      .read_i         (is_read),
      .atomic_i       (s3_atomic_q),
      .slot_i         (s3_slot_q),
      .own_clk_i      (own_clk),
      .byte_i         (cur_bytes[b*ByteW +: ByteW]),
      .w_ok_i         (s3_w_ok_q[b]),
      .r_ok_i         (s3_r_ok_q[b]),
      .same_w_i       (s3_same_w_q[b]),
      .same_r_i       (s3_same_r_q[b]),
      .shared_i       (cur_shared[b]),
      .has_clk_i      (byte_clk[b]),
      .clk_same_i     (byte_same[b]),
      .clk_partial_i  (byte_partial[b]),
      .clk_greater_i  (byte_greater[b]),
      .clk_prev_slot_i(byte_prev_slot[b*SlotW +: SlotW]),
      .clk_prev_clk_i (byte_prev_clk[b*ClkW +: ClkW]),
      .byte_o         (new_bytes[b*ByteW +: ByteW]),
      .raced_o        (raced[b]),
      .kind_o         (kinds[2*b +: 2]),
      .prev_slot_o    (prev_slots[b*SlotW +: SlotW]),
      .prev_clk_o     (prev_clks[b*ClkW +: ClkW]),
      .share_o        (share_chk[b]),
      .lw_share_o     (lw_share_chk[b]),
      .touch_o        (touch_chk[b]),
      .lw_esc_o       (lw_esc_chk[b]),
      .unshare_o      (unshare[b]),
      .r_upd_o        (r_upd[b]),
      .w_upd_o        (w_upd[b])
    );
  end
  assign new_body = {new_bytes, cur_body[ByteLo-1:0]};
  assign lw_esc   = lw_esc_b != '0;
  always_comb begin
    touched = '0;
    for (int b = 0; b < 8; b++) begin
      if (touch_b[b]) touched = touched | byte_way[RvcWays*b +: RvcWays];
    end
  end

  // ---------------------------------------------------------------------------
  // S3: new read clocks, the line's status, the line after the command
  // ---------------------------------------------------------------------------
  // Bytes that start sharing (or LASTWRITE bytes read concurrently) may take
  // a new read clock when they all share one earlier read (equal R epochs):
  // the clock is that read plus this one. Otherwise the line goes to the
  // host.
  logic [SlotW-1:0] share_r_slot, lw_r_slot;
  logic [ClkW-1:0]  share_r_clk, lw_r_clk;
  logic             share_same, lw_same;
  always_comb begin
    share_r_slot = '0;
    share_r_clk  = '0;
    lw_r_slot    = '0;
    lw_r_clk     = '0;
    share_same   = 1'b1;
    lw_same      = 1'b1;
    for (int b = 7; b >= 0; b--) begin
      if (share_b[b]) begin
        share_r_slot = cur_bytes[b*ByteW + RSlotLo +: SlotW];
        share_r_clk  = cur_bytes[b*ByteW + RClkLo +: ClkW];
      end
      if (lw_share_b[b]) begin
        lw_r_slot = cur_bytes[b*ByteW + RSlotLo +: SlotW];
        lw_r_clk  = cur_bytes[b*ByteW + RClkLo +: ClkW];
      end
    end
    for (int b = 0; b < 8; b++) begin
      for (int c = b + 1; c < 8; c++) begin
        if (share_b[b] && share_b[c] && !s3_r_eq_q[8*b + c]) share_same = 1'b0;
        if (lw_share_b[b] && lw_share_b[c] && !s3_r_eq_q[8*b + c]) lw_same = 1'b0;
      end
    end
  end

  // A clock read on some of its live bytes only (not raced, not read now)
  // must be split (several ways) or escalated (one way: raising the lane
  // would invent reads of the other bytes). A command makes at most one new
  // clock, in a way not holding one of the line's own clocks.
  logic [RvcWays-1:0] split;
  logic               rvc_alloc_ok, need_share, can_take, one_new, many_new, new_share, new_lw, new_split;
  always_comb begin
    for (int w = 0; w < RvcWays; w++) begin
      split[w] = touched[w] && s3_way_live_q[w];  // (S2: bytes neither read now nor raced)
    end
  end
  assign can_take = ~&rvc_hit;
  always_comb begin
    int unsigned n;
    n = ((share_b != '0) ? 1 : 0) + ((lw_share_b != '0) ? 1 : 0);
    for (int w = 0; w < RvcWays; w++) n = n + (split[w] ? 1 : 0);
    one_new  = n == 1;
    many_new = n > 1;
  end
  // One way: a new clock only for a line without shared bytes.
  assign rvc_alloc_ok = (PoolOn != 0) && share_b != '0 && share_same && (Multi != 0 || cur_shared == '0);
  always_comb begin
    if (Multi != 0) begin
      need_share = (share_b != '0 && !share_same) || lw_esc || (lw_share_b != '0 && !lw_same) || many_new ||
                   (one_new && !can_take);
    end else begin
      need_share = (share_b != '0 && !rvc_alloc_ok) || lw_esc || lw_share_b != '0 || split != '0;
    end
  end

  // What the command does to its line
  logic       insoftware, escalate, full_free, to_software, clear_line;
  logic [2:0] esc_reason;
  assign insoftware = cur_line[InSwBit];
  assign full_free  = s3_op_q == OpFree && s3_mask_q == 8'hFF;
  rac_line_status_comb u_status (
    .insoftware_i (insoftware),
    .full_free_i  (full_free),
    .force_i      (s3_force_q),
    .need_share_i (need_share),
    .escalate_o   (escalate),
    .reason_o     (esc_reason),
    .to_software_o(to_software),
    .clear_o      (clear_line)
  );
  // The new clock the command makes on chip (at most one; none when it
  // escalates): a READ SHARE's, a partial one, or a split's copy.
  assign new_share = rvc_alloc_ok && !escalate;
  assign new_lw    = Multi != 0 && lw_share_b != '0 && !escalate;
  assign new_split = Multi != 0 && split != '0 && !escalate;

  // The shared bytes after the command: a write made some exclusive, a free
  // cleared some, an allocation added some. When no shared byte is checked
  // any more (all raced), the clocks are dead and the mask is cleared.
  logic [7:0] shared_after, raced_after;
  for (genvar b = 0; b < 8; b++) begin : g_raced_after
    assign raced_after[b] = new_bytes[b*ByteW + RacedBit];
  end
  always_comb begin
    shared_after = cur_shared & ~unshare;
    if (s3_op_q == OpFree) shared_after = shared_after & ~s3_mask_q;
    if (rvc_alloc_ok) shared_after = shared_after | share_b;
    if ((shared_after & ~raced_after) == '0) shared_after = '0;
  end

  // The line after the command. An escalated command hands the line to
  // software unchanged (its state travels in the escalation record); a full
  // free returns it to hardware as ⊥ (no stale software state is ever
  // re-imported: RADISH digest §2.14).
  logic [BodyW-1:0] final_body;
  logic [7:0]       final_shared;
  logic [LineW-1:0] final_line;
  always_comb begin
    if (clear_line) begin
      final_body   = '0;
      final_shared = '0;
    end else if (to_software) begin
      final_body    = cur_body;
      final_body[InSwBit] = 1'b1;  // INSOFTWARE
      final_shared  = cur_shared;
    end else begin
      final_body   = new_body;
      final_shared = shared_after;
      // The bytes that took the new clock: R is now the clock's.
      final_body[ByteLo +: 8*ByteW] = without_reads(new_bytes, ({8{rvc_alloc_ok}} & share_b) | ({8{new_lw}} & lw_share_b));
    end
  end
  if (PoolOn != 0) begin : g_shared_out
    assign final_line = {final_shared, final_body};
  end else begin : g_no_shared_out
    assign final_line = final_body;
    /* verilator lint_off UNUSEDSIGNAL */
    logic [7:0] unused_shared;
    assign unused_shared = final_shared;
    /* verilator lint_on UNUSEDSIGNAL */
  end

  // OpImportLine replaces the line (S3's rules above are not used for it):
  // the host's line with INSOFTWARE clear and the command's mask as its
  // shared bytes; the command's INSOFTWARE and shared bits are ignored, as
  // the software model decodes only the other fields. The host sends an
  // import only after every earlier command on the granule, so this is the
  // exact state (docs/kernel-interface.md, "Re-import"). Op 8 (import-read-
  // clock, right behind the op 7 of its line) adds shared bytes: they read
  // the command's clock, so their R is cleared.
  logic             s3_is_clock_import;
  logic [LineW-1:0] import_line, commit_line;
  assign s3_is_clock_import = Multi != 0 && s3_is_import && s3_atomic_q;
  always_comb begin
    if (s3_is_clock_import) begin
      import_line = cur_line;
      import_line[ByteLo +: 8*ByteW] = without_reads(cur_bytes, s3_mask_q);
      import_line[LineW-1 -: 8] = cur_shared | s3_mask_q;  // SharedLo +: 8 (LineSharedAtTop)
    end else begin
      import_line = s3_cline_q;
      import_line[InSwBit] = 1'b0;
      if (PoolOn != 0) import_line[LineW-1 -: 8] = s3_mask_q;  // SharedLo +: 8 (LineSharedAtTop)
    end
  end
  assign commit_line = s3_is_import ? import_line : final_line;

  // Whether the line changes, from the decisions rather than by comparing
  // lines (which would add a wide compare to S3): a new W or R, a race
  // flag, an allocation, a change of the shared bytes, a free of bytes with
  // history, a handover to the host, an import (always: it replaces a
  // placeholder the backing store must not keep). An assertion checks that
  // no change goes unmarked.
  logic line_changed;
  always_comb begin
    if (s3_is_import) begin
      line_changed = 1'b1;
    end else if (clear_line) begin
      line_changed = insoftware || s3_byte_set_q != '0 || cur_shared != '0;
    end else if (to_software) begin
      line_changed = !insoftware;
    end else begin
      line_changed = w_upd != '0 || r_upd != '0 || raced != '0 || rvc_alloc_ok || new_lw ||
                     shared_after != cur_shared || (s3_op_q == OpFree && (s3_mask_q & s3_byte_set_q) != '0);
    end
  end

  // ---------------------------------------------------------------------------
  // S3: pool management (the way a new clock takes, the entries after the
  // command, displaced clocks, an escalation's clocks)
  // ---------------------------------------------------------------------------
  // The way a new clock takes (an allocation, a split, a partial clock, an
  // import): the lowest free way, else the pool set's round-robin choice
  // among the other granules' entries (whose clock leaves first in a
  // read-clock spill record: those bytes of that line become LASTWRITE). An
  // import first frees the granule's own entries (a host-owned line holds
  // none). With one way: the entry. The round-robin pointers live in flops
  // (a few bits per pool set), written only here.
  logic [RvcWays-1:0] take_valid, take_free;
  logic [RWayW-1:0]   take_way, rr_cur;
  logic               take_rr;  // no way was free: the pointer moves past the choice
  logic [PsN*RWayW-1:0] rr_q;
  always_comb begin
    rr_cur = rr_q[rvc_of_set(s3_set_q)*RWayW +: RWayW];
    take_valid = (s3_is_import && !s3_is_clock_import) ? (pool_valid & ~rvc_hit) : pool_valid;
    take_free = ~take_valid;
    take_rr = take_free == '0;
    take_way = lowest_way(take_free);
    if (take_rr) begin
      for (int i = RvcWays - 1; i >= 0; i--) begin
        if (!rvc_hit[(32'(rr_cur) + i) % RvcWays]) take_way = RWayW'((32'(rr_cur) + i) % RvcWays);
      end
    end
  end

  // Per way: the entry after the command. Clocks keep only the bytes still
  // shared (an entry left with none is freed), touched ones take the
  // reader's lane, a split one gives the bytes read to the new clock; an
  // escalation or a full free frees them all (an escalation after sending
  // them: below).
  logic [RvcWays*PTagW-1:0] pool_tag_after;
  logic [RvcWays*RowW-1:0]  pool_vc_after;
  logic [RvcWays-1:0]       pool_wr;
  logic [RowW-1:0]          new_vc, split_vc;
  logic [PTagW-1:0]         new_tag;
  logic                     take_now;  // a new clock takes take_way at this edge
  logic [7:0]               split_read;
  always_comb begin
    split_vc = '0;
    split_read = '0;
    for (int w = 0; w < RvcWays; w++) begin
      if (split[w]) begin
        split_vc = s3_rvc_q[w*RowW +: RowW];
        split_read = way_mask[8*w +: 8] & shared_after & s3_mask_q;
      end
    end
    new_vc = '0;
    for (int l = 0; l < NumSlots; l++) begin  // constant offsets: a mux per lane, no index arithmetic
      if (new_split) begin
        new_vc[l*ClkW +: ClkW] = split_vc[l*ClkW +: ClkW];
      end else if (l[SlotW-1:0] == (new_lw ? lw_r_slot : share_r_slot)) begin
        new_vc[l*ClkW +: ClkW] = new_lw ? lw_r_clk : share_r_clk;
      end
      if (l[SlotW-1:0] == s3_slot_q) new_vc[l*ClkW +: ClkW] = own_clk;
    end
    new_tag = '0;
    new_tag[GranW-1:0] = s3_gran_q;
    new_tag[PValBit] = 1'b1;
    if (Multi != 0) begin
      new_tag[PPartBit] = new_lw || (new_split && (split & pool_partial) != '0);
      new_tag[PMaskLo +: 8] = new_share ? share_b : new_lw ? lw_share_b : split_read;
    end
    if (s3_is_import) begin
      new_vc = s3_crow_q;
      new_tag[PPartBit] = 1'b0;  // the host sends whole histories
      if (Multi != 0) new_tag[PMaskLo +: 8] = s3_mask_q;
    end
  end
  assign take_now = (PoolOn != 0) && exec_done &&
                    ((s3_is_access && (new_share || new_lw || new_split)) || (s3_is_import && s3_mask_q != '0));

  always_comb begin
    pool_tag_after = s3_rvc_tag_q;
    pool_vc_after  = s3_rvc_q;
    pool_wr        = '0;
    for (int w = 0; w < RvcWays; w++) begin
      if (rvc_hit[w]) begin
        pool_wr[w] = 1'b1;
        if (s3_is_import && !s3_is_clock_import) begin
          pool_tag_after[w*PTagW + PValBit] = 1'b0;  // (a host-owned line holds none)
        end else if (s3_is_clock_import) begin
          pool_wr[w] = 1'b0;
        end else if (escalate || clear_line) begin
          pool_tag_after[w*PTagW + PValBit] = 1'b0;
        end else begin
          if (Multi != 0) begin
            pool_tag_after[w*PTagW + PMaskLo +: 8] =
                way_mask[8*w +: 8] & shared_after & ~(split[w] ? s3_mask_q : 8'h00);
          end
          if ((way_mask[8*w +: 8] & shared_after) == '0) pool_tag_after[w*PTagW + PValBit] = 1'b0;
          for (int l = 0; l < NumSlots; l++) begin
            if (touched[w] && !split[w] && l[SlotW-1:0] == s3_slot_q) pool_vc_after[w*RowW + l*ClkW +: ClkW] = own_clk;
          end
        end
      end
    end
    if (take_now) begin
      for (int w = 0; w < RvcWays; w++) begin
        if (take_way == w[RWayW-1:0]) begin
          pool_wr[w] = 1'b1;
          pool_tag_after[w*PTagW +: PTagW] = new_tag;
          pool_vc_after[w*RowW +: RowW] = new_vc;
        end
      end
    end
  end

  // The entry a new clock displaces (another granule's: its clock leaves in
  // a read-clock spill record, reason 6 when partial).
  logic             rvc_displace;
  logic [PTagW-1:0] disp_tag;
  logic [RowW-1:0]  disp_vc;
  logic             disp_valid;
  always_comb begin
    disp_tag = '0;
    disp_vc = '0;
    disp_valid = 1'b0;
    for (int w = 0; w < RvcWays; w++) begin
      if (take_way == w[RWayW-1:0]) begin
        disp_tag = s3_rvc_tag_q[w*PTagW +: PTagW];
        disp_vc = s3_rvc_q[w*RowW +: RowW];
        disp_valid = take_valid[w] && !rvc_hit[w];
      end
    end
  end
  assign rvc_displace = take_now && disp_valid;

  // An escalation sends the line's clocks with it: every one but the first
  // whole-history clock (lowest way) in a read-clock spill record of its
  // own, one a cycle before the escalation record, which carries the first
  // (with one way: the entry, in the record).
  logic [RvcWays-1:0] esc_first, esc_spill_ways, s3_spilled_q, esc_pending;
  logic [RWayW-1:0]   esc_spill_way;
  logic               esc_spill_fire;
  always_comb begin
    esc_first = '0;
    for (int w = RvcWays - 1; w >= 0; w--) begin
      if (rvc_hit[w] && !pool_partial[w]) esc_first = way_bit(w[RWayW-1:0]);
    end
  end
  assign esc_spill_ways = (PoolOn != 0 && s3_valid_q && s3_is_access && escalate) ? (rvc_hit & ~esc_first) : '0;
  assign esc_pending    = esc_spill_ways & ~s3_spilled_q;
  assign esc_spill_way  = lowest_way(esc_pending);

  // ---------------------------------------------------------------------------
  // S3: completion, and the pool and line write ports
  // ---------------------------------------------------------------------------
  // S3 finishes when both record registers can take a record (whether or
  // not this command makes one: the decision is late, the stall early) and
  // an escalation's clock spills have gone.
  logic race_free, any_raced;
  assign race_free = !race_valid_o || race_ready_i;
  assign any_raced = |raced && !escalate;
  assign exec_done = s3_valid_q && (!s3_is_lookup || (race_free && esc_free && esc_pending == '0));
  assign esc_spill_fire = s3_valid_q && esc_pending != '0 && esc_free;

  always_ff @(posedge clk_i) begin
    if (rst_i || s2_advance) begin
      s3_spilled_q <= '0;
    end else if (esc_spill_fire) begin
      s3_spilled_q <= s3_spilled_q | way_bit(esc_spill_way);
    end
    if (rst_i) begin
      rr_q <= '0;
    end else if (Multi != 0 && take_now && take_rr) begin
      rr_q[rvc_of_set(s3_set_q)*RWayW +: RWayW] <= RWayW'((32'(take_way) + 1) % RvcWays);
    end
  end

  always_comb begin
    rvc_wr_en   = '0;
    rvc_wr_tag  = pool_tag_after;
    rvc_wr_vc   = pool_vc_after;
    // The pool set written: S1's while S1 spills its victim's clocks (S3 is
    // empty then), else S3's; chosen by S1's state register alone, so the
    // address never waits on the write's enable (S3's rules, the records).
    rvc_wr_pset = (s1_state_q == S1EvSpill) ? rvc_of_set(s1_set_q) : rvc_of_set(s3_set_q);
    if (PoolOn != 0 && exec_done && s3_is_lookup) rvc_wr_en = pool_wr;
    if (PoolOn != 0 && ev_spill_fire) begin  // S3 is empty during a miss
      rvc_wr_en   = way_bit(ev_way);
      rvc_wr_tag  = s1_rvc_tag_q;
      rvc_wr_vc   = s1_rvc_q;
      rvc_wr_tag[32'(ev_way)*PTagW + PValBit] = 1'b0;
    end
  end

  // The line write port: install a fill (clean; S1, with S2 and S3 empty),
  // or commit an access or an import.
  always_comb begin
    wr_en    = 1'b0;
    wr_gran  = s3_gran_q;
    // The set written: S1's while it waits for its fill (S3 is empty then),
    // else S3's; from S1's state register alone, as the pool set above.
    wr_set   = (s1_state_q == S1FillWait) ? s1_set_q : s3_set_q;
    wr_way   = s3_way_q;
    wr_dirty = s3_dirty_q || line_changed;
    wr_line  = commit_line;
    if (install) begin
      wr_en    = 1'b1;
      wr_gran  = s1_gran_q;
      wr_way   = s1_victim_q;
      wr_dirty = 1'b0;
      wr_line  = mem_rsp_data_i;
    end else if (exec_done && s3_is_lookup) begin
      wr_en = 1'b1;
    end
  end

  // ---------------------------------------------------------------------------
  // Records (race and escalation registers, held until accepted)
  // ---------------------------------------------------------------------------
  // A pool entry as a read-clock spill record's fields.
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [2:0] spill_reason(input logic [PTagW-1:0] t);
    spill_reason = (Multi != 0 && t[PPartBit]) ? rac_pkg::EscPartialReadVcSpill : rac_pkg::EscReadVcSpill;
  endfunction
  function automatic logic [7:0] spill_mask(input logic [PTagW-1:0] t);
    spill_mask = (Multi != 0) ? t[PMaskLo +: 8] : 8'h00;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  logic [PTagW-1:0] esc_first_tag, esc_spill_tag, ev_tag;
  logic [RowW-1:0]  esc_first_vc, esc_spill_vc, ev_vc;
  always_comb begin
    esc_first_tag = '0;
    esc_first_vc = '0;
    esc_spill_tag = '0;
    esc_spill_vc = '0;
    ev_tag = '0;
    ev_vc = '0;
    for (int w = 0; w < RvcWays; w++) begin
      if (esc_first[w]) begin
        esc_first_tag = s3_rvc_tag_q[w*PTagW +: PTagW];
        esc_first_vc = s3_rvc_q[w*RowW +: RowW];
      end
      if (esc_spill_way == w[RWayW-1:0]) begin
        esc_spill_tag = s3_rvc_tag_q[w*PTagW +: PTagW];
        esc_spill_vc = s3_rvc_q[w*RowW +: RowW];
      end
      if (ev_way == w[RWayW-1:0]) begin
        ev_tag = s1_rvc_tag_q[w*PTagW +: PTagW];
        ev_vc = s1_rvc_q[w*RowW +: RowW];
      end
    end
  end

  // Output registers, held until accepted
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      race_valid_o <= 1'b0;
      esc_valid_o <= 1'b0;
    end else begin
      if (race_ready_i) race_valid_o <= 1'b0;
      if (esc_ready_i) esc_valid_o <= 1'b0;
      if (exec_done && s3_is_access && any_raced) race_valid_o <= 1'b1;
      if (exec_done && s3_is_access && escalate) esc_valid_o <= 1'b1;
      if (rvc_displace || esc_spill_fire || ev_spill_fire) esc_valid_o <= 1'b1;
    end
    if (exec_done && s3_is_access && any_raced) begin
      race_seq_o        <= s3_seq_q;
      race_granule_o    <= s3_gran_q;
      race_mask_o       <= raced;
      race_kinds_o      <= kinds;
      race_prev_slots_o <= prev_slots;
      race_prev_clks_o  <= prev_clks;
    end
    if (esc_spill_fire) begin  // an escalation's further clocks, before it
      esc_seq_o       <= s3_seq_q;
      esc_reason_o    <= spill_reason(esc_spill_tag);
      esc_granule_o   <= s3_gran_q;
      esc_line_o      <= '0;
      esc_rvc_valid_o <= 1'b1;
      esc_rvc_o       <= esc_spill_vc;
      esc_rvc_mask_o  <= spill_mask(esc_spill_tag);
    end else if (exec_done && s3_is_access && escalate) begin
      esc_seq_o       <= s3_seq_q;
      esc_reason_o    <= esc_reason;
      esc_granule_o   <= s3_gran_q;
      esc_line_o      <= cur_line;
      esc_rvc_valid_o <= esc_first != '0 && PoolOn != 0;
      esc_rvc_o       <= esc_first_vc;
      esc_rvc_mask_o  <= spill_mask(esc_first_tag);
    end else if (rvc_displace) begin
      esc_seq_o       <= s3_seq_q;
      esc_reason_o    <= spill_reason(disp_tag);
      esc_granule_o   <= disp_tag[GranW-1:0];
      esc_line_o      <= '0;
      esc_rvc_valid_o <= 1'b1;
      esc_rvc_o       <= disp_vc;
      esc_rvc_mask_o  <= spill_mask(disp_tag);
    end else if (ev_spill_fire) begin  // the eviction spill (S2 and S3 are empty)
      esc_seq_o       <= s1_seq_q;
      esc_reason_o    <= spill_reason(ev_tag);
      esc_granule_o   <= victim_gran;
      esc_line_o      <= '0;
      esc_rvc_valid_o <= 1'b1;
      esc_rvc_o       <= ev_vc;
      esc_rvc_mask_o  <= spill_mask(ev_tag);
    end
  end

  // ---------------------------------------------------------------------------
  // Statistics
  // ---------------------------------------------------------------------------
  // Each a rac_wide_cnt (registered chunk carries): a plain 64-bit +1 is a
  // 16-CARRY4 chain, deeper than any stage of the pipeline (issue 12).
  logic [5:0]      stat_step;
  logic [6*64-1:0] stat_q;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [5:0]      stat_zero, stat_one;  // (the counters' ends: unused)
  /* verilator lint_on UNUSEDSIGNAL */
  assign stat_step = {exec_done && s3_is_access && escalate,                    // escalations
                      s1_valid_q && s1_state_q == S1WbReq && mem_req_ready_i,  // write-backs
                      miss_now,                                                // misses
                      exec_done && s3_is_access,                               // accesses
                      exec_done,                                               // commands
                      1'b1};                                                   // cycles
  for (genvar i = 0; i < 6; i++) begin : g_stat
    rac_wide_cnt #(.W(64)) u_cnt (
      .clk_i,
      .rst_i,
      .load_i (rst_i),
      .value_i(64'd0),
      .step_i (stat_step[i]),
      .q_o    (stat_q[64*i +: 64]),
      .zero_o (stat_zero[i]),
      .one_o  (stat_one[i])
    );
  end
  assign {stat_escalations_o, stat_writebacks_o, stat_misses_o, stat_accesses_o, stat_commands_o, stat_cycles_o} =
      stat_q;

  assign idle_o = !store_init && !nx_valid_q && !s0_valid_q && !s1_valid_q && !s2_valid_q && !s3_valid_q && !race_valid_o &&
                  !esc_valid_o;

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
  logic dup_tag;
  always_comb begin
    dup_tag = 1'b0;
    for (int a = 0; a < Ways; a++) begin
      for (int b = a + 1; b < Ways; b++) begin
        if (s1_tvalid_q[a] && s1_tvalid_q[b] && s1_tag_q[a*TagW +: TagW] == s1_tag_q[b*TagW +: TagW]) dup_tag = 1'b1;
      end
    end
  end
  // Parameters the indexing relies on.
  `RAC_STATIC_ASSERT(SetsPowerOfTwo, (Sets & (Sets - 1)) == 0)
  `RAC_STATIC_ASSERT(WaysPowerOfTwo, (Ways & (Ways - 1)) == 0)
  `RAC_STATIC_ASSERT(ObjectsPowerOfTwo, (Objects & (Objects - 1)) == 0)
  `RAC_STATIC_ASSERT(ReadVcsPowerOfTwo, (ReadVcs & (ReadVcs - 1)) == 0)
  `RAC_STATIC_ASSERT(ReadVcsFoldable, RvcW <= GranW)
  // The pool set is the low bits of the cache set (rvc_of).
  `RAC_STATIC_ASSERT(ReadVcsWithinSets, PsN <= Sets)
  `RAC_STATIC_ASSERT(ReadVcWaysPowerOfTwo, ReadVcWays >= 1 && ReadVcWays <= 8 && (ReadVcWays & (ReadVcWays - 1)) == 0)
  `RAC_STATIC_ASSERT(ReadVcWaysWithinPool, ReadVcs == 0 || ReadVcWays <= ReadVcs)
  // The shape of the generated line layout this module's indexing assumes:
  // INSOFTWARE in the body, the byte states contiguous after it, then the
  // shared mask (with a pool) at the top; each epoch a slot then a clock.
  `RAC_STATIC_ASSERT(LineEightBytes, rac_line_layout_pkg::LineByteCount == 8)
  `RAC_STATIC_ASSERT(LineInSoftwareInBody, InSwBit < ByteLo)
  `RAC_STATIC_ASSERT(LineBytesContiguous, SharedLo == ByteLo + 8 * ByteW)
  `RAC_STATIC_ASSERT(LineSharedAtTop, LineW == SharedLo + ((PoolOn != 0) ? 8 : 0))
  `RAC_STATIC_ASSERT(LineWriteEpoch, WClkLo == WSlotLo + SlotW)
  `RAC_STATIC_ASSERT(LineReadEpoch, RClkLo == RSlotLo + SlotW)
  `RAC_STATIC_ASSERT(LineWSlotBits, rac_line_layout_pkg::LineByteWSlotBits(SlotW, ClkW, ReadVcs) == SlotW)
  `RAC_STATIC_ASSERT(LineWClockBits, rac_line_layout_pkg::LineByteWClockBits(SlotW, ClkW, ReadVcs) == ClkW)
  `RAC_STATIC_ASSERT(LineRSlotBits, rac_line_layout_pkg::LineByteRSlotBits(SlotW, ClkW, ReadVcs) == SlotW)
  `RAC_STATIC_ASSERT(LineRClockBits, rac_line_layout_pkg::LineByteRClockBits(SlotW, ClkW, ReadVcs) == ClkW)
  // The host falls back to software before a clock would outgrow ClkW.
  `RAC_ASSERT(S1MovesBehindS2, !(s1_advance && s2_valid_q && !s2_advance), clk_i, rst_i)
  `RAC_ASSERT(ReleaseTickFits, !(row_wr_en && s2_op_q == OpRelease && s2_own_clk == '1), clk_i, rst_i)
  // An imported line with shared bytes always holds its clock in the pool
  // (EVERYTHING), so the next command on it can never find it LASTWRITE.
  logic import_entry_written;
  always_comb begin
    import_entry_written = 1'b0;
    for (int w = 0; w < RvcWays; w++) begin
      if (rvc_wr_en[w] && rvc_wr_tag[w*PTagW + PValBit] && rvc_wr_tag[w*PTagW +: GranW] == s3_gran_q) begin
        import_entry_written = 1'b1;
      end
    end
  end
  `RAC_ASSERT(ImportTakesPoolEntry,
              !(exec_done && s3_is_import && PoolOn != 0 && s3_mask_q != '0 && !import_entry_written), clk_i, rst_i)
  // A set never holds two valid entries with the same tag (replacement and
  // fill logic).
  `RAC_ASSERT(NoDuplicateTags, !(s1_valid_q && dup_tag), clk_i, rst_i)
  // The registered hit vector is the tag compare of what S1 holds.
  logic [Ways-1:0] s1_hitv_cmp;
  for (genvar w = 0; w < Ways; w++) begin : g_hitv_cmp
    assign s1_hitv_cmp[w] = s1_tvalid_q[w] && s1_tag_q[w*TagW +: TagW] == tag_of(s1_gran_q);
  end
  `RAC_ASSERT(HitVectorHeld, !(s1_valid_q && s1_hitv_q != s1_hitv_cmp), clk_i, rst_i)
  logic [Ways-1:0] s0_hitv_cmp;
  for (genvar w = 0; w < Ways; w++) begin : g_s0_hitv_cmp
    assign s0_hitv_cmp[w] = in_valid[w] && in_tag[w*TagW +: TagW] == tag_of(s0_gran_q);
  end
  `RAC_ASSERT(S0HitsFromLastView, !(s1_ready && s0_offer && s0_hitv != s0_hitv_cmp), clk_i, rst_i)
  // The read-index choice: S0 re-reads only when SN's command cannot move
  // in, and S1 "stuck" (S0's re-read chosen from registers) never takes.
  `RAC_ASSERT(ReReadOnlyWhenHeld, !(rd_s0 && nx_advance), clk_i, rst_i)
  `RAC_ASSERT(HazardPredicted, !(hz_pred_q && !hazard), clk_i, rst_i)
  `RAC_ASSERT(GranEqHeld, !(s2_valid_q && s3_valid_q && gran_eq_q != (s2_gran_q == s3_gran_q)), clk_i, rst_i)
  `RAC_ASSERT(PsetEqHeld, !(s2_valid_q && s3_valid_q && pset_eq_q != (rvc_of_set(s2_set_q) == rvc_of_set(s3_set_q))),
              clk_i, rst_i)
  // S3's registered facts from S2 are S3's own function of what it holds.
  `RAC_ASSERT(OpClassHeld, !(s3_valid_q && (s3_is_access != is_access_op(s3_op_q) ||
                                            s3_is_import != (s3_op_q == OpImportLine))), clk_i, rst_i)
  `RAC_ASSERT(MayWritePoolHeld, !(s3_valid_q && s3_may_write_pool !=
                                  ((PoolOn != 0) && (s3_is_import || cur_shared != '0 ||
                                                     (s3_op_q == OpRead && (s3_mask_q & ~s3_r_ok_q) != '0)))),
              clk_i, rst_i)
  `RAC_ASSERT(RulesFromS2, !(s3_valid_q && {share_chk, lw_share_chk, touch_chk, lw_esc_chk} !=
                             {share_b, lw_share_b, touch_b, lw_esc_b}), clk_i, rst_i)
  `RAC_ASSERT(StuckS1TakesNothing, !(s1_stuck && s1_ready), clk_i, rst_i)
  // The victim chosen as the command entered S1 is still the choice when it
  // misses: its set's valid bits did not change meanwhile.
  `RAC_ASSERT(VictimChoiceHeld,
              !(miss_now && (s1_victim_free_q ? s1_tvalid_q[s1_victim_q] : s1_tvalid_q != '1)), clk_i, rst_i)
  // S1's miss FSM runs with S2 and S3 empty (the write indices rely on it).
  `RAC_ASSERT(MissFsmAlone, !(s1_valid_q && s1_state_q != S1Exec && (s2_valid_q || s3_valid_q)), clk_i, rst_i)
  // A fill is installed only while nothing else writes the arrays.
  `RAC_ASSERT(InstallAlone, !(install && (s2_valid_q || s3_valid_q)), clk_i, rst_i)
  // The hazard rule: the command leaving S2 never reads what S3 writes now.
  `RAC_ASSERT(NoStaleLineEntersS3, !(s2_advance && wr_en && wr_gran == s2_gran_q && s2_is_lookup), clk_i, rst_i)
  // A record waiting under back-pressure stays the same record.
  `RAC_ASSERT_NEXT(RaceRecordHeld, race_valid_o && !race_ready_i,
                   race_valid_o && race_seq_o == $past(race_seq_o) && race_mask_o == $past(race_mask_o),
                   clk_i, rst_i)
  `RAC_ASSERT_NEXT(EscRecordHeld, esc_valid_o && !esc_ready_i,
                   esc_valid_o && esc_seq_o == $past(esc_seq_o) && esc_granule_o == $past(esc_granule_o),
                   clk_i, rst_i)
  // A memory request waiting for ready stays the same request.
  `RAC_ASSERT_NEXT(MemRequestHeld, mem_req_valid_o && !mem_req_ready_i,
                   mem_req_valid_o && mem_req_write_o == $past(mem_req_write_o) &&
                   mem_req_granule_o == $past(mem_req_granule_o), clk_i, rst_i)
  // The status never claims more than is on chip: an INSOFTWARE line is
  // never decided in hardware (no race record, no change but a full free).
  `RAC_ASSERT(InSoftwareNotDecided,
              !(exec_done && s3_is_access && insoftware && !full_free && (any_raced || final_line != cur_line)),
              clk_i, rst_i)
  // A pool entry holds a granule's clock only while that granule's line (on
  // chip, EVERYTHING) has shared bytes: a clock is never left behind for a
  // later life of the granule (the stale-read hazard).
  `RAC_ASSERT(ReadVcNeverStale,
              !(s3_valid_q && s3_is_access && rvc_hit != '0 && (cur_shared == '0 || insoftware)), clk_i, rst_i)
  // With several ways, a line's clocks cover disjoint bytes, all shared.
  logic clock_bytes_overlap;
  always_comb begin
    clock_bytes_overlap = 1'b0;
    for (int a = 0; a < RvcWays; a++) begin
      if (Multi != 0 && rvc_hit[a] && (way_mask[8*a +: 8] & ~cur_shared) != '0) clock_bytes_overlap = 1'b1;
      for (int b = a + 1; b < RvcWays; b++) begin
        if (rvc_hit[a] && rvc_hit[b] && (way_mask[8*a +: 8] & way_mask[8*b +: 8]) != '0) clock_bytes_overlap = 1'b1;
      end
    end
  end
  `RAC_ASSERT(ClocksCoverDisjointSharedBytes, !(s3_valid_q && s3_is_access && clock_bytes_overlap), clk_i, rst_i)
  // LASTWRITE is never upgraded by the pool: with one way, an entry is newly
  // given to a granule only while its line has no shared bytes (with
  // several, only to bytes without a clock, which the masks check above).
  `RAC_ASSERT(NoAllocationOverSharedBytes,
              !(Multi == 0 && exec_done && s3_is_access && take_now && rvc_hit == '0 && cur_shared != '0),
              clk_i, rst_i)
  // A LASTWRITE line never lets a write of a shared byte through on chip
  // (the reads it must be checked against are with the host): a write
  // decided on chip leaves every shared byte's W as it was (a free may
  // clear it).
  logic lw_shared_w_changed;
  always_comb begin
    lw_shared_w_changed = 1'b0;
    for (int b = 0; b < 8; b++) begin
      if (cur_shared[b] && (!byte_clk[b] || byte_partial[b]) &&
          final_line[ByteLo + b*ByteW + WSlotLo +: SlotW + ClkW] != cur_bytes[b*ByteW + WSlotLo +: SlotW + ClkW]) begin
        lw_shared_w_changed = 1'b1;
      end
    end
  end
  `RAC_ASSERT(LastWriteWritesGoToHost,
              !(exec_done && s3_op_q == OpWrite && !escalate && lw_shared_w_changed), clk_i, rst_i)
  // The dirty bit never misses a change of the line.
  `RAC_ASSERT(ChangeMarksDirty, !(wr_en && !install && commit_line != cur_line && !line_changed), clk_i, rst_i)
  // A line leaves the cache without its clock in the pool (the eviction
  // spill freed it): the host, not the pool, then holds the clock.
  `RAC_ASSERT(NoPoolClockWrittenBack,
              !(mem_req_valid_o && mem_req_write_o && pool_hits(s1_rvc_tag_q, victim_gran) != '0),
              clk_i, rst_i)
  // The eviction spill never meets a record or a pool write of S3.
  `RAC_ASSERT(EvictionSpillAlone, !(ev_spill_fire && (s2_valid_q || s3_valid_q)), clk_i, rst_i)

  // ---------------------------------------------------------------------------
  // Cover points (only in the coverage models of tests/kernel: -DRAC_COVER;
  // docs/verification.md lists them and how to read the report). Each names
  // a rare state the tests must reach.
  // ---------------------------------------------------------------------------
`ifdef RAC_COVER
  // Escalations by reason x op x whether the record carries a read clock.
  // Only the reachable crosses: a full free escalates only as a reclaim of
  // an INSOFTWARE line, which never holds a pool clock (its entry left
  // when it escalated), and neither does any INSOFTWARE line; an atomic
  // read checks only the write epoch, so it never needs read history.
  logic cov_esc, cov_clk;
  logic [2:0] cov_op;  // 0 read, 1 write, 2 partial free, 3 atomic read, 4 atomic write
  assign cov_esc = exec_done && s3_is_access && escalate;
  assign cov_clk = esc_first != '0 && PoolOn != 0;
  always_comb begin
    if (s3_op_q == OpFree) cov_op = 3'd2;
    else if (s3_op_q == OpWrite) cov_op = s3_atomic_q ? 3'd4 : 3'd1;
    else cov_op = s3_atomic_q ? 3'd3 : 3'd0;
  end
  for (genvar op = 0; op < 5; op++) begin : g_cov_op
    cov_in_software: cover property (@(posedge clk_i) disable iff (rst_i)
      cov_esc && esc_reason == rac_pkg::EscInSoftware && cov_op == 3'(op) && !cov_clk);
    for (genvar c = 0; c < 2; c++) begin : g_clk
      cov_forced: cover property (@(posedge clk_i) disable iff (rst_i)
        cov_esc && esc_reason == rac_pkg::EscForced && cov_op == 3'(op) && cov_clk == c[0]);
      if (op != 2 && op != 3) begin : g_share
        cov_read_share: cover property (@(posedge clk_i) disable iff (rst_i)
          cov_esc && esc_reason == rac_pkg::EscReadShare && cov_op == 3'(op) && cov_clk == c[0]);
      end
    end
  end
  cov_reclaim: cover property (@(posedge clk_i) disable iff (rst_i)
    cov_esc && esc_reason == rac_pkg::EscReclaim && cov_op == 3'd2 && !cov_clk);
  // Pool spills: a clock displaced by another line's new clock, the clocks
  // of an evicted line, an escalation's further clocks (several ways);
  // partial clocks (reason 6) separately.
  // (Verilator 5.006 never counts a cover whose expression calls a
  // function: the partial bit is taken out here.)
  if (PoolOn != 0) begin : g_cov_pool
    logic cov_disp_partial;
    assign cov_disp_partial = Multi != 0 && disp_tag[PPartBit];
    cov_displace: cover property (@(posedge clk_i) disable iff (rst_i) rvc_displace && !cov_disp_partial);
    cov_eviction_spill: cover property (@(posedge clk_i) disable iff (rst_i) ev_spill_fire);
    if (Multi != 0) begin : g_multi
      cov_displace_partial: cover property (@(posedge clk_i) disable iff (rst_i) rvc_displace && cov_disp_partial);
      cov_escalation_spill: cover property (@(posedge clk_i) disable iff (rst_i) esc_spill_fire);
      cov_import_read_clock: cover property (@(posedge clk_i) disable iff (rst_i)
        exec_done && s3_is_import && s3_atomic_q);
    end
  end
  // Re-import (op 7) of a line, with and without shared bytes' clock.
  cov_import: cover property (@(posedge clk_i) disable iff (rst_i) exec_done && s3_is_import && !s3_atomic_q);
  if (PoolOn != 0) begin : g_cov_import_clock
    cov_import_with_clock: cover property (@(posedge clk_i) disable iff (rst_i)
      exec_done && s3_is_import && !s3_atomic_q && s3_mask_q != '0);
  end
  // A slot recycled: set-row over a row that held a clock.
  cov_slot_recycled: cover property (@(posedge clk_i) disable iff (rst_i)
    row_wr_en && s2_op_q == OpSetRow && s2_row_q != '0);
  // A miss that writes a dirty victim back.
  cov_write_back: cover property (@(posedge clk_i) disable iff (rst_i)
    mem_req_valid_o && mem_req_ready_i && mem_req_write_o);
`endif

endmodule
