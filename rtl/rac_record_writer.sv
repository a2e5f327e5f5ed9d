// m_axi write master of rac_kernel for fixed-size records (64-byte race
// records, escalation records of cap_esc_record_bytes: 128 bytes, or with a
// read-VC pool 128 + 64 * ceil(clock bits / 512)): record n of a batch goes
// to base + n * RecBytes, in the order the records arrive.
//
// A record is one INCR burst of RecBytes / 64 beats of 512 bits, or one
// single-beat burst per beat where it would cross a 4 KB boundary (a
// record of several beats at a 64-byte aligned address can). The address and data
// channels are driven independently (neither waits for the other's ready).
// B responses are counted; idle_o rises when no record is held and every
// burst has its response, so the batch ends only after its records are in
// memory.
//
// A B response with an error (BRESP SLVERR or DECERR) raises bus_error_o
// for a cycle and is otherwise counted like any other: the writer goes on
// taking and writing records, so the engine drains and the batch ends
// cleanly; the kernel reports the error in its status register.
`include "rac_assert.svh"

module rac_record_writer #(
  parameter int unsigned RecBytes = 64,  // a multiple of 64, at most 1152 (18 beats)
  parameter int unsigned Beats    = RecBytes / 64,
  parameter int unsigned BeatW    = $clog2(Beats + 1)  // counts 0..Beats
) (
  input  logic                  clk_i,
  input  logic                  rst_i,

  input  logic                  start_i,     // pulse: a new batch writes from base_i, count 0
  input  logic [63:0]           base_i,
  input  logic [31:0]           capacity_i,  // records the buffer holds (checked by the kernel)
  output logic [31:0]           count_o,     // records taken in this batch
  output logic                  idle_o,

  input  logic                  rec_valid_i,
  output logic                  rec_ready_o,
  input  logic [Beats*512-1:0]  rec_data_i,

  output logic                  awvalid_o,
  input  logic                  awready_i,
  output logic [63:0]           awaddr_o,
  output logic [7:0]            awlen_o,
  output logic                  wvalid_o,
  input  logic                  wready_i,
  output logic [511:0]          wdata_o,
  output logic [63:0]           wstrb_o,
  output logic                  wlast_o,
  input  logic                  bvalid_i,
  output logic                  bready_o,
  input  logic [1:0]            bresp_i,
  output logic                  bus_error_o  // pulse: a B response was SLVERR/DECERR
);

  logic                 hold_q;
  logic [Beats*512-1:0] data_q;
  logic [BeatW-1:0]     aw_sent_q, w_sent_q;  // bursts requested, beats sent for the held record
  logic [15:0]          owed_q;               // bursts without a B response

  // ---------------------------------------------------------------------------
  // Record addresses: a 4 KB page and an offset in it
  // ---------------------------------------------------------------------------
  // A 64-bit next-record address + RecBytes is a 16-CARRY4 chain. A record
  // is smaller than a page (RecBytes <= 1152), so the next record's offset
  // is a 13-bit add whose carry steps the page once; the page is a
  // rac_wide_cnt (its carries registered), loaded with the batch's base.
  // The held record keeps its own page and offset: its page is the
  // counter's before the step, and when the record crosses 4 KB its later
  // beats lie in the counter's page after it (the next record's start is
  // past the boundary too).
  localparam logic [12:0] RecBytesV = 13'(RecBytes);
  logic [11:0] next_off_q;  // the next record's offset in the counter's page
  logic [51:0] page;        // the next record's page
  logic [51:0] rec_page_q;  // the held record's page
  logic [11:0] rec_off_q;   // its offset
  logic        split_q;     // it crosses a 4 KB boundary: one single-beat burst per beat
  logic [12:0] next_off_sum;
  logic        page_zero, page_one, count_zero, count_one;  // not needed
  assign next_off_sum = {1'b0, next_off_q} + RecBytesV;

  logic rec_fire;
  assign rec_fire = rec_valid_i && rec_ready_o;

  rac_wide_cnt #(.W(52)) u_page (
    .clk_i,
    .rst_i,
    .load_i (rst_i || start_i),
    .value_i(base_i[63:12]),
    .step_i (!start_i && rec_fire && next_off_sum[12]),
    .q_o    (page),
    .zero_o (page_zero),
    .one_o  (page_one)
  );

  // The records taken in this batch.
  rac_wide_cnt #(.W(32)) u_count (
    .clk_i,
    .rst_i,
    .load_i (rst_i || start_i),
    .value_i(32'd0),
    .step_i (rec_fire),
    .q_o    (count_o),
    .zero_o (count_zero),
    .one_o  (count_one)
  );

  // A record splits where it would cross 4 KB (only records of several
  // beats can): its last beat would lie beyond the 64th of the 4 KB page.
  localparam logic [31:0] BeatsV = Beats;
  localparam logic [31:0] LastV  = Beats - 1;  // beats after the first
  localparam logic [31:0] OneV   = 1;
  logic [BeatW-1:0] BeatsC, LastC, OneC;
  assign BeatsC = BeatsV[BeatW-1:0];
  assign LastC  = LastV[BeatW-1:0];
  assign OneC   = OneV[BeatW-1:0];
  logic [BeatW-1:0] aw_total;
  assign aw_total = split_q ? BeatsC : OneC;

  // Burst k of a split record is beat k: past the boundary it is in the
  // next page, at the offset less 4 KB (a 13-bit add, not a 64-bit one).
  logic [12:0] aw_off_sum;
  assign aw_off_sum = {1'b0, rec_off_q} + {1'b0, 12'({aw_sent_q, 6'd0})};

  logic aw_fire, w_fire, b_fire, aw_done, w_done;
  assign awvalid_o = hold_q && aw_sent_q != aw_total;
  assign awaddr_o  = {aw_off_sum[12] ? page : rec_page_q, aw_off_sum[11:0]};
  assign awlen_o   = split_q ? 8'd0 : 8'(Beats - 1);
  assign wvalid_o  = hold_q && w_sent_q != BeatsC;
  assign wdata_o   = data_q[w_sent_q*512 +: 512];
  assign wstrb_o   = '1;
  assign wlast_o   = split_q || w_sent_q == LastC;
  assign bready_o  = 1'b1;

  assign aw_fire  = awvalid_o && awready_i;
  assign w_fire   = wvalid_o && wready_i;
  assign b_fire   = bvalid_i && bready_o;
  assign bus_error_o = b_fire && bresp_i[1];
  assign rec_ready_o = !hold_q;
  assign aw_done  = aw_sent_q + (aw_fire ? OneC : '0) == aw_total;
  assign w_done   = w_sent_q + (w_fire ? OneC : '0) == BeatsC;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      hold_q <= 1'b0;
      aw_sent_q <= '0;
      w_sent_q <= '0;
      owed_q <= '0;
    end else begin
      // One adder: +1, -1 (all ones) or 0.
      owed_q <= owed_q + ((aw_fire && !b_fire) ? 16'd1 : (!aw_fire && b_fire) ? 16'hFFFF : 16'd0);
      if (start_i) begin
        next_off_q <= base_i[11:0];
      end else if (rec_fire) begin
        hold_q <= 1'b1;
        data_q <= rec_data_i;
        rec_page_q <= page;
        rec_off_q <= next_off_q;
        split_q <= Beats > 1 && {1'b0, next_off_q[11:6]} + LastV[6:0] > 7'd63;
        next_off_q <= next_off_sum[11:0];
        aw_sent_q <= '0;
        w_sent_q <= '0;
      end else if (hold_q) begin
        if (aw_done && w_done) begin
          hold_q <= 1'b0;
        end
        if (aw_fire) aw_sent_q <= aw_sent_q + OneC;
        if (w_fire) w_sent_q <= w_sent_q + OneC;
      end
    end
  end

  assign idle_o = !hold_q && owed_q == 0;

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_bits;
  assign unused_bits = bresp_i[0]  // EXOKAY is not an answer to a plain write
                       ^ page_zero ^ page_one ^ count_zero ^ count_one;
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
  `RAC_STATIC_ASSERT(RecordIsWholeBeats, RecBytes % 64 == 0 && Beats >= 1 && Beats <= 18)
  // Bursts never cross a 4 KB boundary.
  `RAC_ASSERT(BurstWithin4K, !awvalid_o || {1'b0, awaddr_o[11:6]} + {1'b0, awlen_o[5:0]} < 7'd64, clk_i, rst_i)
  // Requests and data are held, unchanged, until taken.
  `RAC_ASSERT_NEXT(AddressHeld, awvalid_o && !awready_i,
                   awvalid_o && awaddr_o == $past(awaddr_o) && awlen_o == $past(awlen_o), clk_i, rst_i)
  `RAC_ASSERT_STABLE(DataHeld, wvalid_o && !wready_i, {wvalid_o, wlast_o, wdata_o}, clk_i, rst_i)
  // Never more records than the buffer holds (the kernel's argument check
  // makes this impossible).
  `RAC_ASSERT(WithinCapacity, !rec_fire || count_o < capacity_i, clk_i, rst_i)
  // A B response only for a burst that was sent.
  `RAC_ASSERT(NoUnrequestedResponse, !b_fire || owed_q != 0 || aw_fire, clk_i, rst_i)
  // A new batch starts only when the last one is written.
  `RAC_ASSUME(StartWhenIdle, !start_i || (idle_o && !rec_valid_i), clk_i, rst_i)

  // Cover points (coverage models only: -DRAC_COVER; docs/verification.md).
`ifdef RAC_COVER
  // A record split at a 4 KB boundary (only records of several beats).
  if (Beats > 1) begin : g_cov_split
    cov_split_4k: cover property (@(posedge clk_i) disable iff (rst_i) aw_fire && split_q);
  end
`endif

endmodule
