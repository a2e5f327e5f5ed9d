#!/bin/sh
# Issue 11's on-chip share at the card shape, on the Verilated kernel and the
# fast model side by side (docs/hardware.md, "The card shape on the Verilated
# kernel"), in one command, run by hand (not a test: the first run builds the
# card-shape Verilated kernel, 3 min on the loaded 2-core VM, and the
# Verilator runs take half an hour more there):
#
#   sh scripts/card_agreement.sh [BUILD_DIR] [OUT_DIR]
#
# (defaults: build, BUILD_DIR/card-agreement). It needs BUILD_DIR/bin/
# raceaccel, raceaccel-cc and raceaccel-c++ (`make`), Verilator and the C++
# compiler (for the model). It makes the traces -- the bank demo and every
# bench/programs kernel recorded with `raceaccel run --record` at small
# sizes (so that the Verilated card finishes in minutes), `raceaccel gen
# --threads 8 / 16 --events 200000` and host_side_bench's 2 M-event trace --
# and sweeps them all at the card shape
# with --model fast and --model verilator into OUT_DIR/fast.csv and
# OUT_DIR/verilator.csv. Then it checks that the two models agree exactly on
# every count (races, accesses, on-chip decisions, escalations by reason)
# and prints the markdown table of docs/hardware.md (OUT_DIR/table.md); the
# exit status is 1 when any count differs. With HOST_NS (default 90.0, the
# host side's host_cpu_ns/event of docs/performance.md) the CSVs also carry
# the end-to-end card figures of docs/performance.md's "Modelled card
# throughput" (OUT_DIR/throughput.md).
#
# The model cache is OUT_DIR/models (RACEACCEL_MODEL_CACHE overrides it), so
# a second run reuses the built kernel. The recordings' interleavings vary
# from run to run; the generated traces are the same every time.
set -eu
build=${1:-build}
out=${2:-$build/card-agreement}
here=$(cd "$(dirname "$0")/.." && pwd)
raceaccel=$build/bin/raceaccel
for tool in "$raceaccel" "$build/bin/raceaccel-cc" "$build/bin/raceaccel-c++"; do
  [ -x "$tool" ] || { echo "card_agreement: $tool not found; build first (make)" >&2; exit 69; }
done
host_ns=${HOST_NS:-90.0}
cache=${RACEACCEL_MODEL_CACHE:-$out/models}
t=$out/traces
mkdir -p "$t"

# The card shape: 64 slots of 32-bit clocks, a 256 x 4 metadata cache, a
# 256-entry read-clock pool of 8 ways, 16 sync objects, 4-way buckets; the
# card's 2^20 buckets (offload::kCardBucketBits; each model holds the table
# twice in host memory, about 1.2 GB) and 4,096-word batches (docs/hardware.md:
# the batch size at which the card shape passes 98 % on the generated traces).
card="--grid slots=64 --grid clock_bits=32 --grid sets=256 --grid ways=4 --grid pool=256 --grid pool_ways=8
  --grid objects=16 --grid bucket_ways=4 --grid bucket_bits=20 --grid batch_words=4096"

# Runs a command that may report races (exit 66); any other status stops the script.
allow_races() {
  status=0
  "$@" || status=$?
  [ "$status" -eq 0 ] || [ "$status" -eq 66 ] || { echo "card_agreement: '$*' failed with status $status" >&2; exit 1; }
}

# The bank demo, built as `make demo` builds it.
"$build/bin/raceaccel-cc" -O1 "$here/examples/programs/bank.c" -o "$t/bank"
allow_races "$raceaccel" run --record "$t/bank.rtrace" -- "$t/bank" >/dev/null 2>&1

# Every bench/programs kernel, built as scripts/bench_programs.sh builds the
# raceaccel variant, at sizes of 95-240 K events (bench_programs.sh: 1-24 M).
args_of() {
  case $1 in
    matmul) echo "40 2" ;;
    histogram) echo "20000 2" ;;
    prodcons) echo "5000 1" ;;
    mergesort) echo "2000 1" ;;
    lookup) echo "50000 2 4096" ;;
    atomic_pipeline) echo "2000 2" ;;
    bytescan) echo "0.0625 2" ;; # 64 KiB
    stencil) echo "5000 8 2" ;;
    chase) echo "5000 2 4096" ;; # 4 Ki nodes: its 64 Ki take 150 cycles/event (misses) over 1 M events
  esac
}
kernels="matmul histogram prodcons mergesort lookup atomic_pipeline bytescan stencil chase"
for k in $kernels; do
  if [ -f "$here/bench/programs/$k.c" ]; then
    "$build/bin/raceaccel-cc" -std=c11 -O2 -g -pthread "$here/bench/programs/$k.c" -o "$t/$k"
  else
    "$build/bin/raceaccel-c++" -std=c++17 -O2 -g -pthread "$here/bench/programs/$k.cpp" -o "$t/$k"
  fi
  # shellcheck disable=SC2046 # the arguments are split on purpose
  allow_races "$raceaccel" run --record "$t/$k.rtrace" -- "$t/$k" $(args_of "$k") >/dev/null
done

# The generated traces of issue 11's done-when (default seed), and the trace
# host_side_bench measures the host side on (docs/performance.md).
"$raceaccel" gen --threads 8 --events 200000 -o "$t/gen8.rtrace"
"$raceaccel" gen --threads 16 --events 200000 -o "$t/gen16.rtrace"
"$raceaccel" gen --threads 16 --events 2000000 --seed 42 -o "$t/host_side_bench.rtrace"

traces="$t/bank.rtrace"
for k in $kernels; do traces="$traces $t/$k.rtrace"; done
traces="$traces $t/gen8.rtrace $t/gen16.rtrace $t/host_side_bench.rtrace"
for model in fast verilator; do
  echo "card_agreement: sweep --model $model" >&2
  start=$(date +%s)
  # shellcheck disable=SC2086 # the grid and trace lists are split on purpose
  "$raceaccel" sweep --model "$model" --model-cache "$cache" $card --host-ns-per-event "$host_ns" \
    --csv "$out/$model.csv" $traces
  echo "card_agreement: --model $model took $(($(date +%s) - start)) s" >&2
done

# Every count must agree; cycles are the fast model's estimate.
counts="events races accesses on_chip escalations"
for c in $(head -1 "$out/fast.csv" | tr ',' '\n' | grep '^esc_'); do counts="$counts $c"; done
status=0
for c in $counts; do
  awk -F, -v name="$c" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i; next } { print $1, $col }' \
    "$out/fast.csv" >"$out/fast.$c"
  awk -F, -v name="$c" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) col = i; next } { print $1, $col }' \
    "$out/verilator.csv" >"$out/verilator.$c"
  if ! cmp -s "$out/fast.$c" "$out/verilator.$c"; then
    echo "card_agreement: $c differs (trace, fast, verilator):" >&2
    paste -d' ' "$out/fast.$c" "$out/verilator.$c" | awk '$2 != $4 { print "  " $1, $2, $4 }' >&2
    status=1
  fi
  rm -f "$out/fast.$c" "$out/verilator.$c"
done
[ "$status" -eq 0 ] && echo "card_agreement: the fast model and the Verilated kernel agree on every count" >&2

# The tables of docs/hardware.md and docs/performance.md.
python3 "$here/scripts/card_agreement_tables.py" "$out"
cat "$out/table.md" "$out/throughput.md"
exit "$status"
