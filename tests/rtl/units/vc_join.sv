// Pipelined vector-clock join (lane-wise max) with a valid/ready handshake.
//
// Latency is Stages cycles (>= 1); throughput one join per cycle. The join
// is computed in front of the first register; Stages > 1 adds output
// registers (slack for retiming / placement). Each register stage stalls
// on back-pressure (ready_o = !valid_q || ready_i per stage, see
// rac_pipe_reg), and a stalled output holds. user_i/user_o is an opaque
// sideband (e.g. a request tag) carried alongside the result.
//
// Input protocol (valid/ready, as AXI4-Stream): once valid_i is raised it
// stays high, with a_i/b_i/user_i stable, until the cycle where ready_o is
// high. Checked in simulation, assumed in formal.
`include "rac_assert.svh"

module vc_join #(
  parameter int unsigned NumLanes = rac_pkg::DefaultNumLanes,
  parameter int unsigned ClkW     = rac_pkg::DefaultClkW,
  parameter int unsigned Stages   = 1,
  parameter int unsigned UserW    = 1
) (
  input  logic                     clk_i,
  input  logic                     rst_i,

  input  logic                     valid_i,
  output logic                     ready_o,
  input  logic [NumLanes*ClkW-1:0] a_i,
  input  logic [NumLanes*ClkW-1:0] b_i,
  input  logic [UserW-1:0]         user_i,

  output logic                     valid_o,
  input  logic                     ready_i,
  output logic [NumLanes*ClkW-1:0] join_o,
  output logic [UserW-1:0]         user_o
);

  `RAC_STATIC_ASSERT(StagesPositive, Stages >= 1)
  `RAC_STATIC_ASSERT(UserWPositive, UserW >= 1)

  localparam int unsigned VcW = NumLanes * ClkW;

  logic [VcW-1:0] join_d;

  vc_join_comb #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW)
  ) u_join (
    .a_i   (a_i),
    .b_i   (b_i),
    .join_o(join_d)
  );

  rac_pipe_reg #(
    .Width(VcW + UserW),
    .Depth(Stages)
  ) u_pipe (
    .clk_i  (clk_i),
    .rst_i  (rst_i),
    .valid_i(valid_i),
    .ready_o(ready_o),
    .data_i ({user_i, join_d}),
    .valid_o(valid_o),
    .ready_i(ready_i),
    .data_o ({user_o, join_o})
  );

  ////////////////
  // Assertions //
  ////////////////

  logic [2*VcW+UserW-1:0] in_payload;
  assign in_payload = {user_i, b_i, a_i};

  `RAC_ASSUME_NEXT(InValidHeld, valid_i && !ready_o, valid_i, clk_i, rst_i)
  `RAC_ASSUME_STABLE(InPayloadHeld, valid_i && !ready_o, in_payload, clk_i, rst_i)

endmodule
