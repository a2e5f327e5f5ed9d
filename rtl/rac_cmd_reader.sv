// m_axi_cmd read master of rac_kernel: streams a batch's 16-byte command
// words from device memory, in order.
//
// The batch (base 16-byte aligned, `words` words) is read as 512-bit beats
// from base rounded down to 64 bytes, in INCR bursts of at most MaxBurst
// beats that never cross a 4 KB boundary. Several bursts may be in flight:
// a burst is requested only when the beat FIFO has room for it on top of
// every beat still owed, so R is never back-pressured by a full FIFO. Each
// beat is split into four words; the words before base in the first beat
// and after the batch in the last one are dropped.
//
// stop_i (the decoder met a bad word) ends the batch early: no further
// bursts are requested, the beats still owed are accepted and dropped, and
// idle_o rises when the last of them has arrived.
//
// A beat with an error response (RRESP SLVERR or DECERR) carries no command
// words: it raises bus_error_o for a cycle and stops the batch as stop_i
// does (its own and every later beat are dropped, the rest still owed is
// drained), so the reader never hangs and never delivers a word read after
// a failed beat. The kernel reports the error in its status register.
`include "rac_assert.svh"

module rac_cmd_reader #(
  parameter int unsigned FifoDepth = 32,  // beats (power of two)
  parameter int unsigned MaxBurst  = 16   // beats per burst (1..64)
) (
  input  logic         clk_i,
  input  logic         rst_i,

  input  logic         start_i,  // pulse: read `words_i` words from `base_i`
  input  logic [63:0]  base_i,
  input  logic [31:0]  words_i,
  input  logic         stop_i,
  output logic         idle_o,

  output logic         word_valid_o,
  input  logic         word_ready_i,
  output logic [127:0] word_o,

  output logic         arvalid_o,
  input  logic         arready_i,
  output logic [63:0]  araddr_o,
  output logic [7:0]   arlen_o,
  input  logic         rvalid_i,
  output logic         rready_o,
  input  logic [511:0] rdata_i,
  input  logic         rlast_i,
  input  logic [1:0]   rresp_i,
  output logic         bus_error_o  // pulse: a beat came back with SLVERR/DECERR
);

  localparam int unsigned PtrW = $clog2(FifoDepth);
  localparam int unsigned CntW = PtrW + 1;

  // ---------------------------------------------------------------------------
  // Burst requests
  // ---------------------------------------------------------------------------
  logic [63:0]     next_addr_q;     // next beat to request (64-byte aligned)
  logic [33:0]     beats_left_q;    // beats not yet requested
  logic [CntW-1:0] owed_q;          // beats requested, not yet received
  logic [CntW-1:0] fifo_count_q;
  logic            stopped_q;
  logic [6:0]      to_boundary, burst_len;
  logic [CntW-1:0] room;

  assign to_boundary = 7'd64 - {1'b0, next_addr_q[11:6]};  // beats up to the next 4 KB boundary
  always_comb begin
    burst_len = MaxBurst[6:0];
    if (to_boundary < burst_len) burst_len = to_boundary;
    if (beats_left_q < {27'd0, burst_len}) burst_len = beats_left_q[6:0];
  end
  assign room = CntW'(FifoDepth) - fifo_count_q - owed_q;

  logic ar_fire, r_fire, issue;
  assign ar_fire = arvalid_o && arready_i;
  assign r_fire  = rvalid_i && rready_o;
  assign bus_error_o = r_fire && rresp_i[1];  // 2: SLVERR, 3: DECERR (1, EXOKAY, is not used by a plain read)
  assign issue   = !arvalid_o && !start_i && !stop_i && !stopped_q && beats_left_q != 0 && room >= CntW'(burst_len);

  logic [33:0] first_beats;  // beats of the batch: ceil((word offset in the first beat + words) / 4)
  assign first_beats = (words_i == 0) ? 34'd0 : ({32'd0, base_i[5:4]} + {2'b00, words_i} + 34'd3) >> 2;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      arvalid_o <= 1'b0;
      beats_left_q <= '0;
      owed_q <= '0;
      stopped_q <= 1'b0;
    end else begin
      if (start_i) begin
        next_addr_q <= {base_i[63:6], 6'd0};
        beats_left_q <= first_beats;
        stopped_q <= 1'b0;
      end else if (stop_i || bus_error_o) begin
        stopped_q <= 1'b1;
      end
      if (ar_fire) begin
        arvalid_o <= 1'b0;
      end else if (issue) begin
        arvalid_o <= 1'b1;
        araddr_o <= next_addr_q;
        arlen_o <= {1'b0, burst_len} - 8'd1;
        next_addr_q <= next_addr_q + {51'd0, burst_len, 6'd0};
        beats_left_q <= beats_left_q - {27'd0, burst_len};
      end
      owed_q <= owed_q + (issue ? CntW'(burst_len) : '0) - (r_fire ? CntW'(1) : '0);
    end
  end

  // ---------------------------------------------------------------------------
  // Beat FIFO and the word splitter
  // ---------------------------------------------------------------------------
  logic [511:0]    fifo_mem [FifoDepth];
  logic [PtrW-1:0] wr_ptr_q, rd_ptr_q;
  logic [1:0]      lane_q;        // next word within the head beat
  logic [31:0]     words_left_q;  // words still to deliver
  logic            push, pop, word_fire, drop;

  assign rready_o  = stopped_q || fifo_count_q != CntW'(FifoDepth);
  assign drop      = stopped_q || stop_i || bus_error_o;
  assign push      = r_fire && !drop;
  assign word_fire = word_valid_o && word_ready_i;
  assign pop       = drop ? fifo_count_q != 0
                          : word_fire && (lane_q == 2'd3 || words_left_q == 32'd1);

  assign word_valid_o = !stopped_q && fifo_count_q != 0 && words_left_q != 0;
  assign word_o       = fifo_mem[rd_ptr_q][lane_q*128 +: 128];

  always_ff @(posedge clk_i) begin
    if (push) fifo_mem[wr_ptr_q] <= rdata_i;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      fifo_count_q <= '0;
      lane_q <= '0;
      words_left_q <= '0;
    end else begin
      if (push) wr_ptr_q <= wr_ptr_q + 1'b1;
      if (pop) rd_ptr_q <= rd_ptr_q + 1'b1;
      fifo_count_q <= fifo_count_q + (push ? CntW'(1) : '0) - (pop ? CntW'(1) : '0);
      if (start_i) begin
        lane_q <= base_i[5:4];
        words_left_q <= words_i;
      end else if (word_fire) begin
        lane_q <= lane_q + 2'd1;
        words_left_q <= words_left_q - 32'd1;
      end
      if (stop_i || bus_error_o) words_left_q <= '0;
    end
  end

  // Beats are counted, so RLAST (checked by the memory model in simulation) is
  // not needed; base is 16-byte aligned (the kernel checks it).
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_bits;
  assign unused_bits = rlast_i ^ (^base_i[3:0]) ^ rresp_i[0];
  /* verilator lint_on UNUSEDSIGNAL */

  assign idle_o = !arvalid_o && owed_q == 0 && fifo_count_q == 0 && (stopped_q || beats_left_q == 0);

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
  `RAC_STATIC_ASSERT(FifoDepthPowerOfTwo, (FifoDepth & (FifoDepth - 1)) == 0 && FifoDepth >= MaxBurst)
  `RAC_STATIC_ASSERT(BurstFitsAxi, MaxBurst >= 1 && MaxBurst <= 64)
  // A burst never crosses a 4 KB boundary.
  `RAC_ASSERT(BurstWithin4K, !arvalid_o || {1'b0, araddr_o[11:6]} + {1'b0, arlen_o[5:0]} < 7'd64 && arlen_o < 8'd64,
              clk_i, rst_i)
  // The request is held, unchanged, until it is taken.
  `RAC_ASSERT_NEXT(ReadRequestHeld, arvalid_o && !arready_i,
                   arvalid_o && araddr_o == $past(araddr_o) && arlen_o == $past(arlen_o), clk_i, rst_i)
  // Beats arrive only for bursts requested (and never overflow the FIFO).
  `RAC_ASSERT(NoUnrequestedBeat, !r_fire || owed_q != 0, clk_i, rst_i)
  `RAC_ASSERT(FifoNoOverflow, !push || fifo_count_q != CntW'(FifoDepth) || pop, clk_i, rst_i)

  // Cover points (coverage models only: -DRAC_COVER; docs/verification.md).
`ifdef RAC_COVER
  // A burst cut short at a 4 KB boundary.
  cov_split_4k: cover property (@(posedge clk_i) disable iff (rst_i)
    issue && to_boundary < MaxBurst[6:0] && to_boundary < 7'(beats_left_q > 34'd127 ? 34'd127 : beats_left_q));
  // (No point for R held back: a burst is requested only with room for all
  // its beats, so rready_o is high whenever a beat can come.)
`endif

endmodule
