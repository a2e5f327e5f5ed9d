// Lane-wise maximum of two vector clocks (the join a ⊔ b), combinational.
// Lanes are packed little-endian: lane i is x[i*ClkW +: ClkW].
`include "rac_assert.svh"

module vc_join_comb #(
  parameter int unsigned NumLanes = rac_pkg::DefaultNumLanes,
  parameter int unsigned ClkW     = rac_pkg::DefaultClkW
) (
  input  logic [NumLanes*ClkW-1:0] a_i,
  input  logic [NumLanes*ClkW-1:0] b_i,
  output logic [NumLanes*ClkW-1:0] join_o
);

  `RAC_STATIC_ASSERT(NumLanesPositive, NumLanes >= 1)
  `RAC_STATIC_ASSERT(ClkWPositive, ClkW >= 1)

  for (genvar i = 0; i < NumLanes; i++) begin : g_lane
    logic [ClkW-1:0] a_lane, b_lane;
    assign a_lane = a_i[i*ClkW +: ClkW];
    assign b_lane = b_i[i*ClkW +: ClkW];
    assign join_o[i*ClkW +: ClkW] = (a_lane > b_lane) ? a_lane : b_lane;
  end

endmodule
