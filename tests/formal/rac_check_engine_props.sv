// Formal harness of the check engine at small parameters (2 slots, 2-bit
// clocks, 2 sets x 2 ways, one sync object, 0 or 1 read-VC pool entries,
// 5-bit granules). Every input is free: commands of all seven ops (reads,
// writes, frees, SETROW, ACQUIRE, RELEASE, LOADOBJ), row updates,
// back-pressure on both outputs and on the memory port, and memory responses
// at any time. Reset is assumed in the first cycle, and the host's two
// obligations on commands: op 7 (reserved) is never sent, and a RELEASE never
// ticks a clock past 2^ClkW - 1 (the host falls back to software first).
//
// Structural properties: the engine's own assertions must hold: no two valid
// ways with one tag in a set (the replacement and fill logic), an INSOFTWARE
// line never decided in hardware (the status rules), a pool entry never left
// holding a clock for a line without shared bytes (the stale-read hazard), a
// LASTWRITE line never letting a write of a shared byte through, and race
// records, escalation records and memory requests stay unchanged while they
// wait for ready.
//
// Functional property (NoMissedWriteWriteRace): a reference model of the
// thread clocks, the sync object's clock and one byte (byte 0 of granule
// WatchGran) says when a write must race with the byte's last write: its W
// epoch (slot w, clock c) is not ordered before the writer, c > C_writer[w].
// Such a write (not forced to software) must, at the edge the engine retires
// it (stat_commands_o counts retired commands; records are registered at
// that edge), have put on the outputs a race record with its sequence number
// and byte 0 in the mask, or an escalation with its sequence number (the
// host then decides). The clocks are derived from the commands as the
// engine's specification says (SETROW, ACQUIRE joins the object's clock,
// RELEASE joins into the object and ticks the own lane, LOADOBJ), so sync ops
// are what makes two writes ordered or not. The model covers the byte while
// its state is exactly known: memory fills were all-zero lines (a clean
// line), no line was written back (so the watched line never left the
// cache), and the byte was never read (R stays the empty epoch) nor accessed
// with force_sw; the first of these to fail switches the model off, which
// only weakens the property. A mutant that never reports a race
// (`any_raced = 1'b0`) fails this property (tests/formal/run_mutants.sh).
module rac_check_engine_props #(
  parameter int unsigned ReadVcs = 0,
  // The engine below has 2 slots (1 slot bit) and 2-bit clocks.
  parameter int unsigned LineW   = rac_line_layout_pkg::LineBits(1, 2, ReadVcs),
  parameter logic [4:0]  WatchGran = 5'd0,
  // 1: check NoMissedWriteWriteRace (and narrow the commands to the
  // watched byte, so the proof stays small); 0: the engine's own assertions
  // with every command free.
  parameter bit          Functional = 1'b0,
  // 1: all seven ops; 0: reads, writes, frees and SETROW only (the deep
  // structural proofs, which the sync ops make several times dearer).
  parameter bit          AllOps = 1'b1
) (
  input logic        clk_i,
  input logic        rst_i,
  input logic        cmd_valid_i,
  input logic [2:0]  cmd_op_i,
  input logic        cmd_force_sw_i,
  input logic        cmd_slot_i,
  input logic [7:0]  cmd_mask_i,
  input logic [4:0]  cmd_granule_i,
  input logic [3:0]  cmd_seq_i,
  input logic [3:0]  cmd_row_i,
  input logic        race_ready_i,
  input logic        esc_ready_i,
  input logic        mem_req_ready_i,
  input logic        mem_wack_i,
  input logic        mem_rsp_valid_i,
  input logic [LineW-1:0] mem_rsp_data_i
);
  localparam logic [2:0] OpRead = 3'd0, OpWrite = 3'd1, OpFree = 3'd2, OpSetRow = 3'd3;
  localparam logic [2:0] OpAcquire = 3'd4, OpRelease = 3'd5, OpLoadObj = 3'd6;

  logic       cmd_ready, idle, race_valid, esc_valid, mem_req_valid, mem_req_write;
  logic [3:0] race_seq, esc_seq;
  logic [7:0] race_mask;

  logic [63:0] stat_commands_full;
  logic [4:0]  accepted_q;  // commands accepted since reset
  logic        retired;
  always @(posedge clk_i) begin
    if (rst_i) accepted_q <= '0;
    else if (cmd_valid_i && cmd_ready) accepted_q <= accepted_q + 5'd1;
  end

  rac_check_engine #(
    .NumSlots(2), .ClkW(2), .Sets(2), .Ways(2), .ReplPolicy(0), .GranW(5), .SeqW(4), .Objects(1), .ReadVcs(ReadVcs)
  ) dut (
    .clk_i, .rst_i,
    .cmd_valid_i, .cmd_ready_o(cmd_ready), .cmd_op_i, .cmd_force_sw_i, .cmd_atomic_i(1'b0), .cmd_slot_i, .cmd_mask_i,
    // Not '0: Yosys 0.23 then leaves the engine never ready for a command,
    // which makes every property here hold vacuously (formal.mutants_engine
    // caught it).
    .cmd_granule_i, .cmd_seq_i, .cmd_row_i, .cmd_line_i({LineW{1'b0}}),
    .race_valid_o(race_valid), .race_ready_i, .race_seq_o(race_seq), .race_granule_o(), .race_mask_o(race_mask),
    .race_kinds_o(), .race_prev_slots_o(), .race_prev_clks_o(),
    .esc_valid_o(esc_valid), .esc_ready_i, .esc_seq_o(esc_seq), .esc_reason_o(), .esc_granule_o(), .esc_line_o(),
    .esc_rvc_valid_o(), .esc_rvc_o(),
    .mem_req_valid_o(mem_req_valid), .mem_req_ready_i, .mem_req_write_o(mem_req_write), .mem_req_granule_o(),
    .mem_req_data_o(), .mem_req_seq_o(),
    .mem_wack_i, .mem_rsp_valid_i, .mem_rsp_data_i,
    .stat_cycles_o(), .stat_commands_o(stat_commands_full), .stat_accesses_o(), .stat_misses_o(), .stat_writebacks_o(),
    .stat_escalations_o(), .idle_o(idle)
  );

  logic first_q = 1'b1;
  always @(posedge clk_i) first_q <= 1'b0;
  always @(*) if (first_q) assume (rst_i);
  // A later reset comes only while the engine is idle or still sweeping
  // (init), never with a command in flight: a command the engine accepted
  // would then vanish, and the model below (which follows the accepted
  // commands) would no longer know the thread clocks the host must keep
  // within ClkW.
  logic sweeping_q;
  always @(posedge clk_i) sweeping_q <= rst_i || (sweeping_q && !cmd_ready);
  always @(*) if (!first_q && rst_i) assume (idle || sweeping_q);

  // ---------------------------------------------------------------------------
  // Reference model: thread clocks C[slot] (lane l at [2*l +: 2]), the sync
  // object's clock V, and the watched byte's W epoch.
  // ---------------------------------------------------------------------------
  logic [3:0] c_q [2];
  logic [3:0] v_q;
  logic       model_on_q, w_slot_q;
  logic [1:0] w_clk_q;
  logic       pending_q;
  logic [3:0] pend_seq_q;
  logic [4:0] pend_idx_q;   // its position among the accepted commands

  function automatic logic [3:0] join2(input logic [3:0] a, input logic [3:0] b);
    join2 = {(a[3:2] > b[3:2]) ? a[3:2] : b[3:2], (a[1:0] > b[1:0]) ? a[1:0] : b[1:0]};
  endfunction

  logic       accept, watched, must_race;
  logic [3:0] own_row;
  logic [1:0] own_clk, seen_clk;
  assign accept   = cmd_valid_i && cmd_ready;
  assign own_row  = c_q[cmd_slot_i];
  assign own_clk  = own_row[2*cmd_slot_i +: 2];
  assign seen_clk = own_row[2*w_slot_q +: 2];  // what the writer knows of W's thread
  assign watched  = accept && cmd_granule_i == WatchGran && cmd_mask_i[0] &&
                    (cmd_op_i == OpRead || cmd_op_i == OpWrite || cmd_op_i == OpFree);
  assign must_race = watched && model_on_q && cmd_op_i == OpWrite && !cmd_force_sw_i && w_clk_q > seen_clk;

  // The host's obligations on the command stream. Op 7 (import-line) is
  // left out: the reference model has no host lines to import (it is
  // checked against the software model and DJIT+ in simulation instead:
  // tests/engine/engine_reimport_test.cpp).
  always @(*) if (!rst_i && cmd_valid_i) assume (cmd_op_i != 3'd7);
  always @(*) if (!AllOps && cmd_valid_i) assume (cmd_op_i[2] == 1'b0);
  always @(*) if (!rst_i && cmd_valid_i && cmd_op_i == OpRelease) assume (own_clk != 2'd3);
  always @(posedge clk_i) begin
    if (rst_i) begin
      model_on_q <= 1'b1;
      w_slot_q <= 1'b0;
      w_clk_q <= '0;
      pending_q <= 1'b0;
    end else begin
      if (accept) begin
        case (cmd_op_i)
          OpSetRow:  c_q[cmd_slot_i] <= cmd_row_i;
          OpAcquire: c_q[cmd_slot_i] <= join2(own_row, v_q);
          OpRelease: begin
            v_q <= join2(v_q, own_row);
            c_q[cmd_slot_i][2*cmd_slot_i +: 2] <= own_clk + 2'd1;
          end
          OpLoadObj: v_q <= cmd_row_i;
          default: ;
        endcase
      end
      if (watched) begin
        if (cmd_op_i == OpFree) begin
          w_slot_q <= 1'b0;
          w_clk_q <= '0;
        end else if (cmd_op_i == OpWrite) begin
          w_slot_q <= cmd_slot_i;
          w_clk_q <= own_clk;
        end
        // A read makes R non-empty; a forced access is decided by the host;
        // a race sets the byte's raced flag: the model stops there.
        if (cmd_op_i == OpRead || cmd_force_sw_i || must_race) model_on_q <= 1'b0;
      end

      if (must_race) begin
        pending_q <= 1'b1;
        pend_seq_q <= cmd_seq_i;
        pend_idx_q <= accepted_q;
      end else if (retired) begin
        pending_q <= 1'b0;
      end
      // A fill that is not a clean line, or a write-back (the watched line
      // may be among those refilled), may change what the byte holds before
      // the owed write reaches it (the fill of that write's own miss can
      // come after it is accepted): the model and the obligation stop.
      if ((mem_rsp_valid_i && mem_rsp_data_i != '0) || (mem_req_valid && mem_req_write)) begin
        model_on_q <= 1'b0;
        pending_q <= 1'b0;
      end
    end
  end

  // Sequence numbers are the trace positions of the accepted commands (so a
  // record's seq names one command within the proof's bound).
  always @(*) if (!rst_i && cmd_valid_i) assume (cmd_seq_i == accepted_q[3:0]);

  // The engine retires commands in order and counts them (stat_commands_o);
  // a race or escalation record is registered at the edge its command
  // retires. So in the cycle the count first covers the owed write, its
  // record must be on the outputs.
  logic [4:0] stat_commands;
  assign stat_commands = stat_commands_full[4:0];
  assign retired = pending_q && stat_commands == pend_idx_q + 5'd1;
  // Functional mode: every command names the watched granule and byte 0 and
  // none is forced to software (the engine's assertions cover the rest with
  // free commands and a free environment, in the structural runs, which is
  // why run_engine_bmc.sh drops them here); the SAT problem then stays small
  // enough for the depth a race needs (reset, the init sweep, a clock
  // update, a write that misses, a write that races).
  always @(*) if (Functional && cmd_valid_i) assume (cmd_granule_i == WatchGran && cmd_mask_i == 8'h01 && !cmd_force_sw_i);
  // ... and the environment is prompt: both outputs and the memory port are
  // always ready, and memory answers a read (fill) or acknowledges a write
  // in the cycle after its request is taken.
  logic mem_rd_taken_q, mem_wr_taken_q;
  always @(posedge clk_i) begin
    mem_rd_taken_q <= !rst_i && mem_req_valid && mem_req_ready_i && !mem_req_write;
    mem_wr_taken_q <= !rst_i && mem_req_valid && mem_req_ready_i && mem_req_write;
  end
  always @(*) begin
    if (Functional) begin
      assume (race_ready_i && esc_ready_i && mem_req_ready_i);
      assume (mem_rsp_valid_i == mem_rd_taken_q && mem_wack_i == mem_wr_taken_q);
    end
  end
  always @(posedge clk_i) begin
    if (Functional && !rst_i && retired) begin
      NoMissedWriteWriteRace: assert ((race_valid && race_seq == pend_seq_q && race_mask[0]) ||
                                      (esc_valid && esc_seq == pend_seq_q));
    end
  end
endmodule
