#!/bin/sh
# `check --jobs N` (host/detect/sharded_checker.cpp) prints exactly what one
# job prints — text, --json, --sarif, stderr, exit status — byte for byte,
# for racy generated traces, several traces at once and a trace cut short;
# bad --jobs values are usage errors (status 2).
# Usage: jobs_test.sh RACEACCEL EXAMPLES_DIR WORK_DIR
set -u
bin=$1
examples=$2
work=$3
rm -rf "$work" && mkdir -p "$work"
. "$(dirname "$0")/lib.sh"


# run_check NAME ARGS...: stdout, stderr, SARIF and status of one check in $work/NAME.*
run_check() {
  name=$1
  shift
  "$bin" check --sarif "$work/$name.sarif" "$@" >"$work/$name.out" 2>"$work/$name.err" </dev/null
  echo $? >"$work/$name.status"
}

# same_as_one_job DESCRIPTION ARGS...: --jobs 2, 3, 4 and 7 against --jobs 1.
same_as_one_job() {
  desc=$1
  shift
  run_check one --jobs 1 "$@"
  for j in 2 3 4 7; do
    run_check many --jobs "$j" "$@"
    for part in out err sarif status; do
      if cmp -s "$work/one.$part" "$work/many.$part"; then
        pass
      else
        fail "$desc: --jobs $j $part differs from --jobs 1"
        diff "$work/one.$part" "$work/many.$part" | head -5
      fi
    done
  done
}

t=$examples/traces
"$bin" gen --threads 12 --events 300000 --seed 7 --racy 20 --mistakes 5 --extras 40 -o "$work/racy.rtrace" || fail "gen"
"$bin" gen --threads 6 --events 40000 --seed 8 --racy 20 -o "$work/small.rtrace" || fail "gen small"
"$bin" gen --threads 5 --events 20000 --seed 9 --format std -o "$work/named.std" || fail "gen std"

same_as_one_job "fasttrack text" "$work/racy.rtrace"
grep -q "races (fasttrack)" "$work/one.out" && ! grep -q " 0 races" "$work/one.out" && pass || fail "the racy trace has races"
[ "$(cat "$work/one.status")" = 66 ] && pass || fail "racy trace status $(cat "$work/one.status")"
same_as_one_job "fasttrack json" --json "$work/racy.rtrace"
same_as_one_job "djit text" --detector djit "$work/small.rtrace"
same_as_one_job "djit json" --detector djit --json "$work/small.rtrace"
same_as_one_job "several traces" "$t/simple-race.std" "$work/named.std" "$t/byte-ranges.std" "$work/small.rtrace"

# Cut short: the races before the malformed place, the same message, 65.
size=$(wc -c <"$work/racy.rtrace")
head -c $((size * 2 / 3)) "$work/racy.rtrace" >"$work/cut.rtrace"
same_as_one_job "cut short" "$work/cut.rtrace"
[ "$(cat "$work/one.status")" = 65 ] && pass || fail "cut trace status $(cat "$work/one.status")"
same_as_one_job "malformed std" "$t/simple-race.std" "$t/malformed.std"

# Bad values: status 2 and a message naming the option.
for bad in 0 -1 1025 99999999999999999999 two ""; do
  "$bin" check --jobs "$bad" "$t/simple-race.std" >"$work/out" 2>"$work/err" </dev/null
  status=$?
  if [ "$status" = 2 ] && grep -q -- "--jobs" "$work/err"; then
    pass
  else
    fail "--jobs '$bad': status $status, stderr: $(head -1 "$work/err")"
  fi
done
"$bin" check --jobs 2 --backend software "$t/simple-race.std" >"$work/out" 2>"$work/err" </dev/null
[ $? = 2 ] && grep -q -- "--jobs excludes --backend" "$work/err" && pass || fail "--jobs with --backend"

echo "jobs_test: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
