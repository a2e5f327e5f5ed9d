// Whether one command goes to the host, and what it does to its line's
// INSOFTWARE bit (RADISH's in-hardware status, docs/hardware.md "Status
// rules"; EVERYTHING versus LASTWRITE is decided in the engine).
//
// The hardware decides a command only when the line's exact state is on
// chip and the command needs nothing more. Otherwise the command is
// escalated, and the line goes to (or stays in) software:
//   full free       the line returns to hardware empty (⊥, EVERYTHING); if the
//                   host owned it, a Reclaim tells the host to drop its copy
//   forced          the thread has no slot: escalate (Forced)
//   INSOFTWARE      the host owns the line: escalate (InSoftware)
//   read share      the command needs read history the chip does not hold
//                   (reads became concurrent and the read-VC pool cannot
//                   keep them, or a LASTWRITE line's reads are in
//                   software): the line is handed to the host (ReadShare)
// A line never moves from INSOFTWARE back to EVERYTHING except by a full
// free, so a stale software state is never re-imported (RADISH §2.14).
module rac_line_status_comb (
  input  logic       insoftware_i,   // the line's status bit before the command
  input  logic       full_free_i,    // the command frees all 8 bytes
  input  logic       force_i,        // the command must be escalated
  input  logic       need_share_i,   // the command needs read history the chip does not hold
  output logic       escalate_o,     // the host checks this command
  output logic [2:0] reason_o,       // rac_pkg::Esc*
  output logic       to_software_o,  // the line's status after: INSOFTWARE
  output logic       clear_o         // the line after: all zero (EVERYTHING, no history)
);

  always_comb begin
    escalate_o = 1'b0;
    reason_o   = rac_pkg::EscInSoftware;
    if (full_free_i) begin
      escalate_o = insoftware_i;
      reason_o   = rac_pkg::EscReclaim;
    end else if (force_i) begin
      escalate_o = 1'b1;
      reason_o   = rac_pkg::EscForced;
    end else if (insoftware_i) begin
      escalate_o = 1'b1;
      reason_o   = rac_pkg::EscInSoftware;
    end else if (need_share_i) begin
      escalate_o = 1'b1;
      reason_o   = rac_pkg::EscReadShare;
    end
  end

  assign clear_o       = full_free_i;
  assign to_software_o = !full_free_i && escalate_o;

endmodule
