// Combinational properties of vc_leq_comb (proved with yosys `sat`):
// leq is the lane-wise order, leq(a, b) <=> join(a, b) == b, the mask and
// any_greater agree with it, and first_greater_lane is the lowest lane with
// a > b (0 when there is none).
module vc_leq_comb_props #(
  parameter  int unsigned NumLanes = 4,
  parameter  int unsigned ClkW     = 4,
  localparam int unsigned SlotW    = (NumLanes > 1) ? $clog2(NumLanes) : 1
) (
  input logic [NumLanes*ClkW-1:0] a_i,
  input logic [NumLanes*ClkW-1:0] b_i
);

  logic                      leq, any_greater;
  logic [SlotW-1:0]          first;
  logic [NumLanes-1:0]       mask;
  logic [NumLanes*ClkW-1:0]  join_ab;

  vc_leq_comb #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW)
  ) u_dut (
    .a_i                 (a_i),
    .b_i                 (b_i),
    .leq_o               (leq),
    .any_greater_o       (any_greater),
    .first_greater_lane_o(first),
    .greater_lanes_o     (mask)
  );

  vc_join_comb #(.NumLanes(NumLanes), .ClkW(ClkW)) u_join (.a_i(a_i), .b_i(b_i), .join_o(join_ab));

  // Independent specification.
  logic                leq_spec;
  logic [NumLanes-1:0] mask_spec;
  always_comb begin
    leq_spec = 1'b1;
    for (int unsigned i = 0; i < NumLanes; i++) begin
      mask_spec[i] = a_i[i*ClkW +: ClkW] > b_i[i*ClkW +: ClkW];
      if (a_i[i*ClkW +: ClkW] > b_i[i*ClkW +: ClkW]) leq_spec = 1'b0;
    end
  end

`ifdef FORMAL
  always_comb begin
    LeqIsLaneOrder: assert (leq == leq_spec);
    LeqIsJoinIdentity: assert (leq == (join_ab == b_i));
    AnyGreaterIsNotLeq: assert (any_greater == !leq);
    MaskIsLaneGreater: assert (mask == mask_spec);
    FirstInRange: assert (32'(first) < NumLanes);
    FirstZeroWhenLeq: assert (any_greater || first == '0);
    FirstIsGreater: assert (!any_greater || mask[first]);
    for (int unsigned j = 0; j < NumLanes; j++) begin
      // no greater lane below the reported one
      assert (!(any_greater && SlotW'(j) < first) || !mask[j]);
    end
  end
`endif

endmodule
