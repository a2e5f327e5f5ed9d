// Vector-clock order a ⊑ b (every lane of a ≤ the same lane of b),
// combinational, with the race-report details:
//   greater_lanes_o[i]   = a[i] > b[i]
//   any_greater_o        = some lane of a exceeds b (= !leq_o)
//   first_greater_lane_o = lowest such lane index (0 when there is none)
`include "rac_assert.svh"

module vc_leq_comb #(
  parameter  int unsigned NumLanes = rac_pkg::DefaultNumLanes,
  parameter  int unsigned ClkW     = rac_pkg::DefaultClkW,
  localparam int unsigned SlotW    = (NumLanes > 1) ? $clog2(NumLanes) : 1
) (
  input  logic [NumLanes*ClkW-1:0] a_i,
  input  logic [NumLanes*ClkW-1:0] b_i,
  output logic                     leq_o,
  output logic                     any_greater_o,
  output logic [SlotW-1:0]         first_greater_lane_o,
  output logic [NumLanes-1:0]      greater_lanes_o
);

  vc_lanes_gt_comb #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW)
  ) u_gt (
    .a_i (a_i),
    .b_i (b_i),
    .gt_o(greater_lanes_o)
  );

  rac_first_one #(
    .Width(NumLanes)
  ) u_first (
    .in_i (greater_lanes_o),
    .any_o(any_greater_o),
    .idx_o(first_greater_lane_o)
  );

  assign leq_o = !any_greater_o;

endmodule
