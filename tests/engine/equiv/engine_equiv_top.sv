// The check engine in lockstep with an earlier version of itself
// (rac_check_engine_ref: an earlier revision's rtl/ with every module
// renamed *_ref, engine_equiv.sh): the same random inputs each cycle, every
// output compared. For refactorings that must not change behaviour, cycle
// for cycle (docs/verification.md, "Lockstep equivalence").
//
// The inputs are random, not a host's protocol: commands of every op on a
// few granules (TagVals tags on 16 low-bit patterns, so sets are shared and
// lines evicted), random rows, lines and fills, random readies and memory
// responses. Both engines see the same, so any difference is theirs.
module engine_equiv_top #(
  parameter int unsigned NumSlots   = 8,
  parameter int unsigned ClkW       = 16,
  parameter int unsigned Sets       = 64,
  parameter int unsigned Ways       = 4,
  parameter int unsigned ReplPolicy = 0,
  parameter int unsigned Objects    = 16,
  parameter int unsigned ReadVcs    = 16,
  parameter int unsigned ReadVcWays = 1,
  parameter int unsigned TagVals    = 3,  // distinct tags in the commands' granules
  // Derived
  parameter int unsigned GranW = 61,
  parameter int unsigned SeqW  = 64,
  parameter int unsigned SlotW = (NumSlots > 1) ? $clog2(NumSlots) : 1,
  parameter int unsigned LineW = rac_line_layout_pkg::LineBits(SlotW, ClkW, ReadVcs),
  parameter int unsigned RowW  = NumSlots * ClkW
) (
  input  logic        clk_i,
  input  logic        rst_i,
  output logic        mismatch_o,  // some output differs now
  output logic        race_taken_o,
  output logic        esc_taken_o,
  output logic [63:0] commands_o,
  output logic [63:0] misses_o,
  output logic [63:0] writebacks_o
);

  // ---------------------------------------------------------------------------
  // Random inputs, changed at the falling edge
  // ---------------------------------------------------------------------------
  logic             cmd_valid, cmd_force, cmd_atomic, race_ready, esc_ready;
  logic             mem_req_ready, mem_wack, mem_rsp_valid;
  logic [2:0]       cmd_op;
  logic [SlotW-1:0] cmd_slot;
  logic [7:0]       cmd_mask;
  logic [GranW-1:0] cmd_gran;
  logic [SeqW-1:0]  cmd_seq;
  logic [RowW-1:0]  cmd_row;
  logic [LineW-1:0] cmd_line, mem_rsp_data;

  // A line with about one bit in five set (a fifth of the lines INSOFTWARE,
  // a mix of epochs, raced flags and shared bytes).
  function automatic logic [LineW-1:0] random_line();
    for (int i = 0; i < LineW; i++) random_line[i] = ($urandom % 5) == 0;
  endfunction

  always_ff @(negedge clk_i) begin
    int unsigned r;
    r = $urandom % 100;
    cmd_valid  <= ($urandom % 4) != 0;
    // Reads and writes most, then every other op.
    cmd_op     <= (r < 35) ? 3'd0 : (r < 65) ? 3'd1 : (r < 70) ? 3'd2 : (r < 76) ? 3'd3 :
                  (r < 84) ? 3'd4 : (r < 92) ? 3'd5 : (r < 95) ? 3'd6 : 3'd7;
    cmd_force  <= ($urandom % 50) == 0;
    cmd_atomic <= ($urandom % 8) == 0;
    cmd_slot   <= SlotW'($urandom);
    cmd_mask   <= (($urandom % 3) == 0) ? 8'hFF : 8'($urandom);
    cmd_gran   <= GranW'({32'($urandom % TagVals), 32'($urandom % 16)});
    cmd_seq    <= cmd_seq + 1'b1;
    for (int l = 0; l < NumSlots; l++) cmd_row[l*ClkW +: ClkW] <= ClkW'($urandom % 6);
    cmd_line   <= random_line();
    race_ready    <= ($urandom % 4) != 0;
    esc_ready     <= ($urandom % 4) != 0;
    mem_req_ready <= ($urandom % 3) != 0;
    mem_wack      <= ($urandom % 3) == 0;
    mem_rsp_valid <= ($urandom % 3) == 0;
    mem_rsp_data  <= random_line();
  end

  // ---------------------------------------------------------------------------
  // The two engines
  // ---------------------------------------------------------------------------
`define RAC_EQUIV_OUTPUTS(P) \
  logic             P``_cmd_ready, P``_race_valid, P``_esc_valid, P``_esc_rvc_valid; \
  logic             P``_mem_req_valid, P``_mem_req_write, P``_idle; \
  logic [SeqW-1:0]  P``_race_seq, P``_esc_seq, P``_mem_req_seq; \
  logic [GranW-1:0] P``_race_granule, P``_esc_granule, P``_mem_req_granule; \
  logic [7:0]       P``_race_mask, P``_esc_rvc_mask; \
  logic [15:0]      P``_race_kinds; \
  logic [8*SlotW-1:0] P``_race_prev_slots; \
  logic [8*ClkW-1:0]  P``_race_prev_clks; \
  logic [2:0]       P``_esc_reason; \
  logic [LineW-1:0] P``_esc_line, P``_mem_req_data; \
  logic [RowW-1:0]  P``_esc_rvc; \
  logic [63:0]      P``_cycles, P``_commands, P``_accesses, P``_misses, P``_writebacks, P``_escalations;

`define RAC_EQUIV_ENGINE(MOD, P) \
  MOD #(.NumSlots(NumSlots), .ClkW(ClkW), .Sets(Sets), .Ways(Ways), .ReplPolicy(ReplPolicy), \
        .Objects(Objects), .ReadVcs(ReadVcs), .ReadVcWays(ReadVcWays)) u_``P ( \
    .clk_i(clk_i), .rst_i(rst_i), \
    .cmd_valid_i(cmd_valid), .cmd_ready_o(P``_cmd_ready), .cmd_op_i(cmd_op), .cmd_force_sw_i(cmd_force), \
    .cmd_atomic_i(cmd_atomic), .cmd_slot_i(cmd_slot), .cmd_mask_i(cmd_mask), .cmd_granule_i(cmd_gran), \
    .cmd_seq_i(cmd_seq), .cmd_row_i(cmd_row), .cmd_line_i(cmd_line), \
    .race_valid_o(P``_race_valid), .race_ready_i(race_ready), .race_seq_o(P``_race_seq), \
    .race_granule_o(P``_race_granule), .race_mask_o(P``_race_mask), .race_kinds_o(P``_race_kinds), \
    .race_prev_slots_o(P``_race_prev_slots), .race_prev_clks_o(P``_race_prev_clks), \
    .esc_valid_o(P``_esc_valid), .esc_ready_i(esc_ready), .esc_seq_o(P``_esc_seq), \
    .esc_reason_o(P``_esc_reason), .esc_granule_o(P``_esc_granule), .esc_line_o(P``_esc_line), \
    .esc_rvc_valid_o(P``_esc_rvc_valid), .esc_rvc_o(P``_esc_rvc), .esc_rvc_mask_o(P``_esc_rvc_mask), \
    .mem_req_valid_o(P``_mem_req_valid), .mem_req_ready_i(mem_req_ready), .mem_req_write_o(P``_mem_req_write), \
    .mem_req_granule_o(P``_mem_req_granule), .mem_req_data_o(P``_mem_req_data), .mem_req_seq_o(P``_mem_req_seq), \
    .mem_wack_i(mem_wack), .mem_rsp_valid_i(mem_rsp_valid), .mem_rsp_data_i(mem_rsp_data), \
    .stat_cycles_o(P``_cycles), .stat_commands_o(P``_commands), .stat_accesses_o(P``_accesses), \
    .stat_misses_o(P``_misses), .stat_writebacks_o(P``_writebacks), .stat_escalations_o(P``_escalations), \
    .idle_o(P``_idle) \
  );

`define RAC_EQUIV_ALL(P) { \
    P``_cmd_ready, P``_race_valid, P``_race_seq, P``_race_granule, P``_race_mask, P``_race_kinds, \
    P``_race_prev_slots, P``_race_prev_clks, P``_esc_valid, P``_esc_seq, P``_esc_reason, P``_esc_granule, \
    P``_esc_line, P``_esc_rvc_valid, P``_esc_rvc, P``_esc_rvc_mask, P``_mem_req_valid, P``_mem_req_write, \
    P``_mem_req_granule, P``_mem_req_data, P``_mem_req_seq, P``_cycles, P``_commands, P``_accesses, \
    P``_misses, P``_writebacks, P``_escalations, P``_idle}

  `RAC_EQUIV_OUTPUTS(ref)
  `RAC_EQUIV_OUTPUTS(dut)
  `RAC_EQUIV_ENGINE(rac_check_engine_ref, ref)
  `RAC_EQUIV_ENGINE(rac_check_engine, dut)

  assign mismatch_o   = `RAC_EQUIV_ALL(ref) != `RAC_EQUIV_ALL(dut);
  assign race_taken_o = ref_race_valid && race_ready;
  assign esc_taken_o  = ref_esc_valid && esc_ready;
  assign commands_o   = ref_commands;
  assign misses_o     = ref_misses;
  assign writebacks_o = ref_writebacks;

endmodule
