// Combinational properties of vc_join_comb (proved with yosys `sat`):
// the join is an upper bound of both inputs, equals one of them in every
// lane, and is commutative, idempotent and associative.
module vc_join_comb_props #(
  parameter int unsigned NumLanes = 4,
  parameter int unsigned ClkW     = 4
) (
  input logic [NumLanes*ClkW-1:0] a_i,
  input logic [NumLanes*ClkW-1:0] b_i,
  input logic [NumLanes*ClkW-1:0] c_i
);

  localparam int unsigned VcW = NumLanes * ClkW;

  logic [VcW-1:0] join_ab, join_ba, join_aa, join_bc, join_ab_c, join_a_bc;

  // join(x, y) for the pairs the properties need
  localparam int unsigned Pairs = 6;
  logic [Pairs*VcW-1:0] lhs, rhs, res;
  assign lhs = {a_i, join_ab, b_i, a_i, b_i, a_i};
  assign rhs = {join_bc, c_i, c_i, a_i, a_i, b_i};
  assign {join_a_bc, join_ab_c, join_bc, join_aa, join_ba, join_ab} = res;

  for (genvar p = 0; p < Pairs; p++) begin : g_join
    vc_join_comb #(
      .NumLanes(NumLanes),
      .ClkW    (ClkW)
    ) u_join (
      .a_i   (lhs[p*VcW +: VcW]),
      .b_i   (rhs[p*VcW +: VcW]),
      .join_o(res[p*VcW +: VcW])
    );
  end

`ifdef FORMAL
  always_comb begin
    for (int unsigned i = 0; i < NumLanes; i++) begin
      // upper bound of each input
      assert (join_ab[i*ClkW +: ClkW] >= a_i[i*ClkW +: ClkW]);
      assert (join_ab[i*ClkW +: ClkW] >= b_i[i*ClkW +: ClkW]);
      // and the least one: it is one of the inputs
      assert (join_ab[i*ClkW +: ClkW] == a_i[i*ClkW +: ClkW] ||
              join_ab[i*ClkW +: ClkW] == b_i[i*ClkW +: ClkW]);
    end
    Commutative: assert (join_ab == join_ba);
    Idempotent: assert (join_aa == a_i);
    Associative: assert (join_ab_c == join_a_bc);
  end
`endif

endmodule
