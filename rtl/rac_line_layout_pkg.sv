// GENERATED from rtl/regmap/rac_kernel_regs.json ("line") by cmake/gen_regmap.cmake. Do not edit.
// The line record's layout: bit offsets and widths for any shape.
// Reference as rac_line_layout_pkg::Name (no import: Yosys 0.23).
// Every function takes all three shape arguments, used or not; models
// that read the package without using all of it stay lint-clean.
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */
package rac_line_layout_pkg;

  // INSOFTWARE: the host owns the line: offset
  function automatic int unsigned LineInSoftwareLo(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineInSoftwareLo = 0;
  endfunction

  // INSOFTWARE: the host owns the line: width
  function automatic int unsigned LineInSoftwareBits(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineInSoftwareBits = 1;
  endfunction

  // byte record: a race on this byte was reported, offset in the record
  function automatic int unsigned LineByteRacedLo(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteRacedLo = 0;
  endfunction

  // byte record: a race on this byte was reported, width
  function automatic int unsigned LineByteRacedBits(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteRacedBits = 1;
  endfunction

  // byte record: last write: slot, offset in the record
  function automatic int unsigned LineByteWSlotLo(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteWSlotLo = 1;
  endfunction

  // byte record: last write: slot, width
  function automatic int unsigned LineByteWSlotBits(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteWSlotBits = slot_bits;
  endfunction

  // byte record: last write: clock, offset in the record
  function automatic int unsigned LineByteWClockLo(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteWClockLo = 1 + slot_bits;
  endfunction

  // byte record: last write: clock, width
  function automatic int unsigned LineByteWClockBits(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteWClockBits = clock_bits;
  endfunction

  // byte record: last read: slot, offset in the record
  function automatic int unsigned LineByteRSlotLo(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteRSlotLo = 1 + slot_bits + clock_bits;
  endfunction

  // byte record: last read: slot, width
  function automatic int unsigned LineByteRSlotBits(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteRSlotBits = slot_bits;
  endfunction

  // byte record: last read: clock, offset in the record
  function automatic int unsigned LineByteRClockLo(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteRClockLo = 1 + slot_bits + clock_bits + slot_bits;
  endfunction

  // byte record: last read: clock, width
  function automatic int unsigned LineByteRClockBits(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteRClockBits = clock_bits;
  endfunction

  // bits of one byte record
  function automatic int unsigned LineByteBits(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteBits = 1 + slot_bits + clock_bits + slot_bits + clock_bits;
  endfunction

  localparam int unsigned LineByteCount = 8;  // byte records per line

  // the state of byte b of the granule (record k at lo + k * line_byte_bits): offset
  function automatic int unsigned LineByteLo(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineByteLo = 1;
  endfunction

  // bytes whose reads are the line's read clock (read-VC pool) (0 bits without a read-VC pool): offset
  function automatic int unsigned LineSharedLo(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineSharedLo = 1 + 8 * (1 + slot_bits + clock_bits + slot_bits + clock_bits);
  endfunction

  // bytes whose reads are the line's read clock (read-VC pool) (0 bits without a read-VC pool): width
  function automatic int unsigned LineSharedBits(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineSharedBits = (read_vcs > 0 ? 8 : 0);
  endfunction

  // bits of one line record (cap_line_bits)
  function automatic int unsigned LineBits(input int unsigned slot_bits, input int unsigned clock_bits, input int unsigned read_vcs);
    LineBits = 1 + 8 * (1 + slot_bits + clock_bits + slot_bits + clock_bits) + (read_vcs > 0 ? 8 : 0);
  endfunction

endpackage
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
