#!/bin/sh
# Formal checks of a small RTL block through its *_props harness.
#
#   run_block_formal.sh comb <props_module> <rtl_dir> <work_dir> ["chparam args"]...
#       combinational: yosys `sat -prove-asserts` (a complete proof for
#       every input), once per parameter set given;
#   run_block_formal.sh seq  <props_module> <rtl_dir> <work_dir> ["chparam args"]...
#       sequential: yosys write_smt2, then yosys-smtbmc -s z3 BMC (-t DEPTH)
#       and k-induction (-i -t DEPTH), once per parameter set;
#   run_block_formal.sh bmc  <props_module> <rtl_dir> <work_dir> ["chparam args"]...
#       sequential, bounded only: yosys-smtbmc -s z3 BMC (-t DEPTH), for the
#       AXI4 masters (their harnesses are not inductive as written);
#   run_block_formal.sh satbmc <props_module> <rtl_dir> <work_dir> ["chparam args"]...
#       sequential, bounded: Yosys's built-in SAT solver (`sat -seq DEPTH
#       -prove-asserts -set-assumes -set-init-zero`), for blocks on which
#       yosys-smtbmc with z3 stalls (rac_axil_ctrl: z3 did not finish step 0
#       in ten minutes).
# The harness is tests/formal/<props_module>.sv (plus the files in EXTRA,
# tests/formal/ names, e.g. axi4_master_checker.sv); the block and its
# submodules are read from <rtl_dir> (packages first). Counterexamples go to
# <work_dir> as VCD. Exits non-zero on any failure. Packages the block needs
# besides rac_pkg.sv go in PKGS (file names in <rtl_dir>, space-separated),
# the modules it instantiates in SUBS (the same, e.g. rac_wide_cnt.sv).
set -eu
mode=$1 props=$2 rtl=$(cd "$3" && pwd) work=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
DEPTH=${DEPTH:-12}
mkdir -p "$work"
[ $# -gt 0 ] || set -- ""

block=${props%_props}
sources="$rtl/rac_pkg.sv"
for p in ${PKGS:-}; do sources="$sources $rtl/$p"; done
for m in ${SUBS:-}; do sources="$sources $rtl/$m"; done
sources="$sources $rtl/$block.sv"
for f in ${EXTRA:-}; do sources="$sources $here/$f"; done
sources="$sources $here/$props.sv"
read_cmd="read_verilog -sv -formal -I$rtl $sources"

fail=0
n=0
run() {  # run <label> <command...>
  label=$1; shift
  if "$@" >"$work/$label.log" 2>&1; then
    echo "PASS $props $label"
  else
    echo "FAIL $props $label, log: $work/$label.log"
    grep -E 'Assert failed|failed|ERROR|Error' "$work/$label.log" | head -20 || true
    fail=1
  fi
}
for params in "$@"; do
  n=$((n + 1))
  chparam=""
  [ -z "$params" ] || chparam="chparam $params $props;"
  case $mode in
    comb)
      run "sat_$n" yosys -p "$read_cmd; $chparam prep -top $props; flatten; opt -fast;
        sat -prove-asserts -verify -show-inputs -show-outputs" ;;
    seq|bmc)
      smt2="$work/${props}_$n.smt2"
      run "smt2_$n" yosys -q -p "$read_cmd; $chparam prep -top $props; flatten; memory_map; opt -fast;
        async2sync; dffunmap; write_smt2 -wires $smt2"
      [ -f "$smt2" ] || continue
      run "bmc_$n" yosys-smtbmc -s z3 -t "$DEPTH" --dump-vcd "$work/bmc_$n.vcd" "$smt2"
      [ "$mode" = bmc ] && continue
      run "induction_$n" yosys-smtbmc -s z3 -i -t "$DEPTH" --dump-vcd "$work/induction_$n.vcd" "$smt2" ;;
    satbmc)
      run "satbmc_$n" yosys -p "$read_cmd; $chparam prep -top $props; flatten; memory_map; opt; async2sync; dffunmap;
        sat -seq $DEPTH -prove-asserts -set-assumes -set-init-zero -show-inputs -verify" ;;
    *) echo "run_block_formal: unknown mode '$mode'" >&2; exit 2 ;;
  esac
done
exit $fail
