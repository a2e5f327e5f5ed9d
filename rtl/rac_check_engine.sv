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
// V is the sync-object clock store: Objects vector clocks on chip, managed
// by the host (which places lock clocks in it, reloads them after evictions
// and always knows their exact value, so nothing is ever written back).
//
// Each cache line holds one granule: per byte the last-write epoch W, the
// last-read epoch R, a "raced" flag and a "shared" flag, plus the line's
// in-hardware status. Bytes whose reads became concurrent ("shared") keep
// one read vector clock, common to the line's shared bytes, in the read-VC
// pool: ReadVcs clocks on chip, direct-mapped by granule and tagged with it.
// Status (RADISH): EVERYTHING (W and every last read on chip), LASTWRITE (W
// on chip; the shared bytes' read clock left the pool for the host, and R
// now holds only the reads since), INSOFTWARE (the host owns the line).
// What the hardware cannot decide exactly is escalated with the line's
// state (and its read clock, if on chip), never guessed. Misses fill from, and dirty evictions write to, a backing store
// in host-owned memory (one LineW-bit record per granule).
//
// Pipeline: S0 registers the command and reads tag, data and the thread's
// clock row (registered reads, RAM-inferable); S1 compares tags, runs the
// FastTrack rules on all 8 byte lanes at once and writes back. A hit takes
// one cycle; a miss blocks S1 while it evicts and fills. Two commands to one
// line behave as if processed one after another: a command's registered
// read can miss only the array writes of the edge it was read at and of the
// edge it enters S1 at, and S1's view is patched with both (bypass). Sets
// and Ways must be powers of two. See docs/hardware.md.
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
  // Derived
  parameter int unsigned SlotW  = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned ByteW  = 1 + 2 * (SlotW + ClkW),
  parameter int unsigned LineW  = 1 + 8 * ByteW + ((ReadVcs > 0) ? 8 : 0),
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
  input  logic [SlotW-1:0]     cmd_slot_i,
  input  logic [7:0]           cmd_mask_i,
  input  logic [GranW-1:0]     cmd_granule_i,
  input  logic [SeqW-1:0]      cmd_seq_i,
  input  logic [RowW-1:0]      cmd_row_i,       // OpSetRow/OpLoadObj: a clock, lane i at [i*ClkW +: ClkW]

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
  localparam logic [2:0] OpAcquire = 3'd4, OpRelease = 3'd5, OpLoadObj = 3'd6;
  localparam logic [1:0] KindWriteWrite = 2'd0, KindWriteRead = 2'd1, KindReadWrite = 2'd2;
  localparam int unsigned TagW = GranW - ((Sets > 1) ? SetW : 0);
  // Byte-state fields
  localparam int unsigned RacedBit = 0;
  localparam int unsigned WSlotLo  = 1;
  localparam int unsigned WClkLo   = 1 + SlotW;
  localparam int unsigned RSlotLo  = 1 + SlotW + ClkW;
  localparam int unsigned RClkLo   = 1 + 2 * SlotW + ClkW;
  // Line layout: [0] INSOFTWARE, then 8 bytes of ByteW bits (the body);
  // with a read-VC pool, then the shared-byte mask and the LASTWRITE bit.
  localparam int unsigned BodyW  = 1 + 8 * ByteW;
  localparam int unsigned PoolOn = (ReadVcs > 0) ? 1 : 0;
  localparam int unsigned RvcN   = (ReadVcs > 0) ? ReadVcs : 1;
  localparam int unsigned RvcW   = (RvcN > 1) ? $clog2(RvcN) : 1;
  // The post-reset sweep clears the tag RAMs of the cache and of the pool.
  localparam int unsigned InitN  = (Sets > RvcN) ? Sets : RvcN;
  localparam int unsigned InitW  = (InitN > 1) ? $clog2(InitN) : 1;

  // ---------------------------------------------------------------------------
  // Storage: per way a tag RAM, a line RAM and valid/dirty bits; the thread
  // clock rows; the replacement state. Per-way signals are flattened
  // ([Ways*W-1:0]) to stay inside the SV subset Yosys 0.23 reads.
  // ---------------------------------------------------------------------------
  logic [RowW-1:0]  clk_mem [NumSlots];

  // ---------------------------------------------------------------------------
  // S0: the command register and the registered array reads
  // ---------------------------------------------------------------------------
  logic                 s0_valid_q;
  logic [2:0]           s0_op_q;
  logic                 s0_force_q;
  logic [SlotW-1:0]     s0_slot_q;
  logic [7:0]           s0_mask_q;
  logic [GranW-1:0]     s0_gran_q;
  logic [SeqW-1:0]      s0_seq_q;
  logic [RowW-1:0]      s0_crow_q;

  logic s1_ready;  // S1 takes a new command at the coming edge
  logic init_q;  // the post-reset sweep that invalidates every way
  assign cmd_ready_o = !init_q && (!s0_valid_q || s1_ready);

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s0_valid_q <= 1'b0;
    end else if (cmd_ready_o) begin
      s0_valid_q <= cmd_valid_i;
    end
    if (cmd_ready_o && cmd_valid_i) begin
      s0_op_q    <= cmd_op_i;
      s0_force_q <= cmd_force_sw_i;
      s0_slot_q  <= cmd_slot_i;
      s0_mask_q  <= cmd_mask_i;
      s0_gran_q  <= cmd_granule_i;
      s0_seq_q   <= cmd_seq_i;
      s0_crow_q  <= cmd_row_i;
    end
  end

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
  /* verilator lint_on UNUSEDSIGNAL */

  // The index S0 will hold after this edge: registered reads use it, so the
  // data is ready when the command moves on.
  logic [GranW-1:0] s0_gran_next;
  logic [SlotW-1:0] s0_slot_next;
  assign s0_gran_next = (cmd_ready_o && cmd_valid_i) ? cmd_granule_i : s0_gran_q;
  assign s0_slot_next = (cmd_ready_o && cmd_valid_i) ? cmd_slot_i : s0_slot_q;

  // Array write port (driven by S1, below)
  logic             wr_en;
  logic [WayW-1:0]  wr_way;
  logic [TagW-1:0]  wr_tag;
  logic             wr_dirty;
  logic [LineW-1:0] wr_line;
  logic             row_wr_en;
  logic [RowW-1:0]  row_wr_data;
  logic             obj_wr_en;
  logic [RowW-1:0]  obj_wr_data;

  // S1 command register (declared here: the storage above uses it)
  logic                 s1_valid_q;
  logic [2:0]           s1_op_q;
  logic                 s1_force_q;
  logic [SlotW-1:0]     s1_slot_q;
  logic [7:0]           s1_mask_q;
  logic [GranW-1:0]     s1_gran_q;
  logic [SeqW-1:0]      s1_seq_q;
  logic [RowW-1:0]      s1_crow_q;

  logic [Ways*TagW-1:0]  rd_tag_q;
  logic [Ways-1:0]       rd_valid_q, rd_dirty_q;  // views of the registered tag reads
  logic [Ways*LineW-1:0] rd_line_q;
  // After reset an init sweep clears the valid bits, one set (and one pool
  // entry) per cycle, so tags, valid and dirty bits live together in one RAM
  // word per way (no resettable flop array of Sets bits).
  logic [InitW-1:0] init_idx_q;
  logic             init_sets;  // the sweep index is a set
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      init_q <= 1'b1;
      init_idx_q <= '0;
    end else if (init_q) begin
      init_idx_q <= init_idx_q + 1'b1;
      if (init_idx_q == InitW'(InitN - 1)) init_q <= 1'b0;
    end
  end
  localparam logic [InitW:0] SetsCount = Sets[InitW:0];
  assign init_sets = {1'b0, init_idx_q} < SetsCount;

  for (genvar w = 0; w < Ways; w++) begin : g_way
    logic [TagW+1:0]  tag_mem  [Sets];  // {valid, dirty, tag}
    logic [LineW-1:0] line_mem [Sets];
    logic             wr_this;
    assign wr_this = wr_en && wr_way == w[WayW-1:0];
    always_ff @(posedge clk_i) begin
      if (init_q) begin
        if (init_sets) tag_mem[init_idx_q[SetW-1:0]] <= '0;
      end else if (wr_this) begin
        tag_mem[set_of(s1_gran_q)] <= {1'b1, wr_dirty, wr_tag};
      end
      if (wr_this) line_mem[set_of(s1_gran_q)] <= wr_line;
    end
    logic [TagW+1:0] tag_rd_q;
    always_ff @(posedge clk_i) begin
      tag_rd_q <= tag_mem[set_of(s0_gran_next)];
      rd_line_q[w*LineW +: LineW] <= line_mem[set_of(s0_gran_next)];
    end
    assign rd_tag_q[w*TagW +: TagW] = tag_rd_q[TagW-1:0];
    assign rd_dirty_q[w] = tag_rd_q[TagW];
    assign rd_valid_q[w] = tag_rd_q[TagW+1];
  end

  logic [RowW-1:0] rd_row_q;
  always_ff @(posedge clk_i) begin
    if (row_wr_en) clk_mem[s1_slot_q] <= row_wr_data;
    rd_row_q <= clk_mem[s0_slot_next];
  end

  // The sync-object clock store (RAM without reset: the host loads an entry
  // before its first use).
  logic [RowW-1:0] obj_mem [Objects];
  logic [RowW-1:0] rd_obj_q;
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [ObjW-1:0] obj_of(input logic [GranW-1:0] g);
    obj_of = (Objects > 1) ? g[ObjW-1:0] : '0;
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk_i) begin
    if (obj_wr_en) obj_mem[obj_of(s1_gran_q)] <= obj_wr_data;
    rd_obj_q <= obj_mem[obj_of(s0_gran_next)];
  end

  // The read-VC pool: per entry {valid, granule} in a tag RAM (cleared by the
  // init sweep) and the clock in a data RAM, direct-mapped by an XOR fold of
  // the granule, read in S0 alongside the cache. Written by S1 only.
  logic             rvc_wr_en;
  logic             rvc_wr_valid;
  logic [RowW-1:0]  rvc_wr_vc;
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [RvcW-1:0] rvc_of(input logic [GranW-1:0] g);
    rvc_of = '0;
    if (RvcN > 1) begin
      for (int i = 0; i < GranW; i++) rvc_of[i % RvcW] = rvc_of[i % RvcW] ^ g[i];
    end
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */
  logic [GranW:0]  rvc_tag_mem [RvcN];  // {valid, granule}
  logic [RowW-1:0] rvc_mem     [RvcN];
  logic [GranW:0]  rd_rvc_tag_q;
  logic [RowW-1:0] rd_rvc_q;
  always_ff @(posedge clk_i) begin
    if (init_q) begin
      rvc_tag_mem[init_idx_q[RvcW-1:0]] <= '0;
    end else if (rvc_wr_en) begin
      rvc_tag_mem[rvc_of(s1_gran_q)] <= {rvc_wr_valid, s1_gran_q};
    end
    if (rvc_wr_en) rvc_mem[rvc_of(s1_gran_q)] <= rvc_wr_vc;
    rd_rvc_tag_q <= rvc_tag_mem[rvc_of(s0_gran_next)];
    rd_rvc_q     <= rvc_mem[rvc_of(s0_gran_next)];
  end

  // ---------------------------------------------------------------------------
  // S1: lookup, miss handling, FastTrack rules, write-back
  // ---------------------------------------------------------------------------
  typedef enum logic [2:0] {S1Idle, S1Exec, S1WbReq, S1WbWait, S1FillReq, S1FillWait} s1_state_e;
  s1_state_e s1_state_q, s1_state_d;

  // S1's private copy of its set and of its thread's clock row, taken on entry.
  logic [Ways*TagW-1:0]  s1_tag_q;
  logic [Ways-1:0]       s1_tvalid_q, s1_dirty_q;
  logic [Ways*LineW-1:0] s1_line_q;
  logic [RowW-1:0]       s1_row_q;
  logic [RowW-1:0]       s1_obj_q;
  logic [GranW:0]        s1_rvc_tag_q;  // the pool entry of S1's granule: {valid, granule}
  logic [RowW-1:0]       s1_rvc_q;
  logic [WayW-1:0]       s1_victim_q;

  // Bypass: the array write made at the last edge, which the registered
  // read of the command in S0 could not see. (The write made at the coming
  // edge is patched in directly from the write port.)
  logic             byp_valid_q;
  logic [SetW-1:0]  byp_set_q;
  logic [WayW-1:0]  byp_way_q;
  logic [TagW-1:0]  byp_tag_q;
  logic             byp_dirty_q;
  logic [LineW-1:0] byp_line_q;
  logic             byp_row_valid_q;
  logic [SlotW-1:0] byp_row_slot_q;
  logic [RowW-1:0]  byp_row_q;
  logic             byp_obj_valid_q;
  logic [ObjW-1:0]  byp_obj_idx_q;
  logic [RowW-1:0]  byp_obj_q;
  logic             byp_rvc_valid_q;
  logic [RvcW-1:0]  byp_rvc_idx_q;
  logic [GranW:0]   byp_rvc_tag_q;
  logic [RowW-1:0]  byp_rvc_q;

  // The view S0's command takes into S1: registered read, then the write of
  // the last edge, then the write of this cycle.
  logic [Ways*TagW-1:0]  in_tag;
  logic [Ways-1:0]       in_valid, in_dirty;
  logic [Ways*LineW-1:0] in_line;
  logic [RowW-1:0]       in_row, in_obj, in_rvc;
  logic [GranW:0]        in_rvc_tag;
  always_comb begin
    in_tag   = rd_tag_q;
    in_valid = rd_valid_q;
    in_dirty = rd_dirty_q;
    in_line  = rd_line_q;
    for (int w = 0; w < Ways; w++) begin
      if (byp_valid_q && byp_set_q == set_of(s0_gran_q) && byp_way_q == w[WayW-1:0]) begin
        in_tag[w*TagW +: TagW]    = byp_tag_q;
        in_valid[w]               = 1'b1;
        in_dirty[w]               = byp_dirty_q;
        in_line[w*LineW +: LineW] = byp_line_q;
      end
      if (wr_en && set_of(s1_gran_q) == set_of(s0_gran_q) && wr_way == w[WayW-1:0]) begin
        in_tag[w*TagW +: TagW]    = wr_tag;
        in_valid[w]               = 1'b1;
        in_dirty[w]               = wr_dirty;
        in_line[w*LineW +: LineW] = wr_line;
      end
    end
    in_row = rd_row_q;
    if (byp_row_valid_q && byp_row_slot_q == s0_slot_q) in_row = byp_row_q;
    if (row_wr_en && s1_slot_q == s0_slot_q) in_row = row_wr_data;
    in_obj = rd_obj_q;
    if (byp_obj_valid_q && byp_obj_idx_q == obj_of(s0_gran_q)) in_obj = byp_obj_q;
    if (obj_wr_en && obj_of(s1_gran_q) == obj_of(s0_gran_q)) in_obj = obj_wr_data;
    in_rvc_tag = rd_rvc_tag_q;
    in_rvc     = rd_rvc_q;
    if (byp_rvc_valid_q && byp_rvc_idx_q == rvc_of(s0_gran_q)) begin
      in_rvc_tag = byp_rvc_tag_q;
      in_rvc     = byp_rvc_q;
    end
    if (rvc_wr_en && rvc_of(s1_gran_q) == rvc_of(s0_gran_q)) begin
      in_rvc_tag = {rvc_wr_valid, s1_gran_q};
      in_rvc     = rvc_wr_vc;
    end
  end

  // Lookup on S1's copy
  logic            hit;
  logic [WayW-1:0] hit_way;
  always_comb begin
    hit = 1'b0;
    hit_way = '0;
    for (int w = 0; w < Ways; w++) begin
      if (s1_tvalid_q[w] && s1_tag_q[w*TagW +: TagW] == tag_of(s1_gran_q)) begin
        hit = 1'b1;
        hit_way = w[WayW-1:0];
      end
    end
  end

  // FastTrack rules on the 8 byte lanes of the line, all at once
  logic [LineW-1:0]   cur_line;
  logic [BodyW-1:0]   cur_body, new_body;
  logic [7:0]         cur_shared;   // bytes whose reads are the line's read clock
  logic [7:0]         raced_before;
  logic [ClkW-1:0]    own_clk;
  logic [7:0]         raced;
  logic [15:0]        kinds;
  logic [8*SlotW-1:0] prev_slots;
  logic [8*ClkW-1:0]  prev_clks;
  logic [7:0]         share_b;    // epoch bytes whose reads became concurrent [FT READ SHARE]
  logic               rvc_touch;  // a read must raise its thread's lane of the read clock
  logic               lw_esc;     // a LASTWRITE line needs the reads the host holds
  logic [7:0]         unshare;    // shared bytes a write made exclusive [FT WRITE SHARED]
  logic [ByteW-1:0]   st;
  logic [SlotW-1:0]   w_slot, r_slot;
  logic [ClkW-1:0]    w_clk, r_clk;
  logic               w_ok, r_ok, same_r, same_w;
  logic [7:0]         w_ok_b, r_ok_b;  // per byte: W_x ≼ C_t, R_x ≼ C_t
  assign cur_line = s1_line_q[hit_way*LineW +: LineW];
  assign cur_body = cur_line[BodyW-1:0];
  if (PoolOn != 0) begin : g_shared_in
    assign cur_shared = cur_line[BodyW +: 8];
  end else begin : g_no_shared_in
    assign cur_shared = '0;
  end
  for (genvar b = 0; b < 8; b++) begin : g_raced_before
    assign raced_before[b] = cur_body[1 + b * ByteW + RacedBit];
  end

  // The line's status. Its shared bytes' read clock is on chip while the
  // pool entry holds this granule (EVERYTHING); once another granule took
  // the entry, the clock went to the host in a spill record and the line is
  // LASTWRITE: W is still exact on chip, and a shared byte's R holds only
  // the latest read since (kept by the [FT READ EXCLUSIVE] rule). The entry
  // can hold this granule again only through a new allocation, which needs a
  // line without shared bytes, so a spilled clock is never mistaken for a
  // current one (the stale-read hazard, RADISH digest §2.14).
  logic rvc_hit, has_rvc, lastwrite;
  assign rvc_hit   = (PoolOn != 0) && s1_rvc_tag_q[GranW] && s1_rvc_tag_q[GranW-1:0] == s1_gran_q;
  assign has_rvc   = cur_shared != '0 && rvc_hit;
  assign lastwrite = cur_shared != '0 && !rvc_hit;

  // The epoch checks and the thread's own clock use the vector-clock units.
  vc_lane_sel_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_own_clk (
    .vc_i(s1_row_q), .slot_i(s1_slot_q), .lane_o(own_clk)
  );
  for (genvar b = 0; b < 8; b++) begin : g_byte_check
    vc_epoch_leq_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_w_ok (
      .epoch_slot_i(cur_body[1 + b * ByteW + WSlotLo +: SlotW]),
      .epoch_clk_i(cur_body[1 + b * ByteW + WClkLo +: ClkW]),
      .vc_i(s1_row_q), .leq_o(w_ok_b[b])
    );
    vc_epoch_leq_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_r_ok (
      .epoch_slot_i(cur_body[1 + b * ByteW + RSlotLo +: SlotW]),
      .epoch_clk_i(cur_body[1 + b * ByteW + RClkLo +: ClkW]),
      .vc_i(s1_row_q), .leq_o(r_ok_b[b])
    );
  end
  // The read clock against the thread: its own lane, R ⊑ C_t, and the first
  // lane that is not (a concurrent reader, for a race record).
  logic [ClkW-1:0]     rvc_own, rvc_prev_clk;
  logic                rvc_leq;
  logic [SlotW-1:0]    rvc_prev_slot;
  /* verilator lint_off UNUSEDSIGNAL */
  logic                rvc_any_greater;
  logic [NumSlots-1:0] rvc_greater_lanes;
  /* verilator lint_on UNUSEDSIGNAL */
  vc_lane_sel_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_rvc_own (
    .vc_i(s1_rvc_q), .slot_i(s1_slot_q), .lane_o(rvc_own)
  );
  vc_leq_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_rvc_leq (
    .a_i(s1_rvc_q), .b_i(s1_row_q), .leq_o(rvc_leq), .any_greater_o(rvc_any_greater),
    .first_greater_lane_o(rvc_prev_slot), .greater_lanes_o(rvc_greater_lanes)
  );
  vc_lane_sel_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_rvc_prev (
    .vc_i(s1_rvc_q), .slot_i(rvc_prev_slot), .lane_o(rvc_prev_clk)
  );

  always_comb begin
    new_body = cur_body;
    raced = '0;
    kinds = '0;
    prev_slots = '0;
    prev_clks = '0;
    share_b = '0;
    rvc_touch = 1'b0;
    lw_esc = 1'b0;
    unshare = '0;
    st = '0;
    w_slot = '0;
    r_slot = '0;
    w_clk = '0;
    r_clk = '0;
    w_ok = 1'b0;
    r_ok = 1'b0;
    same_r = 1'b0;
    same_w = 1'b0;
    for (int b = 0; b < 8; b++) begin
      st = cur_body[1 + b * ByteW +: ByteW];
      w_slot = st[WSlotLo +: SlotW];
      w_clk  = st[WClkLo +: ClkW];
      r_slot = st[RSlotLo +: SlotW];
      r_clk  = st[RClkLo +: ClkW];
      w_ok   = w_ok_b[b];
      r_ok   = r_ok_b[b];
      same_r = r_slot == s1_slot_q && r_clk == own_clk;
      same_w = w_slot == s1_slot_q && w_clk == own_clk;
      if (s1_mask_q[b]) begin
        if (s1_op_q == OpFree) begin
          new_body[1 + b * ByteW +: ByteW] = '0;
        end else if (!st[RacedBit]) begin
          if (s1_op_q == OpRead) begin
            if (cur_shared[b] && has_rvc) begin
              if (rvc_own == own_clk) begin
                // [FT READ SAME EPOCH]
              end else if (!w_ok) begin
                raced[b] = 1'b1;
                kinds[2*b +: 2] = KindWriteRead;
                prev_slots[b*SlotW +: SlotW] = w_slot;
                prev_clks[b*ClkW +: ClkW] = w_clk;
              end else begin
                rvc_touch = 1'b1;  // [FT READ SHARED]
              end
            end else if (same_r) begin
              // [FT READ SAME EPOCH]
            end else if (!w_ok) begin
              raced[b] = 1'b1;
              kinds[2*b +: 2] = KindWriteRead;
              prev_slots[b*SlotW +: SlotW] = w_slot;
              prev_clks[b*ClkW +: ClkW] = w_clk;
            end else if (r_ok) begin
              // [FT READ EXCLUSIVE] (on a LASTWRITE line's shared byte: the
              // latest read since the clock left)
              new_body[1 + b * ByteW + RSlotLo +: SlotW] = s1_slot_q;
              new_body[1 + b * ByteW + RClkLo +: ClkW] = own_clk;
            end else if (cur_shared[b]) begin
              lw_esc = 1'b1;  // concurrent with a read since: the host joins them
            end else begin
              share_b[b] = 1'b1;  // [FT READ SHARE]
            end
          end else begin
            if (same_w) begin
              // [FT WRITE SAME EPOCH]
            end else if (!w_ok) begin
              raced[b] = 1'b1;
              kinds[2*b +: 2] = KindWriteWrite;
              prev_slots[b*SlotW +: SlotW] = w_slot;
              prev_clks[b*ClkW +: ClkW] = w_clk;
            end else if (cur_shared[b] && !has_rvc) begin
              lw_esc = 1'b1;  // LASTWRITE: the earlier reads are with the host
            end else if (cur_shared[b] && !rvc_leq) begin
              raced[b] = 1'b1;
              kinds[2*b +: 2] = KindReadWrite;
              prev_slots[b*SlotW +: SlotW] = rvc_prev_slot;
              prev_clks[b*ClkW +: ClkW] = rvc_prev_clk;
            end else if (!cur_shared[b] && !r_ok) begin
              raced[b] = 1'b1;
              kinds[2*b +: 2] = KindReadWrite;
              prev_slots[b*SlotW +: SlotW] = r_slot;
              prev_clks[b*ClkW +: ClkW] = r_clk;
            end else begin
              // [FT WRITE EXCLUSIVE], or [FT WRITE SHARED] (R := ⊥)
              new_body[1 + b * ByteW + WSlotLo +: SlotW] = s1_slot_q;
              new_body[1 + b * ByteW + WClkLo +: ClkW] = own_clk;
              if (cur_shared[b]) begin
                unshare[b] = 1'b1;
                new_body[1 + b * ByteW + RSlotLo +: SlotW] = '0;
                new_body[1 + b * ByteW + RClkLo +: ClkW] = '0;
              end
            end
          end
          if (raced[b]) new_body[1 + b * ByteW + RacedBit] = 1'b1;
        end
      end
    end
  end

  // Bytes that start sharing may take a new read clock when the line has
  // none and they all share one earlier read (equal R epochs): the clock is
  // that read plus this one. Otherwise the line goes to the host.
  logic [SlotW-1:0] share_r_slot;
  logic [ClkW-1:0]  share_r_clk;
  logic             share_same;
  always_comb begin
    share_r_slot = '0;
    share_r_clk  = '0;
    share_same   = 1'b1;
    for (int b = 7; b >= 0; b--) begin
      if (share_b[b]) begin
        share_r_slot = cur_body[1 + b * ByteW + RSlotLo +: SlotW];
        share_r_clk  = cur_body[1 + b * ByteW + RClkLo +: ClkW];
      end
    end
    for (int b = 0; b < 8; b++) begin
      if (share_b[b] && (cur_body[1 + b * ByteW + RSlotLo +: SlotW] != share_r_slot ||
                         cur_body[1 + b * ByteW + RClkLo +: ClkW] != share_r_clk)) begin
        share_same = 1'b0;
      end
    end
  end

  logic rvc_alloc_ok, rvc_update_ok, need_share;
  assign rvc_alloc_ok = (PoolOn != 0) && share_b != '0 && cur_shared == '0 && share_same;
  // Raising one lane of the clock changes every shared byte's reads: exact
  // only when every shared byte still checked is read now.
  assign rvc_update_ok = (cur_shared & ~s1_mask_q & ~raced_before) == '0;
  assign need_share = (share_b != '0 && !rvc_alloc_ok) || lw_esc || (rvc_touch && !rvc_update_ok);

  // What the command does to its line
  logic       insoftware, escalate, full_free, to_software, clear_line;
  logic [2:0] esc_reason;
  assign insoftware = cur_line[0];
  assign full_free  = s1_op_q == OpFree && s1_mask_q == 8'hFF;
  rac_line_status_comb u_status (
    .insoftware_i (insoftware),
    .full_free_i  (full_free),
    .force_i      (s1_force_q),
    .need_share_i (need_share),
    .escalate_o   (escalate),
    .reason_o     (esc_reason),
    .to_software_o(to_software),
    .clear_o      (clear_line)
  );

  // The shared bytes after the command: a write made some exclusive, a free
  // cleared some, an allocation added some. When no shared byte is checked
  // any more (all raced), the clock is dead and the mask is cleared.
  logic [7:0] shared_after, raced_after;
  for (genvar b = 0; b < 8; b++) begin : g_raced_after
    assign raced_after[b] = new_body[1 + b * ByteW + RacedBit];
  end
  always_comb begin
    shared_after = cur_shared & ~unshare;
    if (s1_op_q == OpFree) shared_after = shared_after & ~s1_mask_q;
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
      final_body[0] = 1'b1;  // INSOFTWARE
      final_shared  = cur_shared;
    end else begin
      final_body   = new_body;
      final_shared = shared_after;
      for (int b = 0; b < 8; b++) begin
        if (rvc_alloc_ok && share_b[b]) begin  // R is now the clock's
          final_body[1 + b * ByteW + RSlotLo +: SlotW] = '0;
          final_body[1 + b * ByteW + RClkLo +: ClkW] = '0;
        end
      end
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

  // The pool after the command: a new clock for bytes that started sharing
  // (taking the entry from another granule, whose clock goes to the host in
  // a spill record), the thread's lane raised by a shared read, or the entry
  // freed when the line's clock goes to the host with an escalation or dies.
  logic [RowW-1:0] alloc_vc, touch_vc;
  always_comb begin
    alloc_vc = '0;
    alloc_vc[share_r_slot*ClkW +: ClkW] = share_r_clk;
    alloc_vc[s1_slot_q*ClkW +: ClkW] = own_clk;
    touch_vc = s1_rvc_q;
    touch_vc[s1_slot_q*ClkW +: ClkW] = own_clk;
  end
  logic rvc_displace;
  assign rvc_displace = rvc_alloc_ok && !escalate && s1_rvc_tag_q[GranW] && !rvc_hit;

  logic race_free, esc_free, any_raced, is_access, exec_done;
  assign race_free = !race_valid_o || race_ready_i;
  assign esc_free  = !esc_valid_o || esc_ready_i;
  assign any_raced = |raced && !escalate;
  assign is_access = s1_op_q == OpRead || s1_op_q == OpWrite || s1_op_q == OpFree;
  assign exec_done = s1_valid_q && s1_state_q == S1Exec &&
                     (!is_access || (hit && (!(escalate || rvc_displace) || esc_free) && (!any_raced || race_free)));
  assign s1_ready = !s1_valid_q || exec_done;

  always_comb begin
    rvc_wr_en    = 1'b0;
    rvc_wr_valid = 1'b0;
    rvc_wr_vc    = touch_vc;
    if (PoolOn != 0 && exec_done && is_access) begin
      if (escalate || clear_line) begin
        rvc_wr_en = has_rvc;
      end else if (rvc_alloc_ok) begin
        rvc_wr_en    = 1'b1;
        rvc_wr_valid = 1'b1;
        rvc_wr_vc    = alloc_vc;
      end else if (has_rvc && shared_after == '0) begin
        rvc_wr_en = 1'b1;
      end else if (rvc_touch) begin
        rvc_wr_en    = 1'b1;
        rvc_wr_valid = 1'b1;
      end
    end
  end

  // Victim choice on a miss: a free way first, else the policy's choice
  logic [WayW-1:0] victim, repl_choice;
  logic            free_way_found, miss_now;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [16+Sets*WayW-1:0] repl_state;  // for formal harnesses only
  /* verilator lint_on UNUSEDSIGNAL */
  rac_repl_state #(.Sets(Sets), .Ways(Ways), .ReplPolicy(ReplPolicy)) u_repl (
    .clk_i    (clk_i),
    .rst_i    (rst_i),
    .set_i    (set_of(s1_gran_q)),
    .advance_i(miss_now && !free_way_found),
    .choice_o (repl_choice),
    .state_o  (repl_state)
  );
  rac_victim_sel_comb #(.Ways(Ways)) u_victim (
    .valid_i    (s1_tvalid_q),
    .preferred_i(repl_choice),
    .victim_o   (victim),
    .free_o     (free_way_found)
  );

  assign miss_now = s1_valid_q && s1_state_q == S1Exec && is_access && !hit;

  always_comb begin
    s1_state_d = s1_state_q;
    case (s1_state_q)
      S1Exec:     if (miss_now) s1_state_d = (s1_tvalid_q[victim] && s1_dirty_q[victim]) ? S1WbReq : S1FillReq;
      S1WbReq:    if (mem_req_ready_i) s1_state_d = S1WbWait;
      S1WbWait:   if (mem_wack_i) s1_state_d = S1FillReq;
      S1FillReq:  if (mem_req_ready_i) s1_state_d = S1FillWait;
      S1FillWait: if (mem_rsp_valid_i) s1_state_d = S1Exec;
      default:    s1_state_d = s1_state_q;
    endcase
  end

  assign mem_req_valid_o   = s1_valid_q && (s1_state_q == S1WbReq || s1_state_q == S1FillReq);
  assign mem_req_write_o   = s1_state_q == S1WbReq;
  assign mem_req_data_o    = s1_line_q[s1_victim_q*LineW +: LineW];
  assign mem_req_seq_o     = s1_seq_q;
  if (Sets > 1) begin : g_wb_addr
    assign mem_req_granule_o = (s1_state_q == S1WbReq)
                             ? {s1_tag_q[s1_victim_q*TagW +: TagW],
                                set_of(s1_gran_q) ^ fold(s1_tag_q[s1_victim_q*TagW +: TagW])}
                             : s1_gran_q;
  end else begin : g_wb_addr_one_set
    assign mem_req_granule_o = (s1_state_q == S1WbReq) ? s1_tag_q[s1_victim_q*TagW +: TagW] : s1_gran_q;
  end

  // The write port: install a fill (clean), or commit an executed access.
  logic install;
  assign install = s1_valid_q && s1_state_q == S1FillWait && mem_rsp_valid_i;
  always_comb begin
    wr_en = 1'b0;
    wr_way = hit_way;
    wr_tag = tag_of(s1_gran_q);
    wr_dirty = s1_dirty_q[hit_way] || (final_line != cur_line);
    wr_line = final_line;
    row_wr_en = exec_done && (s1_op_q == OpSetRow || s1_op_q == OpAcquire || s1_op_q == OpRelease);
    if (install) begin
      wr_en = 1'b1;
      wr_way = s1_victim_q;
      wr_dirty = 1'b0;
      wr_line = mem_rsp_data_i;
    end else if (exec_done && is_access) begin
      wr_en = 1'b1;
    end
  end

  // Synchronization on chip: one join unit serves acquire (into the
  // thread's row) and release (into the object); release then ticks the
  // thread's own lane. The host never asks for a tick past ClkW.
  logic [RowW-1:0] join_row_obj, ticked_row;
  vc_join_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_sync_join (
    .a_i(s1_row_q), .b_i(s1_obj_q), .join_o(join_row_obj)
  );
  always_comb begin
    ticked_row = s1_row_q;
    ticked_row[s1_slot_q*ClkW +: ClkW] = own_clk + 1'b1;
  end
  always_comb begin
    case (s1_op_q)
      OpAcquire: row_wr_data = join_row_obj;
      OpRelease: row_wr_data = ticked_row;
      default:   row_wr_data = s1_crow_q;  // OpSetRow
    endcase
    obj_wr_en   = exec_done && (s1_op_q == OpRelease || s1_op_q == OpLoadObj);
    obj_wr_data = (s1_op_q == OpRelease) ? join_row_obj : s1_crow_q;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s1_valid_q <= 1'b0;
      s1_state_q <= S1Idle;
      byp_valid_q <= 1'b0;
      byp_row_valid_q <= 1'b0;
      byp_obj_valid_q <= 1'b0;
      byp_rvc_valid_q <= 1'b0;
    end else begin
      byp_valid_q <= wr_en;
      byp_row_valid_q <= row_wr_en;
      byp_obj_valid_q <= obj_wr_en;
      byp_rvc_valid_q <= rvc_wr_en;
      if (s1_ready) begin
        s1_valid_q <= s0_valid_q;
        s1_state_q <= s0_valid_q ? S1Exec : S1Idle;
      end else begin
        s1_state_q <= s1_state_d;
      end
    end
    if (miss_now) s1_victim_q <= victim;
    byp_set_q <= set_of(s1_gran_q);
    byp_way_q <= wr_way;
    byp_tag_q <= wr_tag;
    byp_dirty_q <= wr_dirty;
    byp_line_q <= wr_line;
    byp_row_slot_q <= s1_slot_q;
    byp_row_q <= row_wr_data;
    byp_obj_idx_q <= obj_of(s1_gran_q);
    byp_obj_q <= obj_wr_data;
    byp_rvc_idx_q <= rvc_of(s1_gran_q);
    byp_rvc_tag_q <= {rvc_wr_valid, s1_gran_q};
    byp_rvc_q <= rvc_wr_vc;
    if (s1_ready && s0_valid_q) begin
      s1_op_q     <= s0_op_q;
      s1_force_q  <= s0_force_q;
      s1_slot_q   <= s0_slot_q;
      s1_mask_q   <= s0_mask_q;
      s1_gran_q   <= s0_gran_q;
      s1_seq_q    <= s0_seq_q;
      s1_crow_q   <= s0_crow_q;
      s1_tag_q    <= in_tag;
      s1_tvalid_q <= in_valid;
      s1_dirty_q  <= in_dirty;
      s1_line_q   <= in_line;
      s1_row_q    <= in_row;
      s1_obj_q    <= in_obj;
      s1_rvc_tag_q <= in_rvc_tag;
      s1_rvc_q    <= in_rvc;
    end else if (install) begin
      s1_tag_q[s1_victim_q*TagW +: TagW]    <= tag_of(s1_gran_q);
      s1_tvalid_q[s1_victim_q]              <= 1'b1;
      s1_dirty_q[s1_victim_q]               <= 1'b0;
      s1_line_q[s1_victim_q*LineW +: LineW] <= mem_rsp_data_i;
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
      if (exec_done && is_access && any_raced) race_valid_o <= 1'b1;
      if (exec_done && is_access && (escalate || rvc_displace)) esc_valid_o <= 1'b1;
    end
    if (exec_done && is_access && any_raced) begin
      race_seq_o        <= s1_seq_q;
      race_granule_o    <= s1_gran_q;
      race_mask_o       <= raced;
      race_kinds_o      <= kinds;
      race_prev_slots_o <= prev_slots;
      race_prev_clks_o  <= prev_clks;
    end
    if (exec_done && is_access && escalate) begin
      esc_seq_o       <= s1_seq_q;
      esc_reason_o    <= esc_reason;
      esc_granule_o   <= s1_gran_q;
      esc_line_o      <= cur_line;
      esc_rvc_valid_o <= has_rvc;
      esc_rvc_o       <= s1_rvc_q;
    end else if (exec_done && is_access && rvc_displace) begin
      esc_seq_o       <= s1_seq_q;
      esc_reason_o    <= rac_pkg::EscReadVcSpill;
      esc_granule_o   <= s1_rvc_tag_q[GranW-1:0];
      esc_line_o      <= '0;
      esc_rvc_valid_o <= 1'b1;
      esc_rvc_o       <= s1_rvc_q;
    end
  end

  // Statistics
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      stat_cycles_o      <= '0;
      stat_commands_o    <= '0;
      stat_accesses_o    <= '0;
      stat_misses_o      <= '0;
      stat_writebacks_o  <= '0;
      stat_escalations_o <= '0;
    end else begin
      stat_cycles_o <= stat_cycles_o + 1;
      if (exec_done) stat_commands_o <= stat_commands_o + 1;
      if (exec_done && is_access) stat_accesses_o <= stat_accesses_o + 1;
      if (miss_now) stat_misses_o <= stat_misses_o + 1;
      if (s1_valid_q && s1_state_q == S1WbReq && mem_req_ready_i) stat_writebacks_o <= stat_writebacks_o + 1;
      if (exec_done && is_access && escalate) stat_escalations_o <= stat_escalations_o + 1;
    end
  end

  assign idle_o = !init_q && !s0_valid_q && !s1_valid_q && !race_valid_o && !esc_valid_o;

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
  // The host falls back to software before a clock would outgrow ClkW.
  `RAC_ASSERT(ReleaseTickFits, !(exec_done && s1_op_q == OpRelease && own_clk == '1), clk_i, rst_i)
  // Op 7 is reserved.
  `RAC_ASSERT(KnownOp, !(s1_valid_q && s1_op_q == 3'd7), clk_i, rst_i)
  // A set never holds two valid entries with the same tag (replacement and
  // fill logic).
  `RAC_ASSERT(NoDuplicateTags, !(s1_valid_q && dup_tag), clk_i, rst_i)
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
              !(exec_done && is_access && insoftware && !full_free && (any_raced || final_line != cur_line)),
              clk_i, rst_i)
  // A pool entry holds a granule's read clock only while that granule's
  // line (on chip, EVERYTHING) has shared bytes: a clock is never left
  // behind for a later life of the granule (the stale-read hazard).
  `RAC_ASSERT(ReadVcNeverStale,
              !(s1_valid_q && s1_state_q == S1Exec && is_access && hit && rvc_hit &&
                (cur_shared == '0 || insoftware)), clk_i, rst_i)
  // LASTWRITE is never upgraded by the pool: a line whose clock left gets
  // no new one while it has shared bytes.
  `RAC_ASSERT(NoAllocationOverSharedBytes, !(rvc_wr_en && rvc_wr_valid && rvc_alloc_ok && cur_shared != '0),
              clk_i, rst_i)
  // A LASTWRITE line never lets a write of a shared byte through on chip:
  // the reads it must be checked against are with the host.
  `RAC_ASSERT(LastWriteWritesGoToHost,
              !(exec_done && is_access && lastwrite && !escalate && unshare != '0), clk_i, rst_i)
  // Without a pool nothing is ever shared on chip.
  `RAC_ASSERT(NoPoolNoShare, !(PoolOn == 0 && (rvc_wr_en || cur_shared != '0)), clk_i, rst_i)

endmodule
