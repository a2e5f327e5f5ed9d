#!/bin/sh
# The main job: build a real multithreaded C program with raceaccel's compiler
# wrapper, run it with its checks offloaded to the simulated accelerator (the
# Verilated rac_kernel behind the device layer), and show that the software
# detector, the golden DJIT+ and the accelerator agree — on the program's
# recorded trace and on a large generated one.
#
#   scripts/demo.sh [build_dir]
set -eu
build=${1:-build}
bin=$build/bin
work=$build/demo
mkdir -p "$work"

# The race lines of a text report, without the summary line (it names the
# detector) and without the earlier reader of read-write races (any
# concurrent reader is a correct answer; detectors may name different ones).
race_lines() {
  grep -v ' events, [0-9]* races (' "$1" | sed 's/; earlier read by .*$//'
}
same_races() {
  race_lines "$1" >"$1.races"
  race_lines "$2" >"$2.races"
  cmp -s "$1.races" "$2.races"
}

# Runs a command that may report races (exit 66); any other failure stops the demo.
allow_races() {
  status=0
  "$@" || status=$?
  [ "$status" -eq 0 ] || [ "$status" -eq 66 ] || { echo "demo: '$*' failed with status $status" >&2; exit 1; }
}

echo "== build examples/programs/bank.c with the compiler wrapper"
"$bin/raceaccel-cc" -O1 examples/programs/bank.c -o "$work/bank"

echo
echo "== run it with the checks on the simulated accelerator (raceaccel run --backend verilator)"
allow_races "$bin/raceaccel" run --backend verilator --record "$work/bank.rtrace" -- "$work/bank"

echo
echo "== the recorded run, checked again on every backend (the race lines must be identical)"
for backend in software verilator; do
  allow_races "$bin/raceaccel" check --backend "$backend" "$work/bank.rtrace" >"$work/bank.$backend.txt" 2>"$work/bank.$backend.err"
done
allow_races "$bin/raceaccel" check --detector djit "$work/bank.rtrace" >"$work/bank.djit.txt"
same_races "$work/bank.software.txt" "$work/bank.verilator.txt" && same_races "$work/bank.software.txt" "$work/bank.djit.txt" ||
  { echo "demo: the backends disagree (see $work/bank.*.txt)" >&2; exit 1; }
# A recording carries its program info: check prints the live run's symbolized reports.
echo "software, verilator and djit agree: $(grep -c '^WARNING: raceaccel: data race' "$work/bank.djit.txt.races") race reports, symbolized as the live run printed them:"
sed -n '/^==================$/,/^==================$/p' "$work/bank.djit.txt" | head -16
echo "accelerator statistics:"
cat "$work/bank.verilator.err"

echo
echo "== a generated trace: 2,000,000 events, 16 threads (locks, atomics, barriers, heap reuse, a few races)"
"$bin/raceaccel" gen --threads 16 --events 2000000 --seed 2026 -o "$work/demo.rtrace"
"$bin/raceaccel" stats "$work/demo.rtrace"
for detector in djit fasttrack; do
  start=$(date +%s%N)
  allow_races "$bin/raceaccel" check --detector "$detector" "$work/demo.rtrace" >"$work/demo.$detector.txt"
  end=$(date +%s%N)
  echo "$detector: $(grep -c ' race on ' "$work/demo.$detector.txt") race reports, $(((end - start) / 1000000)) ms"
done
same_races "$work/demo.djit.txt" "$work/demo.fasttrack.txt" || { echo "demo: djit and fasttrack disagree" >&2; exit 1; }
echo "djit and fasttrack agree"
