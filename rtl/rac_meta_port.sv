// The check engine's backing-store port onto m_axi_meta: the metadata
// bucket table of docs/kernel-interface.md.
//
// 2^bucket_bits buckets of 128 bytes at base (4 KB aligned): bytes 0-7 key
// (granule + 1, 0 = empty), byte 8 bit 0 overflow, bytes 24-127 the line.
// The bucket of granule g is the XOR of g's bucket_bits-wide chunks, folded
// one chunk per cycle.
//  - Write-back of g: read the bucket's first beat; if it is empty or holds
//    g, write key and line (the overflow byte is left alone); otherwise
//    emit a spill record {seq, g, line} and set the overflow bit (unless
//    already set). The engine is acknowledged after the B response, and
//    after the spill record was taken, so a later fill or escalation of the
//    same granule cannot overtake either.
//  - Fill of g: read the bucket; key g + 1: its line; else overflow set: a
//    line with only the INSOFTWARE bit (the host may own g); else the zero
//    line (g never left the chip).
// One request at a time, as the engine issues them.
`include "rac_assert.svh"

module rac_meta_port #(
  parameter int unsigned LineW = 569,
  parameter int unsigned GranW = 61,
  parameter int unsigned SeqW  = 32
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
  output logic              bready_o
);

  localparam int unsigned BucketLineBits = 832;  // bytes 24..127

  typedef enum logic [2:0] {MIdle, MHash, MRead, MData, MSpill, MWrite, MResp, MDone} state_e;
  state_e state_q;

  logic             write_q;
  logic [GranW-1:0] gran_q, rest_q;
  logic [29:0]      idx_q;
  logic [63:0]      addr_q;
  logic [BucketLineBits-1:0] line_q;  // write-back: the line to store; fill: the line read
  logic [SeqW-1:0]  seq_q;
  logic [63:0]      key_q;
  logic [7:0]       flags_q;
  logic             beat_q;          // which beat of the bucket comes next
  logic             store_q;         // write-back: the bucket is free or ours
  logic             aw_sent_q;
  logic [1:0]       w_sent_q;
  logic [1:0]       w_total;

  logic [63:0] own_key;
  logic [29:0] chunk_mask;
  assign own_key    = 64'(gran_q) + 64'd1;
  assign chunk_mask = 30'((31'd1 << bucket_bits_i) - 31'd1);

  assign req_ready_o = state_q == MIdle;
  assign idle_o      = state_q == MIdle;

  logic ar_fire, r_fire, aw_fire, w_fire, b_fire, spill_fire;
  assign ar_fire    = arvalid_o && arready_i;
  assign r_fire     = rvalid_i && rready_o;
  assign aw_fire    = awvalid_o && awready_i;
  assign w_fire     = wvalid_o && wready_i;
  assign b_fire     = bvalid_i && bready_o;
  assign spill_fire = spill_valid_o && spill_ready_i;

  // Read: a fill reads the whole bucket, a write-back only its header beat.
  assign arvalid_o = state_q == MRead;
  assign araddr_o  = addr_q;
  assign arlen_o   = write_q ? 8'd0 : 8'd1;
  assign rready_o  = state_q == MData;

  // Write: store = key and line (2 beats), else the overflow byte (1 beat).
  assign w_total   = store_q ? 2'd2 : 2'd1;
  assign awvalid_o = state_q == MWrite && !aw_sent_q;
  assign awaddr_o  = addr_q;
  assign awlen_o   = store_q ? 8'd1 : 8'd0;
  assign wvalid_o  = state_q == MWrite && w_sent_q != w_total;
  assign wlast_o   = w_sent_q == w_total - 2'd1;
  always_comb begin
    if (!store_q) begin
      wdata_o = {440'd0, flags_q | 8'd1, 64'd0};
      wstrb_o = 64'h100;
    end else if (w_sent_q == 2'd0) begin
      wdata_o = {line_q[319:0], 128'd0, own_key};
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

  logic key_match, key_empty, overflow;
  assign key_match = key_q == own_key;
  assign key_empty = key_q == 64'd0;
  assign overflow  = flags_q[0];

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
            rest_q  <= req_granule_i;
            seq_q   <= req_seq_i;
            line_q  <= BucketLineBits'(req_data_i);
            idx_q   <= '0;
          end
        end
        MHash: begin
          if (rest_q == '0) begin
            state_q <= MRead;
            addr_q <= base_i + {27'd0, idx_q, 7'd0};
          end else begin
            idx_q <= idx_q ^ (rest_q[29:0] & chunk_mask);
            rest_q <= rest_q >> bucket_bits_i;
          end
        end
        MRead: begin
          if (ar_fire) begin
            state_q <= MData;
            beat_q <= 1'b0;
          end
        end
        MData: begin
          if (r_fire) begin
            beat_q <= 1'b1;
            if (!beat_q) begin
              key_q <= rdata_i[63:0];
              flags_q <= rdata_i[71:64];
              if (!write_q) line_q[319:0] <= rdata_i[511:192];
            end else begin
              line_q[831:320] <= rdata_i;
            end
            if (rlast_i) state_q <= MResp;
          end
        end
        MResp: begin  // decide on the bucket's header
          aw_sent_q <= 1'b0;
          w_sent_q <= '0;
          if (write_q) begin
            store_q <= key_empty || key_match;
            if (key_empty || key_match) begin
              state_q <= MWrite;
            end else begin
              state_q <= MSpill;
              stat_spills_o <= stat_spills_o + 64'd1;
            end
          end else begin
            state_q <= MDone;
            if (!key_match) line_q <= overflow ? BucketLineBits'(1) : '0;
          end
        end
        MSpill: begin
          if (spill_fire) state_q <= overflow ? MDone : MWrite;
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

  // Granule bits above the fold's 30-bit window are folded in later cycles.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_bits;
  assign unused_bits = ^{key_q[63:62], rest_q};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
  `RAC_STATIC_ASSERT(LineFitsBucket, LineW <= BucketLineBits)
  // Bucket accesses are one bucket: never across 4 KB (the base is 4 KB
  // aligned, a bucket 128 bytes).
  `RAC_ASSERT(ReadWithin4K, !arvalid_o || araddr_o[6:0] == 7'd0, clk_i, rst_i)
  `RAC_ASSERT(WriteWithin4K, !awvalid_o || awaddr_o[6:0] == 7'd0, clk_i, rst_i)
  // The B response of the bucket write comes after all its data.
  `RAC_ASSUME(ResponseAfterData, !b_fire || (aw_sent_q || aw_fire) && (w_sent_q == w_total), clk_i, rst_i)
  // Only one engine request at a time, held while waiting.
  `RAC_ASSUME_NEXT(RequestHeld, req_valid_i && !req_ready_o && state_q == MIdle, req_valid_i, clk_i, rst_i)
  `RAC_ASSUME(BucketBitsInRange, state_q == MIdle || (bucket_bits_i >= 5'd1 && bucket_bits_i <= 5'd30),
              clk_i, rst_i)

endmodule
