// Replacement state of the metadata cache: a round-robin pointer per set
// (ReplPolicy 0) or one 16-bit LFSR shared by all sets (ReplPolicy 1).
// choice_o is the policy's candidate for choice_set_i (the engine chooses
// a victim for the command entering S1, a stage before any miss of it);
// advance_i (a miss that evicts a valid way of set_i) moves that set's
// pointer past its choice.
`include "rac_assert.svh"

module rac_repl_state #(
  parameter int unsigned Sets       = 64,
  parameter int unsigned Ways       = 4,
  parameter int unsigned ReplPolicy = 0,
  // Derived
  parameter int unsigned SetW = (Sets > 1) ? $clog2(Sets) : 1,
  parameter int unsigned WayW = (Ways > 1) ? $clog2(Ways) : 1
) (
  input  logic            clk_i,
  input  logic            rst_i,
  input  logic [SetW-1:0] choice_set_i,
  output logic [WayW-1:0] choice_o,
  input  logic [SetW-1:0] set_i,
  input  logic            advance_i,
  // The whole state, {LFSR, pointer of set Sets-1, ..., pointer of set 0},
  // for formal harnesses (Yosys 0.23 has no hierarchical references).
  output logic [16+Sets*WayW-1:0] state_o
);

  // Flops, not RAM: all pointers reset at once.
  logic [Sets*WayW-1:0] rr_q;
  logic [15:0]          lfsr_q;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      lfsr_q <= 16'hACE1;
      rr_q   <= '0;
    end else begin
      // x^16 + x^14 + x^13 + x^11 + 1: maximal length, never reaches zero
      lfsr_q <= {lfsr_q[14:0], lfsr_q[15] ^ lfsr_q[13] ^ lfsr_q[12] ^ lfsr_q[10]};
      // Each set's pointer steps from its own value: no read through a
      // Sets-wide mux before the increment.
      for (int s = 0; s < Sets; s++) begin
        if (advance_i && ReplPolicy == 0 && set_i == s[SetW-1:0]) rr_q[s*WayW +: WayW] <= rr_q[s*WayW +: WayW] + 1'b1;
      end
    end
  end

  assign choice_o = (Ways == 1) ? '0 : (ReplPolicy == 0) ? rr_q[choice_set_i*WayW +: WayW] : lfsr_q[WayW-1:0];
  assign state_o  = {lfsr_q, rr_q};

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
  `RAC_STATIC_ASSERT(KnownPolicy, ReplPolicy <= 1)
  // A zero LFSR would choose way 0 forever.
  `RAC_ASSERT(LfsrNeverZero, lfsr_q != '0, clk_i, rst_i)

endmodule
