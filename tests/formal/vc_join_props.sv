// Sequential properties of the pipelined vc_join (yosys-smtbmc + z3):
// every accepted beat comes out once, in order, as join(a, b) with its user
// sideband; outputs hold under back-pressure; the unit accepts whenever it
// is not full. Inputs obey the valid/ready protocol (assumed inside vc_join).
`include "rac_assert.svh"

module vc_join_props #(
  parameter int unsigned NumLanes = 4,
  parameter int unsigned ClkW     = 4,
  parameter int unsigned Stages   = 1
) (
  input logic                     clk_i,
  input logic                     rst_i,
  input logic                     track_i,
  input logic                     valid_i,
  input logic [NumLanes*ClkW-1:0] a_i,
  input logic [NumLanes*ClkW-1:0] b_i,
  input logic [1:0]               user_i,
  input logic                     ready_i
);

  localparam int unsigned VcW = NumLanes * ClkW;

  logic           ready_o, valid_o;
  logic [VcW-1:0] join_o, join_ref;
  logic [1:0]     user_o;

  vc_join #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW),
    .Stages  (Stages),
    .UserW   (2)
  ) u_dut (
    .clk_i  (clk_i),
    .rst_i  (rst_i),
    .valid_i(valid_i),
    .ready_o(ready_o),
    .a_i    (a_i),
    .b_i    (b_i),
    .user_i (user_i),
    .valid_o(valid_o),
    .ready_i(ready_i),
    .join_o (join_o),
    .user_o (user_o)
  );

  vc_join_comb #(.NumLanes(NumLanes), .ClkW(ClkW)) u_ref (.a_i(a_i), .b_i(b_i), .join_o(join_ref));

  formal_stream_tracker #(
    .Width   (VcW + 2),
    .MaxDepth(Stages)
  ) u_trk (
    .clk_i  (clk_i),
    .rst_i  (rst_i),
    .track_i(track_i),
    .valid_i(valid_i),
    .ready_o(ready_o),
    .exp_i  ({user_i, join_ref}),
    .valid_o(valid_o),
    .ready_i(ready_i),
    .out_i  ({user_o, join_o})
  );

`ifdef FORMAL
  initial assume (rst_i);
`endif

endmodule
