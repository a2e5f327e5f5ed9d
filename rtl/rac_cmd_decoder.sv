// Command-word decoder of rac_kernel: turns the batch's 16-byte command
// words (docs/kernel-interface.md) into check-engine commands, in order.
//
// - read/write/free/acquire/release words become one engine command each,
//   with the word's index in the batch as the command's sequence number;
// - a set-row or load-object word is followed by RowWords data words that
//   are assembled into the clock (lane i = bits [i*ClkW, (i+1)*ClkW) of the
//   data words taken as one little-endian bit string) before the command is
//   issued;
// - an import-line word (op 7) is followed by LineWords data words holding
//   the line (the same little-endian bit string) and, when its mask (the
//   line's shared bytes) is not zero, by RowWords words holding the read
//   clock; the command carries both (cmd_line_o, cmd_row_o; a clock of
//   zeros without shared bytes) with the word's granule and mask;
// - with ReadVcWays > 1, an import-read-clock word (op 8) is followed by
//   RowWords words holding a clock; it goes to the engine as an import-line
//   command with cmd_atomic_o set (the engine's mark for op 8) and the
//   clock on cmd_row_o; a zero mask is status 1 (the state-dependent parts
//   of op 8's contract — bytes already shared, no way left — are the
//   host's to keep: docs/kernel-interface.md);
// - a reserved op, an import with a nonzero mask on a kernel without a
//   read-VC pool, a slot >= NumSlots, or an object index (the whole granule
//   field of ops 4-6) >= Objects ends the batch at that word (status 1,
//   words_done = its index, stop_o asks the reader to stop); a batch that
//   ends inside a set-row's, load-object's or import's data words ends with
//   status 3 and words_done = that command's index;
// - zero_rows_i (and reset) issues a zero set-row for every slot and a zero
//   load-object for every sync object: the thread clock rows and the object
//   store are RAM without reset, and the contract starts them at zero.
// - abort_i (the kernel saw a bus error) ends the batch at the next word:
//   no further word is taken, and once the command in the output register
//   has been handed over done_o rises with words_done = the words consumed
//   (status is left to the kernel, which reports the bus error).
// done_o rises when the batch's last command has been handed to the engine.
`include "rac_assert.svh"

module rac_cmd_decoder #(
  parameter int unsigned NumSlots = 8,
  parameter int unsigned ClkW     = 32,
  parameter int unsigned GranW    = 61,
  parameter int unsigned SeqW     = 32,
  parameter int unsigned Objects  = 16,  // entries of the engine's sync-object store
  parameter int unsigned LineW    = 128,  // the engine's line (import-line data)
  parameter int unsigned ReadVcs  = 0,    // the engine's read-VC pool (0: an import has no shared bytes)
  parameter int unsigned ReadVcWays = 1,  // its ways (> 1: op 8, import-read-clock)
  // Derived
  parameter int unsigned SlotW    = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned ObjW     = (Objects > 1) ? $clog2(Objects) : 1,
  parameter int unsigned RowW     = NumSlots * ClkW,
  parameter int unsigned RowWords = (RowW + 127) / 128,
  parameter int unsigned LineWords = (LineW + 127) / 128
) (
  input  logic               clk_i,
  input  logic               rst_i,

  input  logic               start_i,      // pulse: decode a batch of words_i words
  input  logic [31:0]        words_i,
  input  logic               zero_rows_i,  // pulse: zero every thread clock row and sync object
  input  logic               abort_i,      // level: end the running batch now (bus error)
  output logic               busy_o,       // a batch or the zeroing is in progress
  output logic               done_o,       // the batch is decoded (level, until the next start)
  output logic [1:0]         status_o,
  output logic [31:0]        words_done_o,
  output logic               stop_o,       // pulse: stop reading (bad word)

  input  logic               word_valid_i,
  output logic               word_ready_o,
  input  logic [127:0]       word_i,

  output logic               cmd_valid_o,
  input  logic               cmd_ready_i,
  output logic [2:0]         cmd_op_o,
  output logic               cmd_force_sw_o,
  output logic               cmd_atomic_o,   // ops 9-10: cmd_op_o is 0 (atomic read) or 1 (atomic write);
                                             // op 8: cmd_op_o is 7 (import-line)
  output logic [SlotW-1:0]   cmd_slot_o,
  output logic [7:0]         cmd_mask_o,
  output logic [GranW-1:0]   cmd_granule_o,  // ops 4-6: the object index
  output logic [SeqW-1:0]    cmd_seq_o,
  output logic [RowW-1:0]    cmd_row_o,
  output logic [LineW-1:0]   cmd_line_o,     // op 7: the line
  output logic               cmd_zeroing_o  // the command is one of the zeroing commands, not a batch's
);

  localparam logic [1:0] StatusOk = 2'(rac_kernel_regs_pkg::StatusOk);
  localparam logic [1:0] StatusBadOp = 2'(rac_kernel_regs_pkg::StatusBadOp);
  localparam logic [1:0] StatusTruncated = 2'(rac_kernel_regs_pkg::StatusTruncated);
  localparam logic [3:0] OpSetRow = 4'(rac_kernel_regs_pkg::OpSetRow);
  localparam logic [3:0] OpAcquire = 4'(rac_kernel_regs_pkg::OpAcquire);
  localparam logic [3:0] OpLoadObject = 4'(rac_kernel_regs_pkg::OpLoadObject);
  localparam logic [3:0] OpImportLine = 4'(rac_kernel_regs_pkg::OpImportLine);
  localparam logic [3:0] OpAtomicRead = 4'(rac_kernel_regs_pkg::OpAtomicRead);
  localparam logic [3:0] OpImportReadClock = 4'(rac_kernel_regs_pkg::OpImportReadClock);
  localparam logic [3:0] OpAtomicWrite = 4'(rac_kernel_regs_pkg::OpAtomicWrite);
  localparam int unsigned RowBits = RowWords * 128;
  localparam int unsigned LineBits = LineWords * 128;
  localparam int unsigned CntW = $clog2(((RowWords > LineWords) ? RowWords : LineWords) + 1);

  typedef enum logic [2:0] {DIdle, DCmd, DLine, DRow, DZero, DZeroObj} state_e;
  state_e state_q;

  logic [31:0]         idx_q, row_idx_q;
  logic                at_end;      // idx_q == the batch's words (registered: rac_wide_cnt's zero)
  logic                left_one;    // one word left to decode
  logic [CntW-1:0]     row_left_q, line_left_q;
  /* verilator lint_off UNUSEDSIGNAL */  // the last data word's padding bits
  logic [RowBits-1:0]  row_q;
  logic [LineBits-1:0] line_q;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [2:0]          row_op_q;    // set-row, load-object or import: the command the data words belong to
  logic [GranW-1:0]    row_gran_q;  // load-object: its object index; import: its granule
  logic [7:0]          row_mask_q;  // import: its shared bytes
  logic                row_clock_q; // op 8: the data words are a clock for the line just imported
  logic [SlotW-1:0]   zero_slot_q;
  logic [ObjW-1:0]    zero_obj_q;

  // The command register towards the engine: held until taken.
  logic out_free, word_fire;
  assign out_free  = !cmd_valid_o || cmd_ready_i;
  logic in_batch;
  assign in_batch = state_q == DCmd || state_q == DLine || state_q == DRow;

  // ---------------------------------------------------------------------------
  // Input register
  // ---------------------------------------------------------------------------
  // A word is registered when it is taken (wq_q), with the wide parts of its
  // checks already reduced (the object index's high bits in eight partial
  // ORs, the slot range, a zero mask), and decoded from there: the checks
  // and the state machine behind them are then not one path from WORD_I
  // (with a 64-bit OR in it) to the state. A word is taken when the register
  // is empty or is being decoded, while the batch has words not yet taken,
  // not after a bad word and not during abort_i; the decoder decodes the
  // word it holds even under abort_i, so words_done counts every word taken
  // (the reader drops the rest). A start empties the register (after a bad
  // word nothing is taken, after a batch's end nothing is left).
  localparam int unsigned ObjBits = $clog2(Objects);
  localparam logic [63:0] ObjHigh = ~((64'd1 << ObjBits) - 64'd1);  // the index bits that must be zero
  localparam bit SlotsPow2 = (NumSlots & (NumSlots - 1)) == 0;
  logic         wq_valid_q;
  logic [127:0] wq_q;
  logic [7:0]   wq_obj_or_q;     // the object index's bits at or above ObjBits, ORed in bytes
  logic         wq_slot_bad_q;   // slot >= NumSlots
  logic         wq_mask_zero_q;  // no byte in the mask
  logic         in_slot_bad, take_in, word_bad, words_untaken;

  if (SlotW < 8) begin : g_slot_high
    // A slot >= NumSlots: a bit above SlotW, or (NumSlots not a power of
    // two) a SlotW-bit value at or above it.
    assign in_slot_bad = word_i[15:8+SlotW] != '0 || (!SlotsPow2 && word_i[8 +: SlotW] >= SlotW'(NumSlots));
  end else begin : g_slot_all
    assign in_slot_bad = !SlotsPow2 && word_i[15:8] >= 8'(NumSlots);
  end

  // Words not yet taken: the words left to decode, less the one held.
  assign words_untaken = !at_end && !(wq_valid_q && left_one);
  assign word_ready_o  = in_batch && !abort_i && words_untaken && (!wq_valid_q || (word_fire && !word_bad));
  assign take_in       = word_valid_i && word_ready_o;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      wq_valid_q <= 1'b0;
    end else if (state_q == DIdle && start_i) begin
      wq_valid_q <= 1'b0;
    end else if (take_in) begin
      wq_valid_q <= 1'b1;
    end else if (word_fire) begin
      wq_valid_q <= 1'b0;
    end
    if (take_in) begin
      wq_q <= word_i;
      for (int k = 0; k < 8; k++) wq_obj_or_q[k] <= |(word_i[64 + 8*k +: 8] & ObjHigh[8*k +: 8]);
      wq_slot_bad_q <= in_slot_bad;
      wq_mask_zero_q <= word_i[23:16] == 8'd0;
    end
  end

  // The state machine decodes the held word when it can use it.
  assign word_fire = wq_valid_q && out_free &&
                     (state_q == DCmd || (state_q == DRow && row_left_q != 0) ||
                      (state_q == DLine && line_left_q != 0));

  // The word being decoded
  logic [3:0]  w_op;
  logic [7:0]  w_slot, w_mask;
  logic [63:0] w_granule;
  logic        w_sync, w_with_row, w_import, w_atomic, w_clock, w_bad;
  assign w_op       = wq_q[3:0];
  assign w_slot     = wq_q[15:8];  // (checked when taken: wq_slot_bad_q)
  assign w_mask     = wq_q[23:16];
  assign w_granule  = wq_q[127:64];
  // The checks are OR reductions and equalities, not magnitude compares
  // (Yosys maps those, even against a constant, to carry chains).
  assign w_sync     = w_op == OpAcquire || w_op == OpAcquire + 4'd1 || w_op == OpLoadObject;  // ops on the sync-object store
  assign w_clock    = ReadVcs > 0 && ReadVcWays > 1 && w_op == OpImportReadClock;
  assign w_with_row = w_op == OpSetRow || w_op == OpLoadObject || w_clock;
  assign w_import   = w_op == OpImportLine;
  // Ops 9 and 10 (version 7): the access part of an atomic operation, handed
  // to the engine as a read or write with cmd_atomic_o set.
  assign w_atomic   = w_op == OpAtomicRead || w_op == OpAtomicWrite;
  // w_op[3]: an op above import-line (7); an object index >= Objects (a
  // power of two): a bit set at or above ObjBits.
  assign w_bad      = (w_op[3] && !w_atomic && !w_clock) || wq_slot_bad_q ||
                      (w_sync && wq_obj_or_q != '0) || (w_import && ReadVcs == 0 && !wq_mask_zero_q) ||
                      (w_clock && wq_mask_zero_q);
  assign word_bad   = state_q == DCmd && w_bad;  // a command word that ends the batch

  assign busy_o = state_q != DIdle;

  // The word index and the words left: 32-bit counters that step by one
  // with registered chunk carries (rac_wide_cnt), so neither the index's
  // increment nor the end-of-batch test (idx == words, the words left at
  // zero) is a 32-bit chain on the path from a word to the state.
  logic idx_load, idx_step;
  assign idx_load = rst_i || (state_q == DIdle && start_i);
  assign idx_step = word_fire && !word_bad;  // a bad word ends the batch at its index
  rac_wide_cnt #(.W(32)) u_idx (
    .clk_i,
    .rst_i,
    .load_i (idx_load),
    .value_i(32'd0),
    .step_i (idx_step),
    .q_o    (idx_q),
    .zero_o (idx_zero),
    .one_o  (idx_one)
  );
  rac_wide_cnt #(.W(32), .Down(1'b1)) u_left (
    .clk_i,
    .rst_i,
    .load_i (idx_load),
    .value_i(rst_i ? 32'd0 : words_i),
    .step_i (idx_step),
    .q_o    (words_left),
    .zero_o (at_end),
    .one_o  (left_one)
  );

  // Data words enter from the top (the first word ends at the bottom).
  logic [RowBits-1:0]  row_shifted;
  logic [LineBits-1:0] line_shifted;
  if (RowWords > 1) begin : g_row_shift
    assign row_shifted = {wq_q, row_q[RowBits-1:128]};
  end else begin : g_row_one_word
    assign row_shifted = wq_q;
  end
  if (LineWords > 1) begin : g_line_shift
    assign line_shifted = {wq_q, line_q[LineBits-1:128]};
  end else begin : g_line_one_word
    assign line_shifted = wq_q;
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      state_q <= DZero;
      zero_slot_q <= '0;
      zero_obj_q <= '0;
      cmd_valid_o <= 1'b0;
      cmd_zeroing_o <= 1'b1;
      done_o <= 1'b0;
      status_o <= StatusOk;
      words_done_o <= '0;
      stop_o <= 1'b0;
    end else begin
      stop_o <= 1'b0;
      if (cmd_valid_o && cmd_ready_i) cmd_valid_o <= 1'b0;
      if (abort_i && in_batch && !wq_valid_q) begin  // (a word taken before abort_i is decoded first)
        if (out_free) begin  // the last command handed over: the batch ends here
          state_q <= DIdle;
          done_o <= 1'b1;
          words_done_o <= idx_q;
        end
      end else case (state_q)
        DIdle: begin
          if (start_i) begin
            state_q <= DCmd;
            done_o <= 1'b0;
            status_o <= StatusOk;
            words_done_o <= '0;
          end else if (zero_rows_i) begin
            state_q <= DZero;
            zero_slot_q <= '0;
            zero_obj_q <= '0;
          end
        end
        DZero: begin
          if (out_free) begin
            cmd_valid_o <= 1'b1;
            cmd_zeroing_o <= 1'b1;
            cmd_op_o <= OpSetRow[2:0];
            cmd_force_sw_o <= 1'b0;
            cmd_atomic_o <= 1'b0;
            cmd_slot_o <= zero_slot_q;
            cmd_mask_o <= '0;
            cmd_granule_o <= '0;
            cmd_seq_o <= '0;
            cmd_row_o <= '0;
            cmd_line_o <= '0;
            zero_slot_q <= zero_slot_q + 1'b1;
            if (zero_slot_q == SlotW'(NumSlots - 1)) state_q <= DZeroObj;
          end
        end
        DZeroObj: begin
          if (out_free) begin
            cmd_valid_o <= 1'b1;
            cmd_zeroing_o <= 1'b1;
            cmd_op_o <= OpLoadObject[2:0];
            cmd_force_sw_o <= 1'b0;
            cmd_atomic_o <= 1'b0;
            cmd_slot_o <= '0;
            cmd_mask_o <= '0;
            cmd_granule_o <= GranW'(zero_obj_q);
            cmd_seq_o <= '0;
            cmd_row_o <= '0;
            cmd_line_o <= '0;
            zero_obj_q <= zero_obj_q + 1'b1;
            if (zero_obj_q == ObjW'(Objects - 1)) state_q <= DIdle;
          end
        end
        DCmd: begin
          if (at_end) begin
            if (out_free) begin  // every command handed over
              state_q <= DIdle;
              done_o <= 1'b1;
              words_done_o <= idx_q;
            end
          end else if (word_fire) begin
            if (w_bad) begin
              state_q <= DIdle;
              done_o <= 1'b1;
              status_o <= StatusBadOp;
              words_done_o <= idx_q;
              stop_o <= 1'b1;
            end else if (w_with_row || w_import) begin
              // An import reads its line first, then its clock only when it
              // has shared bytes (a clock of zeros otherwise).
              state_q <= w_import ? DLine : DRow;
              cmd_slot_o <= w_slot[SlotW-1:0];
              row_op_q <= w_clock ? OpImportLine[2:0] : w_op[2:0];
              row_clock_q <= w_clock;
              row_gran_q <= w_granule[GranW-1:0];
              row_mask_q <= w_mask;
              row_idx_q <= idx_q;
              line_left_q <= CntW'(LineWords);
              row_left_q <= (w_import && wq_mask_zero_q) ? '0 : CntW'(RowWords);
              row_q <= '0;
            end else begin
              cmd_valid_o <= 1'b1;
              cmd_zeroing_o <= 1'b0;
              cmd_op_o <= w_atomic ? {2'b00, w_op == OpAtomicWrite} : w_op[2:0];
              cmd_force_sw_o <= wq_q[4];
              cmd_atomic_o <= w_atomic;
              cmd_slot_o <= w_slot[SlotW-1:0];
              cmd_mask_o <= w_mask;
              cmd_granule_o <= w_granule[GranW-1:0];
              cmd_seq_o <= SeqW'(idx_q);
            end
          end
        end
        DLine: begin
          if (line_left_q == 0) begin
            state_q <= DRow;  // the clock's words, if any
          end else if (at_end) begin
            state_q <= DIdle;
            done_o <= 1'b1;
            status_o <= StatusTruncated;
            words_done_o <= row_idx_q;
          end else if (word_fire) begin
            line_q <= line_shifted;
            line_left_q <= line_left_q - 1'b1;
          end
        end
        DRow: begin
          if (row_left_q == 0) begin
            // cmd_slot_o already holds the command's slot; the output is free
            // (the command word itself issued nothing).
            if (out_free) begin
              cmd_valid_o <= 1'b1;
              cmd_zeroing_o <= 1'b0;
              cmd_op_o <= row_op_q;
              cmd_force_sw_o <= 1'b0;
              cmd_atomic_o <= row_clock_q;
              cmd_mask_o <= (row_op_q == OpImportLine[2:0]) ? row_mask_q : '0;
              cmd_granule_o <= row_gran_q;  // ignored by set-row
              cmd_seq_o <= SeqW'(row_idx_q);
              cmd_row_o <= row_q[RowW-1:0];
              cmd_line_o <= line_q[LineW-1:0];
              state_q <= DCmd;
            end
          end else if (at_end) begin
            state_q <= DIdle;
            done_o <= 1'b1;
            status_o <= StatusTruncated;
            words_done_o <= row_idx_q;
          end else if (word_fire) begin
            row_q <= row_shifted;
            row_left_q <= row_left_q - 1'b1;
          end
        end
        default: state_q <= DIdle;
      endcase
    end
  end

  // Unused fields of a command word: bits 5-7 and 24-63 (zero by contract).
  // Granule bits above GranW are used only by the object-index check.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] words_left;  // the counters' values beyond what is used
  logic        idx_zero, idx_one;
  logic unused_bits;
  assign unused_bits = ^{wq_q[7:5], wq_q[63:24], w_slot, w_granule, words_left, idx_zero, idx_one};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
  `RAC_STATIC_ASSERT(SlotsFitField, NumSlots >= 1 && NumSlots <= 256)
  `RAC_STATIC_ASSERT(GranuleFitsWord, GranW <= 64)
  `RAC_STATIC_ASSERT(ObjectsPowerOfTwo, Objects >= 1 && (Objects & (Objects - 1)) == 0)
  `RAC_STATIC_ASSERT(OpsAboveImportHaveBit3, OpImportLine == 4'd7)
  `RAC_STATIC_ASSERT(SyncOpsAreThree, OpLoadObject == OpAcquire + 4'd2)
  // A command waiting for the engine stays the same command.
  `RAC_ASSERT_NEXT(CommandHeld, cmd_valid_o && !cmd_ready_i,
                   cmd_valid_o && cmd_seq_o == $past(cmd_seq_o) && cmd_op_o == $past(cmd_op_o) &&
                   cmd_granule_o == $past(cmd_granule_o), clk_i, rst_i)
  // Words are consumed only while the batch has words left.
  `RAC_ASSERT(NoWordPastBatch, !word_fire || !at_end, clk_i, rst_i)
  // The engine never sees an import with shared bytes but no pool, or an
  // object index outside its store.
  `RAC_ASSERT(NoSharedImportWithoutPool,
              !(cmd_valid_o && cmd_op_o == OpImportLine[2:0] && ReadVcs == 0 && cmd_mask_o != '0), clk_i, rst_i)
  `RAC_ASSERT(ObjectInStore,
              !(cmd_valid_o && cmd_op_o >= OpAcquire[2:0] && cmd_op_o <= OpLoadObject[2:0]) ||
              cmd_granule_o < GranW'(Objects),
              clk_i, rst_i)
  // A start arrives only when the decoder is idle.
  `RAC_ASSUME(StartWhenIdle, !start_i || state_q == DIdle, clk_i, rst_i)

endmodule
