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

endpackage
