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
  logic [63:0]          addr_q, next_addr_q;
  logic [BeatW-1:0]     aw_sent_q, w_sent_q;  // bursts requested, beats sent for the held record
  logic [15:0]          owed_q;               // bursts without a B response

  // A record splits where it would cross 4 KB (only records of several
  // beats can): its last beat would lie beyond the 64th of the 4 KB page.
  localparam logic [31:0] BeatsV = Beats;
  localparam logic [31:0] LastV  = Beats - 1;  // beats after the first
  localparam logic [31:0] OneV   = 1;
  logic [BeatW-1:0] BeatsC, LastC, OneC;
  assign BeatsC = BeatsV[BeatW-1:0];
  assign LastC  = LastV[BeatW-1:0];
  assign OneC   = OneV[BeatW-1:0];
  logic             split;
  logic [BeatW-1:0] aw_total;
  assign split    = Beats > 1 && {1'b0, addr_q[11:6]} + LastV[6:0] > 7'd63;
  assign aw_total = split ? BeatsC : OneC;

  logic aw_fire, w_fire, b_fire, rec_fire, aw_done, w_done;
  assign awvalid_o = hold_q && aw_sent_q != aw_total;
  assign awaddr_o  = addr_q + 64'({aw_sent_q, 6'd0});  // burst k of a split record: beat k
  assign awlen_o   = split ? 8'd0 : 8'(Beats - 1);
  assign wvalid_o  = hold_q && w_sent_q != BeatsC;
  assign wdata_o   = data_q[w_sent_q*512 +: 512];
  assign wstrb_o   = '1;
  assign wlast_o   = split || w_sent_q == LastC;
  assign bready_o  = 1'b1;

  assign aw_fire  = awvalid_o && awready_i;
  assign w_fire   = wvalid_o && wready_i;
  assign b_fire   = bvalid_i && bready_o;
  assign bus_error_o = b_fire && bresp_i[1];
  assign rec_ready_o = !hold_q;
  assign rec_fire = rec_valid_i && rec_ready_o;
  assign aw_done  = aw_sent_q + (aw_fire ? OneC : '0) == aw_total;
  assign w_done   = w_sent_q + (w_fire ? OneC : '0) == BeatsC;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      hold_q <= 1'b0;
      aw_sent_q <= '0;
      w_sent_q <= '0;
      owed_q <= '0;
      count_o <= '0;
    end else begin
      owed_q <= owed_q + (aw_fire ? 16'd1 : 16'd0) - (b_fire ? 16'd1 : 16'd0);
      if (start_i) begin
        next_addr_q <= base_i;
        count_o <= '0;
      end else if (rec_fire) begin
        hold_q <= 1'b1;
        data_q <= rec_data_i;
        addr_q <= next_addr_q;
        next_addr_q <= next_addr_q + 64'(RecBytes);
        count_o <= count_o + 32'd1;
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
  assign unused_bits = bresp_i[0];  // EXOKAY is not an answer to a plain write
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
    cov_split_4k: cover property (@(posedge clk_i) disable iff (rst_i) aw_fire && split);
  end
`endif

endmodule
