#!/bin/sh
# Bounded model check of the check engine's assertions with free inputs
# (rac_check_engine_props.sv), using Yosys's built-in SAT solver: on this
# design it proves depth 20 in about a minute where yosys-smtbmc with z3 did
# not finish one step in five minutes. The time grows steeply with depth and
# with the read-VC pool, so the cache, status and replacement properties are
# checked without a pool (ctest formal.engine_bmc) and the pool's with one
# entry (formal.engine_pool_bmc, about 2 min of CPU; every two granules then
# share the entry), both to depth 20: reset, the init sweep, misses with
# evictions through the four-stage pipeline, a READ SHARE and an entry taken
# by another granule. A mutant that checks only way 0 for hits (and so
# installs a second copy of a line) fails the first; one whose pool ignores
# the granule tag fails the second (depth 16 no longer reaches it since the
# pipeline).
# FUNCTIONAL=1 checks the functional property NoMissedWriteWriteRace (a
# reference model of the thread clocks and one byte's write epoch; see
# rac_check_engine_props.sv) with the commands narrowed to two granules.
#   run_engine_bmc.sh [rtl_dir] [work_dir]   DEPTH (default 20), READ_VCS (default 0), FUNCTIONAL (default 0),
#                                            ALL_OPS (default 1)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rtl=$(cd "${1:-$here/../../rtl}" && pwd)
work=${2:-${TMPDIR:-/tmp}/rac_formal_engine}
DEPTH=${DEPTH:-20}
READ_VCS=${READ_VCS:-0}
FUNCTIONAL=${FUNCTIONAL:-0}
ALL_OPS=${ALL_OPS:-1}  # 0: no sync ops (ACQUIRE, RELEASE, LOADOBJ)
# The functional run checks only the harness's property: the engine's own
# assertions are proved by the structural runs with free inputs. The
# statistics counters' own assertion (rac_wide_cnt: its registered ends match
# the value) is left to the proofs of the command reader and the record
# writer, where the counters are read: here it alone would keep five unread
# 64-bit counters in the problem (29 % more variables).
drop=""
[ "$FUNCTIONAL" = 0 ] || drop="chformal -assert -remove \$paramod*;"  # the engine and its blocks (derived modules)
mkdir -p "$work"
if yosys -l "$work/bmc.log" -q -p "read_verilog -sv -formal -I$rtl $rtl/rac_pkg.sv $rtl/rac_line_layout_pkg.sv $rtl/vc_lane_sel_comb.sv $rtl/vc_epoch_leq_comb.sv $rtl/vc_join_comb.sv $rtl/vc_lanes_gt_comb.sv $rtl/rac_first_one.sv $rtl/rac_line_status_comb.sv $rtl/rac_victim_sel_comb.sv $rtl/rac_repl_state.sv $rtl/rac_patch_comb.sv $rtl/rac_read_fwd.sv $rtl/rac_engine_store.sv $rtl/rac_byte_check_comb.sv $rtl/rac_byte_rules_comb.sv $rtl/rac_wide_cnt.sv $rtl/rac_check_engine.sv $here/rac_check_engine_props.sv; \
    chparam -set ReadVcs $READ_VCS -set Functional $FUNCTIONAL -set AllOps $ALL_OPS rac_check_engine_props; prep -top rac_check_engine_props; chformal -assert -remove \$paramod*rac_wide_cnt*; $drop flatten; memory_map; opt; async2sync; dffunmap; delete t:\$cover; \
    sat -seq $DEPTH -prove-asserts -set-assumes -set-init-zero -show-inputs -verify" >/dev/null 2>&1; then
  echo "PASS engine BMC, depth $DEPTH, $READ_VCS read-VC pool entries, functional=$FUNCTIONAL, all ops=$ALL_OPS"
else
  echo "FAIL engine BMC, depth $DEPTH, $READ_VCS read-VC pool entries, functional=$FUNCTIONAL, all ops=$ALL_OPS; counterexample inputs in $work/bmc.log"
  grep -E "failed|ERROR" "$work/bmc.log" | head
  exit 1
fi
