// Formal harness of the metadata port (rac_meta_port) on m_axi_meta, with
// one-way buckets and a 64-bit line, two miss-ahead entries and free hints
// and flushes (so up to three bucket reads in flight on one ID, and posted
// bucket writes): the AXI4 master rules of
// axi4_master_checker on both the read and the write channels (requests and
// W beats held, bursts within 4 KB, WLAST on each burst's last beat; the
// slave's R and B responses as assumptions, RRESP and BRESP free), the
// port's own assertions, and:
//   IdleOnlyWhenNothingOwed: idle_o (ready for the engine's next request)
//     only when no read beat and no B response is outstanding.
// Assumed: reset first; the table base 4 KB aligned and bucket_bits in
// range (the kernel's argument check); the engine's request rules are the
// port's own RAC_ASSUMEs.
module rac_meta_port_props (
  input logic         clk_i,
  input logic         rst_i,
  input logic [63:0]  base_i,
  input logic [4:0]   bucket_bits_i,
  input logic         req_valid_i,
  input logic         req_write_i,
  input logic [60:0]  req_granule_i,
  input logic [63:0]  req_data_i,
  input logic [31:0]  req_seq_i,
  input logic         hint_valid_i,
  input logic [60:0]  hint_granule_i,
  input logic [31:0]  hint_seq_i,
  input logic         flush_i,
  input logic [31:0]  passed_seq_i,
  input logic         spill_ready_i,
  input logic         arready_i,
  input logic         rvalid_i,
  input logic [511:0] rdata_i,
  input logic         rlast_i,
  input logic [1:0]   rresp_i,
  input logic         awready_i,
  input logic         wready_i,
  input logic         bvalid_i,
  input logic [1:0]   bresp_i
);
  logic         req_ready, wack, rsp_valid, spill_valid, idle, bus_error, hint_room;
  logic         arvalid, rready, awvalid, wvalid, wlast, bready;
  logic [63:0]  araddr, awaddr, wstrb, rsp_data, spill_line, spills, prefetch_hits;
  logic [7:0]   arlen, awlen;
  logic [511:0] wdata;
  logic [31:0]  spill_seq;
  logic [60:0]  spill_granule;

  rac_meta_port #(.LineW(64), .GranW(61), .SeqW(32), .BucketWays(1), .PrefetchEntries(2), .HintQueue(2)) dut (
    .clk_i, .rst_i, .base_i, .bucket_bits_i,
    .hint_valid_i, .hint_granule_i, .hint_seq_i, .flush_i, .passed_seq_i, .hint_room_o(hint_room),
    .stat_prefetch_hits_o(prefetch_hits),
    .req_valid_i, .req_ready_o(req_ready), .req_write_i, .req_granule_i, .req_data_i, .req_seq_i,
    .wack_o(wack), .rsp_valid_o(rsp_valid), .rsp_data_o(rsp_data),
    .spill_valid_o(spill_valid), .spill_ready_i, .spill_seq_o(spill_seq), .spill_granule_o(spill_granule),
    .spill_line_o(spill_line), .stat_spills_o(spills), .idle_o(idle),
    .arvalid_o(arvalid), .arready_i, .araddr_o(araddr), .arlen_o(arlen),
    .rvalid_i, .rready_o(rready), .rdata_i, .rlast_i,
    .awvalid_o(awvalid), .awready_i, .awaddr_o(awaddr), .awlen_o(awlen),
    .wvalid_o(wvalid), .wready_i, .wdata_o(wdata), .wstrb_o(wstrb), .wlast_o(wlast),
    .bvalid_i, .bready_o(bready), .rresp_i, .bresp_i, .bus_error_o(bus_error)
  );

  logic [15:0] reads_owed;
  logic [7:0]  writes_owed;
  axi4_master_checker #(.HasRead(1), .HasWrite(1), .MaxLen(2), .Depth(4)) axi (
    .clk_i, .rst_i,
    .arvalid, .arready(arready_i), .araddr, .arlen, .rvalid(rvalid_i), .rready, .rdata(rdata_i),
    .rlast(rlast_i), .rresp(rresp_i),
    .awvalid, .awready(awready_i), .awaddr, .awlen, .wvalid, .wready(wready_i), .wdata, .wstrb, .wlast,
    .bvalid(bvalid_i), .bready, .bresp(bresp_i),
    .reads_owed_o(reads_owed), .writes_owed_o(writes_owed)
  );

  logic first_q = 1'b1;
  always @(posedge clk_i) first_q <= 1'b0;
  always @(*) begin
    if (first_q) assume (rst_i);
    assume (base_i[11:0] == 12'd0 && bucket_bits_i >= 5'd1 && bucket_bits_i <= 5'd30);
  end
  logic [63:0] base_q;
  logic [4:0]  bits_q;
  always @(posedge clk_i) begin
    base_q <= base_i;
    bits_q <= bucket_bits_i;
  end
  always @(*) if (!first_q) assume (base_i == base_q && bucket_bits_i == bits_q);  // stable during a batch

  always @(posedge clk_i) begin
    if (!rst_i) begin
      IdleOnlyWhenNothingOwed: assert (!idle || (reads_owed == 16'd0 && writes_owed == 8'd0));
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{req_ready, wack, rsp_valid, rsp_data, spill_valid, spill_seq, spill_granule, spill_line, spills,
                    bus_error, prefetch_hits, hint_room};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
