// A held copy of RAM words with one array write applied: the forwarding
// rule every stage of the check engine uses for what it read (written once
// here, instantiated per array and per stage).
//
// The copy holds Lanes words read at one key (the ways of a set, or one
// word). A lane is replaced by the write when the write enables that lane
// and its key equals the copy's key. With OneWord the write carries one
// word for whichever lane it enables (a cache fill or commit writes one
// way); otherwise a word per lane (the pool writes several ways at once).
module rac_patch_comb #(
  parameter int unsigned KeyW    = 1,
  parameter int unsigned DataW   = 1,
  parameter int unsigned Lanes   = 1,
  parameter int unsigned OneWord = 0,  // 1: the write carries one word for the lane it enables
  // Derived
  parameter int unsigned WrDataW = (OneWord != 0) ? DataW : Lanes * DataW
) (
  input  logic [Lanes*DataW-1:0] held_i,     // the copy, lane l at [l*DataW +: DataW]
  input  logic [KeyW-1:0]        key_i,      // the index the copy was read at
  input  logic [Lanes-1:0]       wr_en_i,    // the write, per lane
  input  logic [KeyW-1:0]        wr_key_i,
  input  logic [WrDataW-1:0]     wr_data_i,
  output logic [Lanes*DataW-1:0] patched_o
);

  logic same_key;
  assign same_key = wr_key_i == key_i;
  for (genvar l = 0; l < Lanes; l++) begin : g_lane
    logic [DataW-1:0] word;
    if (OneWord != 0) begin : g_one
      assign word = wr_data_i[DataW-1:0];
    end else begin : g_each
      assign word = wr_data_i[l*DataW +: DataW];
    end
    assign patched_o[l*DataW +: DataW] = (wr_en_i[l] && same_key) ? word : held_i[l*DataW +: DataW];
  end

endmodule
