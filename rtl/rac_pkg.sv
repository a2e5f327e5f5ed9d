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
  // 4 is left free: the kernel uses it for its bucket-table spills.
  localparam logic [2:0] EscInSoftware = 3'd0;  // the host owns the line
  localparam logic [2:0] EscReadShare  = 3'd1;  // reads became concurrent and cannot stay on chip: the line goes to the host
  localparam logic [2:0] EscForced     = 3'd2;  // the command asked for it (thread without a slot)
  localparam logic [2:0] EscReclaim    = 3'd3;  // a full free returned a host-owned line to hardware
  localparam logic [2:0] EscReadVcSpill = 3'd5; // a read vector clock left the pool: the host keeps it
  localparam logic [2:0] EscPartialReadVcSpill = 3'd6; // a partial read clock (reads since a spill) left the pool: the host joins it

  // Race kinds of a race record (race_kinds_o, 2 bits per byte): which of
  // the two accesses wrote, the earlier one first.
  localparam logic [1:0] RaceWriteWrite = 2'd0;
  localparam logic [1:0] RaceWriteRead  = 2'd1;  // an earlier write, this read
  localparam logic [1:0] RaceReadWrite  = 2'd2;  // an earlier read, this write

endpackage
