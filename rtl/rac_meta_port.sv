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
//    spill record was taken and the write's AW and W beats were sent (a
//    posted write: no read of the table is issued until its B response, so
//    no later fill overtakes it, and the spill precedes any later
//    escalation of the granule).
//  - Fill of g: the way holding g: its line; else g's filter bit set: a
//    line with only the INSOFTWARE bit (the host may own g); else the zero
//    line (g never left the chip with history).
// One engine request at a time, as the engine issues them; besides it, up
// to PrefetchEntries bucket reads for the miss-ahead hints (below) in flight.
//
// Miss-ahead prefetch (docs/hardware.md, "Non-blocking misses"): a hint
// (hint_valid_i, a granule the command FIFO will hand the engine and that
// the engine's cache does not hold) takes a free entry, is hashed, and its
// bucket is read on the same AR channel as the engine's reads (one AXI ID:
// the beats return in the order of the ARs, so a queue of owners routes
// them). The read is turned into the fill's answer at once (the same rules
// as a fill). A fill of a granule with an entry takes the entry's answer
// (waiting for it if its read is in flight) instead of reading again.
// Exactness: an entry's answer is what a fill would return only if no
// bucket write intervenes between its read and its use. Bucket writes come
// only from this port's write-backs, one at a time: when a write-back knows
// its bucket (before its own read, so before its write), every entry of that
// bucket whose read was issued is dropped (a read in flight is marked stale
// and its beats discarded), and no prefetch read is issued from the moment
// a write-back is taken until its B response (AXI orders no read against a
// write); entries not yet issued read after it. flush_i (a batch start: the
// host may have written the table, or the batch end) drops every entry.
// Hints and entries of commands below passed_seq_i (the engine has looked
// them up) or below the engine's latest request are dropped: dropping is
// always exact, it only costs the read.
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
  parameter int unsigned BucketWays = 4,  // cap_bucket_ways: a power of two, 1..8
  parameter int unsigned PrefetchEntries = 8,  // miss-ahead bucket reads in flight or held, 1..16
  parameter int unsigned HintQueue = 16  // hints waiting for the hasher and a free entry (a power of two)
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
  // Miss-ahead hints (may be dropped) and the batch start that drops entries
  input  logic              hint_valid_i,
  input  logic [GranW-1:0]  hint_granule_i,
  input  logic [SeqW-1:0]   hint_seq_i,     // the command that will look it up
  input  logic              flush_i,
  input  logic [SeqW-1:0]   passed_seq_i,   // the engine has looked up every command below this one
  output logic              hint_room_o,    // the hint queue can take the hints of the next commands
  output logic [63:0]       stat_prefetch_hits_o,  // fills answered from an entry
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
  localparam int unsigned PfN = PrefetchEntries;
  localparam int unsigned EntW = (PfN > 1) ? $clog2(PfN) : 1;
  localparam int unsigned OwnN = PfN + 1;  // reads in flight: the entries' and the engine's
  localparam int unsigned OwnW = $clog2(OwnN + 1);

  typedef enum logic [3:0] {MIdle, MHash, MRead, MData, MSpill, MWrite, MResp, MDone, MWaitPf} state_e;
  state_e state_q;

  logic             write_q;
  logic [GranW-1:0] gran_q;
  logic [63:0]      hash_q;
  logic [RoundW-1:0] round_q;
  logic [63:0]      addr_q;          // the bucket (way 0)
  logic [63:0]      wr_addr_q;       // the way written (store) or way 0 (filter)
  logic [BucketLineBits-1:0] line_q;  // write-back: the line to store; fill: the line read
  logic [SeqW-1:0]  seq_q;
  logic [63:0]      wr_key_q;        // the key a store writes (0: the way empties)
  logic             store_q;         // write-back: key and line (else the filter beat)
  logic             aw_sent_q;
  logic             b_owed_q;        // a posted bucket write: its B response is still to come
  logic [1:0]       w_sent_q;
  logic [1:0]       w_total;
  logic [EntW-1:0]  wait_ent_q;      // MWaitPf: the entry whose read answers this fill

  // The read stream: the burst at the head of the owner queue, beat by beat
  // (shared by the engine's reads and the entries'; reset after each burst).
  logic [63:0]      filter_q;        // the bucket's spill filter (way 0, bytes 8-15)
  logic [BeatW-1:0] beat_q;          // which beat of the bucket comes next
  logic             match_q, cur_match_q, empty_q;
  logic [WayW-1:0]  match_way_q, empty_way_q;
  logic             rd_error_q;      // a beat of this bucket read had an error response
  logic [BucketLineBits-1:0] pf_line_q;  // an entry's burst: the matching way's line
  logic             settle_q;        // the cycle after a burst's last beat: its owner decides

  // Prefetch entries
  typedef enum logic [2:0] {EFree, EAddr, EIssue, EFlight, EReady} ent_e;
  ent_e              ent_state_q [PfN];
  logic              ent_stale_q [PfN];  // a bucket write may have overtaken the read: discard
  logic [GranW-1:0]  ent_gran_q  [PfN];
  logic [SeqW-1:0]   ent_seq_q   [PfN];  // the hinting command: dead once the engine asks for a later one
  logic [63:0]       ent_addr_q  [PfN];
  logic [5:0]        ent_fbit_q  [PfN];
  // The entries' answers: a RAM of PfN lines (one write port, the settling
  // burst's; one registered read, the entry a fill waits for), so no wide
  // register file and no PfN-way mux of lines (docs/hardware.md).
  logic [LineW-1:0]  ent_line_mem [PfN];
  logic [LineW-1:0]  ent_rd_q;           // ent_line_mem[wait_ent_q], one cycle later
  logic              from_ent_q;         // MDone: the fill's answer is ent_rd_q (not line_q)
  // The prefetch hasher (one entry at a time) and the AR it issues
  logic              ph_busy_q;
  logic              ph_done_q;          // hashed, waiting for a free entry
  logic [GranW-1:0]  ph_gran_q;
  logic [SeqW-1:0]   ph_seq_q;
  logic [63:0]       ph_hash_q;
  logic [63:0]       ph_addr_q;          // its bucket, registered with the last round
  logic [RoundW-1:0] ph_round_q;
  logic              pf_ar_q;            // an entry's AR is on the bus (held until taken)
  logic [EntW-1:0]   pf_ar_ent_q;
  // Hint queue (granule, command) and the latest command the engine asked for
  localparam int unsigned HqW = $clog2(HintQueue);
  logic [GranW-1:0]  hq_gran_q [HintQueue];
  logic [SeqW-1:0]   hq_seq_q  [HintQueue];
  logic [HqW-1:0]    hq_rd_q, hq_wr_q;
  logic [HqW:0]      hq_count_q;
  logic [SeqW-1:0]   last_req_seq_q;
  // Owner queue: per AR in issue order, the engine's read or an entry's
  logic              own_pf_q  [OwnN];
  logic [EntW-1:0]   own_ent_q [OwnN];
  logic [OwnW-1:0]   own_count_q;
  logic              head_pf;
  logic [EntW-1:0]   head_ent;
  logic              head_pf_q;      // settle: the burst was an entry's ...
  logic [EntW-1:0]   settled_ent_q;  // ... this one
  assign head_pf  = own_pf_q[0];
  assign head_ent = own_ent_q[0];

  logic [63:0] own_key, stream_key_q;
  logic [29:0] idx_mask;
  logic [5:0]  filter_bit;
  logic        line_zero;
  assign own_key    = 64'(gran_q) + 64'd1;
  assign idx_mask   = 30'((31'd1 << bucket_bits_i) - 31'd1);
  assign filter_bit = hash_q[37:32];
  assign line_zero  = line_q == '0;
  logic [29:0] bucket_idx, ph_bucket_idx;
  assign bucket_idx    = hash_q[29:0] & idx_mask;
  assign ph_bucket_idx = ph_hash_q[29:0] & idx_mask;

  assign req_ready_o = state_q == MIdle;

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

  // Read: the whole bucket, one burst; the engine's read waits while an
  // entry's AR is on the bus, and an entry's AR starts only while the engine
  // does not want the bus (so neither changes an AR being offered).
  logic dem_ar;
  assign dem_ar    = state_q == MRead && !pf_ar_q && !b_owed_q;  // no read overtakes a posted write
  assign arvalid_o = dem_ar || pf_ar_q;
  assign araddr_o  = pf_ar_q ? ent_addr_q[pf_ar_ent_q] : addr_q;
  assign arlen_o   = 8'(Beats - 1);
  assign rready_o  = own_count_q != '0 && !settle_q;

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
  assign bready_o = state_q == MWrite || b_owed_q;

  assign spill_valid_o   = state_q == MSpill;
  assign spill_seq_o     = seq_q;
  assign spill_granule_o = gran_q;
  assign spill_line_o    = line_q[LineW-1:0];

  assign wack_o      = state_q == MDone && write_q;
  assign rsp_valid_o = state_q == MDone && !write_q;
  assign rsp_data_o  = from_ent_q ? ent_rd_q : line_q[LineW-1:0];

  // The beat in flight: even beats carry a way's key (and the first line part).
  logic [WayW-1:0] beat_way;
  logic            beat_key, beat_match, beat_empty;
  assign beat_way   = WayW'(beat_q >> 1);
  assign beat_key   = !beat_q[0];
  assign beat_match = rdata_i[63:0] == stream_key_q;
  assign beat_empty = rdata_i[63:0] == 64'd0;

  logic [63:0] way_offset;
  always_comb begin
    way_offset = '0;
    if (match_q) way_offset = 64'(match_way_q) << 7;
    else way_offset = 64'(empty_way_q) << 7;
  end

  logic filter_hit;
  assign filter_hit = filter_q[filter_bit];

  // Entries: the engine's fill finds its granule's entry; a hint is taken
  // when no live entry holds its granule and one is free.
  logic            fill_hit;
  logic [EntW-1:0] fill_ent;
  logic            hint_dup, hint_free;
  logic [EntW-1:0] hint_ent;
  logic            any_wait;  // an entry's address is known but not yet read
  logic [EntW-1:0] wait_pick;
  always_comb begin
    fill_hit = 1'b0;
    fill_ent = '0;
    hint_dup = 1'b0;
    hint_free = 1'b0;
    hint_ent = '0;
    any_wait = 1'b0;
    wait_pick = '0;
    for (int k = PfN - 1; k >= 0; k--) begin
      if (ent_state_q[k] != EFree && !ent_stale_q[k] && ent_gran_q[k] == req_granule_i) begin
        fill_hit = 1'b1;
        fill_ent = EntW'(k);
      end
      if (ent_state_q[k] != EFree && !ent_stale_q[k] && ent_gran_q[k] == ph_gran_q) hint_dup = 1'b1;
      if (ent_state_q[k] == EFree) begin
        hint_free = 1'b1;
        hint_ent = EntW'(k);
      end
      if (ent_state_q[k] == EAddr) begin
        any_wait = 1'b1;
        wait_pick = EntW'(k);
      end
    end
  end
  // The write-back's bucket is known (its address in addr_q, from the end of
  // its hash until its AR is sent, MRead; before its own read, so before its
  // write): the entries of it already read or being read are dropped (again
  // each cycle of MRead, which is harmless: no entry read is issued during a
  // write-back). Against the registered address, so no adder in the path.
  logic           wb_bucket_known;
  logic [PfN-1:0] wb_hits;
  assign wb_bucket_known = state_q == MRead && write_q;
  always_comb begin
    for (int k = 0; k < PfN; k++) begin
      wb_hits[k] = wb_bucket_known && ent_addr_q[k] == addr_q;
`ifdef RAC_MUTANT_NO_PREFETCH_INVALIDATE
      wb_hits[k] = 1'b0;
`endif
    end
  end
  // No prefetch read from the moment a write-back is taken until it is done.
  logic wb_busy;
  assign wb_busy = (state_q != MIdle && write_q) || b_owed_q;
  // A hint whose command the engine has passed is dead (its lookup is done).
  logic hq_push, hq_pop, hq_head_dead, ph_alloc, ph_drop;
  assign hq_push      = hint_valid_i && !flush_i && hq_count_q != (HqW + 1)'(HintQueue);
  assign hq_head_dead = hq_seq_q[hq_rd_q] < last_req_seq_q || hq_seq_q[hq_rd_q] < passed_seq_i;
  assign hint_room_o  = hq_count_q < (HqW + 1)'(HintQueue - 3);  // the shadow lookup has two in flight
  assign hq_pop       = hq_count_q != '0 && !ph_busy_q && !ph_done_q && !flush_i;
  assign ph_drop      = ph_done_q && (hint_dup || ph_seq_q < last_req_seq_q || ph_seq_q < passed_seq_i);
  assign ph_alloc     = ph_done_q && !ph_drop && hint_free && !flush_i;
  logic start_pf_ar;
  assign start_pf_ar = !pf_ar_q && any_wait && !wb_busy && state_q != MRead && !flush_i &&
                       OwnW'(own_count_q) < OwnW'(OwnN - 1);  // room kept for the engine's read

  // The owner queue: push at AR, pop at a burst's last beat.
  logic own_push, own_pop;
  assign own_push = ar_fire;
  assign own_pop  = r_fire && rlast_i;

  logic pf_idle;
  always_comb begin
    pf_idle = !ph_busy_q && !ph_done_q && hq_count_q == '0 && !pf_ar_q && own_count_q == '0 && !b_owed_q;
    for (int k = 0; k < PfN; k++) if (ent_state_q[k] == EAddr) pf_idle = 1'b0;
  end
  assign idle_o = state_q == MIdle && pf_idle;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= MIdle;
      b_owed_q <= 1'b0;
      stat_spills_o <= '0;
      stat_prefetch_hits_o <= '0;
      from_ent_q <= 1'b0;
      own_count_q <= '0;
      settle_q <= 1'b0;
      ph_busy_q <= 1'b0;
      ph_done_q <= 1'b0;
      hq_rd_q <= '0;
      hq_wr_q <= '0;
      hq_count_q <= '0;
      last_req_seq_q <= '0;
      pf_ar_q <= 1'b0;
      beat_q <= '0;
      match_q <= 1'b0;
      empty_q <= 1'b0;
      cur_match_q <= 1'b0;
      match_way_q <= '0;
      empty_way_q <= '0;
      rd_error_q <= 1'b0;
      for (int k = 0; k < PfN; k++) begin
        ent_state_q[k] <= EFree;
        ent_stale_q[k] <= 1'b0;
      end
    end else begin
      // --- the read stream
      settle_q <= own_pop;
      if (own_push || own_pop) begin
        for (int i = 0; i < OwnN; i++) begin
          if (own_pop) begin
            if (i + 1 < OwnN) begin
              own_pf_q[i]  <= own_pf_q[i + 1];
              own_ent_q[i] <= own_ent_q[i + 1];
            end
          end
        end
        if (own_push) begin
          own_pf_q[own_count_q - OwnW'(own_pop)]  <= pf_ar_q;
          own_ent_q[own_count_q - OwnW'(own_pop)] <= pf_ar_ent_q;
        end
        own_count_q <= own_count_q + OwnW'(own_push) - OwnW'(own_pop);
      end
      if (r_fire) begin
        if (r_error) rd_error_q <= 1'b1;
        beat_q <= beat_q + BeatW'(1);
        if (beat_key) begin
          if (beat_way == '0) filter_q <= rdata_i[127:64];
          cur_match_q <= beat_match && !match_q;
          if (beat_match && !match_q) begin
            match_q <= 1'b1;
            match_way_q <= beat_way;
            if (head_pf) pf_line_q[319:0] <= rdata_i[511:192];
            else if (!write_q) line_q[319:0] <= rdata_i[511:192];
          end
          if (beat_empty && !empty_q) begin
            empty_q <= 1'b1;
            empty_way_q <= beat_way;
          end
        end else if (cur_match_q) begin
          if (head_pf) pf_line_q[831:320] <= rdata_i;
          else if (!write_q) line_q[831:320] <= rdata_i;
        end
      end
      if (settle_q) begin  // the owner has taken the burst's results this cycle
        beat_q <= '0;
        match_q <= 1'b0;
        empty_q <= 1'b0;
        cur_match_q <= 1'b0;
        match_way_q <= '0;
        empty_way_q <= '0;
        rd_error_q <= 1'b0;
      end

      // --- prefetch: hints, hashing, ARs, answers
      if (hq_push) begin
        hq_gran_q[hq_wr_q] <= hint_granule_i;
        hq_seq_q[hq_wr_q]  <= hint_seq_i;
        hq_wr_q <= hq_wr_q + HqW'(1);
      end
      if (hq_pop) begin
        hq_rd_q <= hq_rd_q + HqW'(1);
        if (!hq_head_dead) begin
          ph_busy_q  <= 1'b1;
          ph_gran_q  <= hq_gran_q[hq_rd_q];
          ph_seq_q   <= hq_seq_q[hq_rd_q];
          ph_hash_q  <= 64'(hq_gran_q[hq_rd_q]);
          ph_round_q <= '0;
        end
      end
      hq_count_q <= hq_count_q + (HqW + 1)'(hq_push) - (HqW + 1)'(hq_pop);
      if (ph_busy_q) begin
        if (ph_round_q == RoundW'(Rounds)) begin
          ph_busy_q <= 1'b0;
          ph_done_q <= 1'b1;
          ph_addr_q <= base_i + (64'(ph_bucket_idx) << (7 + WayShift));
        end else begin
          ph_hash_q  <= rac_kernel_regs_pkg::BucketHashRound(ph_hash_q, 32'(ph_round_q));
          ph_round_q <= ph_round_q + RoundW'(1);
        end
      end
      if (ph_drop) ph_done_q <= 1'b0;
      if (ph_alloc) begin
        ph_done_q <= 1'b0;
        ent_state_q[hint_ent] <= EAddr;
        ent_stale_q[hint_ent] <= 1'b0;
        ent_gran_q[hint_ent]  <= ph_gran_q;
        ent_seq_q[hint_ent]   <= ph_seq_q;
        ent_addr_q[hint_ent]  <= ph_addr_q;
        ent_fbit_q[hint_ent]  <= ph_hash_q[37:32];
      end
      // Entries of commands the engine has passed are dead: free them (a
      // read in flight still takes its beats), except the one a fill uses.
      for (int k = 0; k < PfN; k++) begin
        if (ent_seq_q[k] < passed_seq_i && !(state_q == MWaitPf && wait_ent_q == EntW'(k))) begin
          if (ent_state_q[k] == EReady || ent_state_q[k] == EAddr) ent_state_q[k] <= EFree;
          if (ent_state_q[k] == EIssue || ent_state_q[k] == EFlight) ent_stale_q[k] <= 1'b1;
        end
      end
      if (state_q == MIdle && req_valid_i) begin
        last_req_seq_q <= req_seq_i;
        for (int k = 0; k < PfN; k++) begin
          if (ent_seq_q[k] < req_seq_i && !(fill_hit && !req_write_i && fill_ent == EntW'(k))) begin
            if (ent_state_q[k] == EReady || ent_state_q[k] == EAddr) ent_state_q[k] <= EFree;
            if (ent_state_q[k] == EIssue || ent_state_q[k] == EFlight) ent_stale_q[k] <= 1'b1;
          end
        end
      end
      if (start_pf_ar) begin
        pf_ar_q <= 1'b1;
        pf_ar_ent_q <= wait_pick;
        ent_state_q[wait_pick] <= EIssue;
      end
      if (pf_ar_q && arready_i) begin
        pf_ar_q <= 1'b0;
        ent_state_q[pf_ar_ent_q] <= EFlight;
      end
      // A write-back knows its bucket: drop every entry of it already read
      // or being read (its answer may predate the write).
      for (int k = 0; k < PfN; k++) begin
        if (wb_hits[k]) begin
          if (ent_state_q[k] == EReady) ent_state_q[k] <= EFree;
          if (ent_state_q[k] == EIssue || ent_state_q[k] == EFlight) ent_stale_q[k] <= 1'b1;
        end
      end
      if (flush_i) begin
        hq_rd_q <= '0;
        hq_wr_q <= '0;
        hq_count_q <= '0;
        ph_busy_q <= 1'b0;
        ph_done_q <= 1'b0;
        last_req_seq_q <= '0;
        for (int k = 0; k < PfN; k++) begin
          if (ent_state_q[k] == EIssue || ent_state_q[k] == EFlight) ent_stale_q[k] <= 1'b1;
          else ent_state_q[k] <= EFree;
        end
      end

      if (settle_q && head_pf_q) begin  // an entry's answer, unless a write or a flush overtook it
        if (ent_stale_q[settled_ent_q] || rd_error_q || wb_hits[settled_ent_q] || flush_i) begin
          ent_state_q[settled_ent_q] <= EFree;
        end else begin
          ent_state_q[settled_ent_q] <= EReady;  // its line is in ent_line_mem (below)
        end
        ent_stale_q[settled_ent_q] <= 1'b0;
      end

      // --- the engine's request
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
            from_ent_q <= 1'b0;
            // A fill with an entry: the match is registered here and the
            // entry's line read from the RAM in MWaitPf (one cycle more than
            // a wide mux, for a short path: docs/hardware.md).
            if (!req_write_i && fill_hit) begin
              wait_ent_q <= fill_ent;
              state_q <= MWaitPf;
            end
          end
        end
        MWaitPf: begin  // the entry's read is in flight or done (no write-back can intervene)
          if (ent_state_q[wait_ent_q] == EReady) begin  // ent_rd_q has its line in MDone
            state_q <= MDone;
            from_ent_q <= 1'b1;
            ent_state_q[wait_ent_q] <= EFree;
            stat_prefetch_hits_o <= stat_prefetch_hits_o + 64'd1;
          end else if (ent_state_q[wait_ent_q] == EFree) begin
            state_q <= MHash;  // its read failed: read again
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
          if (dem_ar && arready_i) state_q <= MData;
        end
        MData: begin
          if (r_fire && rlast_i && !head_pf) state_q <= MResp;  // entries' bursts may come first
        end
        MResp: begin  // decide on the bucket's keys and filter (the stream is paused: settle)
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
        MWrite: begin  // posted: done (acknowledged) once AW and every W beat are sent
          if (aw_fire) aw_sent_q <= 1'b1;
          if (w_fire) w_sent_q <= w_sent_q + 2'd1;
          if ((aw_sent_q || aw_fire) && (w_sent_q + 2'(w_fire)) == w_total) begin
            state_q <= MDone;
            if (!b_fire) b_owed_q <= 1'b1;
          end
        end
        MDone: state_q <= MIdle;
        default: state_q <= MIdle;
      endcase
      if (b_owed_q && b_fire) b_owed_q <= 1'b0;
    end
  end

  // An entry's answer: the matching way's line, else the filter's placeholder
  // (written whether or not the entry is kept: a dropped entry's line is
  // never read). Read one cycle after the address (wait_ent_q) is known.
  always_ff @(posedge clk_i) begin
    if (settle_q && head_pf_q) begin
      ent_line_mem[settled_ent_q] <= match_q ? pf_line_q[LineW-1:0]
                                     : (filter_q[ent_fbit_q[settled_ent_q]] ? LineW'(1) : '0);
    end
    ent_rd_q <= ent_line_mem[wait_ent_q];
  end

  // The key the head burst's ways are compared with (its granule + 1),
  // registered when a burst becomes the head (its AR into an empty queue, or
  // the previous head's last beat), so no adder sits before the compare: a
  // burst's first beat comes a cycle after its AR at the earliest, and after
  // the settle cycle behind the previous burst.
  logic head_from_push, head_from_queue;
  assign head_from_push  = own_push && (own_count_q == '0 || (own_count_q == OwnW'(1) && own_pop));
  assign head_from_queue = own_pop && own_count_q > OwnW'(1);
  always_ff @(posedge clk_i) begin
    if (head_from_push) begin
      stream_key_q <= pf_ar_q ? 64'(ent_gran_q[pf_ar_ent_q]) + 64'd1 : own_key;
    end else if (head_from_queue) begin
      stream_key_q <= own_pf_q[1] ? 64'(ent_gran_q[own_ent_q[1]]) + 64'd1 : own_key;
    end
  end

  // The owner of the burst being settled (the queue has moved on by then).
  always_ff @(posedge clk_i) begin
    if (own_pop) begin
      head_pf_q <= head_pf;
      settled_ent_q <= head_ent;
    end else begin
      head_pf_q <= 1'b0;
    end
  end


  // The hash state above the index window and the filter bit is not needed.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_bits;
  assign unused_bits = ^{hash_q[63:38], hash_q[31:30], ph_hash_q[63:38], ph_hash_q[31:30],
                        pf_line_q, rresp_i[0],
                        bresp_i[0]};
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
              !(r_fire && beat_key && beat_match && match_q && !r_error && !rd_error_q), clk_i, rst_i)
  // No read of the table while a bucket write is being sent or owes its B
  // response (AXI orders no read against a write): the exactness rule of
  // the posted write and of the miss-ahead entries.
  `RAC_ASSERT(NoReadWhileWriteOwed, !(ar_fire && (b_owed_q || state_q == MWrite)), clk_i, rst_i)
  // Every read in flight has its owner recorded.
  `RAC_ASSERT(OwnerQueueFits, !(own_push && !own_pop && own_count_q == OwnW'(OwnN)), clk_i, rst_i)
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
  // Miss-ahead: a fill answered by its entry, one waiting for its entry's
  // read in flight, one whose entry was dropped (it reads again), and a
  // write-back dropping an entry of its bucket already read or in flight
  // (the exactness rule, docs/hardware.md "Non-blocking misses").
  logic cov_drop_ready, cov_drop_flight;
  always_comb begin
    cov_drop_ready = 1'b0;
    cov_drop_flight = 1'b0;
    for (int k = 0; k < PfN; k++) begin
      if (wb_hits[k] && ent_state_q[k] == EReady) cov_drop_ready = 1'b1;
      if (wb_hits[k] && !ent_stale_q[k] && (ent_state_q[k] == EIssue || ent_state_q[k] == EFlight)) begin
        cov_drop_flight = 1'b1;
      end
    end
  end
  cov_fill_from_entry: cover property (@(posedge clk_i) disable iff (rst_i)
    state_q == MWaitPf && ent_state_q[wait_ent_q] == EReady);
  cov_fill_waits_for_read: cover property (@(posedge clk_i) disable iff (rst_i)
    state_q == MWaitPf && ent_state_q[wait_ent_q] == EFlight);
  cov_fill_reads_again: cover property (@(posedge clk_i) disable iff (rst_i)
    state_q == MWaitPf && ent_state_q[wait_ent_q] == EFree);
  cov_writeback_drops_read_entry: cover property (@(posedge clk_i) disable iff (rst_i) cov_drop_ready);
  cov_writeback_drops_entry_in_flight: cover property (@(posedge clk_i) disable iff (rst_i) cov_drop_flight);
`endif

endmodule
