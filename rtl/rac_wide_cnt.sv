// A wide counter that steps by one in a few logic levels (the kernel's
// 32-bit word and record counts, the 52-bit page of a 64-bit address).
//
// A W-bit +1 is a W-bit carry chain (a 64-bit one is 16 CARRY4 levels).
// Here the value is split into ChunkW-bit chunks, and whether a step
// carries into chunk k (Down: borrows from it) — every bit below the chunk
// all ones (Down: all zeros) — is a registered flag, computed a cycle ahead
// as a compare of the register against a constant: it is what the bits
// below will be after the step. A step is then a ChunkW-bit add of one
// registered bit per chunk. The flags always match the value, so a step may
// come in any cycle, the one after a load included.
//
// zero_o (q_o == 0) and one_o (q_o == 1) are registered the same way, for a
// count that ends at zero without a W-bit compare on its path.
//
// The value has no reset of its own: hold load_i high with rst_i (the reset
// value on value_i); rst_i only disables the assertions.
`include "rac_assert.svh"

module rac_wide_cnt #(
  parameter int unsigned W      = 64,
  parameter int unsigned ChunkW = 16,
  parameter bit          Down   = 1'b0
) (
  input  logic         clk_i,
  input  logic         rst_i,    // assertions only
  input  logic         load_i,   // q := value_i (wins over step_i)
  input  logic [W-1:0] value_i,
  input  logic         step_i,   // q := q + 1 (Down: q - 1), modulo 2^W
  output logic [W-1:0] q_o,
  output logic         zero_o,   // q_o == 0
  output logic         one_o     // q_o == 1
);

  localparam int unsigned Chunks = (W + ChunkW - 1) / ChunkW;
  // The bits below a chunk when a step carries (borrows) across them, and
  // one step before that.
  // (Replicated literals: Yosys 0.23 sizes a '1 inside ?: as one bit.)
  localparam logic [W-1:0] Wrap     = Down ? {W{1'b0}} : {W{1'b1}};
  localparam logic [W-1:0] WrapPrev = Down ? W'(1) : {{(W - 1){1'b1}}, 1'b0};

  logic [W-1:0] q_q;
  logic         zero_q, one_q;

  // ---------------------------------------------------------------------------
  // Chunks and their registered carries
  // ---------------------------------------------------------------------------
  for (genvar k = 0; k < Chunks; k++) begin : g_chunk
    localparam int unsigned Lo = k * ChunkW;
    localparam int unsigned Hi = (Lo + ChunkW > W) ? W : Lo + ChunkW;
    localparam int unsigned N  = Hi - Lo;
    logic carry_q;  // a step changes this chunk
    if (k == 0) begin : g_first
      assign carry_q = 1'b1;
    end else begin : g_rest
      logic carry_r;
      always_ff @(posedge clk_i) begin
        if (load_i) begin
          carry_r <= value_i[Lo-1:0] == Wrap[Lo-1:0];
        end else if (step_i) begin
          carry_r <= q_q[Lo-1:0] == WrapPrev[Lo-1:0];
        end
      end
      assign carry_q = carry_r;
    end
    always_ff @(posedge clk_i) begin
      if (load_i) begin
        q_q[Hi-1:Lo] <= value_i[Hi-1:Lo];
      end else if (step_i) begin
        q_q[Hi-1:Lo] <= Down ? q_q[Hi-1:Lo] - N'(carry_q) : q_q[Hi-1:Lo] + N'(carry_q);
      end
    end
  end

  // ---------------------------------------------------------------------------
  // The ends of a count
  // ---------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (load_i) begin
      zero_q <= value_i == '0;
      one_q <= value_i == W'(1);
    end else if (step_i) begin
      zero_q <= Down ? one_q : q_q == {W{1'b1}};
      one_q <= Down ? q_q == W'(2) : zero_q;
    end
  end

  assign q_o    = q_q;
  assign zero_o = zero_q;
  assign one_o  = one_q;

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
  `RAC_STATIC_ASSERT(WideCntShape, W >= 2 && ChunkW >= 1)
  // The registered ends match the value (out of reset, which loads).
  `RAC_ASSERT(EndsMatchValue, zero_q == (q_q == '0) && one_q == (q_q == W'(1)), clk_i, rst_i)

endmodule
