// Sequential properties of the pipelined vc_leq (yosys-smtbmc + z3): every
// accepted beat comes out once, in order, equal to vc_leq_comb's result for
// it (whose correctness vc_leq_comb_props proves), with its user sideband;
// outputs hold under back-pressure; the unit accepts whenever not full.
`include "rac_assert.svh"

module vc_leq_props #(
  parameter  int unsigned NumLanes = 4,
  parameter  int unsigned ClkW     = 4,
  parameter  int unsigned Stages   = 1,
  localparam int unsigned SlotW    = (NumLanes > 1) ? $clog2(NumLanes) : 1
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

  localparam int unsigned ResW = 2 + SlotW + NumLanes;

  logic                ready_o, valid_o;
  logic                leq, any_greater, leq_ref, any_greater_ref;
  logic [SlotW-1:0]    first, first_ref;
  logic [NumLanes-1:0] mask, mask_ref;
  logic [1:0]          user_o;

  vc_leq #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW),
    .Stages  (Stages),
    .UserW   (2)
  ) u_dut (
    .clk_i               (clk_i),
    .rst_i               (rst_i),
    .valid_i             (valid_i),
    .ready_o             (ready_o),
    .a_i                 (a_i),
    .b_i                 (b_i),
    .user_i              (user_i),
    .valid_o             (valid_o),
    .ready_i             (ready_i),
    .leq_o               (leq),
    .any_greater_o       (any_greater),
    .first_greater_lane_o(first),
    .greater_lanes_o     (mask),
    .user_o              (user_o)
  );

  vc_leq_comb #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW)
  ) u_ref (
    .a_i                 (a_i),
    .b_i                 (b_i),
    .leq_o               (leq_ref),
    .any_greater_o       (any_greater_ref),
    .first_greater_lane_o(first_ref),
    .greater_lanes_o     (mask_ref)
  );

  formal_stream_tracker #(
    .Width   (ResW + 2),
    .MaxDepth(Stages)
  ) u_trk (
    .clk_i  (clk_i),
    .rst_i  (rst_i),
    .track_i(track_i),
    .valid_i(valid_i),
    .ready_o(ready_o),
    .exp_i  ({user_i, leq_ref, any_greater_ref, first_ref, mask_ref}),
    .valid_o(valid_o),
    .ready_i(ready_i),
    .out_i  ({user_o, leq, any_greater, first, mask})
  );

`ifdef FORMAL
  initial assume (rst_i);
`endif

endmodule
