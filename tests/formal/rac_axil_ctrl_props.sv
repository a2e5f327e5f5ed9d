// Formal harness of the AXI4-Lite control slave (rac_axil_ctrl): the AXI4-Lite
// protocol from the slave's side, with the master and the kernel as
// assumptions.
//
// Assumed (the master's and the kernel's obligations):
//   - reset in the first cycle; no request valid during reset;
//   - AW, W and AR requests stay valid, with stable address, data and
//     strobes, until they are taken (AXI A3.2.1);
//   - the kernel takes a batch only while ap_start is up and it is not busy,
//     and reports done only while busy.
// Proved (BMC and k-induction, yosys-smtbmc + z3):
//   - B and R responses stay valid, with BRESP, RDATA and RRESP stable,
//     until the master takes them;
//   - exactly one response per request: BVALID is up exactly while one
//     write (address and data) has been taken and not answered, RVALID
//     exactly while one read has; never more than one of each outstanding;
//     no response in or right after reset;
//   - every response is OKAY (BRESP = RRESP = 0): the slave never signals
//     SLVERR/DECERR, so the host's driver has no error path to take here;
//   - a taken write is answered in the next cycle, a taken read in the
//     cycle after (the read multiplexer is split over two registers), and
//     its RVALID is the only thing that may be missing in between;
//   - a read of the magic capability register returns RegMagic.
module rac_axil_ctrl_props (
  input logic        clk_i,
  input logic        rst_i,
  input logic        awvalid_i,
  input logic [11:0] awaddr_i,
  input logic        wvalid_i,
  input logic [31:0] wdata_i,
  input logic [3:0]  wstrb_i,
  input logic        bready_i,
  input logic        arvalid_i,
  input logic [11:0] araddr_i,
  input logic        rready_i,
  input logic        take_i,
  input logic        done_i,
  input logic [31:0] status_i,
  input logic [63:0] stat_i
);
  logic        awready, wready, bvalid, arready, rvalid, ap_start;
  logic [1:0]  bresp, rresp;
  logic [31:0] rdata;

  rac_axil_ctrl #(.NumSlots(2), .ClkW(2), .Sets(2), .Ways(2), .LineW(57), .Objects(1), .ReadVcs(0)) dut (
    .clk_i, .rst_i,
    .awvalid_i, .awready_o(awready), .awaddr_i, .wvalid_i, .wready_o(wready), .wdata_i, .wstrb_i,
    .bvalid_o(bvalid), .bready_i, .bresp_o(bresp),
    .arvalid_i, .arready_o(arready), .araddr_i, .rvalid_o(rvalid), .rready_i, .rdata_o(rdata), .rresp_o(rresp),
    .interrupt_o(),
    .ap_start_o(ap_start), .take_i, .done_i,
    .commands_o(), .command_words_o(), .flags_o(), .races_o(), .race_capacity_o(), .escalations_o(),
    .esc_capacity_o(), .buckets_o(), .bucket_bits_o(),
    .status_i, .races_written_i(status_i), .escalations_written_i(status_i), .words_done_i(status_i),
    .stat_cycles_i(stat_i), .stat_busy_cycles_i(stat_i), .stat_commands_i(stat_i), .stat_accesses_i(stat_i),
    .stat_misses_i(stat_i), .stat_writebacks_i(stat_i), .stat_escalations_i(stat_i), .stat_spills_i(stat_i),
    .stat_races_i(stat_i)
  );

  logic first_q = 1'b1;
  always @(posedge clk_i) first_q <= 1'b0;

  // ---------------------------------------------------------------------------
  // Master and kernel (assumptions)
  // ---------------------------------------------------------------------------
  always @(*) if (first_q) assume (rst_i);
  always @(*) if (rst_i) assume (!awvalid_i && !wvalid_i && !arvalid_i);

  logic        aw_wait_q, w_wait_q, ar_wait_q;  // a request offered and not taken
  logic [11:0] awaddr_q, araddr_q;
  logic [31:0] wdata_q;
  logic [3:0]  wstrb_q;
  always @(posedge clk_i) begin
    aw_wait_q <= !rst_i && awvalid_i && !awready;
    w_wait_q  <= !rst_i && wvalid_i && !wready;
    ar_wait_q <= !rst_i && arvalid_i && !arready;
    awaddr_q <= awaddr_i;
    araddr_q <= araddr_i;
    wdata_q  <= wdata_i;
    wstrb_q  <= wstrb_i;
  end
  always @(*) begin
    if (!rst_i && aw_wait_q) assume (awvalid_i && awaddr_i == awaddr_q);
    if (!rst_i && w_wait_q) assume (wvalid_i && wdata_i == wdata_q && wstrb_i == wstrb_q);
    if (!rst_i && ar_wait_q) assume (arvalid_i && araddr_i == araddr_q);
  end

  logic busy_q;  // the kernel works on a batch (take .. done)
  always @(posedge clk_i) begin
    if (rst_i) busy_q <= 1'b0;
    else if (take_i) busy_q <= 1'b1;
    else if (done_i) busy_q <= 1'b0;
  end
  always @(*) begin
    if (take_i) assume (!rst_i && ap_start && !busy_q);
    if (done_i) assume (!rst_i && busy_q && !take_i);
  end

  // ---------------------------------------------------------------------------
  // Slave (assertions)
  // ---------------------------------------------------------------------------
  // Requests taken and not yet answered.
  logic [1:0] aw_out_q, w_out_q, ar_out_q;
  logic aw_hs, w_hs, b_hs, ar_hs, r_hs;
  assign aw_hs = awvalid_i && awready;
  assign w_hs  = wvalid_i && wready;
  assign b_hs  = bvalid && bready_i;
  assign ar_hs = arvalid_i && arready;
  assign r_hs  = rvalid && rready_i;
  always @(posedge clk_i) begin
    if (rst_i) begin
      aw_out_q <= '0;
      w_out_q  <= '0;
      ar_out_q <= '0;
    end else begin
      aw_out_q <= aw_out_q + {1'b0, aw_hs} - {1'b0, b_hs};
      w_out_q  <= w_out_q + {1'b0, w_hs} - {1'b0, b_hs};
      ar_out_q <= ar_out_q + {1'b0, ar_hs} - {1'b0, r_hs};
    end
  end

  logic past_valid_q = 1'b0;  // the previous cycle exists and was out of reset
  always @(posedge clk_i) past_valid_q <= !rst_i;
  logic        bvalid_q, bready_q, rvalid_q, rready_q, aw_hs_q, ar_hs_q, ar_hs_q2;
  logic [1:0]  bresp_q, rresp_q;
  logic [31:0] rdata_q;
  logic        magic_q, magic_q2;
  always @(posedge clk_i) begin
    bvalid_q <= bvalid;
    bready_q <= bready_i;
    bresp_q  <= bresp;
    rvalid_q <= rvalid;
    rready_q <= rready_i;
    rresp_q  <= rresp;
    rdata_q  <= rdata;
    aw_hs_q  <= aw_hs;
    ar_hs_q  <= ar_hs;
    ar_hs_q2 <= ar_hs_q && !rst_i;
    magic_q  <= ar_hs && araddr_i == rac_kernel_regs_pkg::AddrCapMagic;
    magic_q2 <= magic_q;
  end

  always @(posedge clk_i) begin
    if (!rst_i) begin
      // One response per request, one request at a time.
      WriteAnsweredOnce: assert (bvalid == (aw_out_q != 2'd0) && aw_out_q <= 2'd1 && w_out_q == aw_out_q);
      ReadAnsweredOnce:  assert (ar_out_q <= 2'd1 && (!rvalid || ar_out_q == 2'd1));
      BrespOkay: assert (!bvalid || bresp == 2'b00);
      RrespOkay: assert (!rvalid || rresp == 2'b00);
      if (past_valid_q) begin
        // Valid held, payload stable, until ready.
        BHeld: assert (!(bvalid_q && !bready_q) || (bvalid && bresp == bresp_q));
        RHeld: assert (!(rvalid_q && !rready_q) || (rvalid && rdata == rdata_q && rresp == rresp_q));
        WriteAnsweredNext: assert (!aw_hs_q || bvalid);
        ReadPendsOneCycle: assert (rvalid || ar_out_q == 2'd0 || ar_hs_q);
        ReadAnsweredSecond: assert (!ar_hs_q2 || rvalid);
        MagicReads: assert (!magic_q2 || rdata == rac_kernel_regs_pkg::RegMagic);
      end else begin
        NoResponseAfterReset: assert (!bvalid && !rvalid);
      end
    end
  end
endmodule
