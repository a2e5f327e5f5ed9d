// Shared constants of the raceaccel check engine.
//
// Reference these as rac_pkg::Name (never `import rac_pkg::*;`: Yosys 0.23
// rejects import). Engine types will be added here; keep entries minimal and
// inside the Verilator 5.006 / Yosys 0.23 common subset.
package rac_pkg;

  // Default vector-clock shape: thread slots (lanes) per vector clock and the
  // width of one lane's clock. Lanes are packed little-endian into flat
  // vectors: lane i is vc[i*ClkW +: ClkW].
  localparam int unsigned DefaultNumLanes = 64;
  localparam int unsigned DefaultClkW     = 32;

  // Escalation reasons of the check engine (esc_reason_o; docs/hardware.md).
  localparam logic [1:0] EscInSoftware = 2'd0;  // the host owns the line
  localparam logic [1:0] EscReadShare  = 2'd1;  // reads became concurrent: the line goes to the host
  localparam logic [1:0] EscForced     = 2'd2;  // the command asked for it (thread without a slot)
  localparam logic [1:0] EscReclaim    = 2'd3;  // a full free returned a host-owned line to hardware

endpackage
