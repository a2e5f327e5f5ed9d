// Epoch order e ≼ V (FastTrack's c@t ≼ V: c ≤ V[t]), combinational:
// leq_o = epoch_clk_i <= vc_i[epoch_slot_i]. An out-of-range slot reads
// lane value 0 (see vc_lane_sel_comb).
`include "rac_assert.svh"

module vc_epoch_leq_comb #(
  parameter  int unsigned NumLanes = rac_pkg::DefaultNumLanes,
  parameter  int unsigned ClkW     = rac_pkg::DefaultClkW,
  localparam int unsigned SlotW    = (NumLanes > 1) ? $clog2(NumLanes) : 1
) (
  input  logic [SlotW-1:0]         epoch_slot_i,
  input  logic [ClkW-1:0]          epoch_clk_i,
  input  logic [NumLanes*ClkW-1:0] vc_i,
  output logic                     leq_o
);

  logic [ClkW-1:0] lane;

  vc_lane_sel_comb #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW)
  ) u_sel (
    .vc_i  (vc_i),
    .slot_i(epoch_slot_i),
    .lane_o(lane)
  );

  assign leq_o = epoch_clk_i <= lane;

endmodule
