// Formal checker of the AXI4 protocol on one master port (64-bit addresses,
// 512-bit data, 64-byte beats, INCR, one ID): instantiated by the kernel
// blocks' harnesses (rac_cmd_reader_props, rac_record_writer_props,
// rac_meta_port_props) next to the block, on the block's own ports.
//
// Asserted (the master's obligations, AXI4 A3.2.1, A3.4.1):
//   ArHeld / AwHeld: a request stays valid with address and length unchanged
//     until it is taken;
//   WHeld: a W beat stays valid with data, strobes and WLAST unchanged until
//     it is taken;
//   ArWithin4K / AwWithin4K: a burst starts 64-byte aligned and does not
//     cross a 4 KB boundary; at most MaxLen beats;
//   WlastMatchesLen: the W beats between two WLASTs are exactly as many as
//     the matching AW asked for (bursts matched in order, whichever of AW
//     and W comes first);
//   QueueFits: the checker's own bookkeeping did not overflow (Depth);
//   NoRequestOutOfReset: ARVALID, AWVALID and WVALID are low in the first
//     cycle after reset (A3.1.2: a master drives them high at the earliest
//     at an edge after reset is released).
// Assumed (the slave's obligations):
//   no read beat without a burst requested and not finished; RLAST exactly
//   on each burst's last beat; no B response before the burst's address and
//   last data were taken (write response after last data), none without a
//   request; R and B stay valid with their payload until taken. RRESP and
//   BRESP are free: SLVERR and DECERR are allowed, so everything asserted
//   here holds under error responses too.
// Outputs for the harness: beats and responses still owed (reads_owed_o,
// writes_owed_o), so it can tie them to the block's idle output.
module axi4_master_checker #(
  parameter bit          HasRead  = 1,
  parameter bit          HasWrite = 1,
  parameter int unsigned MaxLen   = 64,  // beats per burst the block may use
  parameter int unsigned Depth    = 4    // bursts the bookkeeping can hold
) (
  input logic         clk_i,
  input logic         rst_i,
  input logic         arvalid,
  input logic         arready,
  input logic [63:0]  araddr,
  input logic [7:0]   arlen,
  input logic         rvalid,
  input logic         rready,
  input logic [511:0] rdata,
  input logic         rlast,
  input logic [1:0]   rresp,
  input logic         awvalid,
  input logic         awready,
  input logic [63:0]  awaddr,
  input logic [7:0]   awlen,
  input logic         wvalid,
  input logic         wready,
  input logic [511:0] wdata,
  input logic [63:0]  wstrb,
  input logic         wlast,
  input logic         bvalid,
  input logic         bready,
  input logic [1:0]   bresp,
  output logic [15:0] reads_owed_o,   // read beats requested, not yet received
  output logic [7:0]  writes_owed_o   // write bursts requested, not yet answered
);
  localparam int unsigned PtrW = $clog2(Depth);

  logic ar_hs, r_hs, aw_hs, w_hs, b_hs;
  assign ar_hs = arvalid && arready;
  assign r_hs  = rvalid && rready;
  assign aw_hs = awvalid && awready;
  assign w_hs  = wvalid && wready;
  assign b_hs  = bvalid && bready;

  logic past_q = 1'b0;  // the previous cycle was out of reset
  always @(posedge clk_i) past_q <= !rst_i;
  logic in_reset_q = 1'b0;  // the previous cycle was in reset
  always @(posedge clk_i) in_reset_q <= rst_i;
  always @(posedge clk_i) begin
    if (!rst_i && in_reset_q) begin
      NoRequestOutOfReset: assert (!(HasRead && arvalid) && !(HasWrite && (awvalid || wvalid)));
    end
  end

  // ---------------------------------------------------------------------------
  // Read channels
  // ---------------------------------------------------------------------------
  logic [7:0]        rlen_q [Depth];  // lengths of the bursts in flight, oldest first
  logic [PtrW:0]     rcount_q;
  logic [PtrW-1:0]   rhead_q, rtail_q;
  logic [8:0]        rbeat_q;         // beats of the oldest burst received
  logic [15:0]       rowed_q;
  logic              ar_wait_q, r_wait_q;
  logic [63:0]       araddr_q;
  logic [7:0]        arlen_q;
  logic [511:0]      rdata_q;
  logic              rlast_q;
  logic [1:0]        rresp_q;
  logic              rburst_done;
  assign rburst_done = r_hs && rcount_q != 0 && rbeat_q == {1'b0, rlen_q[rhead_q]};

  always @(posedge clk_i) begin
    ar_wait_q <= !rst_i && arvalid && !arready;
    r_wait_q  <= !rst_i && rvalid && !rready;
    araddr_q <= araddr;
    arlen_q  <= arlen;
    rdata_q  <= rdata;
    rlast_q  <= rlast;
    rresp_q  <= rresp;
    if (rst_i) begin
      rcount_q <= '0;
      rhead_q <= '0;
      rtail_q <= '0;
      rbeat_q <= '0;
      rowed_q <= '0;
    end else begin
      if (ar_hs) begin
        rlen_q[rtail_q] <= arlen;
        rtail_q <= rtail_q + 1'b1;
      end
      if (r_hs) rbeat_q <= rburst_done ? 9'd0 : rbeat_q + 9'd1;
      if (rburst_done) rhead_q <= rhead_q + 1'b1;
      rcount_q <= rcount_q + (ar_hs ? 1'b1 : 1'b0) - (rburst_done ? 1'b1 : 1'b0);
      rowed_q <= rowed_q + (ar_hs ? 16'(arlen) + 16'd1 : 16'd0) - (r_hs ? 16'd1 : 16'd0);
    end
  end
  assign reads_owed_o = rowed_q;

  if (HasRead) begin : g_read
    always @(*) begin
      if (!rst_i) begin
        // Slave: beats only for requested bursts, RLAST on each burst's last beat.
        assume (!rvalid || rcount_q != 0);
        assume (!rvalid || rcount_q == 0 || rlast == (rbeat_q == {1'b0, rlen_q[rhead_q]}));
        if (past_q && r_wait_q) assume (rvalid && rdata == rdata_q && rlast == rlast_q && rresp == rresp_q);
      end else begin
        assume (!rvalid);
      end
    end
    always @(posedge clk_i) begin
      if (!rst_i) begin
        ArWithin4K: assert (!arvalid || (araddr[5:0] == 6'd0 && {4'd0, araddr[11:6]} + {2'd0, arlen} < 10'd64 &&
                                         {1'b0, arlen} < 9'(MaxLen)));
        ReadQueueFits: assert (rcount_q <= (PtrW + 1)'(Depth));
        if (past_q && ar_wait_q) ArHeld: assert (arvalid && araddr == araddr_q && arlen == arlen_q);
      end
    end
  end

  // ---------------------------------------------------------------------------
  // Write channels
  // ---------------------------------------------------------------------------
  logic [7:0]      awlen_q [Depth];  // AW lengths not yet matched with their W burst
  logic [8:0]      wlen_q [Depth];   // W burst lengths (beats up to WLAST) not yet matched with their AW
  logic [PtrW:0]   awq_count_q, wq_count_q;
  logic [PtrW-1:0] awq_head_q, awq_tail_q, wq_head_q, wq_tail_q;
  logic [8:0]      wbeats_q;         // beats of the W burst being sent
  logic [7:0]      wowed_q;          // bursts without a B response
  logic [7:0]      complete_q;       // bursts with AW and last W taken, not yet answered
  logic            aw_wait_q, w_wait_q, b_wait_q;
  logic [63:0]     awaddr_q;
  logic [7:0]      awlen_hold_q;
  logic [511:0]    wdata_q;
  logic [63:0]     wstrb_q;
  logic            wlast_q;
  logic [1:0]      bresp_q;

  // A burst is complete when both its AW and its last W are in; matched in
  // order: the AW queue and the W-burst queue pop together.
  logic aw_in, w_in, match;
  assign aw_in = aw_hs;
  assign w_in  = w_hs && wlast;
  // Heads after this cycle's pushes (a push into an empty queue is its head).
  logic       aw_avail, w_avail;
  logic [7:0] aw_head_len;
  logic [8:0] w_head_len;
  assign aw_avail    = awq_count_q != 0 || aw_in;
  assign w_avail     = wq_count_q != 0 || w_in;
  assign aw_head_len = awq_count_q != 0 ? awlen_q[awq_head_q] : awlen;
  assign w_head_len  = wq_count_q != 0 ? wlen_q[wq_head_q] : wbeats_q + 9'd1;
  assign match       = aw_avail && w_avail;

  always @(posedge clk_i) begin
    aw_wait_q <= !rst_i && awvalid && !awready;
    w_wait_q  <= !rst_i && wvalid && !wready;
    b_wait_q  <= !rst_i && bvalid && !bready;
    awaddr_q <= awaddr;
    awlen_hold_q <= awlen;
    wdata_q <= wdata;
    wstrb_q <= wstrb;
    wlast_q <= wlast;
    bresp_q <= bresp;
    if (rst_i) begin
      awq_count_q <= '0;
      wq_count_q <= '0;
      awq_head_q <= '0;
      awq_tail_q <= '0;
      wq_head_q <= '0;
      wq_tail_q <= '0;
      wbeats_q <= '0;
      wowed_q <= '0;
      complete_q <= '0;
    end else begin
      if (aw_in) begin
        awlen_q[awq_tail_q] <= awlen;
        awq_tail_q <= awq_tail_q + 1'b1;
      end
      if (w_in) begin
        wlen_q[wq_tail_q] <= wbeats_q + 9'd1;
        wq_tail_q <= wq_tail_q + 1'b1;
      end
      if (w_hs) wbeats_q <= wlast ? 9'd0 : wbeats_q + 9'd1;
      if (match) begin
        awq_head_q <= awq_head_q + 1'b1;
        wq_head_q <= wq_head_q + 1'b1;
      end
      awq_count_q <= awq_count_q + (aw_in ? 1'b1 : 1'b0) - (match ? 1'b1 : 1'b0);
      wq_count_q <= wq_count_q + (w_in ? 1'b1 : 1'b0) - (match ? 1'b1 : 1'b0);
      wowed_q <= wowed_q + (aw_hs ? 8'd1 : 8'd0) - (b_hs ? 8'd1 : 8'd0);
      complete_q <= complete_q + (match ? 8'd1 : 8'd0) - (b_hs ? 8'd1 : 8'd0);
    end
  end
  assign writes_owed_o = wowed_q;

  if (HasWrite) begin : g_write
    always @(*) begin
      if (!rst_i) begin
        // Slave: a B response only for a complete burst not yet answered
        // (after its last data; none without a request).
        assume (!bvalid || complete_q != 0);
        if (past_q && b_wait_q) assume (bvalid && bresp == bresp_q);
      end else begin
        assume (!bvalid);
      end
    end
    always @(posedge clk_i) begin
      if (!rst_i) begin
        AwWithin4K: assert (!awvalid || (awaddr[5:0] == 6'd0 && {4'd0, awaddr[11:6]} + {2'd0, awlen} < 10'd64 &&
                                         {1'b0, awlen} < 9'(MaxLen)));
        WlastMatchesLen: assert (!match || w_head_len == {1'b0, aw_head_len} + 9'd1);
        WriteQueuesFit: assert (awq_count_q <= (PtrW + 1)'(Depth) && wq_count_q <= (PtrW + 1)'(Depth) &&
                                {1'b0, wbeats_q} < 10'(MaxLen));
        if (past_q && aw_wait_q) AwHeld: assert (awvalid && awaddr == awaddr_q && awlen == awlen_hold_q);
        if (past_q && w_wait_q) WHeld: assert (wvalid && wdata == wdata_q && wstrb == wstrb_q && wlast == wlast_q);
      end
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{rresp, bresp};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
