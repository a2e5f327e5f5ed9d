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
  localparam int unsigned KeyW = GranW + 1;  // a way's key: granule + 1

  // ---------------------------------------------------------------------------
  // Shallow arithmetic (issue 12: at most 8 logic levels a stage, each LUT,
  // MUXF and CARRY4 one; docs/hardware.md "Logic depth of the kernel blocks")
  // ---------------------------------------------------------------------------
  // a < b on command numbers from its halves: two carry chains of half the
  // length side by side (a 32-bit `<` is 8 CARRY4 and LUTs in a row).
  localparam int unsigned SeqLo = SeqW / 2;
  function automatic logic seq_lt(input logic [SeqW-1:0] a, input logic [SeqW-1:0] b);
    seq_lt = a[SeqW-1:SeqLo] < b[SeqW-1:SeqLo] ||
             (a[SeqW-1:SeqLo] == b[SeqW-1:SeqLo] && a[SeqLo-1:0] < b[SeqLo-1:0]);
  endfunction

  // One round of the register map's bucket hash: the same function as
  // rac_kernel_regs_pkg::BucketHashRound (an assertion below compares them),
  // its 32-bit add a carry select: the high half is added for both carries
  // alongside the low half, 5 CARRY4 deep instead of 8.
  // (The carry-in bits of the select adders are not part of the sums.)
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [63:0] hash_round(input logic [63:0] s, input logic [31:0] round);
    logic [31:0] a, x;
    logic [16:0] lo, hi0, hi1;
    a = {s[39:32], s[63:40]};  // rotr(x, 8)
    lo = {1'b0, a[15:0]} + {1'b0, s[15:0]};
    // Carry in 0 and 1 as a low bit of 0+0 and 1+1 (two adders Yosys keeps apart).
    hi0 = {a[31:16], 1'b0} + {s[31:16], 1'b0};
    hi1 = {a[31:16], 1'b1} + {s[31:16], 1'b1};
    x = {lo[16] ? hi1[16:1] : hi0[16:1], lo[15:0]} ^ (rac_kernel_regs_pkg::BucketHashKey ^ round);
    hash_round = {x, {s[28:0], s[31:29]} ^ x};
  endfunction

  // The bucket's address, base + (index << (7 + WayShift)) with the index
  // below 2^30, in chunks: the base is 4 KB aligned (the kernel's argument
  // check), so bits 11:0 are the offset's; bits 27:12 one 16-bit add; bits
  // 39:28 a carry select on its carry; bits 63:40 the base's or the base's
  // + 1 (base_hi_inc, registered: the base is stable during a batch).
  function automatic logic [63:0] bucket_addr(input logic [63:0] base, input logic [23:0] base_hi_inc,
                                              input logic [29:0] idx);
    logic [39:0] off;
    logic [16:0] mid;
    logic [13:0] top0, top1;
    logic        top_c;
    off = 40'(idx) << (7 + WayShift);
    mid = {1'b0, base[27:12]} + {1'b0, off[27:12]};
    top0 = {1'b0, base[39:28], 1'b0} + {1'b0, off[39:28], 1'b0};
    top1 = {1'b0, base[39:28], 1'b1} + {1'b0, off[39:28], 1'b1};
    top_c = mid[16] ? top1[13] : top0[13];
    bucket_addr = {top_c ? base_hi_inc : base[63:40], mid[16] ? top1[12:1] : top0[12:1], mid[15:0],
                   base[11:0] | off[11:0]};
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

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
  logic [PfN-1:0]   wait_sel_q;      // ... one-hot

  // The read stream: the burst at the head of the owner queue, beat by beat
  // (shared by the engine's reads and the entries'; reset after each burst).
  logic [63:0]      filter_q;        // the bucket's spill filter (way 0, bytes 8-15)
  logic [BeatW-1:0] beat_q;          // which beat of the bucket comes next
  logic             match_q, cur_match_q, empty_q;
  logic [WayW-1:0]  match_way_q, empty_way_q;
  logic             rd_error_q;      // a beat of this bucket read had an error response
  logic [BucketLineBits-1:0] pf_line_q;  // an entry's burst: the matching way's line
  logic [5:0]       head_fbit_q;     // the head burst's filter bit (its owner's hash bits 37:32)
  logic             fhit_q;          // ... set in the filter it read
  logic             own_fhit_q;      // ... the engine's burst's
  logic             settle_q;        // the cycle after a burst's last beat: its owner decides

  // Prefetch entries
  // An entry's state, one-hot (one bit per state, tested alone: the
  // entries' next states and the look-ups read single bits).
  localparam int unsigned IFree = 0, IAddr = 1, IIssue = 2, IFlight = 3, IReady = 4;
  localparam logic [4:0] EFree = 5'b00001, EAddr = 5'b00010, EIssue = 5'b00100, EFlight = 5'b01000,
                         EReady = 5'b10000;
  logic [4:0]        ent_state_q [PfN];
  logic              ent_stale_q [PfN];  // a bucket write may have overtaken the read: discard
  logic [GranW-1:0]  ent_gran_q  [PfN];
  logic [SeqW-1:0]   ent_seq_q   [PfN];  // the hinting command: dead once the engine asks for a later one
  logic [KeyW-1:0]   ent_key_q   [PfN];  // its granule + 1 (the hasher's key counter)
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
  logic [KeyW-1:0]   ph_key;             // ph_gran_q + 1 from its first round on (rac_wide_cnt)
  localparam int unsigned GranLo = GranW / 2;
  logic [1:0]        ph_eq_q [PfN];      // ent_gran_q[k] == ph_gran_q: high half, low half
  logic              ph_dup_q;           // a live entry holds ph_gran_q (two cycles late: see below)
  logic              ph_dead_q;          // ph_seq_q is below the engine's latest request or passed_seq_i
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

  // The quasi-static inputs (stable during a batch) pre-processed a cycle
  // ahead: the index mask, and the base's bits above the offset's + 1.
  logic [29:0] idx_mask_q;
  logic [23:0] base_hi_inc_q;
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < 30; i++) idx_mask_q[i] <= 5'(i) < bucket_bits_i;
    base_hi_inc_q <= base_i[63:40] + 24'd1;
  end

  // The request's key (granule + 1): loaded with the granule when the
  // request is taken, stepped in the next cycle (a rac_wide_cnt: no 62-bit
  // carry chain); the hash rounds take longer, so it is ready for the read.
  logic [KeyW-1:0] own_key;
  logic            own_key_zero, own_key_one;  // unused
  logic [63:0]     stream_key_q;
  logic [5:0]      filter_bit;
  localparam int unsigned LineChunks = 16;
  localparam int unsigned LineChunkW = BucketLineBits / LineChunks;
  logic [LineChunks-1:0] line_nz_q;  // line_q's chunks that are not zero
  logic            line_zero_q;  // line_q == 0, two cycles late (a write-back's line_q is stable)
  logic            req_q;        // the cycle after a request was taken (its key steps, a fill looks up)
  assign filter_bit = hash_q[37:32];
  logic            own_key_load;
  logic [KeyW-1:0] own_key_value;
  assign own_key_load  = rst_i || (state_q == MIdle && req_valid_i);
  assign own_key_value = KeyW'(req_granule_i);
  rac_wide_cnt #(.W(KeyW)) u_own_key (
    .clk_i(clk_i), .rst_i(rst_i),
    .load_i(own_key_load), .value_i(own_key_value),
    .step_i(req_q), .q_o(own_key), .zero_o(own_key_zero), .one_o(own_key_one)
  );
  logic [29:0] bucket_idx, ph_bucket_idx;
  assign bucket_idx    = hash_q[29:0] & idx_mask_q;
  assign ph_bucket_idx = ph_hash_q[29:0] & idx_mask_q;

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
  logic [63:0]     beat_filter;  // way 0's key beat: the bucket's spill filter
  assign beat_filter = rdata_i[127:64];
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

  // The engine's filter bit in its bucket's filter (own_fhit_q, taken as
  // the filter streams in: no 64-way mux before MResp's decisions).
  logic filter_hit;
  assign filter_hit = own_fhit_q;

  // Entries. A fill looks for its granule's entry in the cycle after it is
  // taken (req_q), from a match vector registered when it is taken (the
  // 61-bit compares against the request port, not into the entries' state);
  // a hint is taken when no live entry holds its granule and one is free.
  logic [PfN-1:0]  look_match;  // req_q: the live entries of the fill's granule (at most one)
  logic            look_live_q [PfN];  // ... live when the fill was taken (not free: not refilled since)
  logic [1:0]      look_eq_q   [PfN];  // ... holding its granule: high half, low half
  always_comb begin
    for (int k = 0; k < PfN; k++) look_match[k] = look_live_q[k] && look_eq_q[k] == 2'b11;
  end
  logic [PfN-1:0]  req_dead_q;    // req_q: the entries of commands below the request's
  logic [PfN-1:0]  ent_passed_q;  // the entries of commands below passed_seq_i (a cycle late)
  // The entry a hint takes and the entry whose bucket is read next are
  // picked a cycle ahead (free_oh_q, wait_oh_q: one-hot, the lowest index),
  // and the pick is used only while its entry is still free (waiting), so
  // no priority chain over the entries' states sits before their next state.
  // An entry the hasher fills is a candidate to read at once; one freed is
  // taken a cycle later.
  logic [PfN-1:0]  free_oh_q, wait_oh_q;
  logic            look_ready, look_wait;
  logic [EntW-1:0] look_ent;
  logic            wait_ready, wait_free;  // MWaitPf: its entry's state
  logic [EntW-1:0] wait_pick;
  // Per entry, then ORed (one-hot: an assertion below). The per-entry terms
  // and the ORs are kept as nets so that the LUT mapper does not fold the
  // entries' states into the engine's state as wide LUTs (MUXF chains: each
  // MUXF a level; 9 at the card shape before).
  (* keep *) logic [PfN-1:0] look_r, look_w, wait_r, wait_f;
  (* keep *) logic           look_any_r, look_any_w, wait_any_r, wait_any_f;
  always_comb begin
    look_ent = '0;
    wait_pick = '0;
    for (int k = 0; k < PfN; k++) begin
      // Still live, else (a drop or a write-back's mark since) the fill
      // reads again.
      look_r[k] = look_match[k] && ent_state_q[k][IReady];
      look_w[k] = look_match[k] && !ent_state_q[k][IFree] && !ent_state_q[k][IReady] && !ent_stale_q[k];
      wait_r[k] = wait_sel_q[k] && ent_state_q[k][IReady];
      wait_f[k] = wait_sel_q[k] && ent_state_q[k][IFree];
      if (look_match[k]) look_ent = look_ent | EntW'(k);
      if (wait_oh_q[k]) wait_pick = wait_pick | EntW'(k);
    end
  end
  assign look_any_r = |look_r;
  assign look_any_w = |look_w;
  assign wait_any_r = |wait_r;
  assign wait_any_f = |wait_f;
  assign look_ready = req_q && !write_q && look_any_r;
  assign look_wait  = req_q && !write_q && look_any_w;
  assign wait_ready = state_q == MWaitPf && wait_any_r;
  assign wait_free  = state_q == MWaitPf && wait_any_f;
  // The entry a fill uses is not dropped for its command's age (below).
  logic [PfN-1:0] ent_in_use;
  always_comb begin
    for (int k = 0; k < PfN; k++) begin
      ent_in_use[k] = (state_q == MWaitPf && wait_sel_q[k]) || (req_q && look_match[k]);
    end
  end
  // The write-back's bucket is known (its address in addr_q, from the end of
  // its hash until its AR is sent, MRead; before its own read, so before its
  // write): the entries of it already read or being read are dropped. The
  // compare against addr_q is registered (wb_eq_q, wb_known_q), so the drop
  // comes a cycle later, in each cycle after one of MRead (the last in MData,
  // still before the write); harmless to repeat, as no entry read is issued
  // during a write-back. An entry that settles in MRead's first cycle is
  // dropped from EReady in the next.
  logic           wb_known_q;
  logic [PfN-1:0] wb_eq_q;
  logic [PfN-1:0] wb_hits;
  always_ff @(posedge clk_i) begin
    wb_known_q <= !rst_i && state_q == MRead && write_q;
    for (int k = 0; k < PfN; k++) wb_eq_q[k] <= ent_addr_q[k] == addr_q;
  end
  always_comb begin
    for (int k = 0; k < PfN; k++) begin
      wb_hits[k] = wb_known_q && wb_eq_q[k];
`ifdef RAC_MUTANT_NO_PREFETCH_INVALIDATE
      wb_hits[k] = 1'b0;
`endif
    end
  end
  // No prefetch read from the moment a write-back is taken until it is done.
  logic wb_busy;
  assign wb_busy = (state_q != MIdle && write_q) || b_owed_q;
  // A hint whose command the engine has passed is dead (its lookup is done):
  // the hasher drops it from its second round on, or when hashed (ph_dead_q,
  // registered). A duplicate (ph_dup_q) is judged when hashed, against the
  // entries of the cycle before: only the hasher allocates, so an entry of
  // its granule cannot appear meanwhile, and a drop is always exact.
  logic hq_push, hq_pop, ph_alloc, ph_drop;
  assign hq_push      = hint_valid_i && !flush_i && hq_count_q != (HqW + 1)'(HintQueue);
  assign hint_room_o  = hq_count_q < (HqW + 1)'(HintQueue - 3);  // the shadow lookup has two in flight
  assign hq_pop       = hq_count_q != '0 && !ph_busy_q && !ph_done_q && !flush_i;
  assign ph_drop      = ph_done_q && (ph_dup_q || ph_dead_q);
  // An entry's bucket read starts when the bus may take it (start_ok) and
  // its entry is picked; a hint takes its picked entry if that is free.
  // (Kept nets, as the look-up's above: the bus conditions, the entries'
  // starts and their OR are mapped apart, not as one wide LUT.)
  (* keep *) logic start_ok;
  (* keep *) logic start_pf_ar;
  assign start_ok = !pf_ar_q && !wb_busy && state_q != MRead && !flush_i &&
                    OwnW'(own_count_q) < OwnW'(OwnN - 1);  // room kept for the engine's read

  // Each entry's next state, one writer per entry (later rules win).
  logic [PfN-1:0] alloc_k;
  (* keep *) logic [PfN-1:0] start_k;
  logic [4:0]     ent_state_d [PfN];
  logic           ent_stale_d [PfN];
  always_comb begin
    for (int k = 0; k < PfN; k++) begin
      alloc_k[k] = ph_done_q && !ph_dup_q && !ph_dead_q && !flush_i && free_oh_q[k] && ent_state_q[k][IFree];
      start_k[k] = start_ok && wait_oh_q[k] && ent_state_q[k][IAddr];
      ent_state_d[k] = ent_state_q[k];
      ent_stale_d[k] = ent_stale_q[k];
      if (alloc_k[k]) begin
        ent_state_d[k] = EAddr;
        ent_stale_d[k] = 1'b0;
      end
      // Entries of commands the engine has passed are dead: free them (a
      // read in flight still takes its beats), except the one a fill uses.
      // Entries of commands below the engine's latest request likewise, in
      // the cycle after the request is taken.
      if ((ent_passed_q[k] || (req_q && req_dead_q[k])) && !ent_in_use[k]) begin
        if (ent_state_q[k][IReady] || ent_state_q[k][IAddr]) ent_state_d[k] = EFree;
        if (ent_state_q[k][IIssue] || ent_state_q[k][IFlight]) ent_stale_d[k] = 1'b1;
      end
      if (start_k[k]) ent_state_d[k] = EIssue;
      if (pf_ar_q && arready_i && pf_ar_ent_q == EntW'(k)) ent_state_d[k] = EFlight;
      // A write-back knows its bucket: drop every entry of it already read
      // or being read (its answer may predate the write).
      if (wb_hits[k]) begin
        if (ent_state_q[k][IReady]) ent_state_d[k] = EFree;
        if (ent_state_q[k][IIssue] || ent_state_q[k][IFlight]) ent_stale_d[k] = 1'b1;
      end
      if (flush_i) begin
        if (ent_state_q[k][IIssue] || ent_state_q[k][IFlight]) ent_stale_d[k] = 1'b1;
        else ent_state_d[k] = EFree;
      end
      // An entry's answer, unless a write or a flush overtook it.
      if (settle_q && head_pf_q && settled_ent_q == EntW'(k)) begin
        if (ent_stale_q[k] || rd_error_q || wb_hits[k] || flush_i) ent_state_d[k] = EFree;
        else ent_state_d[k] = EReady;  // its line is in ent_line_mem (below)
        ent_stale_d[k] = 1'b0;
      end
      // A fill takes its answer (its first round, or MWaitPf).
      if (ent_state_q[k][IReady] && ((req_q && !write_q && look_match[k]) ||
                                       (state_q == MWaitPf && wait_sel_q[k]))) begin
        ent_state_d[k] = EFree;
      end
    end
  end
  assign ph_alloc    = |alloc_k;
  assign start_pf_ar = |start_k;
  // The picks for the next cycle: the lowest free entry, and the lowest
  // entry waiting for its read or filled now (one whose read starts now is
  // still EIssue when picked: no read starts while its AR is on the bus).
  always_ff @(posedge clk_i) begin
    for (int k = 0; k < PfN; k++) begin
      free_oh_q[k] <= ent_state_q[k][IFree];
      wait_oh_q[k] <= ent_state_q[k][IAddr] || alloc_k[k];
      for (int j = 0; j < k; j++) begin
        if (ent_state_q[j][IFree]) free_oh_q[k] <= 1'b0;
        if (ent_state_q[j][IAddr] || alloc_k[j]) wait_oh_q[k] <= 1'b0;
      end
    end
  end

  // The owner queue: push at AR, pop at a burst's last beat.
  logic own_push, own_pop;
  assign own_push = ar_fire;
  assign own_pop  = r_fire && rlast_i;

  logic pf_idle;
  always_comb begin
    pf_idle = !ph_busy_q && !ph_done_q && hq_count_q == '0 && !pf_ar_q && own_count_q == '0 && !b_owed_q;
    for (int k = 0; k < PfN; k++) if (ent_state_q[k][IAddr]) pf_idle = 1'b0;
  end
  assign idle_o = state_q == MIdle && pf_idle;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= MIdle;
      b_owed_q <= 1'b0;
      from_ent_q <= 1'b0;
      req_q <= 1'b0;
      for (int k = 0; k < PfN; k++) look_live_q[k] <= 1'b0;
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
          if (beat_way == '0) begin
            filter_q <= rdata_i[127:64];
            // The head's filter bit (head_fbit_q), taken as the filter
            // streams in: the entry's for its answer, the engine's for MResp.
            fhit_q <= beat_filter[head_fbit_q];
            if (!head_pf) own_fhit_q <= beat_filter[head_fbit_q];
          end
          // The key compare is registered (cur_match_q) and acted on at the
          // way's second beat, so it reaches no wide enable: the first part
          // of each way's line is taken until a way matches (a fill's line_q
          // and pf_line_q are scratch until then: MResp and the settle look
          // at match_q).
          cur_match_q <= beat_match && !match_q;
          if (!match_q) begin
            if (head_pf) pf_line_q[319:0] <= rdata_i[511:192];
            else if (!write_q) line_q[319:0] <= rdata_i[511:192];
          end
          if (beat_empty && !empty_q) begin
            empty_q <= 1'b1;
            empty_way_q <= beat_way;
          end
        end else if (cur_match_q) begin  // the way's second beat: it holds the granule
          match_q <= 1'b1;
          match_way_q <= beat_way;
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
      if (hq_pop) begin  // a dead hint is dropped by the hasher (ph_dead_q)
        hq_rd_q    <= hq_rd_q + HqW'(1);
        ph_busy_q  <= 1'b1;
        ph_gran_q  <= hq_gran_q[hq_rd_q];
        ph_seq_q   <= hq_seq_q[hq_rd_q];
        ph_hash_q  <= 64'(hq_gran_q[hq_rd_q]);
        ph_round_q <= '0;
      end
      hq_count_q <= hq_count_q + (HqW + 1)'(hq_push) - (HqW + 1)'(hq_pop);
      if (ph_busy_q) begin
        if (ph_round_q != '0 && ph_dead_q) begin  // ph_dead_q is ph_seq_q's from the second round on
          ph_busy_q <= 1'b0;
        end else if (ph_round_q == RoundW'(Rounds)) begin
          ph_busy_q <= 1'b0;
          ph_done_q <= 1'b1;
          ph_addr_q <= bucket_addr(base_i, base_hi_inc_q, ph_bucket_idx);
        end else begin
          ph_hash_q  <= hash_round(ph_hash_q, 32'(ph_round_q));
          ph_round_q <= ph_round_q + RoundW'(1);
        end
      end
      if (ph_drop) ph_done_q <= 1'b0;
      if (ph_alloc) ph_done_q <= 1'b0;
      if (!pf_ar_q) pf_ar_ent_q <= wait_pick;  // meaningful while pf_ar_q
      if (start_pf_ar) pf_ar_q <= 1'b1;
      if (pf_ar_q && arready_i) pf_ar_q <= 1'b0;
      if (flush_i) begin
        hq_rd_q <= '0;
        hq_wr_q <= '0;
        hq_count_q <= '0;
        ph_busy_q <= 1'b0;
        ph_done_q <= 1'b0;
        last_req_seq_q <= '0;
      end
      for (int k = 0; k < PfN; k++) begin  // the entries' states (above)
        ent_state_q[k] <= ent_state_d[k];
        ent_stale_q[k] <= ent_stale_d[k];
      end

      // --- the engine's request
      req_q <= state_q == MIdle && req_valid_i;
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
            last_req_seq_q <= req_seq_i;
            // A fill's entry: matched here, used in the next cycle (req_q,
            // MHash's first round; the entry's line read from the RAM then).
            for (int k = 0; k < PfN; k++) begin
              look_live_q[k] <= !req_write_i && !ent_state_q[k][IFree] && !ent_stale_q[k];
              look_eq_q[k] <= {ent_gran_q[k][GranW-1:GranLo] == req_granule_i[GranW-1:GranLo],
                               ent_gran_q[k][GranLo-1:0] == req_granule_i[GranLo-1:0]};
            end
          end
        end
        MWaitPf: begin  // the entry's read is in flight or done (no write-back can intervene)
          if (wait_ready) begin  // ent_rd_q has its line in MDone
            state_q <= MDone;
            from_ent_q <= 1'b1;
          end else if (wait_free) begin
            state_q <= MHash;  // its read failed: read again (hash_q has its rounds so far)
          end
        end
        MHash: begin  // one round of the bucket hash per cycle
          if (round_q == RoundW'(Rounds)) begin
            state_q <= MRead;
            addr_q  <= bucket_addr(base_i, base_hi_inc_q, bucket_idx);
          end else begin
            hash_q  <= hash_round(hash_q, 32'(round_q));
            round_q <= round_q + RoundW'(1);
          end
          // The first round of a fill: its entry, if still live, answers
          // (ent_rd_q has its line in MDone) or is waited for.
          if (look_ready) begin
            state_q <= MDone;
            from_ent_q <= 1'b1;
          end else if (look_wait) begin
            state_q <= MWaitPf;
            wait_ent_q <= look_ent;
            wait_sel_q <= look_match;
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
          // addr_q is bucket aligned (a 4 KB aligned base, a bucket of at
          // most 1 KB): the way's offset is ORed in, no adder.
          wr_addr_q <= addr_q | way_offset;
          wr_key_q  <= line_zero_q ? 64'd0 : 64'(own_key);
          if (rd_error_q) begin
            state_q <= MDone;  // nothing read can be trusted: no write, no spill
            if (!write_q) line_q <= '0;
          end else if (write_q) begin
            if (match_q || (empty_q && !line_zero_q)) begin
              state_q <= MWrite;
            end else if (line_zero_q) begin
              state_q <= MDone;  // no history to keep, and no way to empty
            end else begin
              state_q <= MSpill;
              store_q <= 1'b0;
              wr_addr_q <= addr_q;
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

  // The entries' fields, written when the hasher's hint takes the entry.
  always_ff @(posedge clk_i) begin
    for (int k = 0; k < PfN; k++) begin
      if (alloc_k[k]) begin
        ent_gran_q[k] <= ph_gran_q;
        ent_key_q[k]  <= ph_key;
        ent_seq_q[k]  <= ph_seq_q;
        ent_addr_q[k] <= ph_addr_q;
        ent_fbit_q[k] <= ph_hash_q[37:32];
      end
    end
  end

  // Registered ahead of their use (each from registers and ports, so the
  // compares are not on a path into the entries' state):
  //  - line_zero_q (two stages: 16 chunk ORs, then their NOR): a
  //    write-back's line_q does not change after MIdle;
  //  - ph_dup_q (two stages: the granule compares in halves, then the
  //    entries), ph_dead_q: the hasher's hint (see above), hashed for longer;
  //  - ent_passed_q, req_dead_q: a non-free entry is not reallocated in the
  //    same cycle, so each bit is about the entry it is used on (a free
  //    entry's is 0).
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < LineChunks; i++) line_nz_q[i] <= |line_q[i * LineChunkW +: LineChunkW];
    line_zero_q <= line_nz_q == '0;
    ph_dup_q <= 1'b0;
    for (int k = 0; k < PfN; k++) begin
      ph_eq_q[k] <= {ent_gran_q[k][GranW-1:GranLo] == ph_gran_q[GranW-1:GranLo],
                     ent_gran_q[k][GranLo-1:0] == ph_gran_q[GranLo-1:0]};
      if (!ent_state_q[k][IFree] && !ent_stale_q[k] && ph_eq_q[k] == 2'b11) ph_dup_q <= 1'b1;
      ent_passed_q[k] <= !ent_state_q[k][IFree] && seq_lt(ent_seq_q[k], passed_seq_i);
      req_dead_q[k]   <= !ent_state_q[k][IFree] && seq_lt(ent_seq_q[k], req_seq_i);
    end
    ph_dead_q <= seq_lt(ph_seq_q, last_req_seq_q) || seq_lt(ph_seq_q, passed_seq_i);
  end

  // The hasher's key (granule + 1), as the request's.
  logic            ph_key_zero, ph_key_one;  // unused
  logic            ph_key_load, ph_key_step;
  logic [KeyW-1:0] ph_key_value;
  assign ph_key_load  = rst_i || hq_pop;
  assign ph_key_value = KeyW'(hq_gran_q[hq_rd_q]);
  assign ph_key_step  = ph_busy_q && ph_round_q == '0;
  rac_wide_cnt #(.W(KeyW)) u_ph_key (
    .clk_i(clk_i), .rst_i(rst_i),
    .load_i(ph_key_load), .value_i(ph_key_value),
    .step_i(ph_key_step), .q_o(ph_key), .zero_o(ph_key_zero), .one_o(ph_key_one)
  );

  // The statistics: 64-bit counters in chunks with registered carries.
  logic spill_counted, pf_hit_counted;
  logic [1:0] stat_ends, stat_ends_pf;  // unused
  logic [63:0] stat_zero;
  assign stat_zero = '0;
  assign spill_counted  = state_q == MResp && !rd_error_q && write_q && !match_q && !(empty_q && !line_zero_q) &&
                          !line_zero_q;
  assign pf_hit_counted = look_ready || wait_ready;
  rac_wide_cnt #(.W(64)) u_spills (
    .clk_i(clk_i), .rst_i(rst_i), .load_i(rst_i), .value_i(stat_zero), .step_i(spill_counted),
    .q_o(stat_spills_o), .zero_o(stat_ends[0]), .one_o(stat_ends[1])
  );
  rac_wide_cnt #(.W(64)) u_pf_hits (
    .clk_i(clk_i), .rst_i(rst_i), .load_i(rst_i), .value_i(stat_zero), .step_i(pf_hit_counted),
    .q_o(stat_prefetch_hits_o), .zero_o(stat_ends_pf[0]), .one_o(stat_ends_pf[1])
  );

  // An entry's answer: the matching way's line, else the filter's placeholder
  // (written whether or not the entry is kept: a dropped entry's line is
  // never read). Read in the cycle its entry is known: a fill's first round
  // (look_ent) or MWaitPf (wait_ent_q).
  always_ff @(posedge clk_i) begin
    if (settle_q && head_pf_q) begin
      ent_line_mem[settled_ent_q] <= match_q ? pf_line_q[LineW-1:0] : (fhit_q ? LineW'(1) : '0);
    end
    ent_rd_q <= ent_line_mem[req_q ? look_ent : wait_ent_q];
  end

  // The key the head burst's ways are compared with (its granule + 1) and
  // its filter bit, registered when a burst becomes the head (its AR into an
  // empty queue, or the previous head's last beat), so no adder and no
  // 64-way mux sits before the beat: a burst's first beat comes a cycle
  // after its AR at the earliest, and after the settle cycle behind the
  // previous burst.
  logic head_from_push, head_from_queue;
  assign head_from_push  = own_push && (own_count_q == '0 || (own_count_q == OwnW'(1) && own_pop));
  assign head_from_queue = own_pop && own_count_q > OwnW'(1);
  always_ff @(posedge clk_i) begin
    if (head_from_push) begin
      stream_key_q <= pf_ar_q ? 64'(ent_key_q[pf_ar_ent_q]) : 64'(own_key);
      head_fbit_q  <= pf_ar_q ? ent_fbit_q[pf_ar_ent_q] : filter_bit;
    end else if (head_from_queue) begin
      stream_key_q <= own_pf_q[1] ? 64'(ent_key_q[own_ent_q[1]]) : 64'(own_key);
      head_fbit_q  <= own_pf_q[1] ? ent_fbit_q[own_ent_q[1]] : filter_bit;
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


  // The hash state above the index window and the filter bit is not
  // needed, nor the counters' end flags.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_bits;
  assign unused_bits = ^{hash_q[63:38], hash_q[31:30], ph_hash_q[63:38], ph_hash_q[31:30],
                        pf_line_q, rresp_i[0], bresp_i[0], own_key_zero, own_key_one, ph_key_zero, ph_key_one,
                        stat_ends, stat_ends_pf};
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
  // The split hash round is the register map's (the host hashes with it).
  `RAC_ASSERT(HashRoundIsTheMaps, hash_round(hash_q, 32'(round_q)) ==
              rac_kernel_regs_pkg::BucketHashRound(hash_q, 32'(round_q)), clk_i, rst_i)
  // The chunked bucket address is base + (index << (7 + WayShift)).
  // (Checked where addr_q takes it; the base is 4 KB aligned, stable.)
  `RAC_ASSERT(BucketAddrIsTheSum, !(state_q == MHash && round_q == RoundW'(Rounds)) ||
              bucket_addr(base_i, base_hi_inc_q, bucket_idx) == base_i + (64'(bucket_idx) << (7 + WayShift)),
              clk_i, rst_i)
  // A fill's match vector has at most one entry (no two live entries hold
  // one granule), so the look-up ORs it.
  `RAC_ASSERT(LookMatchOneHot, (look_match & (look_match - PfN'(1))) == '0, clk_i, rst_i)
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
      if (wb_hits[k] && ent_state_q[k][IReady]) cov_drop_ready = 1'b1;
      if (wb_hits[k] && !ent_stale_q[k] && (ent_state_q[k][IIssue] || ent_state_q[k][IFlight])) begin
        cov_drop_flight = 1'b1;
      end
    end
  end
  // (A fill's entry is looked at in its first hash round, then in MWaitPf.)
  logic cov_look_dropped;
  assign cov_look_dropped = req_q && !write_q && look_match != '0 && !look_any_r && !look_any_w;
  cov_fill_from_entry: cover property (@(posedge clk_i) disable iff (rst_i) look_ready || wait_ready);
  cov_fill_waits_for_read: cover property (@(posedge clk_i) disable iff (rst_i)
    state_q == MWaitPf && ent_state_q[wait_ent_q][IFlight]);
  cov_fill_reads_again: cover property (@(posedge clk_i) disable iff (rst_i) cov_look_dropped || wait_free);
  cov_writeback_drops_read_entry: cover property (@(posedge clk_i) disable iff (rst_i) cov_drop_ready);
  cov_writeback_drops_entry_in_flight: cover property (@(posedge clk_i) disable iff (rst_i) cov_drop_flight);
`endif

endmodule
