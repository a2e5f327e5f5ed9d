// Sequential properties of the pipelined vc_epoch_leq (yosys-smtbmc + z3):
// every accepted beat comes out once, in order, equal to vc_epoch_leq_comb's
// result for it, with its user sideband; outputs hold under back-pressure;
// the unit accepts whenever not full.
`include "rac_assert.svh"

module vc_epoch_leq_props #(
  parameter  int unsigned NumLanes = 3,
  parameter  int unsigned ClkW     = 4,
  parameter  int unsigned Stages   = 1,
  localparam int unsigned SlotW    = (NumLanes > 1) ? $clog2(NumLanes) : 1
) (
  input logic                     clk_i,
  input logic                     rst_i,
  input logic                     track_i,
  input logic                     valid_i,
  input logic [SlotW-1:0]         slot_i,
  input logic [ClkW-1:0]          epoch_clk_i,
  input logic [NumLanes*ClkW-1:0] vc_i,
  input logic [1:0]               user_i,
  input logic                     ready_i
);

  logic       ready_o, valid_o, leq, leq_ref;
  logic [1:0] user_o;

  vc_epoch_leq #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW),
    .Stages  (Stages),
    .UserW   (2)
  ) u_dut (
    .clk_i       (clk_i),
    .rst_i       (rst_i),
    .valid_i     (valid_i),
    .ready_o     (ready_o),
    .epoch_slot_i(slot_i),
    .epoch_clk_i (epoch_clk_i),
    .vc_i        (vc_i),
    .user_i      (user_i),
    .valid_o     (valid_o),
    .ready_i     (ready_i),
    .leq_o       (leq),
    .user_o      (user_o)
  );

  vc_epoch_leq_comb #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW)
  ) u_ref (
    .epoch_slot_i(slot_i),
    .epoch_clk_i (epoch_clk_i),
    .vc_i        (vc_i),
    .leq_o       (leq_ref)
  );

  formal_stream_tracker #(
    .Width   (3),
    .MaxDepth(Stages)
  ) u_trk (
    .clk_i  (clk_i),
    .rst_i  (rst_i),
    .track_i(track_i),
    .valid_i(valid_i),
    .ready_o(ready_o),
    .exp_i  ({user_i, leq_ref}),
    .valid_o(valid_o),
    .ready_i(ready_i),
    .out_i  ({user_o, leq})
  );

`ifdef FORMAL
  initial assume (rst_i);
`endif

endmodule
