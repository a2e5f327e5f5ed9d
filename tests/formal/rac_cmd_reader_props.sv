// Formal harness of the command reader (rac_cmd_reader) on m_axi_cmd: the
// AXI4 master rules of axi4_master_checker (requests held, bursts within
// 4 KB and MaxBurst, the slave's R beats as assumptions with RRESP free, so
// error responses included), the reader's own assertions, and:
//   IdleOnlyWhenNothingOwed: idle_o only when every requested beat has
//     arrived (the kernel ends a batch on idle: no beat may still come).
// Assumed: reset first; start only when idle; base 16-byte aligned (the
// kernel's argument check). A small shape: a 4-beat FIFO, 2-beat bursts.
module rac_cmd_reader_props (
  input logic         clk_i,
  input logic         rst_i,
  input logic         start_i,
  input logic [63:0]  base_i,
  input logic [31:0]  words_i,
  input logic         stop_i,
  input logic         word_ready_i,
  input logic         arready_i,
  input logic         rvalid_i,
  input logic [511:0] rdata_i,
  input logic         rlast_i,
  input logic [1:0]   rresp_i
);
  logic         idle, word_valid, arvalid, rready, bus_error;
  logic [127:0] word;
  logic [63:0]  araddr;
  logic [7:0]   arlen;

  rac_cmd_reader #(.FifoDepth(4), .MaxBurst(2)) dut (
    .clk_i, .rst_i, .start_i, .base_i, .words_i, .stop_i, .idle_o(idle),
    .word_valid_o(word_valid), .word_ready_i, .word_o(word),
    .arvalid_o(arvalid), .arready_i, .araddr_o(araddr), .arlen_o(arlen),
    .rvalid_i, .rready_o(rready), .rdata_i, .rlast_i, .rresp_i, .bus_error_o(bus_error)
  );

  logic [15:0] reads_owed;
  axi4_master_checker #(.HasRead(1), .HasWrite(0), .MaxLen(2), .Depth(4)) axi (
    .clk_i, .rst_i,
    .arvalid, .arready(arready_i), .araddr, .arlen,
    .rvalid(rvalid_i), .rready, .rdata(rdata_i), .rlast(rlast_i), .rresp(rresp_i),
    .awvalid(1'b0), .awready(1'b0), .awaddr('0), .awlen('0), .wvalid(1'b0), .wready(1'b0), .wdata('0),
    .wstrb('0), .wlast(1'b0), .bvalid(1'b0), .bready(1'b0), .bresp('0),
    .reads_owed_o(reads_owed), .writes_owed_o()
  );

  logic first_q = 1'b1;
  always @(posedge clk_i) first_q <= 1'b0;
  always @(*) begin
    if (first_q) assume (rst_i);
    if (!rst_i && start_i) assume (idle && base_i[3:0] == 4'd0);
  end

  always @(posedge clk_i) begin
    if (!rst_i) begin
      IdleOnlyWhenNothingOwed: assert (!idle || reads_owed == 16'd0);
    end
  end

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused;
  assign unused = ^{word_valid, word, bus_error};
  /* verilator lint_on UNUSEDSIGNAL */
endmodule
