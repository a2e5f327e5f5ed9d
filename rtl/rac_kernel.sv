// rac_kernel: the check engine as a Vitis RTL kernel (ap_ctrl_hs), the
// contract of docs/kernel-interface.md.
//
//   s_axi_control ─► rac_axil_ctrl ──args──► launch FSM (below)
//   m_axi_cmd  ─► rac_cmd_reader ─words─► rac_cmd_decoder ─cmds─► rac_cmd_fifo ─► rac_check_engine
//                                     rac_miss_ahead (shadow tags) ◄─┘ hints ─► rac_meta_port
//   rac_check_engine ─races──────────────► rac_record_writer (64 B) ─► m_axi_race
//   rac_check_engine ─escalations─┬──────► rac_record_writer (128 B) ─► m_axi_esc
//   rac_meta_port ─spills─────────┘
//   rac_check_engine ◄─fill/write-back─► rac_meta_port ◄─► m_axi_meta (bucket table)
//
// One launch is one batch: take ap_start, check the arguments (status 2 on
// a violation), optionally clear the checker state (the engine is reset,
// which invalidates its cache, and every thread row and sync object is
// zeroed; statistics carry over), stream the words through the engine,
// and finish when every word is consumed, the engine is idle and every
// record has its B response. The checker's state persists between launches.
//
// A device-memory access answered with SLVERR or DECERR (any m_axi port)
// ends the batch cleanly: the command reader stops, the decoder takes no
// further word, what is in flight drains (every burst still gets its
// responses), and the batch finishes with status 4 (status_bus_error) and
// bit 8 + p set for each port p that saw an error (0 cmd, 1 race, 2 esc,
// 3 meta). The bucket table may then disagree with the chip: the host must
// start again with clear_state.
//
// ReadVcs > 0 turns on the engine's read-VC pool (cap_read_vcs): lines gain
// the shared-byte mask, escalation records carry the read clock after byte
// 128 (cap_esc_record_bytes) and reason 5 (read-clock spill) appears; the
// engine spills an evicted line's clock, so one command can make three
// escalation records and esc_capacity must be 3 × command_words
// (docs/kernel-interface.md, "Bucket spills and the read-VC pool").
// ReadVcWays > 1 makes the pool set-associative (cap_read_vc_ways): a line
// holds up to that many read clocks, each for its own shared bytes (byte 18
// of an escalation record names them), op 8 imports a further clock, and
// one command can make 2 × ReadVcWays + 1 escalation records
// (docs/kernel-interface.md, "Several read clocks per line").
//
// Port names follow Vitis (ap_clk, ap_rst_n, s_axi_control_*, m_axi_<name>_*,
// interrupt) rather than the _i/_o convention of the inner modules.
`include "rac_assert.svh"

module rac_kernel #(
  parameter int unsigned NumSlots   = 8,
  parameter int unsigned ClkW       = 32,
  parameter int unsigned Sets       = 256,
  parameter int unsigned Ways       = 4,
  parameter int unsigned ReplPolicy = 0,
  parameter int unsigned Objects    = 16,  // sync-object store entries (cap_objects; a power of two)
  parameter int unsigned ReadVcs    = 16,  // read-VC pool entries (cap_read_vcs; 0 or a power of two)
  parameter int unsigned ReadVcWays = 1,   // ways per pool set (cap_read_vc_ways; a power of two <= 8, <= ReadVcs)
  parameter int unsigned BucketWays = 4,   // ways per metadata bucket (cap_bucket_ways; a power of two <= 8)
  parameter int unsigned CmdFifoDepth = 128,  // decoded commands ahead of the engine: the miss-ahead window
  parameter int unsigned CmdReaderBeats = 128,  // the command reader's FIFO (512-bit beats): bursts in flight
  parameter int unsigned PrefetchEntries = 8,  // bucket reads the meta port runs ahead of the engine's misses
  // Derived (as in rac_check_engine; the line layout from the register-map
  // JSON through the generated rac_line_layout_pkg)
  parameter int unsigned SlotW = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned LineW = rac_line_layout_pkg::LineBits(SlotW, ClkW, ReadVcs),
  // Escalation records: 128 bytes, and with a pool the read clock after
  // them in whole 64-byte beats (cap_esc_record_bytes).
  parameter int unsigned EscRecBytes = (ReadVcs > 0) ? 128 + 64 * ((NumSlots * ClkW + 511) / 512) : 128
) (
  input  logic         ap_clk,
  input  logic         ap_rst_n,

  input  logic         s_axi_control_awvalid,
  output logic         s_axi_control_awready,
  input  logic [11:0]  s_axi_control_awaddr,
  input  logic         s_axi_control_wvalid,
  output logic         s_axi_control_wready,
  input  logic [31:0]  s_axi_control_wdata,
  input  logic [3:0]   s_axi_control_wstrb,
  output logic         s_axi_control_bvalid,
  input  logic         s_axi_control_bready,
  output logic [1:0]   s_axi_control_bresp,
  input  logic         s_axi_control_arvalid,
  output logic         s_axi_control_arready,
  input  logic [11:0]  s_axi_control_araddr,
  output logic         s_axi_control_rvalid,
  input  logic         s_axi_control_rready,
  output logic [31:0]  s_axi_control_rdata,
  output logic [1:0]   s_axi_control_rresp,

  // m_axi_cmd: command words (read only)
  output logic         m_axi_cmd_arvalid,
  input  logic         m_axi_cmd_arready,
  output logic [63:0]  m_axi_cmd_araddr,
  output logic [7:0]   m_axi_cmd_arlen,
  output logic [2:0]   m_axi_cmd_arsize,
  output logic [1:0]   m_axi_cmd_arburst,
  input  logic         m_axi_cmd_rvalid,
  output logic         m_axi_cmd_rready,
  input  logic [511:0] m_axi_cmd_rdata,
  input  logic         m_axi_cmd_rlast,
  input  logic [1:0]   m_axi_cmd_rresp,

  // m_axi_race: race records (write only)
  output logic         m_axi_race_awvalid,
  input  logic         m_axi_race_awready,
  output logic [63:0]  m_axi_race_awaddr,
  output logic [7:0]   m_axi_race_awlen,
  output logic [2:0]   m_axi_race_awsize,
  output logic [1:0]   m_axi_race_awburst,
  output logic         m_axi_race_wvalid,
  input  logic         m_axi_race_wready,
  output logic [511:0] m_axi_race_wdata,
  output logic [63:0]  m_axi_race_wstrb,
  output logic         m_axi_race_wlast,
  input  logic         m_axi_race_bvalid,
  output logic         m_axi_race_bready,
  input  logic [1:0]   m_axi_race_bresp,

  // m_axi_esc: escalation records (write only)
  output logic         m_axi_esc_awvalid,
  input  logic         m_axi_esc_awready,
  output logic [63:0]  m_axi_esc_awaddr,
  output logic [7:0]   m_axi_esc_awlen,
  output logic [2:0]   m_axi_esc_awsize,
  output logic [1:0]   m_axi_esc_awburst,
  output logic         m_axi_esc_wvalid,
  input  logic         m_axi_esc_wready,
  output logic [511:0] m_axi_esc_wdata,
  output logic [63:0]  m_axi_esc_wstrb,
  output logic         m_axi_esc_wlast,
  input  logic         m_axi_esc_bvalid,
  output logic         m_axi_esc_bready,
  input  logic [1:0]   m_axi_esc_bresp,

  // m_axi_meta: the bucket table
  output logic         m_axi_meta_arvalid,
  input  logic         m_axi_meta_arready,
  output logic [63:0]  m_axi_meta_araddr,
  output logic [7:0]   m_axi_meta_arlen,
  output logic [2:0]   m_axi_meta_arsize,
  output logic [1:0]   m_axi_meta_arburst,
  input  logic         m_axi_meta_rvalid,
  output logic         m_axi_meta_rready,
  input  logic [511:0] m_axi_meta_rdata,
  input  logic         m_axi_meta_rlast,
  input  logic [1:0]   m_axi_meta_rresp,
  output logic         m_axi_meta_awvalid,
  input  logic         m_axi_meta_awready,
  output logic [63:0]  m_axi_meta_awaddr,
  output logic [7:0]   m_axi_meta_awlen,
  output logic [2:0]   m_axi_meta_awsize,
  output logic [1:0]   m_axi_meta_awburst,
  output logic         m_axi_meta_wvalid,
  input  logic         m_axi_meta_wready,
  output logic [511:0] m_axi_meta_wdata,
  output logic [63:0]  m_axi_meta_wstrb,
  output logic         m_axi_meta_wlast,
  input  logic         m_axi_meta_bvalid,
  output logic         m_axi_meta_bready,
  input  logic [1:0]   m_axi_meta_bresp,

  // Vitis requires exactly this name (Verilator calls it __SYM__interrupt in C++).
  /* verilator lint_off SYMRSVDWORD */
  output logic         interrupt
  /* verilator lint_on SYMRSVDWORD */
);

  localparam int unsigned GranW = 61;
  localparam int unsigned SeqW  = 32;
  localparam int unsigned RowW  = NumSlots * ClkW;
  localparam logic [2:0] Size64Bytes = 3'b110;
  localparam logic [1:0] BurstIncr = 2'b01;
  localparam logic [1:0] StatusBadArgs = 2'(rac_kernel_regs_pkg::StatusBadArgs);
  localparam logic [2:0] OpRead = 3'(rac_kernel_regs_pkg::OpRead);
  localparam logic [2:0] OpWrite = 3'(rac_kernel_regs_pkg::OpWrite);
  localparam logic [2:0] OpFree = 3'(rac_kernel_regs_pkg::OpFree);
  localparam logic [2:0] OpImportLine = 3'(rac_kernel_regs_pkg::OpImportLine);
  localparam int unsigned WayW = (Ways > 1) ? $clog2(Ways) : 1;

  // The registered, active-high reset (UG1393: pipeline ap_rst_n). It starts
  // high (the FPGA's configuration sets the flop's INIT value), so the
  // kernel is in reset from its first cycle, before ap_rst_n is sampled.
  logic rst = 1'b1;
  always_ff @(posedge ap_clk) rst <= !ap_rst_n;

  // ---------------------------------------------------------------------------
  // Control slave
  // ---------------------------------------------------------------------------
  logic        ap_start, take, done;
  logic [63:0] a_commands, a_races, a_escalations, a_buckets;
  logic [31:0] a_words, a_flags, a_race_cap, a_esc_cap, a_bucket_bits;
  logic [31:0] res_status_q, res_races_q, res_escs_q, res_words_q;
  logic [63:0] stat_cycles_q, stat_busy_q, stat_races_q;
  logic [63:0] stat_commands, stat_accesses, stat_misses, stat_writebacks, stat_escalations, stat_spills;
  logic [63:0] stat_prefetch_hits;  // fills answered by a miss-ahead read (not a register yet)

  rac_axil_ctrl #(
    .NumSlots(NumSlots), .ClkW(ClkW), .Sets(Sets), .Ways(Ways), .LineW(LineW), .Objects(Objects),
    .ReadVcs(ReadVcs), .ReadVcWays(ReadVcWays), .EscRecBytes(EscRecBytes), .BucketWays(BucketWays)
  ) u_ctrl (
    .clk_i(ap_clk), .rst_i(rst),
    .awvalid_i(s_axi_control_awvalid), .awready_o(s_axi_control_awready), .awaddr_i(s_axi_control_awaddr),
    .wvalid_i(s_axi_control_wvalid), .wready_o(s_axi_control_wready), .wdata_i(s_axi_control_wdata),
    .wstrb_i(s_axi_control_wstrb),
    .bvalid_o(s_axi_control_bvalid), .bready_i(s_axi_control_bready), .bresp_o(s_axi_control_bresp),
    .arvalid_i(s_axi_control_arvalid), .arready_o(s_axi_control_arready), .araddr_i(s_axi_control_araddr),
    .rvalid_o(s_axi_control_rvalid), .rready_i(s_axi_control_rready), .rdata_o(s_axi_control_rdata),
    .rresp_o(s_axi_control_rresp),
    .interrupt_o(interrupt),
    .ap_start_o(ap_start), .take_i(take), .done_i(done),
    .commands_o(a_commands), .command_words_o(a_words), .flags_o(a_flags),
    .races_o(a_races), .race_capacity_o(a_race_cap),
    .escalations_o(a_escalations), .esc_capacity_o(a_esc_cap),
    .buckets_o(a_buckets), .bucket_bits_o(a_bucket_bits),
    .status_i(res_status_q), .races_written_i(res_races_q), .escalations_written_i(res_escs_q),
    .words_done_i(res_words_q),
    .stat_cycles_i(stat_cycles_q), .stat_busy_cycles_i(stat_busy_q), .stat_commands_i(stat_commands),
    .stat_accesses_i(stat_accesses), .stat_misses_i(stat_misses), .stat_writebacks_i(stat_writebacks),
    .stat_escalations_i(stat_escalations), .stat_spills_i(stat_spills), .stat_races_i(stat_races_q)
  );

  // ---------------------------------------------------------------------------
  // Launch FSM
  // ---------------------------------------------------------------------------
  typedef enum logic [2:0] {KIdle, KCheck, KClear, KClearWait, KStart, KRun, KFinish} kstate_e;
  kstate_e kstate_q;

  // The batch's arguments, latched when it is taken.
  logic [63:0] commands_q, races_q, escalations_q, buckets_q;
  logic [31:0] words_q, race_cap_q, esc_cap_q;
  logic        clear_flag_q;
  logic [4:0]  bucket_bits_q;
  logic        args_bad_q;

  logic dec_busy, dec_done, dec_stop, rd_idle, eng_idle, meta_idle, race_idle, esc_idle;
  logic [1:0]  dec_status;
  logic [31:0] dec_words_done, race_count, esc_count;
  logic        eng_clear, dec_zero_rows, batch_start;
  // Bus errors of this batch, per port (bit 0 cmd, 1 race, 2 esc, 3 meta).
  logic        cmd_bus_error, race_bus_error, esc_bus_error, meta_bus_error;
  logic [3:0]  bus_error_q;
  logic        bus_failed;
  assign bus_failed = bus_error_q != 4'd0;

  assign take          = kstate_q == KIdle && ap_start && !dec_busy;
  assign eng_clear     = kstate_q == KClear;
  assign dec_zero_rows = kstate_q == KClear;
  assign batch_start   = kstate_q == KStart;
  assign done          = kstate_q == KFinish;

  // Escalation records one command can make: its own and the bucket spill
  // of the line its miss evicts, and with a pool the spills of that line's
  // read clocks (up to ReadVcWays) and of its own line's other clocks
  // before its escalation (ReadVcWays - 1), or of one displaced clock:
  // 2 × ReadVcWays + 1.
  localparam int unsigned EscPerWord = (ReadVcs > 0) ? 2 * ((ReadVcWays > 1) ? ReadVcWays : 1) + 1 : 2;
  logic [35:0] esc_needed;
  assign esc_needed = 36'(a_words) * 36'(EscPerWord);
  logic args_bad;
  assign args_bad = a_race_cap < a_words ||
                    36'(a_esc_cap) < esc_needed ||
                    a_bucket_bits == 32'd0 || a_bucket_bits > 32'd30 ||
                    a_commands[3:0] != 4'd0 || a_races[5:0] != 6'd0 ||
                    a_escalations[5:0] != 6'd0 || a_buckets[11:0] != 12'd0;

  always_ff @(posedge ap_clk) begin
    if (rst) begin
      kstate_q <= KIdle;
      res_status_q <= '0;
      res_races_q <= '0;
      res_escs_q <= '0;
      res_words_q <= '0;
      bus_error_q <= '0;
    end else begin
      case (kstate_q)
        KIdle: if (take) kstate_q <= KCheck;
        KCheck: begin
          if (args_bad_q) begin
            kstate_q <= KFinish;
            res_status_q <= 32'(StatusBadArgs);
            res_races_q <= '0;
            res_escs_q <= '0;
            res_words_q <= '0;
          end else if (!clear_flag_q) begin
            kstate_q <= KStart;
          end else if (eng_idle && meta_idle && cmd_fifo_empty) begin  // nothing in flight (rows zeroed after reset)
            kstate_q <= KClear;
          end
        end
        KClear: kstate_q <= KClearWait;
        KClearWait: if (!dec_busy) kstate_q <= KStart;
        KStart: kstate_q <= KRun;
        KRun: begin
          if (dec_done && rd_idle && cmd_fifo_empty && eng_idle && meta_idle && race_idle && esc_idle) begin
            kstate_q <= KFinish;
            res_status_q <= bus_failed ? {20'd0, bus_error_q, 8'(rac_kernel_regs_pkg::StatusBusError)}
                                       : {30'd0, dec_status};
            res_races_q <= race_count;
            res_escs_q <= esc_count;
            res_words_q <= dec_words_done;
          end
        end
        KFinish: kstate_q <= KIdle;
        default: kstate_q <= KIdle;
      endcase
      if (take) begin
        bus_error_q <= '0;
      end else begin
        bus_error_q <= bus_error_q | {meta_bus_error, esc_bus_error, race_bus_error, cmd_bus_error};
      end
    end
    if (take) begin
      commands_q <= a_commands;
      words_q <= a_words;
      clear_flag_q <= a_flags[0];
      races_q <= a_races;
      race_cap_q <= a_race_cap;
      escalations_q <= a_escalations;
      esc_cap_q <= a_esc_cap;
      buckets_q <= a_buckets;
      bucket_bits_q <= a_bucket_bits[4:0];
      args_bad_q <= args_bad;
    end
  end

  // ---------------------------------------------------------------------------
  // Command path: reader → decoder → engine
  // ---------------------------------------------------------------------------
  logic         word_valid, word_ready;
  logic [127:0] word;

  rac_cmd_reader #(.FifoDepth(CmdReaderBeats)) u_reader (
    .clk_i(ap_clk), .rst_i(rst),
    .start_i(batch_start), .base_i(commands_q), .words_i(words_q), .stop_i(dec_stop || bus_failed),
    .idle_o(rd_idle),
    .word_valid_o(word_valid), .word_ready_i(word_ready), .word_o(word),
    .arvalid_o(m_axi_cmd_arvalid), .arready_i(m_axi_cmd_arready), .araddr_o(m_axi_cmd_araddr),
    .arlen_o(m_axi_cmd_arlen),
    .rvalid_i(m_axi_cmd_rvalid), .rready_o(m_axi_cmd_rready), .rdata_i(m_axi_cmd_rdata), .rlast_i(m_axi_cmd_rlast),
    .rresp_i(m_axi_cmd_rresp), .bus_error_o(cmd_bus_error)
  );
  assign m_axi_cmd_arsize  = Size64Bytes;
  assign m_axi_cmd_arburst = BurstIncr;

  logic             cmd_valid, cmd_ready, cmd_force, cmd_atomic, cmd_zeroing;
  logic             cmd_fifo_empty;
  logic [2:0]       cmd_op;
  logic [SlotW-1:0] cmd_slot;
  logic [7:0]       cmd_mask;
  logic [GranW-1:0] cmd_granule;
  logic [SeqW-1:0]  cmd_seq;
  logic [RowW-1:0]  cmd_row;
  logic [LineW-1:0] cmd_line;

  rac_cmd_decoder #(
    .NumSlots(NumSlots), .ClkW(ClkW), .GranW(GranW), .SeqW(SeqW), .Objects(Objects), .LineW(LineW),
    .ReadVcs(ReadVcs), .ReadVcWays(ReadVcWays)
  ) u_decoder (
    .clk_i(ap_clk), .rst_i(rst),
    .start_i(batch_start), .words_i(words_q), .zero_rows_i(dec_zero_rows), .abort_i(bus_failed),
    .busy_o(dec_busy),
    .done_o(dec_done), .status_o(dec_status), .words_done_o(dec_words_done), .stop_o(dec_stop),
    .word_valid_i(word_valid), .word_ready_o(word_ready), .word_i(word),
    .cmd_valid_o(cmd_valid), .cmd_ready_i(cmd_ready), .cmd_op_o(cmd_op), .cmd_force_sw_o(cmd_force),
    .cmd_atomic_o(cmd_atomic),
    .cmd_slot_o(cmd_slot), .cmd_mask_o(cmd_mask), .cmd_granule_o(cmd_granule), .cmd_seq_o(cmd_seq),
    .cmd_row_o(cmd_row), .cmd_line_o(cmd_line), .cmd_zeroing_o(cmd_zeroing)
  );


  // ---------------------------------------------------------------------------
  // Command FIFO and miss-ahead hints: the decoder runs ahead of the engine
  // (while a miss waits, up to CmdFifoDepth commands), and every lookup
  // command entering the FIFO whose granule the engine's cache does not hold
  // (rac_miss_ahead's shadow of its tags) has its bucket read by the meta
  // port before the engine misses on it.
  // ---------------------------------------------------------------------------
  localparam int unsigned CmdW = 3 + 3 + SlotW + 8 + GranW + SeqW + RowW + LineW;
  logic             eng_cmd_valid, eng_cmd_ready, eng_cmd_force, eng_cmd_atomic, eng_cmd_zeroing;
  logic [2:0]       eng_cmd_op;
  logic [SlotW-1:0] eng_cmd_slot;
  logic [7:0]       eng_cmd_mask;
  logic [GranW-1:0] eng_cmd_granule;
  logic [SeqW-1:0]  eng_cmd_seq;
  logic [RowW-1:0]  eng_cmd_row;
  logic [LineW-1:0] eng_cmd_line;
  // The decoder waits while the meta port's hint queue is nearly full, so
  // no hint is lost (the look-ahead is then that many misses).
  logic cmd_fifo_ready, hint_room;
  assign cmd_ready = cmd_fifo_ready && hint_room;
  // The engine has looked up every command taken before the last three it
  // took (SN, S0 and S1 hold one each): their hints and entries are dead.
  logic [SeqW-1:0] taken_seq_q [3];
  logic [SeqW-1:0] passed_seq;
  always_ff @(posedge ap_clk) begin
    if (rst || batch_start) begin
      taken_seq_q[0] <= '0;
      taken_seq_q[1] <= '0;
      taken_seq_q[2] <= '0;
    end else if (eng_cmd_valid && eng_cmd_ready && !eng_cmd_zeroing) begin
      taken_seq_q[0] <= eng_cmd_seq;
      taken_seq_q[1] <= taken_seq_q[0];
      taken_seq_q[2] <= taken_seq_q[1];
    end
  end
  assign passed_seq = taken_seq_q[2];
  rac_cmd_fifo #(.Width(CmdW), .Depth(CmdFifoDepth)) u_cmd_fifo (
    .clk_i(ap_clk), .rst_i(rst),
    .in_valid_i(cmd_valid && hint_room), .in_ready_o(cmd_fifo_ready),
    .in_data_i({cmd_op, cmd_force, cmd_atomic, cmd_zeroing, cmd_slot, cmd_mask, cmd_granule, cmd_seq, cmd_row,
                cmd_line}),
    .out_valid_o(eng_cmd_valid), .out_ready_i(eng_cmd_ready),
    .out_data_o({eng_cmd_op, eng_cmd_force, eng_cmd_atomic, eng_cmd_zeroing, eng_cmd_slot, eng_cmd_mask,
                 eng_cmd_granule, eng_cmd_seq, eng_cmd_row, eng_cmd_line}),
    .empty_o(cmd_fifo_empty)
  );

  logic            fill_install, hint_valid, batch_end;
  // Every command of the batch looked up: what is left of the miss-ahead
  // state is dropped (so the meta port goes idle and the batch can end).
  assign batch_end = kstate_q == KRun && dec_done && cmd_fifo_empty && eng_idle;
  logic [WayW-1:0] fill_way;
  logic [GranW-1:0] hint_granule;
  logic [SeqW-1:0]  hint_seq;
  rac_miss_ahead #(.Sets(Sets), .Ways(Ways), .GranW(GranW), .SeqW(SeqW)) u_miss_ahead (
    .clk_i(ap_clk), .rst_i(rst || eng_clear), .flush_i(batch_start),
    .cmd_fire_i(cmd_valid && cmd_ready && !cmd_force),
    .cmd_lookup_i(cmd_op == OpRead || cmd_op == OpWrite || cmd_op == OpFree || cmd_op == OpImportLine),
    .cmd_granule_i(cmd_granule), .cmd_seq_i(cmd_seq),
    .install_i(fill_install), .install_granule_i(mem_req_granule), .install_way_i(fill_way),
    .hint_valid_o(hint_valid), .hint_granule_o(hint_granule), .hint_seq_o(hint_seq)
  );

  // ---------------------------------------------------------------------------
  // The engine
  // ---------------------------------------------------------------------------
  logic               race_valid, race_ready;
  logic [SeqW-1:0]    race_seq;
  logic [GranW-1:0]   race_granule;
  logic [7:0]         race_mask;
  logic [15:0]        race_kinds;
  logic [8*SlotW-1:0] race_prev_slots;
  logic [8*ClkW-1:0]  race_prev_clks;
  logic               esc_valid, esc_ready;
  logic [SeqW-1:0]    esc_seq;
  logic [2:0]         esc_reason;
  logic               esc_rvc_valid;  // the record carries the shared bytes' read clock
  logic [7:0]         esc_rvc_mask;   // the shared bytes it covers (0: all)
  logic [NumSlots*ClkW-1:0] esc_rvc;
  logic [GranW-1:0]   esc_granule;
  logic [LineW-1:0]   esc_line;
  logic               mem_req_valid, mem_req_ready, mem_req_write, mem_wack, mem_rsp_valid;
  logic [GranW-1:0]   mem_req_granule;
  logic [LineW-1:0]   mem_req_data, mem_rsp_data;
  logic [SeqW-1:0]    mem_req_seq;
  logic [63:0]        eng_cycles, eng_commands, eng_accesses, eng_misses, eng_writebacks, eng_escalations;

  rac_check_engine #(
    .NumSlots(NumSlots), .ClkW(ClkW), .Sets(Sets), .Ways(Ways), .ReplPolicy(ReplPolicy),
    .GranW(GranW), .SeqW(SeqW), .Objects(Objects), .ReadVcs(ReadVcs), .ReadVcWays(ReadVcWays)
  ) u_engine (
    .clk_i(ap_clk), .rst_i(rst || eng_clear),
    .cmd_valid_i(eng_cmd_valid), .cmd_ready_o(eng_cmd_ready), .cmd_op_i(eng_cmd_op),
    .cmd_force_sw_i(eng_cmd_force), .cmd_atomic_i(eng_cmd_atomic),
    .cmd_slot_i(eng_cmd_slot), .cmd_mask_i(eng_cmd_mask), .cmd_granule_i(eng_cmd_granule),
    .cmd_seq_i(eng_cmd_seq), .cmd_row_i(eng_cmd_row), .cmd_line_i(eng_cmd_line),
    .race_valid_o(race_valid), .race_ready_i(race_ready), .race_seq_o(race_seq), .race_granule_o(race_granule),
    .race_mask_o(race_mask), .race_kinds_o(race_kinds), .race_prev_slots_o(race_prev_slots),
    .race_prev_clks_o(race_prev_clks),
    .esc_valid_o(esc_valid), .esc_ready_i(esc_ready), .esc_seq_o(esc_seq), .esc_reason_o(esc_reason),
    .esc_granule_o(esc_granule), .esc_line_o(esc_line), .esc_rvc_valid_o(esc_rvc_valid), .esc_rvc_o(esc_rvc),
    .esc_rvc_mask_o(esc_rvc_mask),
    .mem_req_valid_o(mem_req_valid), .mem_req_ready_i(mem_req_ready), .mem_req_write_o(mem_req_write),
    .mem_req_granule_o(mem_req_granule), .mem_req_data_o(mem_req_data), .mem_req_seq_o(mem_req_seq),
    .mem_wack_i(mem_wack), .mem_rsp_valid_i(mem_rsp_valid), .mem_rsp_data_i(mem_rsp_data),
    .fill_install_o(fill_install), .fill_way_o(fill_way),
    .stat_cycles_o(eng_cycles), .stat_commands_o(eng_commands), .stat_accesses_o(eng_accesses),
    .stat_misses_o(eng_misses), .stat_writebacks_o(eng_writebacks), .stat_escalations_o(eng_escalations),
    .idle_o(eng_idle)
  );

  // ---------------------------------------------------------------------------
  // Backing store
  // ---------------------------------------------------------------------------
  logic             spill_valid, spill_ready;
  logic [SeqW-1:0]  spill_seq;
  logic [GranW-1:0] spill_granule;
  logic [LineW-1:0] spill_line;

  rac_meta_port #(
    .LineW(LineW), .GranW(GranW), .SeqW(SeqW), .BucketWays(BucketWays), .PrefetchEntries(PrefetchEntries)
  ) u_meta (
    .clk_i(ap_clk), .rst_i(rst),
    .hint_valid_i(hint_valid), .hint_granule_i(hint_granule), .hint_seq_i(hint_seq),
    .flush_i(batch_start || batch_end), .passed_seq_i(passed_seq), .hint_room_o(hint_room),
    .stat_prefetch_hits_o(stat_prefetch_hits),
    .base_i(buckets_q), .bucket_bits_i(bucket_bits_q),
    .req_valid_i(mem_req_valid), .req_ready_o(mem_req_ready), .req_write_i(mem_req_write),
    .req_granule_i(mem_req_granule), .req_data_i(mem_req_data), .req_seq_i(mem_req_seq),
    .wack_o(mem_wack), .rsp_valid_o(mem_rsp_valid), .rsp_data_o(mem_rsp_data),
    .spill_valid_o(spill_valid), .spill_ready_i(spill_ready), .spill_seq_o(spill_seq),
    .spill_granule_o(spill_granule), .spill_line_o(spill_line),
    .stat_spills_o(stat_spills), .idle_o(meta_idle),
    .arvalid_o(m_axi_meta_arvalid), .arready_i(m_axi_meta_arready), .araddr_o(m_axi_meta_araddr),
    .arlen_o(m_axi_meta_arlen),
    .rvalid_i(m_axi_meta_rvalid), .rready_o(m_axi_meta_rready), .rdata_i(m_axi_meta_rdata),
    .rlast_i(m_axi_meta_rlast),
    .awvalid_o(m_axi_meta_awvalid), .awready_i(m_axi_meta_awready), .awaddr_o(m_axi_meta_awaddr),
    .awlen_o(m_axi_meta_awlen),
    .wvalid_o(m_axi_meta_wvalid), .wready_i(m_axi_meta_wready), .wdata_o(m_axi_meta_wdata),
    .wstrb_o(m_axi_meta_wstrb), .wlast_o(m_axi_meta_wlast),
    .bvalid_i(m_axi_meta_bvalid), .bready_o(m_axi_meta_bready),
    .rresp_i(m_axi_meta_rresp), .bresp_i(m_axi_meta_bresp), .bus_error_o(meta_bus_error)
  );
  assign m_axi_meta_arsize  = Size64Bytes;
  assign m_axi_meta_arburst = BurstIncr;
  assign m_axi_meta_awsize  = Size64Bytes;
  assign m_axi_meta_awburst = BurstIncr;

  // ---------------------------------------------------------------------------
  // Records
  // ---------------------------------------------------------------------------
  // Race record (64 bytes): word index, granule, mask, kinds, per lane the
  // earlier access's slot (byte) and clock (u32).
  logic [511:0] race_rec;
  always_comb begin
    race_rec = '0;
    race_rec[63:0]    = 64'(race_seq);
    race_rec[127:64]  = 64'(race_granule);
    race_rec[135:128] = race_mask;
    race_rec[151:136] = race_kinds;
    for (int b = 0; b < 8; b++) begin
      race_rec[160 + 8*b +: 8]  = 8'(race_prev_slots[b*SlotW +: SlotW]);
      race_rec[224 + 32*b +: 32] = 32'(race_prev_clks[b*ClkW +: ClkW]);
    end
  end

  // Escalation record (EscRecBytes): word index, granule, reason, at byte 17
  // the read-clock flag, the line at byte 24 and (with a pool) the read
  // clock at byte 128, lanes of ClkW bits as in set-row data — zero unless
  // the flag is set (the engine's clock output is the pool entry's,
  // whatever granule it holds). Engine escalations go first: a spill waits
  // until the engine's escalation register is empty, so a record of an
  // earlier command (the engine's) precedes the spill made by a later
  // command's miss, and the engine cannot escalate again before the spill
  // is taken (its miss waits for the write-back acknowledgement).
  localparam int unsigned EscBits = 8 * EscRecBytes;
  logic               escw_valid, escw_ready;
  logic [EscBits-1:0] esc_rec;
  assign escw_valid  = esc_valid || spill_valid;
  assign esc_ready   = escw_ready;
  assign spill_ready = escw_ready && !esc_valid;
  logic [EscBits-1:0] esc_rec_clock;
  if (ReadVcs > 0) begin : g_rec_clock
    always_comb begin
      esc_rec_clock = '0;
      if (esc_valid && esc_rvc_valid) esc_rec_clock[1024 +: RowW] = esc_rvc;
    end
  end else begin : g_no_rec_clock
    assign esc_rec_clock = '0;
  end
  always_comb begin
    esc_rec = esc_rec_clock;
    if (esc_valid) begin
      esc_rec[63:0]    = 64'(esc_seq);
      esc_rec[127:64]  = 64'(esc_granule);
      esc_rec[135:128] = 8'(esc_reason);
      esc_rec[136]     = esc_rvc_valid;
      esc_rec[151:144] = esc_rvc_valid ? esc_rvc_mask : 8'h00;  // esc_clock_mask_byte
      esc_rec[192 +: LineW] = esc_line;
    end else begin
      esc_rec[63:0]    = 64'(spill_seq);
      esc_rec[127:64]  = 64'(spill_granule);
      esc_rec[135:128] = 8'(rac_kernel_regs_pkg::ReasonSpill);
      esc_rec[192 +: LineW] = spill_line;
    end
  end

  rac_record_writer #(.RecBytes(64)) u_race_writer (
    .clk_i(ap_clk), .rst_i(rst),
    .start_i(batch_start), .base_i(races_q), .capacity_i(race_cap_q), .count_o(race_count), .idle_o(race_idle),
    .rec_valid_i(race_valid), .rec_ready_o(race_ready), .rec_data_i(race_rec),
    .awvalid_o(m_axi_race_awvalid), .awready_i(m_axi_race_awready), .awaddr_o(m_axi_race_awaddr),
    .awlen_o(m_axi_race_awlen),
    .wvalid_o(m_axi_race_wvalid), .wready_i(m_axi_race_wready), .wdata_o(m_axi_race_wdata),
    .wstrb_o(m_axi_race_wstrb), .wlast_o(m_axi_race_wlast),
    .bvalid_i(m_axi_race_bvalid), .bready_o(m_axi_race_bready),
    .bresp_i(m_axi_race_bresp), .bus_error_o(race_bus_error)
  );
  assign m_axi_race_awsize  = Size64Bytes;
  assign m_axi_race_awburst = BurstIncr;

  rac_record_writer #(.RecBytes(EscRecBytes)) u_esc_writer (
    .clk_i(ap_clk), .rst_i(rst),
    .start_i(batch_start), .base_i(escalations_q), .capacity_i(esc_cap_q), .count_o(esc_count), .idle_o(esc_idle),
    .rec_valid_i(escw_valid), .rec_ready_o(escw_ready), .rec_data_i(esc_rec),
    .awvalid_o(m_axi_esc_awvalid), .awready_i(m_axi_esc_awready), .awaddr_o(m_axi_esc_awaddr),
    .awlen_o(m_axi_esc_awlen),
    .wvalid_o(m_axi_esc_wvalid), .wready_i(m_axi_esc_wready), .wdata_o(m_axi_esc_wdata),
    .wstrb_o(m_axi_esc_wstrb), .wlast_o(m_axi_esc_wlast),
    .bvalid_i(m_axi_esc_bvalid), .bready_o(m_axi_esc_bready),
    .bresp_i(m_axi_esc_bresp), .bus_error_o(esc_bus_error)
  );
  assign m_axi_esc_awsize  = Size64Bytes;
  assign m_axi_esc_awburst = BurstIncr;

  // ---------------------------------------------------------------------------
  // Statistics: cumulative since reset. Commands and accesses are counted
  // here, as the batches' commands are handed to the engine (not the
  // kernel's own zeroing set-rows; accesses are reads and writes, not
  // frees). The engine's other counters restart when a clear_state resets
  // it, so their values are accumulated into bases first.
  // ---------------------------------------------------------------------------
  logic [63:0] stat_commands_q, stat_accesses_q;
  logic [63:0] base_misses_q, base_writebacks_q, base_escalations_q;
  logic        batch_cmd;
  assign batch_cmd = cmd_valid && cmd_ready && !cmd_zeroing;
  always_ff @(posedge ap_clk) begin
    if (rst) begin
      stat_cycles_q <= '0;
      stat_busy_q <= '0;
      stat_races_q <= '0;
      stat_commands_q <= '0;
      stat_accesses_q <= '0;
      base_misses_q <= '0;
      base_writebacks_q <= '0;
      base_escalations_q <= '0;
    end else begin
      stat_cycles_q <= stat_cycles_q + 64'd1;
      if (kstate_q != KIdle) stat_busy_q <= stat_busy_q + 64'd1;
      if (race_valid && race_ready) stat_races_q <= stat_races_q + 64'd1;
      if (batch_cmd) stat_commands_q <= stat_commands_q + 64'd1;
      if (batch_cmd && (cmd_op == OpRead || cmd_op == OpWrite)) stat_accesses_q <= stat_accesses_q + 64'd1;
      if (eng_clear) begin
        base_misses_q <= stat_misses;
        base_writebacks_q <= stat_writebacks;
        base_escalations_q <= stat_escalations;
      end
    end
  end
  assign stat_commands    = stat_commands_q;
  assign stat_accesses    = stat_accesses_q;
  assign stat_misses      = base_misses_q + eng_misses;
  assign stat_writebacks  = base_writebacks_q + eng_writebacks;
  assign stat_escalations = base_escalations_q + eng_escalations;

  // The engine's own cycle, command
  // and access counters restart with a clear (and count what the kernel
  // does not): the kernel keeps its own.
  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_bits;
  assign unused_bits = ^{eng_cycles, eng_commands, eng_accesses, a_flags[31:1], a_bucket_bits[31:5], esc_rvc,
                        eng_cmd_zeroing, stat_prefetch_hits};
  /* verilator lint_on UNUSEDSIGNAL */

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
  `RAC_STATIC_ASSERT(SlotsInContract, NumSlots >= 1 && NumSlots <= 256)
  `RAC_STATIC_ASSERT(ClockInContract, ClkW >= 1 && ClkW <= 32)
  `RAC_STATIC_ASSERT(LineInContract, LineW <= 832)
  `RAC_STATIC_ASSERT(PoolInContract, ReadVcs == 0 || (ReadVcs & (ReadVcs - 1)) == 0)
  // The clear resets the engine only when it has nothing in flight.
  `RAC_ASSERT(ClearOnlyWhenIdle, !eng_clear || (eng_idle && meta_idle && cmd_fifo_empty), ap_clk, rst)
  // Records never exceed the capacities (the argument check guarantees it).
  `RAC_ASSERT(RacesWithinCapacity, kstate_q != KRun || race_count <= race_cap_q, ap_clk, rst)
  `RAC_ASSERT(EscalationsWithinCapacity, kstate_q != KRun || esc_count <= esc_cap_q, ap_clk, rst)
  // A spill never jumps ahead of a pending engine escalation: while the
  // engine offers one, the record written is the engine's.
  `RAC_ASSERT(SpillAfterEscalation,
              !(escw_valid && escw_ready && esc_valid && esc_rec[135:128] == 8'(rac_kernel_regs_pkg::ReasonSpill)),
              ap_clk, rst)

  // ---------------------------------------------------------------------------
  // Cover points (coverage models only: -DRAC_COVER; docs/verification.md)
  // ---------------------------------------------------------------------------
`ifdef RAC_COVER
  // Back-pressure on every channel that can see it: the slave's ready low
  // while the kernel offers (AR, AW, W) and the host's ready low while the
  // control slave answers (B, R). The kernel itself never holds a response
  // back: the command reader requests a burst only with room for all its
  // beats, the record writers and the meta port are ready for B and R
  // whenever one can come. The control slave's arready drops only while it
  // answers a read, which a host that waits for each answer (ours) never
  // sees: formal.axil_ctrl covers it with free master inputs.
  cov_bp_cmd_ar: cover property (@(posedge ap_clk) disable iff (rst) m_axi_cmd_arvalid && !m_axi_cmd_arready);
  cov_bp_race_aw: cover property (@(posedge ap_clk) disable iff (rst) m_axi_race_awvalid && !m_axi_race_awready);
  cov_bp_race_w: cover property (@(posedge ap_clk) disable iff (rst) m_axi_race_wvalid && !m_axi_race_wready);
  cov_bp_esc_aw: cover property (@(posedge ap_clk) disable iff (rst) m_axi_esc_awvalid && !m_axi_esc_awready);
  cov_bp_esc_w: cover property (@(posedge ap_clk) disable iff (rst) m_axi_esc_wvalid && !m_axi_esc_wready);
  cov_bp_meta_ar: cover property (@(posedge ap_clk) disable iff (rst) m_axi_meta_arvalid && !m_axi_meta_arready);
  cov_bp_meta_aw: cover property (@(posedge ap_clk) disable iff (rst) m_axi_meta_awvalid && !m_axi_meta_awready);
  cov_bp_meta_w: cover property (@(posedge ap_clk) disable iff (rst) m_axi_meta_wvalid && !m_axi_meta_wready);
  cov_bp_ctrl_b: cover property (@(posedge ap_clk) disable iff (rst) s_axi_control_bvalid && !s_axi_control_bready);
  cov_bp_ctrl_r: cover property (@(posedge ap_clk) disable iff (rst) s_axi_control_rvalid && !s_axi_control_rready);
  // A bus error on each port, and the batch ending with status 4.
  cov_bus_error_cmd: cover property (@(posedge ap_clk) disable iff (rst) cmd_bus_error);
  cov_bus_error_race: cover property (@(posedge ap_clk) disable iff (rst) race_bus_error);
  cov_bus_error_esc: cover property (@(posedge ap_clk) disable iff (rst) esc_bus_error);
  cov_bus_error_meta: cover property (@(posedge ap_clk) disable iff (rst) meta_bus_error);
  // Every batch status (0 ok, 1 bad op, 2 bad arguments, 3 truncated, 4 bus error).
  for (genvar st = 0; st < 5; st++) begin : g_cov_status
    cov_status: cover property (@(posedge ap_clk) disable iff (rst)
      kstate_q == KFinish && res_status_q[7:0] == 8'(st));
  end
  // A bucket spill record written (reason 4) while the engine's records flow.
  cov_spill_record: cover property (@(posedge ap_clk) disable iff (rst)
    escw_valid && escw_ready && esc_rec[135:128] == 8'(rac_kernel_regs_pkg::ReasonSpill));
`endif

endmodule
