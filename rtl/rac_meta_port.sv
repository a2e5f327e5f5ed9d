// The check engine's backing-store port onto m_axi_meta: the metadata
// bucket table of docs/kernel-interface.md ("Metadata bucket table").
//
// 2^bucket_bits buckets of BucketWays ways of 128 bytes at base (4 KB
// aligned). A way: bytes 0-7 key (granule + 1, 0 = empty), bytes 24-127 the
// line; way 0 bytes 8-15 hold the bucket's spill filter. The bucket of
// granule g is the low bucket_bits bits of the register map's bucket hash
// (rac_kernel_regs_pkg::BucketHashRound, one round per cycle), its filter
// bit the hash's bits 37:32.
//  - Both requests read the whole bucket in one burst (2 beats per way),
//    comparing each way's key as it streams in.
//  - Write-back of g: the way holding g, else (a line with history) the
//    first empty way, takes key and line (a zero line empties g's way, or
//    is dropped when g has none: its fill gives zero or the placeholder,
//    both exact); otherwise emit a spill record {seq, g, line} and set g's
//    filter bit (unless already set). The engine is acknowledged after the
//    B response and after the spill record was taken, so a later fill or
//    escalation of the same granule cannot overtake either.
//  - Fill of g: the way holding g: its line; else g's filter bit set: a
//    line with only the INSOFTWARE bit (the host may own g); else the zero
//    line (g never left the chip with history).
// One request at a time, as the engine issues them.
//
// Bus errors (RRESP or BRESP SLVERR/DECERR) raise bus_error_o for a cycle;
// the request still completes, so the engine never waits forever. A bucket
// read with an error beat decides nothing from what it read: a write-back
// writes nothing (it could overwrite another granule's way) and spills
// nothing, a fill returns the zero line. The kernel reports the error in
// its status register, ends the batch, and the host must start again with
// clear_state (the table no longer agrees with the chip).
`include "rac_assert.svh"

module rac_meta_port #(
  parameter int unsigned LineW = 569,
  parameter int unsigned GranW = 61,
  parameter int unsigned SeqW  = 32,
  parameter int unsigned BucketWays = 4  // cap_bucket_ways: a power of two, 1..8
) (
  input  logic              clk_i,
  input  logic              rst_i,

  input  logic [63:0]       base_i,         // stable during a batch
  input  logic [4:0]        bucket_bits_i,  // 1..30, stable during a batch

  // The engine's backing-store port
  input  logic              req_valid_i,
  output logic              req_ready_o,
  input  logic              req_write_i,
  input  logic [GranW-1:0]  req_granule_i,
  input  logic [LineW-1:0]  req_data_i,
  input  logic [SeqW-1:0]   req_seq_i,
  output logic              wack_o,
  output logic              rsp_valid_o,
  output logic [LineW-1:0]  rsp_data_o,

  // Spill records (merged into the escalation stream by the kernel)
  output logic              spill_valid_o,
  input  logic              spill_ready_i,
  output logic [SeqW-1:0]   spill_seq_o,
  output logic [GranW-1:0]  spill_granule_o,
  output logic [LineW-1:0]  spill_line_o,

  output logic [63:0]       stat_spills_o,
  output logic              idle_o,

  // m_axi_meta
  output logic              arvalid_o,
  input  logic              arready_i,
  output logic [63:0]       araddr_o,
  output logic [7:0]        arlen_o,
  input  logic              rvalid_i,
  output logic              rready_o,
  input  logic [511:0]      rdata_i,
  input  logic              rlast_i,
  output logic              awvalid_o,
  input  logic              awready_i,
  output logic [63:0]       awaddr_o,
  output logic [7:0]        awlen_o,
  output logic              wvalid_o,
  input  logic              wready_i,
  output logic [511:0]      wdata_o,
  output logic [63:0]       wstrb_o,
  output logic              wlast_o,
  input  logic              bvalid_i,
  output logic              bready_o,
  input  logic [1:0]        rresp_i,
  input  logic [1:0]        bresp_i,
  output logic              bus_error_o  // pulse: a beat or a B response was SLVERR/DECERR
);

  localparam int unsigned BucketLineBits = 832;  // bytes 24..127 of a way
  localparam int unsigned WayShift = (BucketWays > 1) ? $clog2(BucketWays) : 0;
  localparam int unsigned WayW = (BucketWays > 1) ? $clog2(BucketWays) : 1;
  localparam int unsigned Beats = 2 * BucketWays;
  localparam int unsigned BeatW = $clog2(Beats) + 1;
  localparam int unsigned Rounds = rac_kernel_regs_pkg::BucketHashRounds;
  localparam int unsigned RoundW = $clog2(Rounds + 1);

  typedef enum logic [2:0] {MIdle, MHash, MRead, MData, MSpill, MWrite, MResp, MDone} state_e;
  state_e state_q;

  logic             write_q;
  logic [GranW-1:0] gran_q;
  logic [63:0]      hash_q;
  logic [RoundW-1:0] round_q;
  logic [63:0]      addr_q;          // the bucket (way 0)
  logic [63:0]      wr_addr_q;       // the way written (store) or way 0 (filter)
  logic [BucketLineBits-1:0] line_q;  // write-back: the line to store; fill: the line read
  logic [SeqW-1:0]  seq_q;
  logic [63:0]      filter_q;        // the bucket's spill filter (way 0, bytes 8-15)
  logic [63:0]      wr_key_q;        // the key a store writes (0: the way empties)
  logic [BeatW-1:0] beat_q;          // which beat of the bucket comes next
  logic             match_q, cur_match_q, empty_q;
  logic [WayW-1:0]  match_way_q, empty_way_q;
  logic             store_q;         // write-back: key and line (else the filter beat)
  logic             aw_sent_q;
  logic             rd_error_q;      // a beat of this bucket read had an error response
  logic [1:0]       w_sent_q;
  logic [1:0]       w_total;

  logic [63:0] own_key;
  logic [29:0] idx_mask;
  logic [5:0]  filter_bit;
  logic        line_zero;
  assign own_key    = 64'(gran_q) + 64'd1;
  assign idx_mask   = 30'((31'd1 << bucket_bits_i) - 31'd1);
  assign filter_bit = hash_q[37:32];
  assign line_zero  = line_q == '0;
  logic [29:0] bucket_idx;
  assign bucket_idx = hash_q[29:0] & idx_mask;

  assign req_ready_o = state_q == MIdle;
  assign idle_o      = state_q == MIdle;

  logic ar_fire, r_fire, aw_fire, w_fire, b_fire, spill_fire;
  assign ar_fire    = arvalid_o && arready_i;
  assign r_fire     = rvalid_i && rready_o;
  assign aw_fire    = awvalid_o && awready_i;
  assign w_fire     = wvalid_o && wready_i;
  assign b_fire     = bvalid_i && bready_o;
  assign spill_fire = spill_valid_o && spill_ready_i;
  logic r_error;
  assign r_error     = r_fire && rresp_i[1];
  assign bus_error_o = r_error || (b_fire && bresp_i[1]);

  // Read: the whole bucket, one burst.
  assign arvalid_o = state_q == MRead;
  assign araddr_o  = addr_q;
  assign arlen_o   = 8'(Beats - 1);
  assign rready_o  = state_q == MData;

  // Write: store = key and line of one way (2 beats), else the filter (1 beat).
  assign w_total   = store_q ? 2'd2 : 2'd1;
  assign awvalid_o = state_q == MWrite && !aw_sent_q;
  assign awaddr_o  = wr_addr_q;
  assign awlen_o   = store_q ? 8'd1 : 8'd0;
  assign wvalid_o  = state_q == MWrite && w_sent_q != w_total;
  assign wlast_o   = w_sent_q == w_total - 2'd1;
  always_comb begin
    if (!store_q) begin
      wdata_o = {384'd0, filter_q | (64'd1 << filter_bit), 64'd0};
      wstrb_o = 64'hFF00;
    end else if (w_sent_q == 2'd0) begin  // bytes 8-23 (way 0: the filter) untouched
      wdata_o = {line_q[319:0], 128'd0, wr_key_q};
      wstrb_o = {40'hFF_FFFF_FFFF, 16'h0000, 8'hFF};
    end else begin
      wdata_o = line_q[831:320];
      wstrb_o = '1;
    end
  end
  assign bready_o = state_q == MWrite;

  assign spill_valid_o   = state_q == MSpill;
  assign spill_seq_o     = seq_q;
  assign spill_granule_o = gran_q;
  assign spill_line_o    = line_q[LineW-1:0];

  assign wack_o      = state_q == MDone && write_q;
  assign rsp_valid_o = state_q == MDone && !write_q;
  assign rsp_data_o  = line_q[LineW-1:0];

  // The beat in flight: even beats carry a way's key (and the first line part).
  logic [WayW-1:0] beat_way;
  logic            beat_key, beat_match, beat_empty;
  assign beat_way   = WayW'(beat_q >> 1);
  assign beat_key   = !beat_q[0];
  assign beat_match = rdata_i[63:0] == own_key;
  assign beat_empty = rdata_i[63:0] == 64'd0;

  logic [63:0] way_offset;
  always_comb begin
    way_offset = '0;
    if (match_q) way_offset = 64'(match_way_q) << 7;
    else way_offset = 64'(empty_way_q) << 7;
  end

  logic filter_hit;
  assign filter_hit = filter_q[filter_bit];

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= MIdle;
      stat_spills_o <= '0;
    end else begin
      case (state_q)
        MIdle: begin
          if (req_valid_i) begin
            state_q <= MHash;
            write_q <= req_write_i;
            gran_q  <= req_granule_i;
            hash_q  <= 64'(req_granule_i);
            round_q <= '0;
            seq_q   <= req_seq_i;
            line_q  <= BucketLineBits'(req_data_i);
          end
        end
        MHash: begin  // one round of the bucket hash per cycle
          if (round_q == RoundW'(Rounds)) begin
            state_q <= MRead;
            addr_q  <= base_i + (64'(bucket_idx) << (7 + WayShift));
          end else begin
            hash_q  <= rac_kernel_regs_pkg::BucketHashRound(hash_q, 32'(round_q));
            round_q <= round_q + RoundW'(1);
          end
        end
        MRead: begin
          if (ar_fire) begin
            state_q <= MData;
            beat_q  <= '0;
            match_q <= 1'b0;
            empty_q <= 1'b0;
            cur_match_q <= 1'b0;
            match_way_q <= '0;
            empty_way_q <= '0;
            rd_error_q <= 1'b0;
          end
        end
        MData: begin
          if (r_fire) begin
            if (r_error) rd_error_q <= 1'b1;
            beat_q <= beat_q + BeatW'(1);
            if (beat_key) begin
              if (beat_way == '0) filter_q <= rdata_i[127:64];
              cur_match_q <= beat_match && !match_q;
              if (beat_match && !match_q) begin
                match_q <= 1'b1;
                match_way_q <= beat_way;
                if (!write_q) line_q[319:0] <= rdata_i[511:192];
              end
              if (beat_empty && !empty_q) begin
                empty_q <= 1'b1;
                empty_way_q <= beat_way;
              end
            end else if (cur_match_q && !write_q) begin
              line_q[831:320] <= rdata_i;
            end
            if (rlast_i) state_q <= MResp;
          end
        end
        MResp: begin  // decide on the bucket's keys and filter
          aw_sent_q <= 1'b0;
          w_sent_q  <= '0;
          store_q   <= 1'b1;
          wr_addr_q <= addr_q + way_offset;
          wr_key_q  <= line_zero ? 64'd0 : own_key;
          if (rd_error_q) begin
            state_q <= MDone;  // nothing read can be trusted: no write, no spill
            if (!write_q) line_q <= '0;
          end else if (write_q) begin
            if (match_q || (empty_q && !line_zero)) begin
              state_q <= MWrite;
            end else if (line_zero) begin
              state_q <= MDone;  // no history to keep, and no way to empty
            end else begin
              state_q <= MSpill;
              store_q <= 1'b0;
              wr_addr_q <= addr_q;
              stat_spills_o <= stat_spills_o + 64'd1;
            end
          end else begin
            state_q <= MDone;
            if (!match_q) line_q <= filter_hit ? BucketLineBits'(1) : '0;
          end
        end
        MSpill: begin
          if (spill_fire) state_q <= filter_hit ? MDone : MWrite;
        end
        MWrite: begin
          if (aw_fire) aw_sent_q <= 1'b1;
          if (w_fire) w_sent_q <= w_sent_q + 2'd1;
          if (b_fire) state_q <= MDone;
        end
        MDone: state_q <= MIdle;
        default: state_q <= MIdle;
      endcase
    end
  end

  // The hash state above the index window and the filter bit is not needed.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_bits;
  assign unused_bits = ^{hash_q[63:38], hash_q[31:30], rresp_i[0], bresp_i[0]};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
  `RAC_STATIC_ASSERT(LineFitsBucket, LineW <= BucketLineBits)
  `RAC_STATIC_ASSERT(WaysPowerOfTwo, BucketWays >= 1 && BucketWays <= 8 && (BucketWays & (BucketWays - 1)) == 0)
  // Bucket accesses are one bucket or one way: never across 4 KB (the base
  // is 4 KB aligned, a bucket at most 1 KB and aligned to its size).
  `RAC_ASSERT(ReadWithin4K, !arvalid_o || araddr_o[6 + WayShift:0] == '0, clk_i, rst_i)
  `RAC_ASSERT(WriteWithin4K, !awvalid_o || awaddr_o[6:0] == 7'd0, clk_i, rst_i)
  // A granule is in at most one way: a write-back takes its own way first
  // (a read with an error response returns no keys to judge).
  `RAC_ASSERT(OneWayPerGranule,
              !(state_q == MData && r_fire && beat_key && beat_match && match_q && !r_error && !rd_error_q), clk_i,
              rst_i)
  // The B response of the bucket write comes after all its data.
  `RAC_ASSUME(ResponseAfterData, !b_fire || (aw_sent_q || aw_fire) && (w_sent_q == w_total), clk_i, rst_i)
  // Only one engine request at a time, held while waiting.
  `RAC_ASSUME_NEXT(RequestHeld, req_valid_i && !req_ready_o && state_q == MIdle, req_valid_i, clk_i, rst_i)
  `RAC_ASSUME(BucketBitsInRange, state_q == MIdle || (bucket_bits_i >= 5'd1 && bucket_bits_i <= 5'd30),
              clk_i, rst_i)

  // Cover points (coverage models only: -DRAC_COVER; docs/verification.md).
`ifdef RAC_COVER
  // Bucket overflow: an evicted line found every way taken and spills.
  cov_bucket_spill: cover property (@(posedge clk_i) disable iff (rst_i) spill_fire);
  // A spill whose filter bit was already set (no filter write).
  cov_spill_filter_set: cover property (@(posedge clk_i) disable iff (rst_i) spill_fire && filter_hit);
  // A fill that finds no way but its filter bit set: the line comes back
  // INSOFTWARE (it may be with the host).
  cov_fill_filtered: cover property (@(posedge clk_i) disable iff (rst_i)
    state_q == MResp && !rd_error_q && !write_q && !match_q && filter_hit);
`endif

endmodule
