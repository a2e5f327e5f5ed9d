// Combinational properties of vc_epoch_leq_comb (proved with yosys `sat`):
// c@t ≼ V  <=>  c <= V[t], and it agrees with the full order on the vector
// clock of the epoch (lane t = c, others 0): c@t ≼ V <=> epoch_vc ⊑ V.
// A slot beyond NumLanes reads lane value 0 (use NumLanes not a power of two
// to cover it).
module vc_epoch_leq_comb_props #(
  parameter  int unsigned NumLanes = 3,
  parameter  int unsigned ClkW     = 4,
  localparam int unsigned SlotW    = (NumLanes > 1) ? $clog2(NumLanes) : 1
) (
  input logic [SlotW-1:0]         slot_i,
  input logic [ClkW-1:0]          clk_i,
  input logic [NumLanes*ClkW-1:0] vc_i
);

  logic leq, leq_vc;

  vc_epoch_leq_comb #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW)
  ) u_dut (
    .epoch_slot_i(slot_i),
    .epoch_clk_i (clk_i),
    .vc_i        (vc_i),
    .leq_o       (leq)
  );

  // The epoch as a vector clock, and an independent lane read.
  logic [NumLanes*ClkW-1:0] epoch_vc;
  logic [ClkW-1:0]          lane;
  logic                     in_range;
  always_comb begin
    epoch_vc = '0;
    lane     = '0;
    in_range = 1'b0;
    for (int unsigned i = 0; i < NumLanes; i++) begin
      if (32'(slot_i) == i) begin
        epoch_vc[i*ClkW +: ClkW] = clk_i;
        lane                     = vc_i[i*ClkW +: ClkW];
        in_range                 = 1'b1;
      end
    end
  end

  vc_leq_comb #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW)
  ) u_leq (
    .a_i                 (epoch_vc),
    .b_i                 (vc_i),
    .leq_o               (leq_vc),
    .any_greater_o       (),
    .first_greater_lane_o(),
    .greater_lanes_o     ()
  );

`ifdef FORMAL
  always_comb begin
    EpochLeqIsLaneLeq: assert (leq == (clk_i <= lane));
    EpochLeqIsVcLeq: assert (!in_range || leq == leq_vc);
    OutOfRangeIsZero: assert (in_range || leq == (clk_i == '0));
  end
`endif

endmodule
