#!/bin/sh
# Formal checks of one VC unit, at small parameters.
#
#   run_formal.sh <unit> [rtl_dir] [work_dir]
#
# <unit> is vc_join, vc_leq or vc_epoch_leq. For each it runs:
#   1. <unit>_comb_props (combinational): yosys `sat -prove-asserts -verify`
#      at two lane/width shapes (one with NumLanes not a power of two);
#   2. <unit>_props (pipelined unit + formal_stream_tracker), via
#      yosys write_smt2 + yosys-smtbmc -s z3:
#        Stages=1: BMC (-t $DEPTH), k-induction (-i -t $DEPTH), cover (-c);
#        Stages=2: BMC and cover. (The tracker's occupancy counter is not
#        tied to the pipeline's internal valid bits beyond one stage, so
#        induction is run where it closes; every state of a 2-stage
#        pipeline is reachable within a few cycles, far below the BMC depth.)
# Counterexamples are written as VCD traces to <work_dir>.
# Needs yosys, yosys-smtbmc, z3 on PATH. Exits non-zero on any failure.
set -eu

unit=$1
here=$(cd "$(dirname "$0")" && pwd)
rtl=${2:-$here/../../rtl}
work=${3:-${TMPDIR:-/tmp}/rac_formal_$unit}
DEPTH=${DEPTH:-20}
mkdir -p "$work"
rtl=$(cd "$rtl" && pwd)

# The RTL a VC unit needs (explicit, so work-in-progress files elsewhere in
# rtl/ cannot break these checks); packages first. The pipelined units and
# their register stage are test-only (no product module instantiates them):
# they live in tests/rtl/units/, beside rtl_dir's tests/ in a scratch tree.
units=$(cd "$rtl/../tests/rtl/units" && pwd)
rtl_files=""
for f in rac_pkg.sv rac_first_one.sv \
         vc_join_comb.sv vc_lanes_gt_comb.sv vc_lane_sel_comb.sv vc_epoch_leq_comb.sv; do
  rtl_files="$rtl_files $rtl/$f"
done
for f in rac_pipe_reg.sv vc_leq_comb.sv vc_join.sv vc_leq.sv vc_epoch_leq.sv; do
  rtl_files="$rtl_files $units/$f"
done
read_cmd="read_verilog -sv -formal -I$rtl $rtl_files $here/formal_stream_tracker.sv"

case $unit in
  vc_join|vc_leq) comb_shapes="4,4 3,3" ;;
  vc_epoch_leq)   comb_shapes="3,4 4,3" ;;
  *) echo "run_formal: unknown unit '$unit'" >&2; exit 2 ;;
esac

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2fs", b - a }'; }

fail=0
run() {  # run <label> <command...>: log to $work/<label>.log
  label=$1; shift
  t0=$(now)
  if "$@" >"$work/$label.log" 2>&1; then
    echo "PASS $unit $label ($(elapsed "$t0"))"
  else
    echo "FAIL $unit $label ($(elapsed "$t0")), log: $work/$label.log"
    grep -E 'Assert failed|failed|ERROR|Error|Unreached' "$work/$label.log" | head -20 || true
    fail=1
  fi
}

# 1. combinational
for shape in $comb_shapes; do
  n=${shape%,*}; w=${shape#*,}
  run "comb_n${n}w$w" yosys -p "$read_cmd $here/${unit}_comb_props.sv;
    chparam -set NumLanes $n -set ClkW $w ${unit}_comb_props;
    prep -top ${unit}_comb_props; flatten; opt -fast;
    sat -prove-asserts -verify -show-inputs -show-outputs"
done

# 2. sequential
for stages in 1 2; do
  smt2="$work/${unit}_s$stages.smt2"
  run "smt2_s$stages" yosys -q -p "$read_cmd $here/${unit}_props.sv;
    chparam -set Stages $stages ${unit}_props;
    prep -top ${unit}_props; flatten; memory_map; opt -fast;
    async2sync; dffunmap; write_smt2 -wires $smt2"
  [ -f "$smt2" ] || continue
  run "bmc_s$stages" yosys-smtbmc -s z3 -t "$DEPTH" --dump-vcd "$work/bmc_s$stages.vcd" "$smt2"
  if [ "$stages" = 1 ]; then
    run "induction_s$stages" yosys-smtbmc -s z3 -i -t "$DEPTH" \
      --dump-vcd "$work/induction_s$stages.vcd" "$smt2"
  fi
  run "cover_s$stages" yosys-smtbmc -s z3 -c -t "$DEPTH" "$smt2"
done

exit $fail
