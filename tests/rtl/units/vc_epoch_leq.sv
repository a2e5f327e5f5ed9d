// Pipelined epoch order e ≼ V (c@t ≼ V iff c <= V[t]) with a valid/ready
// handshake; see vc_epoch_leq_comb (an out-of-range slot reads lane 0 value 0).
//
// Latency is Stages cycles (>= 1); throughput one check per cycle.
//   Stages = 1: lane select and compare in front of one register stage.
//   Stages >= 2: the selected lane and the epoch clock are registered first
//                (2*ClkW bits), the compare follows, then Stages-1 register
//                stages.
// Every stage stalls on back-pressure (ready_o = !valid_q || ready_i per
// stage, see rac_pipe_reg); a stalled output holds. user_i/user_o is an
// opaque sideband carried alongside.
//
// Input protocol (valid/ready, as AXI4-Stream): once valid_i is raised it
// stays high, with all inputs stable, until the cycle where ready_o is high.
// Checked in simulation, assumed in formal.
`include "rac_assert.svh"

module vc_epoch_leq #(
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
  input  logic [SlotW-1:0]         epoch_slot_i,
  input  logic [ClkW-1:0]          epoch_clk_i,
  input  logic [NumLanes*ClkW-1:0] vc_i,
  input  logic [UserW-1:0]         user_i,

  output logic                     valid_o,
  input  logic                     ready_i,
  output logic                     leq_o,
  output logic [UserW-1:0]         user_o
);

  `RAC_STATIC_ASSERT(StagesPositive, Stages >= 1)
  `RAC_STATIC_ASSERT(UserWPositive, UserW >= 1)

  if (Stages == 1) begin : g_one_stage
    logic leq;

    vc_epoch_leq_comb #(
      .NumLanes(NumLanes),
      .ClkW    (ClkW)
    ) u_leq (
      .epoch_slot_i(epoch_slot_i),
      .epoch_clk_i (epoch_clk_i),
      .vc_i        (vc_i),
      .leq_o       (leq)
    );

    rac_pipe_reg #(
      .Width(1 + UserW),
      .Depth(1)
    ) u_pipe (
      .clk_i  (clk_i),
      .rst_i  (rst_i),
      .valid_i(valid_i),
      .ready_o(ready_o),
      .data_i ({user_i, leq}),
      .valid_o(valid_o),
      .ready_i(ready_i),
      .data_o ({user_o, leq_o})
    );
  end else begin : g_split
    // Stage 1: lane select.
    logic [ClkW-1:0]  lane_d, lane_q, epoch_clk_q;
    logic             mid_valid, mid_ready;
    logic [UserW-1:0] mid_user;

    vc_lane_sel_comb #(
      .NumLanes(NumLanes),
      .ClkW    (ClkW)
    ) u_sel (
      .vc_i  (vc_i),
      .slot_i(epoch_slot_i),
      .lane_o(lane_d)
    );

    rac_pipe_reg #(
      .Width(2 * ClkW + UserW),
      .Depth(1)
    ) u_pipe_sel (
      .clk_i  (clk_i),
      .rst_i  (rst_i),
      .valid_i(valid_i),
      .ready_o(ready_o),
      .data_i ({user_i, epoch_clk_i, lane_d}),
      .valid_o(mid_valid),
      .ready_i(mid_ready),
      .data_o ({mid_user, epoch_clk_q, lane_q})
    );

    // Stage 2..Stages: compare, then registers.
    rac_pipe_reg #(
      .Width(1 + UserW),
      .Depth(Stages - 1)
    ) u_pipe_cmp (
      .clk_i  (clk_i),
      .rst_i  (rst_i),
      .valid_i(mid_valid),
      .ready_o(mid_ready),
      .data_i ({mid_user, epoch_clk_q <= lane_q}),
      .valid_o(valid_o),
      .ready_i(ready_i),
      .data_o ({user_o, leq_o})
    );
  end

  ////////////////
  // Assertions //
  ////////////////

  logic [SlotW+ClkW+NumLanes*ClkW+UserW-1:0] in_payload;
  assign in_payload = {user_i, vc_i, epoch_clk_i, epoch_slot_i};

  `RAC_ASSUME_NEXT(InValidHeld, valid_i && !ready_o, valid_i, clk_i, rst_i)
  `RAC_ASSUME_STABLE(InPayloadHeld, valid_i && !ready_o, in_payload, clk_i, rst_i)

endmodule
