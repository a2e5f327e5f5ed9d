#!/bin/sh
# The reference co-design study of docs/experiments.md, in one command:
#
#   sh scripts/reference_study.sh [BUILD_DIR] [OUT_DIR]
#
# (defaults: build, BUILD_DIR/reference-study). It needs BUILD_DIR/bin/
# raceaccel and raceaccel-cc (`make`) and gnuplot (scripts/install-deps.sh).
# It makes four traces -- two generated (8 and 16 threads) and the
# recordings of two bench/programs kernels run with 8 threads -- and runs
# three `raceaccel sweep`s on the fast model, each writing OUT_DIR/NAME.csv
# and its plots in OUT_DIR/NAME/:
#   slots-pool    slots x read-VC pool, 1024 x 4 cache, 2^16 buckets
#   cache-pool    cache sets x pool, 16 slots, 2^16 buckets
#   buckets-pool  bucket table size x pool, 16 slots, 1024 x 4 cache
#   latency       memory latency x cache sets, 16 slots, pool 16
# Sizes are small on purpose (the project's machine is a loaded 2-core VM):
# the whole study takes about two minutes. Every step is deterministic except
# the program recordings, whose interleavings vary from run to run.
#
# With RESOURCES=synth it also synthesizes three kernel shapes with Yosys
# (slots 4, 8, 16 at the RTL's 256 x 4 cache; tens of minutes: each shape
# once, kept in OUT_DIR/synth-cache) and sweeps them as `resources`, whose
# CSV has their LUT/FF/BRAM and whose plots include resources vs slots.
set -eu
build=${1:-build}
out=${2:-$build/reference-study}
here=$(cd "$(dirname "$0")/.." && pwd)
raceaccel=$build/bin/raceaccel
for tool in "$raceaccel" "$build/bin/raceaccel-cc"; do
  [ -x "$tool" ] || { echo "reference_study: $tool not found; build first (make)" >&2; exit 69; }
done
mkdir -p "$out/traces"
t=$out/traces

# Generated traces: the generator's default mix at 8 and 16 threads.
"$raceaccel" gen --threads 8 --events 500000 --seed 1 -o "$t/gen8.rtrace"
"$raceaccel" gen --threads 16 --events 500000 --seed 2 -o "$t/gen16.rtrace"

# Two program kernels, 8 threads each, recorded by the runtime: histogram
# (lock-protected shared bins) and stencil (barrier-separated sweeps).
"$build/bin/raceaccel-cc" -std=c11 -O2 -g -pthread "$here/bench/programs/histogram.c" -o "$t/histogram"
"$build/bin/raceaccel-cc" -std=c11 -O2 -g -pthread "$here/bench/programs/stencil.c" -o "$t/stencil"
RACEACCEL_OPTIONS=record=$t/histogram.rtrace "$t/histogram" 25000 8 >/dev/null
RACEACCEL_OPTIONS=record=$t/stencil.rtrace "$t/stencil" 20000 20 8 >/dev/null

traces="$t/gen8.rtrace $t/gen16.rtrace $t/histogram.rtrace $t/stencil.rtrace"
sweep() { # NAME GRID...
  name=$1
  shift
  echo "reference_study: $name" >&2
  # shellcheck disable=SC2086 # the trace list is split on purpose
  "$raceaccel" sweep "$@" --csv "$out/$name.csv" --plot "$out/$name" $traces
}
sweep slots-pool --grid slots=4,8,16,32,64 --grid pool=0,16,64 --grid sets=1024 --grid ways=4 --grid bucket_bits=16
sweep cache-pool --grid sets=64,256,1024,4096 --grid pool=0,16,64 --grid ways=4 --grid slots=16 --grid bucket_bits=16
sweep buckets-pool --grid bucket_bits=8,10,12,14,16 --grid pool=16,64 --grid sets=1024 --grid ways=4 --grid slots=16
sweep latency --grid latency=1,8,32,128 --grid sets=256,1024 --grid ways=4 --grid slots=16 --grid pool=16 \
  --grid bucket_bits=16
if [ "${RESOURCES:-}" = synth ]; then
  sweep resources --resources synth --synth-cache "$out/synth-cache" --grid slots=4,8,16 --grid sets=256 \
    --grid ways=4 --grid pool=16 --grid objects=16 --grid bucket_bits=16
fi
echo "reference_study: CSVs and plots in $out" >&2
