// Formal scoreboard for a valid/ready pipeline of at most MaxDepth beats.
//
// exp_i is the result the pipeline must eventually emit for the beat offered
// at its input in this cycle (computed by a combinational reference). The
// solver picks one accepted beat to follow (track_i); the tracker counts the
// beats ahead of it and, when the tracked beat is at the output, checks
// out_i == the recorded expectation. Together with the occupancy properties
// this proves in-order, loss-free, duplicate-free transport of every beat,
// and that the output holds under back-pressure.
`include "rac_assert.svh"

module formal_stream_tracker #(
  parameter  int unsigned Width    = 1,
  parameter  int unsigned MaxDepth = 1,
  localparam int unsigned CntW     = $clog2(MaxDepth + 2)
) (
  input logic             clk_i,
  input logic             rst_i,
  input logic             track_i,
  // input side of the pipeline
  input logic             valid_i,
  input logic             ready_o,
  input logic [Width-1:0] exp_i,
  // output side of the pipeline
  input logic             valid_o,
  input logic             ready_i,
  input logic [Width-1:0] out_i
);

  logic in_fire, out_fire;
  assign in_fire  = valid_i && ready_o;
  assign out_fire = valid_o && ready_i;

  logic [CntW-1:0]  cnt_q;       // beats inside the pipeline
  logic             tracking_q;  // a tracked beat is inside
  logic [CntW-1:0]  pos_q;       // beats ahead of the tracked one
  logic [Width-1:0] exp_q;       // its expected result

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      cnt_q      <= '0;
      tracking_q <= 1'b0;
      pos_q      <= '0;
    end else begin
      cnt_q <= cnt_q + CntW'(in_fire) - CntW'(out_fire);
      if (!tracking_q && track_i && in_fire) begin
        tracking_q <= 1'b1;
        pos_q      <= cnt_q - CntW'(out_fire);
      end else if (tracking_q && out_fire) begin
        if (pos_q == '0) begin
          tracking_q <= 1'b0;
        end else begin
          pos_q <= pos_q - 1'b1;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!tracking_q && track_i && in_fire) begin
      exp_q <= exp_i;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  `RAC_ASSERT(CntBounded, cnt_q <= CntW'(MaxDepth), clk_i, rst_i)
  `RAC_ASSERT(NoValidWhenEmpty, (cnt_q != '0) || !valid_o, clk_i, rst_i)
  `RAC_ASSERT(AcceptsWhenNotFull, (cnt_q == CntW'(MaxDepth)) || ready_o, clk_i, rst_i)
  `RAC_ASSERT(TrackedInside, !tracking_q || (pos_q < cnt_q), clk_i, rst_i)
  `RAC_ASSERT(TrackedResult, !(tracking_q && pos_q == '0 && valid_o) || (out_i == exp_q),
              clk_i, rst_i)
  `RAC_ASSERT_NEXT(OutValidHeld, valid_o && !ready_i, valid_o, clk_i, rst_i)
  `RAC_ASSERT_STABLE(OutDataHeld, valid_o && !ready_i, out_i, clk_i, rst_i)
  if (MaxDepth == 1) begin : g_exact
    // One register: the occupancy is exactly valid_o (makes k-induction close).
    `RAC_ASSERT(OccupancyIsValid, cnt_q == CntW'(valid_o), clk_i, rst_i)
  end

`ifdef FORMAL
  always @(posedge clk_i) begin
    if (!rst_i) begin
      CoverTrackedStalled: cover (tracking_q && pos_q == '0 && valid_o && !ready_i);
      CoverFullAndFlowing: cover (cnt_q == CntW'(MaxDepth) && in_fire && out_fire);
    end
  end
`endif

endmodule
