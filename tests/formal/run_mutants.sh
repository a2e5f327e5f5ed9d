#!/bin/sh
# Mutation check of the formal proofs: each mutant below is applied (sed) to
# a copy of rtl/ in a scratch directory, and the proof named with it must
# FAIL on the copy. A mutant that no longer applies (its line changed) is an
# error too, so this list has to follow the RTL. This is what shows that the
# proofs can fail, i.e. that they check behaviour and not only structure.
#
#   run_mutants.sh <group> [rtl_dir] [work_dir]
#     group: engine (the engine's functional property NoMissedWriteWriteRace),
#     ref_race, ref_sync and ref_state (the FastTrack reference of one
#     granule, rac_check_engine_ref_props.sv: verdicts, sync ops, the state
#     the host is handed), axil (the AXI4-Lite
#     control slave's protocol properties), or reader / writer / meta (the
#     AXI4 master properties of axi4_master_checker and the harnesses of
#     rac_cmd_reader, rac_record_writer and rac_meta_port).
set -eu
group=$1
here=$(cd "$(dirname "$0")" && pwd)
rtl=$(cd "${2:-$here/../../rtl}" && pwd)
work=${3:-${TMPDIR:-/tmp}/rac_formal_mutants_$group}
mkdir -p "$work"

# name # file # sed expression # proof   ('#' separates: '|' occurs in RTL)
engine_mutants='
never_reports_a_race#rac_check_engine.sv#s/assign any_raced = |raced \&\& !escalate;/assign any_raced = 1'"'"'b0;/#engine
release_does_not_tick#rac_check_engine.sv#s/ticked_row\[l\*ClkW +: ClkW\] = s2_row_q\[l\*ClkW +: ClkW\] + 1'"'"'b1;/ticked_row[l*ClkW +: ClkW] = s2_row_q[l*ClkW +: ClkW];/#engine
'
# The FastTrack reference of one granule (run_engine_ref_bmc.sh), in three
# groups so that each ctest stays within a few minutes: race verdicts and
# epochs, the sync ops, the state that leaves the chip. Mutants of the
# read-VC pool's clock (a READ SHARED that does not raise the reader's lane,
# a handover without the pool's clock) need a READ SHARE and two more
# commands on the line, beyond the CI depth of 15: not listed (the
# differential simulation catches them, docs/hardware.md).
ref_race_mutants='
never_reports_a_race#rac_check_engine.sv#s/assign any_raced = |raced \&\& !escalate;/assign any_raced = 1'"'"'b0;/#ref
w_check_with_own_slot#rac_byte_check_comb.sv#s/\.epoch_slot_i(byte_i\[WSlotLo +: SlotW\]),/.epoch_slot_i(slot_i),/#ref
r_check_with_own_slot#rac_byte_check_comb.sv#s/\.epoch_slot_i(byte_i\[RSlotLo +: SlotW\]),/.epoch_slot_i(slot_i),/#ref
epoch_check_off_by_one#vc_epoch_leq_comb.sv#s/assign leq_o = epoch_clk_i <= lane;/assign leq_o = epoch_clk_i < lane;/#ref
'
ref_sync_mutants='
acquire_does_not_join#rac_check_engine.sv#s/OpAcquire: row_wr_data = join_row_obj;/OpAcquire: row_wr_data = s2_row_q;/#ref
release_does_not_tick#rac_check_engine.sv#s/ticked_row\[l\*ClkW +: ClkW\] = s2_row_q\[l\*ClkW +: ClkW\] + 1'"'"'b1;/ticked_row[l*ClkW +: ClkW] = s2_row_q[l*ClkW +: ClkW];/#ref
load_object_ignored#rac_check_engine.sv#s/writes_obj = op == OpRelease || op == OpLoadObj;/writes_obj = op == OpRelease;/#ref
set_row_ignored#rac_check_engine.sv#s/writes_row = op == OpSetRow || op == OpAcquire || op == OpRelease;/writes_row = op == OpAcquire || op == OpRelease;/#ref
'
ref_state_mutants='
handover_without_line#rac_check_engine.sv#s/esc_line_o      <= cur_line;/esc_line_o      <= '"'"'0;/#ref
writeback_of_an_empty_line#rac_check_engine.sv#s/assign mem_req_data_o    = victim_line;/assign mem_req_data_o    = '"'"'0;/#ref
'
axil_mutants='
bresp_slverr#rac_axil_ctrl.sv#s/assign bresp_o   = 2'"'"'b00;/assign bresp_o   = 2'"'"'b10;/#axil
b_dropped_without_bready#rac_axil_ctrl.sv#s/end else if (bready_i) begin/end else begin/#axil
read_taken_while_answering#rac_axil_ctrl.sv#s/assign arready_o = !rvalid_o \&\& !rd_pend_q \&\& !rst_i;/assign arready_o = !rst_i;/#axil
'
# AXI4 masters: each mutant breaks one rule of axi4_master_checker or the
# harness's idle property (and, where the block has one, its own assertion).
reader_mutants='
idle_with_beats_owed#rac_cmd_reader.sv#s/assign idle_o = !arvalid_o \&\& owed_q == 0 \&\&/assign idle_o = !arvalid_o \&\&/#reader
burst_across_4k#rac_cmd_reader.sv#s/if (to_boundary < burst_len) burst_len = to_boundary;/if (1'"'"'b0) burst_len = to_boundary;/#reader
request_out_of_reset#rac_cmd_reader.sv#/if (rst_i) begin/{n;s/arvalid_o <= 1'"'"'b0;/arvalid_o <= 1'"'"'b1;/}#reader
request_changed_while_waiting#rac_cmd_reader.sv#s/end else if (issue) begin/end else if (issue || arvalid_o) begin/#reader
'
writer_mutants='
idle_before_b_response#rac_record_writer.sv#s/assign idle_o = !hold_q \&\& owed_q == 0;/assign idle_o = !hold_q;/#writer
wlast_on_first_beat#rac_record_writer.sv#s/assign wlast_o   = split_q || w_sent_q == LastC;/assign wlast_o   = split_q || w_sent_q == '"'"'0;/#writer
request_out_of_reset#rac_record_writer.sv#/if (rst_i) begin/{n;s/hold_q <= 1'"'"'b0;/hold_q <= 1'"'"'b1;/}#writer
w_advances_without_wready#rac_record_writer.sv#s/if (w_fire) w_sent_q <= w_sent_q + OneC;/if (wvalid_o) w_sent_q <= w_sent_q + OneC;/#writer
'
meta_mutants='
idle_before_b_response#rac_meta_port.sv#s/if (b_owed_q \&\& b_fire) b_owed_q <= 1'"'"'b0;/if (b_owed_q) b_owed_q <= 1'"'"'b0;/#meta
wlast_on_every_beat#rac_meta_port.sv#s/assign wlast_o   = w_sent_q == w_total - 2'"'"'d1;/assign wlast_o   = 1'"'"'b1;/#meta
request_out_of_reset#rac_meta_port.sv#/if (rst_i) begin/{n;s/state_q <= MIdle;/state_q <= MRead;/}#meta
w_advances_without_wready#rac_meta_port.sv#s/if (w_fire) w_sent_q <= w_sent_q + 2'"'"'d1;/if (wvalid_o) w_sent_q <= w_sent_q + 2'"'"'d1;/#meta
'
case $group in
  engine) mutants=$engine_mutants ;;
  ref_race)  mutants=$ref_race_mutants ;;
  ref_sync)  mutants=$ref_sync_mutants ;;
  ref_state) mutants=$ref_state_mutants ;;
  axil)   mutants=$axil_mutants ;;
  reader) mutants=$reader_mutants ;;
  writer) mutants=$writer_mutants ;;
  meta)   mutants=$meta_mutants ;;
  *) echo "run_mutants: unknown group '$group'" >&2; exit 2 ;;
esac

prove() {  # prove <proof> <rtl_dir> <work_dir>: exit 0 iff the proof passes
  sh "$here/prove.sh" "$@"
}

fail=0
echo "$mutants" | while IFS='#' read -r name file expr proof; do
  [ -n "$name" ] || continue
  dir="$work/$name"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp -r "$rtl" "$dir/rtl"
  sed -i "$expr" "$dir/rtl/$file"
  if cmp -s "$rtl/$file" "$dir/rtl/$file"; then
    echo "ERROR mutant $name no longer applies to $file (update run_mutants.sh)"
    exit 1
  fi
  if prove "$proof" "$dir/rtl" "$dir/work" >"$dir/proof.log" 2>&1; then
    echo "ERROR mutant $name PASSES the $proof proof (log: $dir/proof.log)"
    exit 1
  fi
  # It must fail as a proof (a counterexample), not as a tool error.
  if ! grep -rqs "proof did fail" "$dir/work"; then
    echo "ERROR mutant $name: the $proof proof did not run to a counterexample (log: $dir/proof.log)"
    exit 1
  fi
  echo "caught mutant $name ($proof proof fails)"
done || fail=1
exit $fail
