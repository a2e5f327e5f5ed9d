// Formal harness of the check engine at small parameters (2 slots, 2-bit
// clocks, 2 sets x 2 ways, 0 or 1 read-VC pool entries, 5-bit granules). Every
// input is free: commands, row updates, back-pressure on both outputs and on
// the memory port, and memory responses at any time. Reset is assumed in the first cycle. The
// engine's own assertions must hold: no two valid ways with one tag in a set
// (the replacement and fill logic), an INSOFTWARE line never decided in
// hardware (the status rules), a pool entry never left holding a clock for a
// line without shared bytes (the stale-read hazard), a LASTWRITE line never
// letting a write of a shared byte through, and race records, escalation
// records and memory requests stay unchanged while they wait for ready.
module rac_check_engine_props #(
  parameter int unsigned ReadVcs = 0,
  // The engine below has 2 slots (1 slot bit) and 2-bit clocks.
  parameter int unsigned LineW   = rac_line_layout_pkg::LineBits(1, 2, ReadVcs)
) (
  input logic        clk_i,
  input logic        rst_i,
  input logic        cmd_valid_i,
  input logic [1:0]  cmd_op_i,
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
  rac_check_engine #(
    .NumSlots(2), .ClkW(2), .Sets(2), .Ways(2), .ReplPolicy(0), .GranW(5), .SeqW(4), .Objects(1), .ReadVcs(ReadVcs)
  ) dut (
    .clk_i, .rst_i,
    .cmd_valid_i, .cmd_ready_o(), .cmd_op_i, .cmd_force_sw_i, .cmd_slot_i, .cmd_mask_i,
    .cmd_granule_i, .cmd_seq_i, .cmd_row_i,
    .race_valid_o(), .race_ready_i, .race_seq_o(), .race_granule_o(), .race_mask_o(), .race_kinds_o(),
    .race_prev_slots_o(), .race_prev_clks_o(),
    .esc_valid_o(), .esc_ready_i, .esc_seq_o(), .esc_reason_o(), .esc_granule_o(), .esc_line_o(),
    .esc_rvc_valid_o(), .esc_rvc_o(),
    .mem_req_valid_o(), .mem_req_ready_i, .mem_req_write_o(), .mem_req_granule_o(), .mem_req_data_o(),
    .mem_wack_i, .mem_rsp_valid_i, .mem_rsp_data_i,
    .stat_cycles_o(), .stat_commands_o(), .stat_accesses_o(), .stat_misses_o(), .stat_writebacks_o(),
    .stat_escalations_o(), .idle_o()
  );

  logic first_q = 1'b1;
  always @(posedge clk_i) first_q <= 1'b0;
  always @(*) if (first_q) assume (rst_i);
endmodule
