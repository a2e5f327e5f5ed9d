#!/bin/sh
# Bounded model check of the check engine against a FastTrack reference of
# one granule (tests/formal/rac_check_engine_ref_props.sv: every verdict the
# engine gives for the granule, and its state whenever it leaves the chip),
# with Yosys's built-in SAT solver (yosys-smtbmc with z3 stalls on the
# engine). The engine's own assertions are dropped here: the structural
# runs (run_engine_bmc.sh) prove them with free inputs.
#   run_engine_ref_bmc.sh [rtl_dir] [work_dir]   DEPTH (default 16), WAYS (default 1)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rtl=$(cd "${1:-$here/../../rtl}" && pwd)
work=${2:-${TMPDIR:-/tmp}/rac_formal_engine_ref}
DEPTH=${DEPTH:-16}
WAYS=${WAYS:-1}
mkdir -p "$work"
if yosys -l "$work/bmc.log" -q -p "read_verilog -sv -formal -I$rtl $rtl/rac_pkg.sv $rtl/rac_line_layout_pkg.sv $rtl/vc_lane_sel_comb.sv $rtl/vc_epoch_leq_comb.sv $rtl/vc_join_comb.sv $rtl/vc_lanes_gt_comb.sv $rtl/rac_first_one.sv $rtl/rac_line_status_comb.sv $rtl/rac_victim_sel_comb.sv $rtl/rac_repl_state.sv $rtl/rac_patch_comb.sv $rtl/rac_read_fwd.sv $rtl/rac_engine_store.sv $rtl/rac_byte_check_comb.sv $rtl/rac_byte_rules_comb.sv $rtl/rac_wide_cnt.sv $rtl/rac_check_engine.sv $here/rac_check_engine_ref_props.sv; \
    chparam -set Ways $WAYS rac_check_engine_ref_props; prep -top rac_check_engine_ref_props; chformal -assert -remove \$paramod*; flatten; memory_map; opt; async2sync; dffunmap; delete t:\$cover; \
    sat -tempinduct-baseonly -maxsteps $DEPTH -prove-asserts -set-assumes -set-init-zero -show-inputs -verify" >/dev/null 2>&1; then
  echo "PASS engine reference BMC, depth $DEPTH, $WAYS way(s)"
else
  echo "FAIL engine reference BMC, depth $DEPTH, $WAYS way(s); counterexample inputs in $work/bmc.log"
  grep -E "failed|ERROR" "$work/bmc.log" | head
  exit 1
fi
