#!/bin/sh
# `make bench`: detector and reader throughput (Google Benchmark, median of
# 5 repetitions) plus end-to-end CLI timings. A benchmark, not a test.
set -eu
build=${1:-build}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
if [ -x "$build/bin/detector_bench" ]; then
  "$build/bin/detector_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
    --benchmark_min_time=0.2
fi
if [ -x "$build/bin/engine_bench" ]; then
  echo "check engine (Verilator), cycles per event:"
  traces=""
  if [ -x "$build/bin/raceaccel-cc" ]; then
    # Two programs recorded with the runtime, for the read-VC pool's effect
    # on real read sharing (docs/hardware.md); small sizes keep it to minutes.
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    here=$(dirname "$0")/..
    "$build/bin/raceaccel-cc" -O2 -g -pthread "$here/bench/programs/matmul.c" -o "$work/matmul"
    "$build/bin/raceaccel-cc" -O2 -g -pthread "$here/bench/programs/lookup.c" -o "$work/lookup"
    "$build/bin/raceaccel" run --record "$work/matmul.rtrace" -- "$work/matmul" 40 4 >/dev/null
    "$build/bin/raceaccel" run --record "$work/lookup.rtrace" -- "$work/lookup" 20000 4 4096 >/dev/null
    traces="$work/matmul.rtrace $work/lookup.rtrace"
  fi
  # shellcheck disable=SC2086 # the trace list is a word list
  "$build/bin/engine_bench" $traces
fi
if [ -x "$build/bin/kernel_bench" ]; then
  echo "rac_kernel (Verilator, through the offload engine), cycles per event:"
  "$build/bin/kernel_bench"
fi
if [ -x "$build/bin/offload_bench" ]; then
  echo "offload path (host/offload over each built-in backend):"
  "$build/bin/offload_bench" --benchmark_min_time=0.2
fi
if [ -x "$build/bin/host_side_bench" ]; then
  echo "offload host side (pass-through, software and Verilator devices), ns/event:"
  "$build/bin/host_side_bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
fi
if [ -x "$build/bin/raceaccel-cc" ]; then sh "$(dirname "$0")/bench_programs.sh" "$build"; fi
