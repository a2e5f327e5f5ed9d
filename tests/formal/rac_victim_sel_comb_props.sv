// Victim selection (yosys `sat`, every input): a free way whenever one
// exists, the lowest such way, and otherwise exactly the policy's choice.
module rac_victim_sel_comb_props #(
  parameter int unsigned Ways = 4,
  parameter int unsigned WayW = (Ways > 1) ? $clog2(Ways) : 1
) (
  input logic [Ways-1:0] valid_i,
  input logic [WayW-1:0] preferred_i
);

  logic [WayW-1:0] victim;
  logic            free;

  rac_victim_sel_comb #(.Ways(Ways)) u_dut (
    .valid_i    (valid_i),
    .preferred_i(preferred_i),
    .victim_o   (victim),
    .free_o     (free)
  );

  logic [Ways-1:0] below;  // the ways below the victim
  always_comb begin
    for (int w = 0; w < Ways; w++) below[w] = w < victim;
  end

`ifdef FORMAL
  always_comb begin
    FreeIffInvalidWay: assert (free == !(&valid_i));
    FreeWayIsInvalid: assert (!free || !valid_i[victim]);
    LowestFreeWay: assert (!free || (below & ~valid_i) == '0);
    PolicyWhenFull: assert (free || Ways == 1 || victim == preferred_i);
    InRange: assert (victim < Ways);
  end
`endif

endmodule
