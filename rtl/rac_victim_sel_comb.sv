// The way a miss evicts: the lowest invalid way if there is one (no
// write-back, no history lost), else the replacement policy's choice.
module rac_victim_sel_comb #(
  parameter int unsigned Ways = 4,
  // Derived
  parameter int unsigned WayW = (Ways > 1) ? $clog2(Ways) : 1
) (
  input  logic [Ways-1:0] valid_i,      // the set's valid bits
  input  logic [WayW-1:0] preferred_i,  // the policy's choice (round-robin pointer or random bits)
  output logic [WayW-1:0] victim_o,
  output logic            free_o        // victim_o is an invalid way
);

  always_comb begin
    free_o   = 1'b0;
    victim_o = (Ways == 1) ? '0 : preferred_i;
    for (int w = Ways - 1; w >= 0; w--) begin
      if (!valid_i[w]) begin
        free_o   = 1'b1;
        victim_o = w[WayW-1:0];
      end
    end
  end

endmodule
