// Forwarding for one registered RAM read of the check engine: the word(s)
// read at the last edge, patched by the write made at that same edge (which
// the registered read could not see: the bypass register) and then by the
// write of this cycle (rac_patch_comb, twice). The result is what the read
// would give if every write so far had landed before it. last_o is the view
// before this cycle's write: for a field only a write S0's command cannot
// move on with ever changes (the engine's tags), it is the same, without
// this cycle's write-enable logic in front of it.
module rac_read_fwd #(
  parameter int unsigned KeyW    = 1,
  parameter int unsigned DataW   = 1,
  parameter int unsigned Lanes   = 1,
  parameter int unsigned OneWord = 0,  // 1: the write carries one word for the lane it enables
  // Derived
  parameter int unsigned WrDataW = (OneWord != 0) ? DataW : Lanes * DataW
) (
  input  logic                   clk_i,
  input  logic                   rst_i,
  input  logic [KeyW-1:0]        rd_key_i,   // the index the registered read was made at
  input  logic [Lanes*DataW-1:0] rd_data_i,  // the registered read
  input  logic [Lanes-1:0]       wr_en_i,    // the array's write port (lands at the coming edge)
  input  logic [KeyW-1:0]        wr_key_i,
  input  logic [WrDataW-1:0]     wr_data_i,
  output logic [Lanes*DataW-1:0] data_o,
  output logic [Lanes*DataW-1:0] last_o,     // with the write of the last edge only
  // How last_o is made, for a compare that must not wait on the patch (the
  // engine's hit vector compares rd_data_i and byp_data_o separately, then
  // chooses): the lanes the last edge's write replaces in last_o (a function
  // of registers and rd_key_i), and that write's data.
  output logic [Lanes-1:0]       byp_lanes_o,
  output logic [WrDataW-1:0]     byp_data_o
);

  // The bypass register: the write made at the last edge.
  logic [Lanes-1:0]   byp_en_q;
  logic [KeyW-1:0]    byp_key_q;
  logic [WrDataW-1:0] byp_data_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      byp_en_q <= '0;
    end else begin
      byp_en_q <= wr_en_i;
    end
    byp_key_q  <= wr_key_i;
    byp_data_q <= wr_data_i;
  end

  logic [Lanes*DataW-1:0] after_last;
  rac_patch_comb #(.KeyW(KeyW), .DataW(DataW), .Lanes(Lanes), .OneWord(OneWord)) u_last (
    .held_i   (rd_data_i),
    .key_i    (rd_key_i),
    .wr_en_i  (byp_en_q),
    .wr_key_i (byp_key_q),
    .wr_data_i(byp_data_q),
    .patched_o(after_last)
  );
  rac_patch_comb #(.KeyW(KeyW), .DataW(DataW), .Lanes(Lanes), .OneWord(OneWord)) u_now (
    .held_i   (after_last),
    .key_i    (rd_key_i),
    .wr_en_i  (wr_en_i),
    .wr_key_i (wr_key_i),
    .wr_data_i(wr_data_i),
    .patched_o(data_o)
  );
  assign last_o = after_last;
  assign byp_lanes_o = byp_en_q & {Lanes{byp_key_q == rd_key_i}};
  assign byp_data_o  = byp_data_q;

endmodule
