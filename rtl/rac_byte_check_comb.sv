// S2 of the check engine, one byte of a line (instantiated per byte): the
// byte's epochs against the thread's clock row, so that S3's rules start
// from registered bits. W_x ≼ C_t and R_x ≼ C_t (FastTrack's epoch order),
// whether W and R are the thread's current epoch, and whether the byte has
// any history. The byte's fields come from rac_line_layout_pkg.
module rac_byte_check_comb #(
  parameter int unsigned NumSlots = 8,
  parameter int unsigned ClkW     = 16,
  parameter int unsigned ReadVcs  = 0,  // the line layout's shape argument
  // Derived
  parameter int unsigned SlotW = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned ByteW = rac_line_layout_pkg::LineByteBits(SlotW, ClkW, ReadVcs),
  parameter int unsigned RowW  = NumSlots * ClkW
) (
  input  logic [ByteW-1:0] byte_i,     // the byte's state
  input  logic [SlotW-1:0] slot_i,     // the thread
  input  logic [ClkW-1:0]  own_clk_i,  // C_t[t]
  input  logic [RowW-1:0]  row_i,      // C_t
  output logic             w_ok_o,     // W ≼ C_t
  output logic             r_ok_o,     // R ≼ C_t
  output logic             same_w_o,   // W is the thread's current epoch
  output logic             same_r_o,   // R is the thread's current epoch
  output logic             set_o       // the byte has history (a free of it changes the line)
);

  localparam int unsigned WSlotLo = rac_line_layout_pkg::LineByteWSlotLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned WClkLo  = rac_line_layout_pkg::LineByteWClockLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned RSlotLo = rac_line_layout_pkg::LineByteRSlotLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned RClkLo  = rac_line_layout_pkg::LineByteRClockLo(SlotW, ClkW, ReadVcs);

  vc_epoch_leq_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_w_ok (
    .epoch_slot_i(byte_i[WSlotLo +: SlotW]),
    .epoch_clk_i(byte_i[WClkLo +: ClkW]),
    .vc_i(row_i), .leq_o(w_ok_o)
  );
  vc_epoch_leq_comb #(.NumLanes(NumSlots), .ClkW(ClkW)) u_r_ok (
    .epoch_slot_i(byte_i[RSlotLo +: SlotW]),
    .epoch_clk_i(byte_i[RClkLo +: ClkW]),
    .vc_i(row_i), .leq_o(r_ok_o)
  );
  assign same_w_o = byte_i[WSlotLo +: SlotW] == slot_i && byte_i[WClkLo +: ClkW] == own_clk_i;
  assign same_r_o = byte_i[RSlotLo +: SlotW] == slot_i && byte_i[RClkLo +: ClkW] == own_clk_i;
  assign set_o    = byte_i != '0;

endmodule
