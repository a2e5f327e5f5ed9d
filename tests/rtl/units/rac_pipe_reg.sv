// Valid/ready pipeline of Depth register stages (Depth = 0: wires).
//
// Each stage is a plain pipeline register that stalls on back-pressure:
// it accepts when it is empty or when the next stage accepts
// (ready = !valid_q || ready_next), so a full pipeline moves one beat per
// cycle, and a stalled output holds valid_o and data_o. Only the valid bits
// are reset; data registers load on a handshake only.
//
// The ready path is combinational through all stages (no skid buffer): keep
// Depth small, or cut long ready chains elsewhere.
`include "rac_assert.svh"

module rac_pipe_reg #(
  parameter int unsigned Width = 1,
  parameter int unsigned Depth = 1
) (
  input  logic             clk_i,
  input  logic             rst_i,

  input  logic             valid_i,
  output logic             ready_o,
  input  logic [Width-1:0] data_i,

  output logic             valid_o,
  input  logic             ready_i,
  output logic [Width-1:0] data_o
);

  `RAC_STATIC_ASSERT(WidthPositive, Width >= 1)

  if (Depth == 0) begin : g_wires
    assign valid_o = valid_i;
    assign ready_o = ready_i;
    assign data_o  = data_i;
  end else begin : g_stages
    // Stage s sits between link s (its input) and link s+1 (its output).
    // split_var: each link_ready bit depends on the next one; without the
    // split, the Verilator scheduler sees a combinational loop (UNOPTFLAT).
    logic [Depth:0]             link_valid;
    logic [Depth:0]             link_ready /* verilator split_var */;
    logic [(Depth+1)*Width-1:0] link_data;

    assign link_valid[0]         = valid_i;
    assign link_data[0 +: Width] = data_i;
    assign ready_o               = link_ready[0];
    assign valid_o               = link_valid[Depth];
    assign data_o                = link_data[Depth*Width +: Width];
    assign link_ready[Depth]     = ready_i;

    for (genvar s = 0; s < Depth; s++) begin : g_stage
      logic             valid_q;
      logic [Width-1:0] data_q;

      assign link_ready[s] = !valid_q || link_ready[s+1];

      always_ff @(posedge clk_i) begin
        if (rst_i) begin
          valid_q <= 1'b0;
        end else if (link_ready[s]) begin
          valid_q <= link_valid[s];
        end
      end

      always_ff @(posedge clk_i) begin
        if (link_valid[s] && link_ready[s]) begin
          data_q <= link_data[s*Width +: Width];
        end
      end

      assign link_valid[s+1]                 = valid_q;
      assign link_data[(s+1)*Width +: Width] = data_q;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  // A stalled output holds its beat (with Depth = 0 that is the upstream's
  // obligation, checked where the upstream is a primary input).
  if (Depth > 0) begin : g_assert_held
    `RAC_ASSERT_NEXT(OutValidHeld, valid_o && !ready_i, valid_o, clk_i, rst_i)
    `RAC_ASSERT_STABLE(OutDataHeld, valid_o && !ready_i, data_o, clk_i, rst_i)
  end

endmodule
