// Functional formal harness of the check engine: a FastTrack reference for
// one granule, driven by the engine's own command stream, against every
// verdict the engine gives for that granule.
//
// Shape: 2 slots, 2-bit clocks, one set of `Ways` ways (1: every command on
// the other granule evicts the watched one), a one-entry read-VC pool (so
// READ SHARE, the pool's clock, its displacement by the other granule and
// the eviction spill are all reachable), one sync object, two granules
// (granule 0 is watched, granule 1 competes for the set and the pool entry).
// Commands are free but for the host's obligations: every op but 7
// (import-line: the model has no host lines), RELEASE never ticks past
// 2^ClkW - 1, SETROW never lowers a lane (the host's clocks only grow; with
// lowered clocks FastTrack's same-epoch shortcuts are not DJIT+ and neither
// side is "right"), and a mask's bytes 2..7 follow byte 1 (so bytes 0 and 1
// are the two byte histories the model needs: a read or free of some shared
// bytes only, different histories in one line, a full free). Reset in the
// first cycle only (the cache is not written back at reset). The
// environment is prompt: outputs always ready, memory answers the cycle
// after a request, from a backing store of both granules' lines that the
// harness keeps (initially zero: fresh granules).
//
// Reference (per byte 0 and 1 of granule 0): FastTrack with a raced flag --
// W epoch, R epoch or read vector clock (shared), raced (the first race on a
// byte is reported and the byte is not checked again until freed); thread
// clocks C[slot] and the sync object V follow SETROW, ACQUIRE (C ⊔= V),
// RELEASE (V ⊔= C; C[t][t]++) and LOADOBJ in trace order (at acceptance);
// the byte rules apply in trace order as commands retire, each with the
// clock its thread had at its trace position. Properties, checked in the
// cycle after a command on granule 0 retires (stat_commands_o counts
// retirements; records are registered at that edge):
//   RaceVerdictMatches   an access decided on chip reports exactly the bytes
//                        the reference finds racing (bytes 0, 1), with the
//                        reference's kind and earlier epoch (no false race,
//                        no missed race);
//   EscalatedNotReported an escalated access has no race record (the host
//                        decides);
//   HostOwnedEscalates   a forced access, and any command but a full free on
//                        a line the host owns, is escalated;
//   HandoverCarriesState the escalation that hands the line to the host
//                        carries the reference state (W, R, raced, shared;
//                        the read clock equal to the reference's when the
//                        pool holds it, else the host's join of the spilled
//                        clock and R at most the reference's and equal in
//                        R's lane);
//   WritebackCarriesState a write-back of granule 0 holds the same (the
//                        INSOFTWARE bit alone for a host-owned line).
// The line inside the cache is not observed directly (no hierarchical
// references in Yosys): it is checked whenever it leaves the chip
// (write-back, handover) and through every verdict it gives.
// run_engine_ref_bmc.sh proves this to depth 16 (ctest formal.engine_ref);
// run_mutants.sh's ref_race, ref_sync and ref_state groups show mutants it
// catches (docs/hardware.md, "Exactness arguments").
module rac_check_engine_ref_props #(
  parameter int unsigned Ways = 1
) (
  input logic       clk_i,
  input logic       rst_i,
  input logic       cmd_valid_i,
  input logic [2:0] cmd_op_i,
  input logic       cmd_force_sw_i,
  input logic       cmd_slot_i,
  input logic [1:0] cmd_mask_lo_i,  // bytes 0 and 1; bytes 2..7 follow byte 1
  input logic       cmd_granule_i,
  input logic [3:0] cmd_row_i
);
  localparam logic [2:0] OpRead = 3'd0, OpWrite = 3'd1, OpFree = 3'd2, OpSetRow = 3'd3;
  localparam logic [2:0] OpAcquire = 3'd4, OpRelease = 3'd5, OpLoadObj = 3'd6;
  localparam logic [1:0] KindWW = 2'd0, KindWR = 2'd1, KindRW = 2'd2;
  localparam logic       Watch = 1'b0;
  // The line layout at this shape (1 slot bit, 2-bit clocks, a pool).
  localparam int unsigned LineW   = rac_line_layout_pkg::LineBits(1, 2, 1);
  localparam int unsigned ByteW   = rac_line_layout_pkg::LineByteBits(1, 2, 1);
  localparam int unsigned ByteLo  = rac_line_layout_pkg::LineByteLo(1, 2, 1);
  localparam int unsigned RacedLo = rac_line_layout_pkg::LineByteRacedLo(1, 2, 1);
  localparam int unsigned WSlotLo = rac_line_layout_pkg::LineByteWSlotLo(1, 2, 1);
  localparam int unsigned WClkLo  = rac_line_layout_pkg::LineByteWClockLo(1, 2, 1);
  localparam int unsigned RSlotLo = rac_line_layout_pkg::LineByteRSlotLo(1, 2, 1);
  localparam int unsigned RClkLo  = rac_line_layout_pkg::LineByteRClockLo(1, 2, 1);
  localparam int unsigned SharedLo = rac_line_layout_pkg::LineSharedLo(1, 2, 1);
  localparam int unsigned InSwBit = rac_line_layout_pkg::LineInSoftwareLo(1, 2, 1);

  logic [7:0] cmd_mask;
  assign cmd_mask = {{6{cmd_mask_lo_i[1]}}, cmd_mask_lo_i};

  logic             cmd_ready, race_valid, esc_valid, mem_req_valid, mem_req_write, mem_wack, mem_rsp_valid;
  logic [4:0]       race_seq, esc_seq, cmd_seq;
  logic [7:0]       race_mask;
  logic [15:0]      race_kinds;
  logic [7:0]       race_prev_slots;
  logic [15:0]      race_prev_clks;
  logic [2:0]       esc_reason;
  logic             esc_granule, esc_rvc_valid, mem_req_granule;
  logic [LineW-1:0] esc_line, mem_req_data, mem_rsp_data;
  logic [3:0]       esc_rvc;
  logic [63:0]      stat_commands_full;

  rac_check_engine #(
    .NumSlots(2), .ClkW(2), .Sets(1), .Ways(Ways), .ReplPolicy(0), .GranW(1), .SeqW(5), .Objects(1), .ReadVcs(1)
  ) dut (
    .clk_i, .rst_i,
    .cmd_valid_i, .cmd_ready_o(cmd_ready), .cmd_op_i, .cmd_force_sw_i, .cmd_atomic_i(1'b0), .cmd_slot_i,
    .cmd_mask_i(cmd_mask), .cmd_granule_i, .cmd_seq_i(cmd_seq), .cmd_row_i, .cmd_line_i({LineW{1'b0}}),
    .race_valid_o(race_valid), .race_ready_i(1'b1), .race_seq_o(race_seq), .race_granule_o(), .race_mask_o(race_mask),
    .race_kinds_o(race_kinds), .race_prev_slots_o(race_prev_slots), .race_prev_clks_o(race_prev_clks),
    .esc_valid_o(esc_valid), .esc_ready_i(1'b1), .esc_seq_o(esc_seq), .esc_reason_o(esc_reason),
    .esc_granule_o(esc_granule), .esc_line_o(esc_line), .esc_rvc_valid_o(esc_rvc_valid), .esc_rvc_o(esc_rvc),
    .esc_rvc_mask_o(),
    .mem_req_valid_o(mem_req_valid), .mem_req_ready_i(1'b1), .mem_req_write_o(mem_req_write),
    .mem_req_granule_o(mem_req_granule), .mem_req_data_o(mem_req_data), .mem_req_seq_o(),
    .mem_wack_i(mem_wack), .mem_rsp_valid_i(mem_rsp_valid), .mem_rsp_data_i(mem_rsp_data),
    .stat_cycles_o(), .stat_commands_o(stat_commands_full), .stat_accesses_o(), .stat_misses_o(),
    .stat_writebacks_o(), .stat_escalations_o(), .idle_o()
  );

  logic first_q = 1'b1;
  always @(posedge clk_i) first_q <= 1'b0;
  always @(*) assume (rst_i == first_q);

  // ---------------------------------------------------------------------------
  // The backing store (both granules) and a prompt memory.
  // ---------------------------------------------------------------------------
  logic [LineW-1:0] store_q [2];
  logic             fill_gran_q;
  always @(posedge clk_i) begin
    mem_rsp_valid <= !rst_i && mem_req_valid && !mem_req_write;
    mem_wack      <= !rst_i && mem_req_valid && mem_req_write;
    if (mem_req_valid && !mem_req_write) fill_gran_q <= mem_req_granule;
    if (rst_i) begin
      store_q[0] <= '0;
      store_q[1] <= '0;
    end else if (mem_req_valid && mem_req_write) begin
      store_q[mem_req_granule] <= mem_req_data;
    end
  end
  assign mem_rsp_data = store_q[fill_gran_q];

  // ---------------------------------------------------------------------------
  // Thread clocks and the sync object, in trace order (at acceptance).
  // Lane l of a clock is [2*l +: 2].
  // ---------------------------------------------------------------------------
  function automatic logic [3:0] join2(input logic [3:0] a, input logic [3:0] b);
    join2 = {(a[3:2] > b[3:2]) ? a[3:2] : b[3:2], (a[1:0] > b[1:0]) ? a[1:0] : b[1:0]};
  endfunction
  function automatic logic [1:0] lane(input logic [3:0] vc, input logic l);
    lane = l ? vc[3:2] : vc[1:0];
  endfunction

  logic [3:0] c_q [2];
  logic [3:0] v_q;
  logic [4:0] accepted_q;
  logic       accept;
  logic [3:0] own_row;
  assign accept  = cmd_valid_i && cmd_ready;
  assign own_row = c_q[cmd_slot_i];
  assign cmd_seq = accepted_q;

  always @(*) begin
    if (!rst_i && cmd_valid_i) begin
      assume (cmd_op_i != 3'd7);
      if (cmd_op_i == OpRelease) assume (lane(own_row, cmd_slot_i) != 2'd3);
      if (cmd_op_i == OpSetRow) assume (cmd_row_i[3:2] >= own_row[3:2] && cmd_row_i[1:0] >= own_row[1:0]);
    end
  end

  // Accepted commands wait for their retirement in a queue (at most the
  // four stages and one just retired are in flight), each with its
  // thread's clock at its trace position.
  logic [12:0] queue_q [8];  // {op, force, slot, mask[1:0], granule, row}
  always @(posedge clk_i) begin
    if (rst_i) begin
      accepted_q <= '0;
      v_q <= '0;
      c_q[0] <= '0;
      c_q[1] <= '0;
    end else if (accept) begin
      accepted_q <= accepted_q + 5'd1;
      queue_q[accepted_q[2:0]] <= {cmd_op_i, cmd_force_sw_i, cmd_slot_i, cmd_mask_lo_i, cmd_granule_i, own_row};
      case (cmd_op_i)
        OpSetRow:  c_q[cmd_slot_i] <= cmd_row_i;
        OpAcquire: c_q[cmd_slot_i] <= join2(own_row, v_q);
        OpRelease: begin
          v_q <= join2(v_q, own_row);
          if (cmd_slot_i) c_q[1][3:2] <= own_row[3:2] + 2'd1;
          else c_q[0][1:0] <= own_row[1:0] + 2'd1;
        end
        OpLoadObj: v_q <= cmd_row_i;
        default: ;
      endcase
    end
  end

  // ---------------------------------------------------------------------------
  // Retirement: the engine counts retired commands; the one numbered done_q
  // retired at the last edge when the count moved past it.
  // ---------------------------------------------------------------------------
  logic [4:0]  done_q;
  logic        ret;
  logic [12:0] ent;
  logic [2:0]  r_op;
  logic        r_force, r_slot, r_gran;
  logic [1:0]  r_mask;
  logic [3:0]  r_row;
  logic [1:0]  r_own;
  assign ret = !rst_i && stat_commands_full[4:0] != done_q;
  assign ent = queue_q[done_q[2:0]];
  assign {r_op, r_force, r_slot, r_mask, r_gran, r_row} = ent;
  assign r_own = lane(r_row, r_slot);
  always @(posedge clk_i) begin
    if (rst_i) done_q <= '0;
    else if (ret) done_q <= done_q + 5'd1;
  end
  always @(*) begin
    if (!rst_i) begin
      // Five stages (SN, S0-S3) and the cycle a retirement takes to show
      // in the count: at most six commands in flight, within the queue.
      InFlightBounded: assert (5'(accepted_q - done_q) <= 5'd6);
    end
  end

  // ---------------------------------------------------------------------------
  // The reference state of bytes 0 and 1 of granule 0, and what the host
  // knows of it: whether it owns the line, and the last read clock spilled.
  // ---------------------------------------------------------------------------
  logic [1:0] raced_q, wslot_q, rslot_q, sh_q;
  logic [3:0] wclk_q, rclk_q;  // byte b at [2*b +: 2]
  logic [7:0] vc_q;            // byte b's read clock at [4*b +: 4]
  logic       insw_q;          // the host owns the line (since its handover)
  logic [3:0] spilled_q;       // the last read clock of granule 0 the host was sent

  // One FastTrack step per byte (the retiring command, with its clock).
  logic       acc, is_read, is_write, is_free;
  logic [1:0] ref_race, n_raced, n_wslot, n_rslot, n_sh;
  logic [3:0] ref_kinds, ref_prev_clks, n_wclk, n_rclk;
  logic [1:0] ref_prev_slots;
  logic [7:0] n_vc;
  assign acc      = ret && r_gran == Watch;
  assign is_read  = r_op == OpRead;
  assign is_write = r_op == OpWrite;
  assign is_free  = r_op == OpFree;
  for (genvar b = 0; b < 2; b++) begin : g_ref
    logic       w_ok, r_ok, vc_ok, same_w, same_r, gt_slot, sh, rs;
    logic [1:0] wc, rc;
    logic [3:0] vc;
    logic       race, pslot, nr, nws, nrs, nsh;
    logic [1:0] kind, pclk, nwc, nrc;
    logic [3:0] nvc;
    assign sh = sh_q[b];
    assign rs = rslot_q[b];
    assign wc = wclk_q[2*b +: 2];
    assign rc = rclk_q[2*b +: 2];
    assign vc = vc_q[4*b +: 4];
    assign w_ok = wc <= lane(r_row, wslot_q[b]);
    assign r_ok = rc <= lane(r_row, rs);
    assign vc_ok = vc[1:0] <= r_row[1:0] && vc[3:2] <= r_row[3:2];
    assign gt_slot = !(vc[1:0] > r_row[1:0]);  // the lowest lane above C_t
    assign same_w = wslot_q[b] == r_slot && wc == r_own;
    assign same_r = rs == r_slot && rc == r_own;
    always @(*) begin
      race = 1'b0;
      kind = '0;
      pslot = 1'b0;
      pclk = '0;
      nr = raced_q[b];
      nws = wslot_q[b];
      nwc = wc;
      nrs = rs;
      nrc = rc;
      nsh = sh;
      nvc = vc;
      if (acc && r_mask[b]) begin
        if (is_free) begin
          nr = 1'b0;
          nws = 1'b0;
          nwc = '0;
          nrs = 1'b0;
          nrc = '0;
          nsh = 1'b0;
          nvc = '0;
        end else if (raced_q[b]) begin
          // not checked again until freed
        end else if (is_read) begin
          if (sh ? lane(vc, r_slot) == r_own : same_r) begin
            // [FT READ SAME EPOCH]
          end else if (!w_ok) begin
            race = 1'b1;
            kind = KindWR;
            pslot = wslot_q[b];
            pclk = wc;
          end else if (sh) begin  // [FT READ SHARED]
            if (r_slot) nvc[3:2] = r_own;
            else nvc[1:0] = r_own;
          end else if (r_ok) begin  // [FT READ EXCLUSIVE]
            nrs = r_slot;
            nrc = r_own;
          end else begin  // [FT READ SHARE]: the clock of the last read and this one
            nsh = 1'b1;
            nvc = rs ? {rc, 2'd0} : {2'd0, rc};
            if (r_slot) nvc[3:2] = r_own;
            else nvc[1:0] = r_own;
            nrs = 1'b0;
            nrc = '0;
          end
        end else if (is_write) begin
          if (same_w) begin
            // [FT WRITE SAME EPOCH]
          end else if (!w_ok) begin
            race = 1'b1;
            kind = KindWW;
            pslot = wslot_q[b];
            pclk = wc;
          end else if (sh ? !vc_ok : !r_ok) begin
            race = 1'b1;
            kind = KindRW;
            pslot = sh ? gt_slot : rs;
            pclk = sh ? lane(vc, gt_slot) : rc;
          end else begin  // [FT WRITE EXCLUSIVE] / [FT WRITE SHARED] (R := empty)
            nws = r_slot;
            nwc = r_own;
            nsh = 1'b0;
            nvc = '0;
            nrs = sh ? 1'b0 : rs;
            nrc = sh ? 2'd0 : rc;
          end
        end
        if (race) nr = 1'b1;
      end
    end
    assign ref_race[b] = race;
    assign ref_kinds[2*b +: 2] = kind;
    assign ref_prev_slots[b] = pslot;
    assign ref_prev_clks[2*b +: 2] = pclk;
    assign n_raced[b] = nr;
    assign n_wslot[b] = nws;
    assign n_wclk[2*b +: 2] = nwc;
    assign n_rslot[b] = nrs;
    assign n_rclk[2*b +: 2] = nrc;
    assign n_sh[b] = nsh;
    assign n_vc[4*b +: 4] = nvc;
  end

  // What the engine said about the retiring command.
  logic escalated, handover, reported, full_free, spill_now;
  logic [3:0] spilled_now;
  assign escalated = esc_valid && esc_seq == done_q && esc_granule == Watch &&
                     (esc_reason == rac_pkg::EscInSoftware || esc_reason == rac_pkg::EscReadShare ||
                      esc_reason == rac_pkg::EscForced);
  assign reported  = race_valid && race_seq == done_q;
  assign full_free = is_free && r_mask == 2'b11;
  assign handover  = acc && escalated && !insw_q;
  // A read-clock spill of granule 0 (a displacement by granule 1's READ
  // SHARE, or the eviction spill): the host keeps that clock.
  assign spill_now   = esc_valid && esc_granule == Watch && esc_reason == rac_pkg::EscReadVcSpill;
  assign spilled_now = spill_now ? esc_rvc : spilled_q;

  always @(posedge clk_i) begin
    if (rst_i) begin
      raced_q <= '0;
      wslot_q <= '0;
      wclk_q <= '0;
      rslot_q <= '0;
      rclk_q <= '0;
      sh_q <= '0;
      vc_q <= '0;
      insw_q <= 1'b0;
      spilled_q <= '0;
    end else begin
      raced_q <= n_raced;
      wslot_q <= n_wslot;
      wclk_q <= n_wclk;
      rslot_q <= n_rslot;
      rclk_q <= n_rclk;
      sh_q <= n_sh;
      vc_q <= n_vc;
      spilled_q <= spilled_now;
      if (acc && full_free) insw_q <= 1'b0;
      else if (acc && escalated) insw_q <= 1'b1;
    end
  end

  // A line as the host would read it (the record's or the write-back's)
  // against the reference, for bytes 0 and 1: raced flags; for bytes not
  // raced, W, whether shared, R for unshared bytes; for shared bytes the
  // read clock: the record's when the pool held it (then R is empty),
  // else (LASTWRITE) the host's join of the last spilled clock with R, which
  // lacks only reads ordered before R: at most the reference's clock and
  // equal to it in R's lane.
  function automatic logic line_matches(input logic [LineW-1:0] l, input logic rvc_valid, input logic [3:0] rvc,
                                        input logic [3:0] spilled, input logic [1:0] raced, input logic [1:0] wslot,
                                        input logic [3:0] wclk, input logic [1:0] rslot, input logic [3:0] rclk,
                                        input logic [1:0] sh, input logic [7:0] vcs);
    logic       ok, e_raced, e_wslot, e_rslot, e_sh;
    logic [1:0] e_wclk, e_rclk;
    logic [3:0] rv, host_vc;
    ok = 1'b1;
    for (int b = 0; b < 2; b++) begin
      e_raced = l[ByteLo + b * ByteW + RacedLo];
      e_wslot = l[ByteLo + b * ByteW + WSlotLo];
      e_wclk  = l[ByteLo + b * ByteW + WClkLo +: 2];
      e_rslot = l[ByteLo + b * ByteW + RSlotLo];
      e_rclk  = l[ByteLo + b * ByteW + RClkLo +: 2];
      e_sh    = l[SharedLo + b];
      rv      = vcs[4*b +: 4];
      host_vc = join2(spilled, e_rslot ? {e_rclk, 2'd0} : {2'd0, e_rclk});
      if (e_raced != raced[b]) ok = 1'b0;
      if (!raced[b]) begin
        if (e_wslot != wslot[b] || e_wclk != wclk[2*b +: 2] || e_sh != sh[b]) ok = 1'b0;
        if (!sh[b] && (e_rslot != rslot[b] || e_rclk != rclk[2*b +: 2])) ok = 1'b0;
        if (sh[b] && rvc_valid && (rvc != rv || e_rslot != 1'b0 || e_rclk != 2'd0)) ok = 1'b0;
        if (sh[b] && !rvc_valid && (join2(host_vc, rv) != rv || lane(host_vc, e_rslot) != lane(rv, e_rslot))) ok = 1'b0;
      end
    end
    line_matches = ok;
  endfunction

  // Immediate assertions: checked in the cycle the verdict is visible
  // (one step less of BMC than sampling them at the next edge).
  always @(*) begin
    if (!rst_i && acc) begin
      if (is_read || is_write) begin
        EscalatedNotReported: assert (!(escalated && reported));
        if (!escalated) begin
          RaceVerdictMatches: assert ((reported ? race_mask[1:0] : 2'b00) == ref_race &&
                                      (!reported || (race_kinds[3:0] == ref_kinds &&
                                                     race_prev_slots[1:0] == ref_prev_slots &&
                                                     race_prev_clks[3:0] == ref_prev_clks)));
        end
      end
      HostOwnedEscalates: assert (!((r_force || insw_q) && !full_free && (is_read || is_write || is_free) && !escalated));
      if (handover) begin
        HandoverCarriesState: assert (!esc_line[InSwBit] && line_matches(esc_line, esc_rvc_valid, esc_rvc, spilled_q, raced_q, wslot_q, wclk_q, rslot_q, rclk_q, sh_q, vc_q));
      end
    end
    if (!rst_i && mem_req_valid && mem_req_write && mem_req_granule == Watch) begin
      WritebackCarriesState: assert (mem_req_data[InSwBit] == insw_q &&
                                     (insw_q || line_matches(mem_req_data, 1'b0, 4'd0, spilled_now, raced_q, wslot_q, wclk_q, rslot_q, rclk_q, sh_q, vc_q)));
    end
  end
endmodule
