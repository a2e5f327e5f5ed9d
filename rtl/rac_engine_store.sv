// The check engine's arrays (rac_check_engine): the metadata cache (per way
// a tag RAM and a line RAM), the thread clock rows, the sync-object clock
// store and the read-VC pool (per way a tag RAM and a clock RAM), the
// post-reset sweep that clears the tag RAMs, and the forwarding of the
// writes the registered reads miss (rac_read_fwd per array).
//
// The engine reaches it through RAM-IO ports, all in array indices (the
// engine owns the index functions): a read index for the coming edge (the
// index its S0 register will hold), the index S0 holds (the forwarding key),
// and one write port per array, landing at the coming edge. The outputs are
// S0's view: the registered read, then the write of the last edge, then
// the write of this cycle, so a command never sees an array older than the
// commands ahead of it made it.
//
// Tags, valid and dirty bits live together in one RAM word per way and set,
// cleared by the sweep one set (and one pool set) per cycle, so there is no
// resettable flop array of Sets bits. Rows and sync objects are RAMs without
// reset: the host writes each before its first use.
`include "rac_assert.svh"

module rac_engine_store #(
  parameter int unsigned NumSlots = 8,
  parameter int unsigned ClkW     = 16,
  parameter int unsigned Sets     = 64,
  parameter int unsigned Ways     = 4,
  parameter int unsigned Objects  = 64,
  parameter int unsigned PoolSets = 64,  // read-VC pool sets (1 without a pool)
  parameter int unsigned PoolWays = 1,   // ways per pool set
  parameter int unsigned TagW     = 55,  // a cache tag
  parameter int unsigned LineW    = 64,  // a line
  parameter int unsigned PTagW    = 71,  // a pool entry's tag
  // Derived
  parameter int unsigned SlotW = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned SetW  = (Sets > 1) ? $clog2(Sets) : 1,
  parameter int unsigned ObjW  = (Objects > 1) ? $clog2(Objects) : 1,
  parameter int unsigned PSetW = (PoolSets > 1) ? $clog2(PoolSets) : 1,
  parameter int unsigned RowW  = NumSlots * ClkW
) (
  input  logic                       clk_i,
  input  logic                       rst_i,
  output logic                       init_o,  // the sweep runs (from reset until every tag is clear)

  // Read indices for the coming edge
  input  logic [SetW-1:0]            rd_set_i,
  input  logic [SlotW-1:0]           rd_slot_i,
  input  logic [ObjW-1:0]            rd_obj_i,
  input  logic [PSetW-1:0]           rd_pset_i,
  // The indices of the reads made at the last edge (S0's command)
  input  logic [SetW-1:0]            s0_set_i,
  input  logic [SlotW-1:0]           s0_slot_i,
  input  logic [ObjW-1:0]            s0_obj_i,
  input  logic [PSetW-1:0]           s0_pset_i,
  // S0's view (per way flattened: way w at [w*W +: W])
  output logic [Ways*TagW-1:0]       tag_o,
  output logic [Ways-1:0]            valid_o,
  output logic [Ways-1:0]            dirty_o,
  // The ways whose tag, before this cycle's write, is valid and equals
  // hit_tag_i: S0's hits as tag_o and valid_o give them unless this cycle
  // installs a fill (only S1 installs). Compared on the registered read and
  // on the bypass word separately, then chosen by registers, so the
  // forwarding patch is not in front of the compare.
  input  logic [TagW-1:0]            hit_tag_i,
  output logic [Ways-1:0]            hit_last_o,
  output logic [Ways*LineW-1:0]      line_o,
  output logic [RowW-1:0]            row_o,
  output logic [RowW-1:0]            obj_o,
  output logic [PoolWays*PTagW-1:0]  rvc_tag_o,
  output logic [PoolWays*RowW-1:0]   rvc_o,

  // Write ports: a line (with its tag, valid), a row, a sync object, a pool
  // set (each way on its own enable)
  input  logic [Ways-1:0]            wr_ways_i,  // the way written (at most one)
  input  logic [SetW-1:0]            wr_set_i,
  input  logic [TagW-1:0]            wr_tag_i,
  input  logic                       wr_dirty_i,
  input  logic [LineW-1:0]           wr_line_i,
  input  logic                       row_wr_en_i,
  input  logic [SlotW-1:0]           row_wr_slot_i,
  input  logic [RowW-1:0]            row_wr_data_i,
  input  logic                       obj_wr_en_i,
  input  logic [ObjW-1:0]            obj_wr_idx_i,
  input  logic [RowW-1:0]            obj_wr_data_i,
  input  logic [PoolWays-1:0]        rvc_wr_en_i,
  input  logic [PSetW-1:0]           rvc_wr_pset_i,
  input  logic [PoolWays*PTagW-1:0]  rvc_wr_tag_i,
  input  logic [PoolWays*RowW-1:0]   rvc_wr_vc_i
);

  // A cache way's word as the forwarding carries it: {valid, dirty, tag, line}.
  localparam int unsigned WayDataW  = 2 + TagW + LineW;
  localparam int unsigned PoolDataW = PTagW + RowW;  // a pool way's: {tag, clock}
  localparam int unsigned InitN = (Sets > PoolSets) ? Sets : PoolSets;
  localparam int unsigned InitW = (InitN > 1) ? $clog2(InitN) : 1;

  // ---------------------------------------------------------------------------
  // Init sweep
  // ---------------------------------------------------------------------------
  logic             init_q;
  logic [InitW-1:0] init_idx_q;
  logic             init_sets;  // the sweep index is a set
  logic             init_psets; // the sweep index is a pool set
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
  assign init_sets  = {1'b0, init_idx_q} < SetsCount;
  assign init_psets = {1'b0, init_idx_q} < PoolSets[InitW:0];
  assign init_o = init_q;

  // ---------------------------------------------------------------------------
  // Cache: per way a tag RAM ({valid, dirty, tag}) and a line RAM
  // ---------------------------------------------------------------------------
  logic [Ways*WayDataW-1:0] rd_way_q;  // the registered reads
  // The tag RAMs' one write port: the sweep's, else the engine's. The
  // address is chosen by init_q (a register) here, not left to the synthesis
  // tool, which merges two write ports with the second's enable as the
  // select: that put the engine's write-enable logic (S3's rules) in front
  // of the RAM address.
  logic [SetW-1:0] tag_wr_set;
  logic [TagW+1:0] tag_wr_word;
  assign tag_wr_set  = init_q ? init_idx_q[SetW-1:0] : wr_set_i;
  assign tag_wr_word = init_q ? '0 : {1'b1, wr_dirty_i, wr_tag_i};
  for (genvar w = 0; w < Ways; w++) begin : g_way
    logic [TagW+1:0]  tag_mem  [Sets];
    logic [LineW-1:0] line_mem [Sets];
    logic             tag_wr_en;
    assign tag_wr_en = init_q ? init_sets : wr_ways_i[w];
    always_ff @(posedge clk_i) begin
      if (tag_wr_en) tag_mem[tag_wr_set] <= tag_wr_word;
      if (wr_ways_i[w]) line_mem[wr_set_i] <= wr_line_i;
    end
    always_ff @(posedge clk_i) begin
      rd_way_q[w*WayDataW+LineW +: TagW+2] <= tag_mem[rd_set_i];
      rd_way_q[w*WayDataW +: LineW]        <= line_mem[rd_set_i];
    end
  end
  logic [Ways*WayDataW-1:0] way_view;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [Ways*WayDataW-1:0] way_last;  // (the assertion below only)
  logic [WayDataW-1:0]      way_byp;   // the last edge's write (its tag and valid bit are used)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [Ways-1:0]          way_byp_lanes;
  rac_read_fwd #(.KeyW(SetW), .DataW(WayDataW), .Lanes(Ways), .OneWord(1)) u_way_fwd (
    .clk_i    (clk_i),
    .rst_i    (rst_i),
    .rd_key_i (s0_set_i),
    .rd_data_i(rd_way_q),
    .wr_en_i  (wr_ways_i),
    .wr_key_i (wr_set_i),
    .wr_data_i({1'b1, wr_dirty_i, wr_tag_i, wr_line_i}),
    .data_o   (way_view),
    .last_o   (way_last),
    .byp_lanes_o(way_byp_lanes),
    .byp_data_o (way_byp)
  );
  // hit_last_o: one compare of the bypass word, one per way of the
  // registered read, then the choice as AND-OR (not a mux: Yosys's
  // opt_share would merge two compares feeding a mux back into one compare
  // behind the patch).
  logic byp_hit;
  assign byp_hit = way_byp[LineW + TagW + 1] && way_byp[LineW +: TagW] == hit_tag_i;
  for (genvar w = 0; w < Ways; w++) begin : g_way_view
    logic rd_hit;
    assign line_o[w*LineW +: LineW] = way_view[w*WayDataW +: LineW];
    assign tag_o[w*TagW +: TagW]    = way_view[w*WayDataW + LineW +: TagW];
    assign dirty_o[w]               = way_view[w*WayDataW + LineW + TagW];
    assign valid_o[w]               = way_view[w*WayDataW + LineW + TagW + 1];
    assign rd_hit = rd_way_q[w*WayDataW + LineW + TagW + 1] && rd_way_q[w*WayDataW + LineW +: TagW] == hit_tag_i;
    assign hit_last_o[w] = (way_byp_lanes[w] & byp_hit) | (~way_byp_lanes[w] & rd_hit);
  end

  // ---------------------------------------------------------------------------
  // Thread clock rows
  // ---------------------------------------------------------------------------
  logic [RowW-1:0] clk_mem [NumSlots];
  logic [RowW-1:0] rd_row_q;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [RowW-1:0] row_last, row_byp;  // (unused: rows change by S2's writes)
  logic            row_byp_lanes;
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk_i) begin
    if (row_wr_en_i) clk_mem[row_wr_slot_i] <= row_wr_data_i;
    rd_row_q <= clk_mem[rd_slot_i];
  end
  rac_read_fwd #(.KeyW(SlotW), .DataW(RowW)) u_row_fwd (
    .clk_i    (clk_i),
    .rst_i    (rst_i),
    .rd_key_i (s0_slot_i),
    .rd_data_i(rd_row_q),
    .wr_en_i  (row_wr_en_i),
    .wr_key_i (row_wr_slot_i),
    .wr_data_i(row_wr_data_i),
    .data_o   (row_o),
    .last_o   (row_last),
    .byp_lanes_o(row_byp_lanes),
    .byp_data_o (row_byp)
  );

  // ---------------------------------------------------------------------------
  // Sync-object clocks
  // ---------------------------------------------------------------------------
  logic [RowW-1:0] obj_mem [Objects];
  logic [RowW-1:0] rd_obj_q;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [RowW-1:0] obj_last, obj_byp;  // (unused)
  logic            obj_byp_lanes;
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk_i) begin
    if (obj_wr_en_i) obj_mem[obj_wr_idx_i] <= obj_wr_data_i;
    rd_obj_q <= obj_mem[rd_obj_i];
  end
  rac_read_fwd #(.KeyW(ObjW), .DataW(RowW)) u_obj_fwd (
    .clk_i    (clk_i),
    .rst_i    (rst_i),
    .rd_key_i (s0_obj_i),
    .rd_data_i(rd_obj_q),
    .wr_en_i  (obj_wr_en_i),
    .wr_key_i (obj_wr_idx_i),
    .wr_data_i(obj_wr_data_i),
    .data_o   (obj_o),
    .last_o   (obj_last),
    .byp_lanes_o(obj_byp_lanes),
    .byp_data_o (obj_byp)
  );

  // ---------------------------------------------------------------------------
  // Read-VC pool: per way a tag RAM ({valid, partial, mask, granule}; cleared
  // by the sweep) and a clock RAM
  // ---------------------------------------------------------------------------
  logic [PoolWays*PoolDataW-1:0] rd_pool_q, pool_wr_data, pool_view;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [PoolWays*PoolDataW-1:0] pool_last, pool_byp;  // (unused)
  logic [PoolWays-1:0]           pool_byp_lanes;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [PSetW-1:0] rvc_tag_wr_pset;  // the pool tag RAMs' one write port, as the cache's above
  assign rvc_tag_wr_pset = init_q ? init_idx_q[PSetW-1:0] : rvc_wr_pset_i;
  for (genvar w = 0; w < PoolWays; w++) begin : g_pool_way
    logic [PTagW-1:0] rvc_tag_mem [PoolSets];
    logic [RowW-1:0]  rvc_mem     [PoolSets];
    logic             rvc_tag_wr_en;
    logic [PTagW-1:0] rvc_tag_wr_word;
    assign rvc_tag_wr_en   = init_q ? init_psets : rvc_wr_en_i[w];
    assign rvc_tag_wr_word = init_q ? '0 : rvc_wr_tag_i[w*PTagW +: PTagW];
    always_ff @(posedge clk_i) begin
      if (rvc_tag_wr_en) rvc_tag_mem[rvc_tag_wr_pset] <= rvc_tag_wr_word;
      if (rvc_wr_en_i[w]) rvc_mem[rvc_wr_pset_i] <= rvc_wr_vc_i[w*RowW +: RowW];
      rd_pool_q[w*PoolDataW + RowW +: PTagW] <= rvc_tag_mem[rd_pset_i];
      rd_pool_q[w*PoolDataW +: RowW]         <= rvc_mem[rd_pset_i];
    end
    assign pool_wr_data[w*PoolDataW +: PoolDataW] = {rvc_wr_tag_i[w*PTagW +: PTagW], rvc_wr_vc_i[w*RowW +: RowW]};
    assign rvc_tag_o[w*PTagW +: PTagW] = pool_view[w*PoolDataW + RowW +: PTagW];
    assign rvc_o[w*RowW +: RowW]       = pool_view[w*PoolDataW +: RowW];
  end
  rac_read_fwd #(.KeyW(PSetW), .DataW(PoolDataW), .Lanes(PoolWays)) u_pool_fwd (
    .clk_i    (clk_i),
    .rst_i    (rst_i),
    .rd_key_i (s0_pset_i),
    .rd_data_i(rd_pool_q),
    .wr_en_i  (rvc_wr_en_i),
    .wr_key_i (rvc_wr_pset_i),
    .wr_data_i(pool_wr_data),
    .data_o   (pool_view),
    .last_o   (pool_last),
    .byp_lanes_o(pool_byp_lanes),
    .byp_data_o (pool_byp)
  );

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
  // hit_last_o is the compare on the view before this cycle's write.
  logic [Ways-1:0] hit_last_ref;
  for (genvar w = 0; w < Ways; w++) begin : g_hit_last_ref
    assign hit_last_ref[w] = way_last[w*WayDataW + LineW + TagW + 1] && way_last[w*WayDataW + LineW +: TagW] == hit_tag_i;
  end
  `RAC_ASSERT(HitLastIsLastView, hit_last_o == hit_last_ref, clk_i, rst_i)

`ifdef VERILATOR
  // A valid pool entry's clock is the clock last written with its tag (they
  // share the enable; the sweep clears only the tags): a simulation-only
  // copy of the clock RAMs, written by the same port, read at the same
  // index, must give the same clock whenever the registered tag read is
  // valid. A clock RAM written when the port is not enabled (at whatever
  // pool set the port shows) fails it once the entry it overwrote is read.
  logic swept_q;  // the sweep ended before the last edge: every read since is of swept tags
  always_ff @(posedge clk_i) begin
    if (rst_i) swept_q <= 1'b0;
    else swept_q <= !init_q;
  end
  for (genvar w = 0; w < PoolWays; w++) begin : g_pool_shadow
    logic [RowW-1:0] shadow_mem [PoolSets];
    logic [RowW-1:0] rd_shadow_q;
    always_ff @(posedge clk_i) begin
      if (rvc_wr_en_i[w]) shadow_mem[rvc_wr_pset_i] <= rvc_wr_vc_i[w*RowW +: RowW];
      rd_shadow_q <= shadow_mem[rd_pset_i];
    end
    `RAC_ASSERT(PoolClockIsLastWritten,
                !(swept_q && rd_pool_q[w*PoolDataW + RowW + PTagW - 1] && rd_pool_q[w*PoolDataW +: RowW] != rd_shadow_q),
                clk_i, rst_i)
  end
`endif

endmodule
