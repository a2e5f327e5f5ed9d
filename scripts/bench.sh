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
  "$build/bin/engine_bench"
fi
if [ -x "$build/bin/kernel_bench" ]; then
  echo "rac_kernel (Verilator, through the offload engine), cycles per event:"
  "$build/bin/kernel_bench"
fi
if [ -x "$build/bin/offload_bench" ]; then
  echo "offload path (host/offload over each built-in backend):"
  "$build/bin/offload_bench" --benchmark_min_time=0.2
fi
if [ -x "$build/bin/raceaccel-cc" ]; then sh "$(dirname "$0")/bench_programs.sh" "$build"; fi
