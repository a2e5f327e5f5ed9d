// S3 of the check engine, one byte of a line (instantiated per byte): the
// FastTrack rules of an access on the byte, from the checks S2 registered.
// It gives the byte's state after the access, the race it found (kind and
// the earlier access's epoch), and what the access asks of the line and
// its read clocks (a new clock, a raised lane, the host). The engine
// combines the eight bytes: what it decides for the whole line (a new
// clock, escalation, the shared mask) is decided there.
//
// A byte that raced before is checked no more. Read clocks: a shared byte
// whose clock is on chip (has_clk_i) reads and is checked against it; a
// shared byte without one (LASTWRITE: the clock went to the host) holds in
// R only the latest read since, and a write of it needs the host.
module rac_byte_rules_comb #(
  parameter int unsigned SlotW   = 3,
  parameter int unsigned ClkW    = 16,
  parameter int unsigned ReadVcs = 0,  // the line layout's shape argument
  // Derived
  parameter int unsigned ByteW = rac_line_layout_pkg::LineByteBits(SlotW, ClkW, ReadVcs)
) (
  // The command
  input  logic             access_i,    // the byte is in the command's mask
  input  logic             free_i,      // OpFree
  input  logic             read_i,      // OpRead (else a write)
  input  logic             atomic_i,    // the access part of an atomic operation
  input  logic [SlotW-1:0] slot_i,
  input  logic [ClkW-1:0]  own_clk_i,   // C_t[t]
  // The byte and S2's checks of it
  input  logic [ByteW-1:0] byte_i,
  input  logic             w_ok_i,      // W ≼ C_t
  input  logic             r_ok_i,      // R ≼ C_t
  input  logic             same_w_i,    // W is the thread's current epoch
  input  logic             same_r_i,    // R is the thread's current epoch
  input  logic             shared_i,    // the byte's reads are a read clock's
  // The byte's read clock, when it is on chip
  input  logic             has_clk_i,
  input  logic             clk_same_i,     // its lane of the thread is current
  input  logic             clk_partial_i,  // it holds only the reads since a spill
  input  logic             clk_greater_i,  // some lane exceeds C_t
  input  logic [SlotW-1:0] clk_prev_slot_i,  // the lowest such lane
  input  logic [ClkW-1:0]  clk_prev_clk_i,   // and its clock
  // The outcome
  output logic [ByteW-1:0] byte_o,      // the byte after the rules
  output logic             raced_o,     // a race on the byte now
  output logic [1:0]       kind_o,      // rac_pkg::Race*
  output logic [SlotW-1:0] prev_slot_o, // the earlier access's epoch
  output logic [ClkW-1:0]  prev_clk_o,
  output logic             share_o,     // reads became concurrent [FT READ SHARE]
  output logic             lw_share_o,  // a LASTWRITE byte read concurrently with the read since the spill
  output logic             touch_o,     // the read raises the thread's lane of the byte's clock [FT READ SHARED]
  output logic             lw_esc_o,    // a write needs the reads the host holds
  output logic             unshare_o,   // a write made the shared byte exclusive [FT WRITE SHARED]
  output logic             r_upd_o,     // R replaced [FT READ EXCLUSIVE]
  output logic             w_upd_o      // W replaced
);

  localparam int unsigned RacedBit = rac_line_layout_pkg::LineByteRacedLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned WSlotLo  = rac_line_layout_pkg::LineByteWSlotLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned WClkLo   = rac_line_layout_pkg::LineByteWClockLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned RSlotLo  = rac_line_layout_pkg::LineByteRSlotLo(SlotW, ClkW, ReadVcs);
  localparam int unsigned RClkLo   = rac_line_layout_pkg::LineByteRClockLo(SlotW, ClkW, ReadVcs);

  logic [SlotW-1:0] w_slot, r_slot;
  logic [ClkW-1:0]  w_clk, r_clk;
  assign w_slot = byte_i[WSlotLo +: SlotW];
  assign w_clk  = byte_i[WClkLo +: ClkW];
  assign r_slot = byte_i[RSlotLo +: SlotW];
  assign r_clk  = byte_i[RClkLo +: ClkW];

  always_comb begin
    byte_o = byte_i;
    raced_o = 1'b0;
    kind_o = '0;
    prev_slot_o = '0;
    prev_clk_o = '0;
    share_o = 1'b0;
    lw_share_o = 1'b0;
    touch_o = 1'b0;
    lw_esc_o = 1'b0;
    unshare_o = 1'b0;
    r_upd_o = 1'b0;
    w_upd_o = 1'b0;
    if (access_i) begin
      if (free_i) begin
        byte_o = '0;
      end else if (!byte_i[RacedBit]) begin
        if (read_i && atomic_i) begin
          // An atomic read: the last plain write only; no R update.
          if (!w_ok_i) begin
            raced_o = 1'b1;
            kind_o = rac_pkg::RaceWriteRead;
            prev_slot_o = w_slot;
            prev_clk_o = w_clk;
          end
        end else if (read_i) begin
          if (has_clk_i) begin
            if (clk_same_i) begin
              // [FT READ SAME EPOCH]
            end else if (!w_ok_i) begin
              raced_o = 1'b1;
              kind_o = rac_pkg::RaceWriteRead;
              prev_slot_o = w_slot;
              prev_clk_o = w_clk;
            end else begin
              touch_o = 1'b1;  // [FT READ SHARED]
            end
          end else if (same_r_i) begin
            // [FT READ SAME EPOCH]
          end else if (!w_ok_i) begin
            raced_o = 1'b1;
            kind_o = rac_pkg::RaceWriteRead;
            prev_slot_o = w_slot;
            prev_clk_o = w_clk;
          end else if (r_ok_i) begin
            // [FT READ EXCLUSIVE] (on a LASTWRITE shared byte: the latest
            // read since the clock left)
            byte_o[RSlotLo +: SlotW] = slot_i;
            byte_o[RClkLo +: ClkW] = own_clk_i;
            r_upd_o = 1'b1;
          end else if (shared_i) begin
            // Concurrent with a read since the spill: with one way the
            // host joins them; with several they start a partial clock.
            lw_share_o = 1'b1;
          end else begin
            share_o = 1'b1;  // [FT READ SHARE]
          end
        end else begin
          // An atomic write (a store or RMW) makes every check a write
          // makes (its own earlier write passes the W check) and changes
          // nothing but the raced flag.
          if (same_w_i && !atomic_i) begin
            // [FT WRITE SAME EPOCH]
          end else if (!w_ok_i) begin
            raced_o = 1'b1;
            kind_o = rac_pkg::RaceWriteWrite;
            prev_slot_o = w_slot;
            prev_clk_o = w_clk;
          end else if (shared_i && (!has_clk_i || clk_partial_i)) begin
            lw_esc_o = 1'b1;  // LASTWRITE (or only the reads since): the earlier reads are with the host
          end else if (shared_i && clk_greater_i) begin
            raced_o = 1'b1;
            kind_o = rac_pkg::RaceReadWrite;
            prev_slot_o = clk_prev_slot_i;
            prev_clk_o = clk_prev_clk_i;
          end else if (!shared_i && !r_ok_i) begin
            raced_o = 1'b1;
            kind_o = rac_pkg::RaceReadWrite;
            prev_slot_o = r_slot;
            prev_clk_o = r_clk;
          end else if (!atomic_i) begin
            // [FT WRITE EXCLUSIVE], or [FT WRITE SHARED] (R := ⊥)
            w_upd_o = 1'b1;
            byte_o[WSlotLo +: SlotW] = slot_i;
            byte_o[WClkLo +: ClkW] = own_clk_i;
            if (shared_i) begin
              unshare_o = 1'b1;
              byte_o[RSlotLo +: SlotW] = '0;
              byte_o[RClkLo +: ClkW] = '0;
            end
          end
        end
        if (raced_o) byte_o[RacedBit] = 1'b1;
      end
    end
  end

endmodule
