// The command FIFO between rac_cmd_decoder and rac_check_engine: the
// decoder keeps decoding while the engine waits on a miss, so the commands
// in here are the look-ahead window of the miss-ahead prefetcher
// (rac_miss_ahead watches them as they enter). First word through, valid/
// ready on both sides; Depth a power of two. The payload is opaque.
`include "rac_assert.svh"

module rac_cmd_fifo #(
  parameter int unsigned Width = 8,
  parameter int unsigned Depth = 64
) (
  input  logic             clk_i,
  input  logic             rst_i,
  input  logic             in_valid_i,
  output logic             in_ready_o,
  input  logic [Width-1:0] in_data_i,
  output logic             out_valid_o,
  input  logic             out_ready_i,
  output logic [Width-1:0] out_data_o,
  output logic             empty_o
);
  localparam int unsigned PtrW = $clog2(Depth);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  rd_q, wr_q;
  logic [PtrW:0]    count_q;

  logic push, pop;
  assign push        = in_valid_i && in_ready_o;
  assign pop         = out_valid_o && out_ready_i;
  assign in_ready_o  = count_q != (PtrW + 1)'(Depth);
  assign out_valid_o = count_q != '0;
  assign out_data_o  = mem_q[rd_q];
  assign empty_o     = count_q == '0;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rd_q <= '0;
      wr_q <= '0;
      count_q <= '0;
    end else begin
      if (push) wr_q <= wr_q + PtrW'(1);
      if (pop) rd_q <= rd_q + PtrW'(1);
      count_q <= count_q + (PtrW + 1)'(push) - (PtrW + 1)'(pop);
    end
  end
  always_ff @(posedge clk_i) if (push) mem_q[wr_q] <= in_data_i;

  `RAC_STATIC_ASSERT(DepthPowerOfTwo, Depth >= 2 && (Depth & (Depth - 1)) == 0)
  `RAC_ASSERT(NoOverflow, !(in_valid_i && !in_ready_o && count_q == '0), clk_i, rst_i)
endmodule
