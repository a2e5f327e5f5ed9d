// The status rules of rac_line_status_comb, for every input (yosys `sat`):
// the hardware decides exactly the commands whose line is on chip with
// epochs enough; an INSOFTWARE line changes status only by a full free; a
// full free always returns the line to hardware.
module rac_line_status_comb_props (
  input logic insoftware_i,
  input logic full_free_i,
  input logic force_i,
  input logic need_share_i
);

  logic       escalate, to_software, clear;
  logic [2:0] reason;

  rac_line_status_comb u_dut (
    .insoftware_i (insoftware_i),
    .full_free_i  (full_free_i),
    .force_i      (force_i),
    .need_share_i (need_share_i),
    .escalate_o   (escalate),
    .reason_o     (reason),
    .to_software_o(to_software),
    .clear_o      (clear)
  );

  logic insoftware_after;
  assign insoftware_after = !clear && (to_software || insoftware_i);

`ifdef FORMAL
  always_comb begin
    // Never claims more than is on chip: an INSOFTWARE line is escalated
    // unless a full free returns it.
    InSoftwareEscalated: assert (!(insoftware_i && !full_free_i) || escalate);
    // Decides what it can: on-chip state, a slot, epochs enough.
    DecidesOnChip: assert (!(!insoftware_i && !full_free_i && !force_i && !need_share_i) || !escalate);
    ForcedEscalated: assert (!(force_i && !full_free_i) || (escalate && reason == rac_pkg::EscForced));
    ShareEscalated: assert (!(need_share_i && !full_free_i) || escalate);
    // Only a full free leaves INSOFTWARE; it always yields an empty line.
    NoUpgradeButFree: assert (!(insoftware_i && !insoftware_after) || full_free_i);
    FreeClears: assert (full_free_i == clear && (!full_free_i || !insoftware_after));
    // The host hears of a reclaim exactly when it owned the line.
    ReclaimTold: assert (!full_free_i || (escalate == insoftware_i && (!escalate || reason == rac_pkg::EscReclaim)));
    // Escalated non-free commands leave the line in software.
    EscalatedToSoftware: assert (!(escalate && !full_free_i) || insoftware_after);
    NotBoth: assert (!(clear && to_software));
  end
`endif

endmodule
