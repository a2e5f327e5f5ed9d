// Per-lane "a > b" mask of two vector clocks, combinational:
// gt_o[i] = a[i] > b[i]. The first half of vc_leq_comb; on its own it is the
// natural place to cut a pipelined compare (NumLanes bits instead of two VCs).
`include "rac_assert.svh"

module vc_lanes_gt_comb #(
  parameter int unsigned NumLanes = rac_pkg::DefaultNumLanes,
  parameter int unsigned ClkW     = rac_pkg::DefaultClkW
) (
  input  logic [NumLanes*ClkW-1:0] a_i,
  input  logic [NumLanes*ClkW-1:0] b_i,
  output logic [NumLanes-1:0]      gt_o
);

  `RAC_STATIC_ASSERT(NumLanesPositive, NumLanes >= 1)
  `RAC_STATIC_ASSERT(ClkWPositive, ClkW >= 1)

  for (genvar i = 0; i < NumLanes; i++) begin : g_lane
    assign gt_o[i] = a_i[i*ClkW +: ClkW] > b_i[i*ClkW +: ClkW];
  end

endmodule
