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
  // No wide arithmetic is on a path here (each would be a carry chain of up
  // to 16 CARRY4 levels):
  // - the next beat's address is a 4 KB page (a rac_wide_cnt: its carries
  //   registered) and the beat in it (6 bits); a burst never crosses 4 KB,
  //   so it ends in the page or exactly at its end, which steps the page;
  // - the beats not yet requested are hi * 256 + lo: lo (9 bits, at most
  //   511) takes each burst's length, borrowing 256 from hi (a down
  //   rac_wide_cnt whose zero flag is registered) when lo is short;
  // - the next burst's length is computed from these registers a cycle
  //   ahead (len_q), and the FIFO's room is registered (room_q): a burst is
  //   requested only when no request is pending, and every request or
  //   start (or reset) is followed by a cycle without one (the request's
  //   own valid cycle, or fresh_q), in which they catch up.
  logic [51:0]     page;            // the next beat's 4 KB page
  logic [5:0]      beat_q;          // the next beat within it
  logic [8:0]      lo_q;            // beats not yet requested: hi * 256 + lo_q
  logic            hi_zero;
  logic [6:0]      len_q;           // the next burst's length (0: none left)
  logic            fresh_q;         // the cycle after a start or reset: len_q is not yet the batch's
  logic [CntW-1:0] owed_q;          // beats requested, not yet received
  logic [CntW-1:0] fifo_count_q;
  logic            stopped_q;
  logic [6:0]      to_boundary, burst_len;
  logic [CntW-1:0] room_q;          // FIFO room, a cycle late (see the issue)

  // The next burst: at most MaxBurst beats, up to the 4 KB boundary, up to
  // the batch's end (only when hi is zero can lo be all that is left).
  logic [9:0]  lo_at;  // lo_q + the beat: the batch ends within the page when < 64
  assign lo_at = {1'b0, lo_q} + {4'd0, beat_q};
  assign to_boundary = 7'd64 - {1'b0, beat_q};  // beats up to the next 4 KB boundary
  always_comb begin
    burst_len = MaxBurst[6:0];
    if (to_boundary < burst_len) burst_len = to_boundary;
    if (hi_zero && lo_q < 9'(MaxBurst) && lo_at < 10'd64) burst_len = lo_q[6:0];
  end
  // The FIFO's room for beats not yet requested. Only a request takes room
  // (beats arriving take it from owed to the FIFO, pops and dropped beats
  // give it back), so the registered copy, a cycle late, never overstates
  // it when a request may be made: not in the cycle after a request.
  always_ff @(posedge clk_i) room_q <= CntW'(FifoDepth) - fifo_count_q - owed_q;

  logic ar_fire, r_fire, issue;
  assign ar_fire = arvalid_o && arready_i;
  assign r_fire  = rvalid_i && rready_o;
  assign bus_error_o = r_fire && rresp_i[1];  // 2: SLVERR, 3: DECERR (1, EXOKAY, is not used by a plain read)
  assign issue   = !arvalid_o && !fresh_q && !start_i && !stop_i && !stopped_q && len_q != 0 &&
                   room_q >= CntW'(len_q);

  // At an issue: the beat after the burst (bit 6: the page's end), and lo
  // less the burst (bit 9: lo was short, borrow 256 from hi; hi is not zero
  // then, since len_q never exceeds what is left).
  logic [6:0] beat_after;
  logic [9:0] lo_after;
  assign beat_after = {1'b0, beat_q} + len_q;
  assign lo_after   = {1'b0, lo_q} - {3'd0, len_q};

  // A start: the batch's beats, ceil((word offset in the first beat + words)
  // / 4), as words_i[31:10] * 256 + (offset + words_i[9:0] + 3) / 4, so the
  // add is 11 bits wide.
  logic [10:0] first_lo;
  assign first_lo = {9'd0, base_i[5:4]} + {1'b0, words_i[9:0]} + 11'd3;

  rac_wide_cnt #(.W(52)) u_page (
    .clk_i,
    .rst_i,
    .load_i (rst_i || start_i),
    .value_i(base_i[63:12]),
    .step_i (issue && beat_after[6]),
    .q_o    (page),
    .zero_o (page_zero),
    .one_o  (page_one)
  );
  rac_wide_cnt #(.W(22), .Down(1'b1)) u_hi (
    .clk_i,
    .rst_i,
    .load_i (rst_i || start_i),
    .value_i(rst_i ? 22'd0 : words_i[31:10]),
    .step_i (issue && lo_after[9]),
    .q_o    (hi),
    .zero_o (hi_zero),
    .one_o  (hi_one)
  );

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      arvalid_o <= 1'b0;
      lo_q <= '0;
      owed_q <= '0;
      stopped_q <= 1'b0;
      fresh_q <= 1'b1;  // len_q and room_q were computed in reset, from the state before it
    end else begin
      fresh_q <= start_i;
      if (start_i) begin
        beat_q <= base_i[11:6];
        lo_q <= (words_i == 32'd0) ? 9'd0 : first_lo[10:2];
        stopped_q <= 1'b0;
      end else if (stop_i || bus_error_o) begin
        stopped_q <= 1'b1;
      end
      if (ar_fire) begin
        arvalid_o <= 1'b0;
      end else if (issue) begin
        arvalid_o <= 1'b1;
        araddr_o <= {page, beat_q, 6'd0};
        arlen_o <= {1'b0, len_q} - 8'd1;
        beat_q <= beat_after[5:0];
        lo_q <= lo_after[9] ? {1'b0, lo_after[7:0]} : lo_after[8:0];
      end
      owed_q <= owed_q + (issue ? CntW'(len_q) : '0) - (r_fire ? CntW'(1) : '0);
    end
    len_q <= burst_len;
  end

  // ---------------------------------------------------------------------------
  // Beat FIFO and the word splitter
  // ---------------------------------------------------------------------------
  logic [511:0]    fifo_mem [FifoDepth];
  logic [PtrW-1:0] wr_ptr_q, rd_ptr_q;
  logic [1:0]      lane_q;        // next word within the head beat
  logic [31:0]     words_left;    // words still to deliver
  logic            words_none, words_one;
  logic            push, pop, word_fire, drop;

  assign rready_o  = stopped_q || fifo_count_q != CntW'(FifoDepth);
  assign drop      = stopped_q || stop_i || bus_error_o;
  assign push      = r_fire && !drop;
  assign word_fire = word_valid_o && word_ready_i;
  assign pop       = drop ? fifo_count_q != 0
                          : word_fire && (lane_q == 2'd3 || words_one);

  assign word_valid_o = !stopped_q && fifo_count_q != 0 && !words_none;
  assign word_o       = fifo_mem[rd_ptr_q][lane_q*128 +: 128];

  always_ff @(posedge clk_i) begin
    if (push) fifo_mem[wr_ptr_q] <= rdata_i;
  end

  // The words still to deliver: a down counter with registered ends (its
  // zero and one are what word_valid_o and pop look at).
  rac_wide_cnt #(.W(32), .Down(1'b1)) u_words (
    .clk_i,
    .rst_i,
    .load_i (rst_i || start_i || stop_i || bus_error_o),
    .value_i((rst_i || stop_i || bus_error_o) ? 32'd0 : words_i),
    .step_i (word_fire),
    .q_o    (words_left),
    .zero_o (words_none),
    .one_o  (words_one)
  );

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wr_ptr_q <= '0;
      rd_ptr_q <= '0;
      fifo_count_q <= '0;
      lane_q <= '0;
    end else begin
      if (push) wr_ptr_q <= wr_ptr_q + 1'b1;
      if (pop) rd_ptr_q <= rd_ptr_q + 1'b1;
      fifo_count_q <= fifo_count_q + (push ? CntW'(1) : '0) - (pop ? CntW'(1) : '0);
      if (start_i) begin
        lane_q <= base_i[5:4];
      end else if (word_fire) begin
        lane_q <= lane_q + 2'd1;
      end
    end
  end

  // Beats are counted, so RLAST (checked by the memory model in simulation) is
  // not needed; base is 16-byte aligned (the kernel checks it). The counters'
  // values beyond their ends are not needed either.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [21:0] hi;
  logic        page_zero, page_one, hi_one;
  logic unused_bits;
  assign unused_bits = rlast_i ^ (^base_i[3:0]) ^ rresp_i[0] ^ (^hi) ^ page_zero ^ page_one ^ hi_one ^
                       (^words_left) ^ (^first_lo[1:0]);
  /* verilator lint_on UNUSEDSIGNAL */

  assign idle_o = !arvalid_o && owed_q == 0 && fifo_count_q == 0 && (stopped_q || (hi_zero && lo_q == 0));

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
    issue && len_q < MaxBurst[6:0] && beat_after[6] && !(hi_zero && lo_q == 9'(len_q)));
  // (No point for R held back: a burst is requested only with room for all
  // its beats, so rready_o is high whenever a beat can come.)
`endif

endmodule
