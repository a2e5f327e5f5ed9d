// Test top for the VC units: the three pipelined units side by side, each
// with its own handshake, and the combinational variants on shared inputs.
// Verilated once per parameter set by tests/rtl/CMakeLists.txt and driven
// from vc_units_test.cpp.
module vc_units_tb #(
  parameter  int unsigned NumLanes = 8,
  parameter  int unsigned ClkW     = 8,
  parameter  int unsigned Stages   = 1,
  parameter  int unsigned UserW    = 16,
  localparam int unsigned SlotW    = (NumLanes > 1) ? $clog2(NumLanes) : 1,
  localparam int unsigned VcW      = NumLanes * ClkW
) (
  input  logic                clk_i,
  input  logic                rst_i,

  // vc_join
  input  logic                join_valid_i,
  output logic                join_ready_o,
  input  logic [VcW-1:0]      join_a_i,
  input  logic [VcW-1:0]      join_b_i,
  input  logic [UserW-1:0]    join_user_i,
  output logic                join_valid_o,
  input  logic                join_ready_i,
  output logic [VcW-1:0]      join_o,
  output logic [UserW-1:0]    join_user_o,

  // vc_leq
  input  logic                leq_valid_i,
  output logic                leq_ready_o,
  input  logic [VcW-1:0]      leq_a_i,
  input  logic [VcW-1:0]      leq_b_i,
  input  logic [UserW-1:0]    leq_user_i,
  output logic                leq_valid_o,
  input  logic                leq_ready_i,
  output logic                leq_o,
  output logic                leq_any_greater_o,
  output logic [SlotW-1:0]    leq_first_greater_lane_o,
  output logic [NumLanes-1:0] leq_greater_lanes_o,
  output logic [UserW-1:0]    leq_user_o,

  // vc_epoch_leq
  input  logic                ep_valid_i,
  output logic                ep_ready_o,
  input  logic [SlotW-1:0]    ep_slot_i,
  input  logic [ClkW-1:0]     ep_clk_i,
  input  logic [VcW-1:0]      ep_vc_i,
  input  logic [UserW-1:0]    ep_user_i,
  output logic                ep_valid_o,
  input  logic                ep_ready_i,
  output logic                ep_leq_o,
  output logic [UserW-1:0]    ep_user_o,

  // combinational variants: a, b (also the epoch's VC), epoch slot/clock
  input  logic [VcW-1:0]      comb_a_i,
  input  logic [VcW-1:0]      comb_b_i,
  input  logic [SlotW-1:0]    comb_slot_i,
  input  logic [ClkW-1:0]     comb_clk_i,
  output logic [VcW-1:0]      comb_join_o,
  output logic                comb_leq_o,
  output logic                comb_any_greater_o,
  output logic [SlotW-1:0]    comb_first_greater_lane_o,
  output logic [NumLanes-1:0] comb_greater_lanes_o,
  output logic                comb_epoch_leq_o
);

  vc_join #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW),
    .Stages  (Stages),
    .UserW   (UserW)
  ) u_join (
    .clk_i  (clk_i),
    .rst_i  (rst_i),
    .valid_i(join_valid_i),
    .ready_o(join_ready_o),
    .a_i    (join_a_i),
    .b_i    (join_b_i),
    .user_i (join_user_i),
    .valid_o(join_valid_o),
    .ready_i(join_ready_i),
    .join_o (join_o),
    .user_o (join_user_o)
  );

  vc_leq #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW),
    .Stages  (Stages),
    .UserW   (UserW)
  ) u_leq (
    .clk_i               (clk_i),
    .rst_i               (rst_i),
    .valid_i             (leq_valid_i),
    .ready_o             (leq_ready_o),
    .a_i                 (leq_a_i),
    .b_i                 (leq_b_i),
    .user_i              (leq_user_i),
    .valid_o             (leq_valid_o),
    .ready_i             (leq_ready_i),
    .leq_o               (leq_o),
    .any_greater_o       (leq_any_greater_o),
    .first_greater_lane_o(leq_first_greater_lane_o),
    .greater_lanes_o     (leq_greater_lanes_o),
    .user_o              (leq_user_o)
  );

  vc_epoch_leq #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW),
    .Stages  (Stages),
    .UserW   (UserW)
  ) u_epoch_leq (
    .clk_i       (clk_i),
    .rst_i       (rst_i),
    .valid_i     (ep_valid_i),
    .ready_o     (ep_ready_o),
    .epoch_slot_i(ep_slot_i),
    .epoch_clk_i (ep_clk_i),
    .vc_i        (ep_vc_i),
    .user_i      (ep_user_i),
    .valid_o     (ep_valid_o),
    .ready_i     (ep_ready_i),
    .leq_o       (ep_leq_o),
    .user_o      (ep_user_o)
  );

  vc_join_comb #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW)
  ) u_join_comb (
    .a_i   (comb_a_i),
    .b_i   (comb_b_i),
    .join_o(comb_join_o)
  );

  vc_leq_comb #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW)
  ) u_leq_comb (
    .a_i                 (comb_a_i),
    .b_i                 (comb_b_i),
    .leq_o               (comb_leq_o),
    .any_greater_o       (comb_any_greater_o),
    .first_greater_lane_o(comb_first_greater_lane_o),
    .greater_lanes_o     (comb_greater_lanes_o)
  );

  vc_epoch_leq_comb #(
    .NumLanes(NumLanes),
    .ClkW    (ClkW)
  ) u_epoch_leq_comb (
    .epoch_slot_i(comb_slot_i),
    .epoch_clk_i (comb_clk_i),
    .vc_i        (comb_b_i),
    .leq_o       (comb_epoch_leq_o)
  );

endmodule
