#!/bin/sh
# `raceaccel sweep --model verilator` end to end (docs/cli.md, "sweep"): the
# Verilated kernel of a small shape (4 slots, a 2 x 2 cache, 2 read clocks, 2
# sync objects) is built on first use into a fresh model cache (about 20 s of
# CPU, 45 s on a loaded 2-core machine) and reused by the next run; its rows
# give the fast model's escalations exactly and its cycles within 5 %, at
# two memory latencies; shapes the RTL cannot take are usage errors (2)
# before anything is built; a second model with 2 read-clock ways
# (pool_ways, the RTL's ReadVcWays) gives the fast model's escalations too.
# With BENCH_DIR (bench/programs), two kernels recorded by the runtime at
# tiny sizes -- atomic_pipeline (atomics on chip) and matmul (read-shared
# data: LASTWRITE lines, read-clock spills) -- give the same counts on both
# models at both shapes, as the card-shape study does at full size
# (scripts/card_agreement.sh, docs/hardware.md).
# Usage: sweep_verilator_test.sh RACEACCEL WORK_DIR [BENCH_DIR]
set -u
bin=$1
work=$2
bench=${3:-}
rm -rf "$work" && mkdir -p "$work"
. "$(dirname "$0")/lib.sh"




t=$work/t.rtrace
"$bin" gen --threads 4 --events 3000 -o "$t" || fail "gen"
cache=$work/models
shape="--grid slots=4 --grid sets=2 --grid ways=2 --grid pool=2 --grid objects=2 --grid latency=1,32"

# shellcheck disable=SC2086 # $shape is a list of options
expect_status 0 "first verilator sweep" "$bin" sweep --model verilator --model-cache "$cache" $shape --csv "$work/v.csv" "$t"
grep -q "building a Verilated rac_kernel (NumSlots=4 ClkW=32 Sets=2 Ways=2 Objects=2 ReadVcs=2 BucketWays=4)" \
  "$work/err" && pass || fail "no build message: $(cat "$work/err")"
[ "$(ls "$cache"/*/rac_kernel_shape.so | wc -l)" -eq 1 ] && pass || fail "one model in the cache: $(ls -R "$cache")"
[ "$(column "$work/v.csv" model | sort -u)" = "verilator" ] && pass || fail "model column"

# The cache, named by the environment this time: nothing is built again.
# shellcheck disable=SC2086
expect_status 0 "second verilator sweep" env RACEACCEL_MODEL_CACHE="$cache" "$bin" sweep --model verilator $shape \
  --csv "$work/v2.csv" "$t"
grep -q "building" "$work/err" && fail "the cached model was built again" || pass
cut -d, -f2- "$work/v.csv" | cut -d, -f1-23 >"$work/v.cut"
cut -d, -f2- "$work/v2.csv" | cut -d, -f1-23 >"$work/v2.cut"
cmp -s "$work/v.cut" "$work/v2.cut" && pass || fail "the cached model gives other rows"

# The fast model at the same shape: the same escalations, cycles within 5 %.
# shellcheck disable=SC2086
expect_status 0 "fast sweep" "$bin" sweep $shape --csv "$work/f.csv" "$t"
for name in races accesses on_chip escalations esc_host_owned esc_lastwrite esc_read_clock_spill esc_bucket_spill; do
  [ "$(column "$work/v.csv" "$name")" = "$(column "$work/f.csv" "$name")" ] && pass ||
    fail "$name: verilator $(column "$work/v.csv" "$name" | tr '\n' ' '), fast $(column "$work/f.csv" "$name" | tr '\n' ' ')"
done
column "$work/v.csv" cycles >"$work/vc"
column "$work/f.csv" cycles >"$work/fc"
paste "$work/vc" "$work/fc" | awk '{ d = ($2 - $1) / $1; if (d < 0) d = -d; if (d > 0.05) exit 1 }' && pass ||
  fail "cycles differ by more than 5 %: verilator $(tr '\n' ' ' <"$work/vc"), fast $(tr '\n' ' ' <"$work/fc")"

# Shapes the RTL cannot take: usage errors, nothing built.
expect_status 2 "more pool sets than cache sets" "$bin" sweep --model verilator --model-cache "$cache" \
  --grid sets=4 --grid ways=2 --grid pool=16 --grid pool_ways=2 "$t"
grep -q "sets" "$work/err" && pass || fail "pool_ways message: $(cat "$work/err")"
expect_status 2 "no cache" "$bin" sweep --model verilator --model-cache "$cache" --grid sets=0 --grid ways=0 "$t"
grep -q "not a kernel shape" "$work/err" && pass || fail "no-cache message: $(cat "$work/err")"
expect_status 2 "3 sync objects" "$bin" sweep --model verilator --model-cache "$cache" --grid objects=3 "$t"
[ "$(ls "$cache" | wc -l)" -eq 1 ] && pass || fail "a bad shape left something in the cache: $(ls "$cache")"

# Several read clocks per line: pool_ways is the RTL's ReadVcWays, and the
# Verilated kernel of 2 ways gives the fast model's escalations exactly.
ways="--grid slots=4 --grid sets=2 --grid ways=2 --grid pool=2 --grid pool_ways=2 --grid objects=2"
# shellcheck disable=SC2086
expect_status 0 "verilator sweep, 2 read-clock ways" "$bin" sweep --model verilator --model-cache "$cache" $ways \
  --csv "$work/w.csv" "$t"
grep -q "ReadVcs=2 BucketWays=4 ReadVcWays=2)" "$work/err" && pass || fail "no ReadVcWays in the build message"
# shellcheck disable=SC2086
expect_status 0 "fast sweep, 2 read-clock ways" "$bin" sweep $ways --csv "$work/wf.csv" "$t"
for name in races accesses on_chip escalations esc_host_owned esc_lastwrite esc_read_clock_spill esc_bucket_spill; do
  [ "$(column "$work/w.csv" "$name")" = "$(column "$work/wf.csv" "$name")" ] && pass ||
    fail "2 ways, $name: verilator $(column "$work/w.csv" "$name"), fast $(column "$work/wf.csv" "$name")"
done

# Every count column the two models share, compared row by row.
same_counts() { # WHAT VERILATOR_CSV FAST_CSV
  names="races accesses on_chip escalations $(head -1 "$2" | tr ',' '\n' | grep '^esc_' | tr '\n' ' ')"
  for name in $names; do
    [ "$(column "$2" "$name")" = "$(column "$3" "$name")" ] && pass ||
      fail "$1, $name: verilator $(column "$2" "$name" | tr '\n' ' '), fast $(column "$3" "$name" | tr '\n' ' ')"
  done
}
if [ -n "$bench" ]; then
  wrappers=$(dirname "$bin")
  "$wrappers/raceaccel-c++" -std=c++17 -O2 -g -pthread "$bench/atomic_pipeline.cpp" -o "$work/atomic_pipeline" ||
    fail "building atomic_pipeline"
  "$wrappers/raceaccel-cc" -std=c11 -O2 -g -pthread "$bench/matmul.c" -o "$work/matmul" || fail "building matmul"
  expect_status 0 "recording atomic_pipeline" "$bin" run --record "$work/atomic_pipeline.rtrace" -- \
    "$work/atomic_pipeline" 300 2
  expect_status 0 "recording matmul" "$bin" run --record "$work/matmul.rtrace" -- "$work/matmul" 12 2
  recorded="$work/atomic_pipeline.rtrace $work/matmul.rtrace"
  for grid in "$shape" "$ways"; do
    # shellcheck disable=SC2086 # the grid and trace lists are split on purpose
    expect_status 0 "verilator sweep of the recordings" "$bin" sweep --model verilator --model-cache "$cache" $grid \
      --csv "$work/rv.csv" $recorded
    # shellcheck disable=SC2086
    expect_status 0 "fast sweep of the recordings" "$bin" sweep $grid --csv "$work/rf.csv" $recorded
    same_counts "recordings at $grid" "$work/rv.csv" "$work/rf.csv"
    # The recordings exercise what they are meant to: atomics decided on
    # chip, and escalations (a tiny cache thrashes) for the host to answer.
    awk -F, 'NR == 2 { exit !($19 > 0) }' "$work/rv.csv" && pass || fail "atomic_pipeline: nothing on chip"
    [ "$(column "$work/rv.csv" escalations | sort -n | tail -1)" -gt 0 ] && pass || fail "no escalations at $grid"
  done
  [ "$(ls "$cache" | wc -l)" -eq 2 ] && pass || fail "the recordings built another model: $(ls "$cache")"
fi

finish
