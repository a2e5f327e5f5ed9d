// Formal harness of the record writer (rac_record_writer) as the escalation
// writer of an 8 x 32 kernel with a pool (192-byte records: three beats, a
// record split into single beats where it crosses 4 KB): the AXI4 master
// rules of axi4_master_checker (AW and W held, bursts within 4 KB, WLAST
// exactly on each burst's last beat, the slave's B responses after the last
// data as assumptions with BRESP free), the writer's own assertions, and:
//   IdleOnlyWhenAnswered: idle_o only when every burst has its B response
//     (the kernel ends a batch on idle: the records are in memory).
// Assumed: reset first; start only when idle with no record offered; a
// record offered only while the buffer has room (the kernel's check); only
// the low byte of each record beat free.
module rac_record_writer_props (
  input logic          clk_i,
  input logic          rst_i,
  input logic          start_i,
  input logic [63:0]   base_i,
  input logic [31:0]   capacity_i,
  input logic          rec_valid_i,
  input logic [1535:0] rec_data_i,
  input logic          awready_i,
  input logic          wready_i,
  input logic          bvalid_i,
  input logic [1:0]    bresp_i
);
  logic         idle, rec_ready, awvalid, wvalid, wlast, bready, bus_error;
  logic [31:0]  count;
  logic [63:0]  awaddr, wstrb;
  logic [7:0]   awlen;
  logic [511:0] wdata;

  rac_record_writer #(.RecBytes(192)) dut (
    .clk_i, .rst_i, .start_i, .base_i, .capacity_i, .count_o(count), .idle_o(idle),
    .rec_valid_i, .rec_ready_o(rec_ready), .rec_data_i,
    .awvalid_o(awvalid), .awready_i, .awaddr_o(awaddr), .awlen_o(awlen),
    .wvalid_o(wvalid), .wready_i, .wdata_o(wdata), .wstrb_o(wstrb), .wlast_o(wlast),
    .bvalid_i, .bready_o(bready), .bresp_i, .bus_error_o(bus_error)
  );

  logic [7:0] writes_owed;
  axi4_master_checker #(.HasRead(0), .HasWrite(1), .MaxLen(3), .Depth(4)) axi (
    .clk_i, .rst_i,
    .arvalid(1'b0), .arready(1'b0), .araddr('0), .arlen('0), .rvalid(1'b0), .rready(1'b0), .rdata('0),
    .rlast(1'b0), .rresp('0),
    .awvalid, .awready(awready_i), .awaddr, .awlen, .wvalid, .wready(wready_i), .wdata, .wstrb, .wlast,
    .bvalid(bvalid_i), .bready, .bresp(bresp_i),
    .reads_owed_o(), .writes_owed_o(writes_owed)
  );

  logic first_q = 1'b1;
  always @(posedge clk_i) first_q <= 1'b0;
  always @(*) begin
    if (first_q) assume (rst_i);
    if (!rst_i && start_i) assume (base_i[5:0] == 6'd0);
    if (!rst_i && rec_valid_i) assume (count < capacity_i);
    // Only the low byte of each beat is free: enough to tell the beats and
    // records apart (WHeld, the order of the beats), and it keeps the SAT
    // problem small (the full 1,536 bits took 5 min of CPU at depth 12).
    for (int b = 0; b < 3; b++) assume (rec_data_i[b*512 + 8 +: 504] == '0);
  end

  always @(posedge clk_i) begin
    if (!rst_i) begin
      IdleOnlyWhenAnswered: assert (!idle || writes_owed == 8'd0);
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{rec_ready, bus_error};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
