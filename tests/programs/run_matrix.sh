#!/bin/sh
# Runs every program of the manifest (written by CMakeLists.txt: one line per
# raceaccel_program() row, "name|driver options|verdict|source|exe|args",
# list items separated by '^') RUNS times with RACEACCEL_OPTIONS=OPTIONS, each
# run checked by run_program.sh against the row's verdict. Prints every
# failure and a count; exits 1 if any run failed, 2 on a usage error.
#
# Usage: run_matrix.sh MANIFEST RUNS [OPTIONS]
set -u
[ $# -ge 2 ] || { echo "usage: run_matrix.sh MANIFEST RUNS [OPTIONS]" >&2; exit 2; }
manifest=$1 runs=$2 options=${3:-}
[ -r "$manifest" ] || { echo "run_matrix.sh: cannot read $manifest" >&2; exit 2; }
here=$(dirname "$0")
failed=0 total=0
while IFS='|' read -r name driver verdict source exe args; do
  [ -n "$name" ] || continue
  driver=$(printf '%s' "$driver" | tr '^' ' ')
  args=$(printf '%s' "$args" | tr '^' ' ')
  run=1
  while [ "$run" -le "$runs" ]; do
    total=$((total + 1))
    # shellcheck disable=SC2086 # driver options and program arguments are word lists
    if ! out=$(RACEACCEL_OPTIONS="$options" "$here/run_program.sh" $driver "$verdict" "$source" "$exe" $args 2>&1); then
      failed=$((failed + 1))
      echo "FAIL: $name (run $run, RACEACCEL_OPTIONS='$options')"
      printf '%s\n' "$out" | head -20
    fi
    run=$((run + 1))
  done
done <"$manifest"
echo "run_matrix: $((total - failed)) of $total runs kept their verdict (RACEACCEL_OPTIONS='$options')"
[ "$failed" -eq 0 ]
