// Pipelined vector-clock order a ⊑ b with a valid/ready handshake, and the
// race-report details (see vc_leq_comb): any_greater_o, the lowest lane where
// a > b (first_greater_lane_o), and the mask of all such lanes.
//
// Latency is Stages cycles (>= 1); throughput one compare per cycle.
//   Stages = 1: compare and priority-encode in front of one register stage.
//   Stages >= 2: the per-lane compares are registered first (NumLanes bits),
//                the reduction/priority encoder follows, then Stages-1
//                register stages.
// Every stage stalls on back-pressure (ready_o = !valid_q || ready_i per
// stage, see rac_pipe_reg); a stalled output holds. user_i/user_o is an
// opaque sideband carried alongside.
//
// Input protocol (valid/ready, as AXI4-Stream): once valid_i is raised it
// stays high, with a_i/b_i/user_i stable, until the cycle where ready_o is
// high. Checked in simulation, assumed in formal.
`include "rac_assert.svh"

module vc_leq #(
  parameter  int unsigned NumLanes = rac_pkg::DefaultNumLanes,
  parameter  int unsigned ClkW     = rac_pkg::DefaultClkW,
  parameter  int unsigned Stages   = 1,
  parameter  int unsigned UserW    = 1,
  localparam int unsigned SlotW    = (NumLanes > 1) ? $clog2(NumLanes) : 1
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
  output logic                     leq_o,
  output logic                     any_greater_o,
  output logic [SlotW-1:0]         first_greater_lane_o,
  output logic [NumLanes-1:0]      greater_lanes_o,
  output logic [UserW-1:0]         user_o
);

  `RAC_STATIC_ASSERT(StagesPositive, Stages >= 1)
  `RAC_STATIC_ASSERT(UserWPositive, UserW >= 1)

  localparam int unsigned ResW = 1 + SlotW + NumLanes;  // any, first, mask (leq is !any)

  logic [ResW-1:0] res_q;

  if (Stages == 1) begin : g_one_stage
    logic              any_greater;
    logic [SlotW-1:0]  first_greater_lane;
    logic [NumLanes-1:0] greater_lanes;

    /* verilator lint_off PINCONNECTEMPTY */
    vc_leq_comb #(
      .NumLanes(NumLanes),
      .ClkW    (ClkW)
    ) u_leq (
      .a_i                 (a_i),
      .b_i                 (b_i),
      .leq_o               (),  // derived after the register: leq_o = !any_greater_o
      .any_greater_o       (any_greater),
      .first_greater_lane_o(first_greater_lane),
      .greater_lanes_o     (greater_lanes)
    );
    /* verilator lint_on PINCONNECTEMPTY */

    rac_pipe_reg #(
      .Width(ResW + UserW),
      .Depth(1)
    ) u_pipe (
      .clk_i  (clk_i),
      .rst_i  (rst_i),
      .valid_i(valid_i),
      .ready_o(ready_o),
      .data_i ({user_i, any_greater, first_greater_lane, greater_lanes}),
      .valid_o(valid_o),
      .ready_i(ready_i),
      .data_o ({user_o, res_q})
    );
  end else begin : g_split
    // Stage 1: per-lane compares.
    logic [NumLanes-1:0] gt_d, gt_q;
    logic                mid_valid, mid_ready;
    logic [UserW-1:0]    mid_user;

    vc_lanes_gt_comb #(
      .NumLanes(NumLanes),
      .ClkW    (ClkW)
    ) u_gt (
      .a_i (a_i),
      .b_i (b_i),
      .gt_o(gt_d)
    );

    rac_pipe_reg #(
      .Width(NumLanes + UserW),
      .Depth(1)
    ) u_pipe_gt (
      .clk_i  (clk_i),
      .rst_i  (rst_i),
      .valid_i(valid_i),
      .ready_o(ready_o),
      .data_i ({user_i, gt_d}),
      .valid_o(mid_valid),
      .ready_i(mid_ready),
      .data_o ({mid_user, gt_q})
    );

    // Stage 2..Stages: reduction and priority encoder, then registers.
    logic             any_greater;
    logic [SlotW-1:0] first_greater_lane;

    rac_first_one #(
      .Width(NumLanes)
    ) u_first (
      .in_i (gt_q),
      .any_o(any_greater),
      .idx_o(first_greater_lane)
    );

    rac_pipe_reg #(
      .Width(ResW + UserW),
      .Depth(Stages - 1)
    ) u_pipe_res (
      .clk_i  (clk_i),
      .rst_i  (rst_i),
      .valid_i(mid_valid),
      .ready_o(mid_ready),
      .data_i ({mid_user, any_greater, first_greater_lane, gt_q}),
      .valid_o(valid_o),
      .ready_i(ready_i),
      .data_o ({user_o, res_q})
    );
  end

  assign {any_greater_o, first_greater_lane_o, greater_lanes_o} = res_q;
  assign leq_o = !any_greater_o;

  ////////////////
  // Assertions //
  ////////////////

  logic [2*NumLanes*ClkW+UserW-1:0] in_payload;
  assign in_payload = {user_i, b_i, a_i};

  `RAC_ASSUME_NEXT(InValidHeld, valid_i && !ready_o, valid_i, clk_i, rst_i)
  `RAC_ASSUME_STABLE(InPayloadHeld, valid_i && !ready_o, in_payload, clk_i, rst_i)
  `RAC_ASSERT(AnyGreaterIsMaskNonZero, !valid_o || (any_greater_o == |greater_lanes_o),
              clk_i, rst_i)

endmodule
