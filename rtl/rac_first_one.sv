// Index of the lowest set bit of in_i (a priority encoder), built as a
// balanced binary tree: ceil(log2(Width)) levels of 2:1 muxes instead of a
// Width-long priority chain. idx_o is 0 when no bit is set (any_o = 0).
`include "rac_assert.svh"

module rac_first_one #(
  parameter  int unsigned Width = 8,
  localparam int unsigned IdxW  = (Width > 1) ? $clog2(Width) : 1
) (
  input  logic [Width-1:0] in_i,
  output logic             any_o,
  output logic [IdxW-1:0]  idx_o
);

  `RAC_STATIC_ASSERT(WidthPositive, Width >= 1)

  // Heap-ordered tree over the input zero-padded to Leaves = 2**IdxW bits:
  // node n has children 2n and 2n+1, leaves are nodes Leaves .. 2*Leaves-1,
  // node 1 is the root. A node at depth d covers 2**(IdxW-d) leaves; its
  // index is relative to its subtree, so each level decides one index bit
  // (bit IdxW-1-d: 0 = the left, lower-indexed, child has a set bit). An
  // empty subtree has index 0.
  localparam int unsigned Leaves = 1 << IdxW;

  logic [2*Leaves-1:0]      node_any;
  logic [2*Leaves*IdxW-1:0] node_idx;

  always_comb begin
    node_any = '0;
    node_idx = '0;
    for (int unsigned l = 0; l < Width; l++) begin
      node_any[Leaves+l] = in_i[l];
    end
    for (int d = IdxW - 1; d >= 0; d--) begin
      for (int unsigned k = 0; k < (1 << d); k++) begin
        node_any[(1 << d) + k] = node_any[2*((1 << d) + k)] || node_any[2*((1 << d) + k) + 1];
        if (node_any[2*((1 << d) + k)]) begin
          node_idx[((1 << d) + k)*IdxW +: IdxW] = node_idx[2*((1 << d) + k)*IdxW +: IdxW];
        end else if (node_any[2*((1 << d) + k) + 1]) begin
          node_idx[((1 << d) + k)*IdxW +: IdxW] = node_idx[(2*((1 << d) + k) + 1)*IdxW +: IdxW];
          node_idx[((1 << d) + k)*IdxW + IdxW - 1 - d] = 1'b1;
        end
      end
    end
  end

  assign any_o = node_any[1];
  assign idx_o = node_idx[1*IdxW +: IdxW];

endmodule
