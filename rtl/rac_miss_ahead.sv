// Miss-ahead hints for rac_meta_port: which granules entering the command
// FIFO the engine's cache does not hold (docs/hardware.md, "Non-blocking
// misses"). A shadow of the engine's tags (per way a RAM of Sets {valid,
// granule}, written where the engine installs a fill: the granule's set,
// the victim way) is looked up for every lookup command entering the FIFO;
// a granule in no way is hinted to the meta port, which reads its bucket
// ahead of the engine's miss. The shadow is only a hint: a wrong answer
// costs a useless read or a miss read the slow way, never a wrong fill (the
// meta port's entries are exact whatever is hinted). The set function is
// the engine's (rac_check_engine.sv set_of: the low granule bits XOR the
// bit-reversed fold of the tag).
module rac_miss_ahead #(
  parameter int unsigned Sets  = 256,
  parameter int unsigned Ways  = 4,
  parameter int unsigned GranW = 61,
  parameter int unsigned SeqW  = 32,
  parameter int unsigned SetW  = (Sets > 1) ? $clog2(Sets) : 1,
  parameter int unsigned WayW  = (Ways > 1) ? $clog2(Ways) : 1
) (
  input  logic             clk_i,
  input  logic             rst_i,  // with the engine's reset: the sweep empties every set
  input  logic             flush_i,  // a batch start (the meta port drops its entries too)
  // A command entering the FIFO (lookup: it looks its granule up in the cache)
  input  logic             cmd_fire_i,
  input  logic             cmd_lookup_i,
  input  logic [GranW-1:0] cmd_granule_i,
  input  logic [SeqW-1:0]  cmd_seq_i,
  // The engine installs a fill
  input  logic             install_i,
  input  logic [GranW-1:0] install_granule_i,
  input  logic [WayW-1:0]  install_way_i,
  // To the meta port
  output logic             hint_valid_o,
  output logic [GranW-1:0] hint_granule_o,
  output logic [SeqW-1:0]  hint_seq_o
);
  localparam int unsigned TagW = GranW - ((Sets > 1) ? SetW : 0);

  function automatic logic [SetW-1:0] set_of(input logic [GranW-1:0] g);
    logic [SetW-1:0] f;
    logic [TagW-1:0] t;
    t = g[GranW-1 -: TagW];
    f = '0;
    for (int i = 0; i < TagW; i++) f[SetW - 1 - (i % SetW)] = f[SetW - 1 - (i % SetW)] ^ t[i];
    set_of = (Sets > 1) ? (g[SetW-1:0] ^ f) : '0;
  endfunction

  // Reset sweep, one set per cycle (the engine's own takes as long).
  logic            sweep_q;
  logic [SetW:0]   sweep_idx_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      sweep_q <= 1'b1;
      sweep_idx_q <= '0;
    end else if (sweep_q) begin
      sweep_idx_q <= sweep_idx_q + (SetW + 1)'(1);
      if (sweep_idx_q == (SetW + 1)'(Sets - 1)) sweep_q <= 1'b0;
    end
  end

  // Lookup: registered read of every way at the command's set, compare the
  // next cycle.
  logic             look_q;
  logic [GranW-1:0] look_gran_q;
  logic [SeqW-1:0]  look_seq_q;
  logic [Ways-1:0]  way_hit;
  for (genvar w = 0; w < Ways; w++) begin : g_way
    logic [GranW:0] shadow_mem [Sets];  // {valid, granule}
    logic [GranW:0] rd_q;
    always_ff @(posedge clk_i) begin
      if (sweep_q) shadow_mem[sweep_idx_q[SetW-1:0]] <= '0;
      else if (install_i && install_way_i == WayW'(w)) shadow_mem[set_of(install_granule_i)] <= {1'b1, install_granule_i};
      rd_q <= shadow_mem[set_of(cmd_granule_i)];
    end
    assign way_hit[w] = rd_q[GranW] && rd_q[GranW-1:0] == look_gran_q;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      look_q <= 1'b0;
    end else begin
      look_q <= cmd_fire_i && cmd_lookup_i && !sweep_q;
      look_gran_q <= cmd_granule_i;
      look_seq_q  <= cmd_seq_i;
    end
  end

  // A granule installed while its lookup was in the RAM read is resident;
  // one of the last four hinted is not hinted again (runs of commands on
  // one granule, as a multi-word access or a loop makes them).
  logic [GranW-1:0] recent_q [4];
  logic [3:0]       recent_valid_q;
  logic             recent_hit;
  always_comb begin
    recent_hit = 1'b0;
    for (int i = 0; i < 4; i++) if (recent_valid_q[i] && recent_q[i] == look_gran_q) recent_hit = 1'b1;
  end
  assign hint_valid_o = look_q && way_hit == '0 && !(install_i && install_granule_i == look_gran_q) && !recent_hit;
  always_ff @(posedge clk_i) begin
    if (rst_i || flush_i) begin
      recent_valid_q <= '0;
    end else if (hint_valid_o) begin
      recent_q[0] <= look_gran_q;
      for (int i = 1; i < 4; i++) recent_q[i] <= recent_q[i - 1];
      recent_valid_q <= {recent_valid_q[2:0], 1'b1};
    end
  end
  assign hint_granule_o = look_gran_q;
  assign hint_seq_o     = look_seq_q;
endmodule
