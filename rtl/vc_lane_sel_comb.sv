// Selects lane slot_i of a vector clock, combinational: lane_o = vc[slot].
// A slot beyond NumLanes (possible when NumLanes is not a power of two)
// reads as 0, like the implicitly-zero entries of the software VectorClock.
`include "rac_assert.svh"

module vc_lane_sel_comb #(
  parameter  int unsigned NumLanes = rac_pkg::DefaultNumLanes,
  parameter  int unsigned ClkW     = rac_pkg::DefaultClkW,
  localparam int unsigned SlotW    = (NumLanes > 1) ? $clog2(NumLanes) : 1
) (
  input  logic [NumLanes*ClkW-1:0] vc_i,
  input  logic [SlotW-1:0]         slot_i,
  output logic [ClkW-1:0]          lane_o
);

  `RAC_STATIC_ASSERT(NumLanesPositive, NumLanes >= 1)
  `RAC_STATIC_ASSERT(ClkWPositive, ClkW >= 1)

  // Zero-extend to a power-of-two number of lanes so that every slot value
  // selects a lane; an indexed part-select maps to a mux tree (half the LUTs
  // and logic depth of a one-hot AND-OR at 64 x 32).
  localparam int unsigned PadLanes = 1 << SlotW;
  logic [PadLanes*ClkW-1:0] vc_pad;

  if (PadLanes > NumLanes) begin : g_pad
    assign vc_pad = {{(PadLanes - NumLanes) * ClkW{1'b0}}, vc_i};
  end else begin : g_no_pad
    assign vc_pad = vc_i;
  end

  assign lane_o = vc_pad[slot_i*ClkW +: ClkW];

endmodule
