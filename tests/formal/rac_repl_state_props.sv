// Replacement state (yosys-smtbmc: BMC and k-induction). Round-robin: the
// pointer of every set counts that set's advances modulo Ways, so Ways
// evictions from a full set visit every way once; other sets are
// untouched. LFSR: never zero. Checked on a tracked set chosen freely.
`include "rac_assert.svh"

module rac_repl_state_props #(
  parameter int unsigned Sets       = 4,
  parameter int unsigned Ways       = 4,
  parameter int unsigned ReplPolicy = 0,
  parameter int unsigned SetW = (Sets > 1) ? $clog2(Sets) : 1,
  parameter int unsigned WayW = (Ways > 1) ? $clog2(Ways) : 1
) (
  input logic            clk_i,
  input logic            rst_i,
  input logic [SetW-1:0] choice_set_i,
  input logic [SetW-1:0] set_i,
  input logic            advance_i,
  input logic [SetW-1:0] tracked_i  // the set the properties follow (held constant)
);

  logic [WayW-1:0]        choice;
  logic [16+Sets*WayW-1:0] state;

  rac_repl_state #(.Sets(Sets), .Ways(Ways), .ReplPolicy(ReplPolicy)) u_dut (
    .clk_i    (clk_i),
    .rst_i    (rst_i),
    .choice_set_i(choice_set_i),
    .choice_o    (choice),
    .set_i       (set_i),
    .advance_i   (advance_i),
    .state_o     (state)
  );

  // Reference: advances of the tracked set, modulo Ways.
  logic [WayW-1:0] count_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) count_q <= '0;
    else if (advance_i && set_i == tracked_i) count_q <= count_q + 1'b1;
  end

`ifdef FORMAL
  initial assume (rst_i);
  logic [SetW-1:0] tracked_q;
  always @(posedge clk_i) begin
    tracked_q <= tracked_i;
    if (!$initstate) TrackedFixed: assume (tracked_i == tracked_q);
    if (!rst_i && ReplPolicy == 0 && Ways > 1) begin
      RoundRobinCounts: assert (state[tracked_i*WayW +: WayW] == count_q);
      ChoiceIsPointer: assert (!(choice_set_i == tracked_i) || choice == count_q);
    end
    if (!rst_i && ReplPolicy == 1) LfsrNonZero: assert (state[Sets*WayW +: 16] != 16'h0);
  end
`endif

endmodule
