#!/bin/sh
# End-to-end checks of the raceaccel CLI: exit statuses, messages, JSON,
# conversion round trips. Usage: cli_test.sh RACEACCEL EXAMPLES_DIR WORK_DIR
set -u
bin=$1
examples=$2
work=$3
rm -rf "$work" && mkdir -p "$work"
failures=0
passes=0

# expect_status STATUS DESCRIPTION COMMAND...
expect_status() {
  want=$1 desc=$2
  shift 2
  "$@" >"$work/out" 2>"$work/err" </dev/null
  got=$?
  if [ "$got" -eq "$want" ]; then
    passes=$((passes + 1))
  else
    failures=$((failures + 1))
    echo "FAIL: $desc: exit $got, expected $want"
    sed 's/^/  stdout: /' "$work/out" | head -5
    sed 's/^/  stderr: /' "$work/err" | head -5
  fi
}

# expect_grep FILE PATTERN DESCRIPTION
expect_grep() {
  if grep -q -- "$2" "$1"; then
    passes=$((passes + 1))
  else
    failures=$((failures + 1))
    echo "FAIL: $3: '$2' not in $1:"
    head -5 "$1" | sed 's/^/  /'
  fi
}

t=$examples/traces
for det in fasttrack djit; do
  expect_status 0 "lock-handoff ($det)" "$bin" check --detector "$det" "$t/lock-handoff.std"
  expect_status 0 "fork-join ($det)" "$bin" check --detector "$det" "$t/fork-join.std"
  expect_status 66 "simple-race ($det)" "$bin" check --detector "$det" "$t/simple-race.std"
  expect_grep "$work/out" "simple-race.std: 7 events, 2 races" "race count ($det)"
  expect_grep "$work/out" "event 2: write-write race on counter" "write-write report ($det)"
  expect_grep "$work/out" "event 5: read-write race on flag" "read-write report ($det)"
  expect_status 66 "byte-ranges ($det)" "$bin" check --detector "$det" "$t/byte-ranges.std"
  expect_grep "$work/out" "race on 0x1002 (2 bytes)" "byte precision ($det)"
done

# Malformed input: 65 and file:line.
expect_status 65 "malformed" "$bin" check "$t/malformed.std"
expect_grep "$work/err" "malformed.std:2: expected THREAD|OP(DECOR)|LOC" "malformed message"
expect_status 74 "missing file" "$bin" check "$work/does-not-exist.std"
expect_grep "$work/err" "cannot open" "missing file message"
# Malformed outranks races when several traces are checked.
expect_status 65 "malformed + racy" "$bin" check "$t/simple-race.std" "$t/malformed.std"

# Usage errors: 2.
expect_status 2 "no subcommand" "$bin"
expect_status 2 "no trace" "$bin" check
expect_status 2 "bad detector" "$bin" check --detector eraser "$t/simple-race.std"
expect_status 2 "bad option" "$bin" check --frobnicate "$t/simple-race.std"
expect_status 2 "gen zero threads" "$bin" gen --threads 0

# stdin.
expect_status 66 "stdin" sh -c "\"$bin\" check - < \"$t/simple-race.std\""

# JSON: one document with the documented fields.
expect_status 66 "json" "$bin" check --json "$t/simple-race.std"
cp "$work/out" "$work/race.json"
expect_grep "$work/race.json" '"events": 7' "json events"
expect_grep "$work/race.json" '"kind": "write-write"' "json kind"
expect_grep "$work/race.json" '"location": "counter"' "json location"
expect_grep "$work/race.json" '"event": 2' "json event"
if command -v python3 >/dev/null; then
  expect_status 0 "json parses" python3 -c "import json,sys; d=json.load(open('$work/race.json')); assert len(d['races'])==2; assert d['traces'][0]['status']=='races'"
fi

# Conversion: STD -> binary -> STD is the identity; checks agree.
expect_status 0 "convert to binary" "$bin" convert "$t/simple-race.std" -o "$work/race.rtrace"
expect_status 66 "check binary" "$bin" check "$work/race.rtrace"
expect_grep "$work/out" "event 2: write-write race on counter" "binary keeps names"
expect_status 0 "convert back" "$bin" convert "$work/race.rtrace" --to std -o "$work/race.std"
expect_status 0 "identity" cmp "$t/simple-race.std" "$work/race.std"

# Generated traces: binary with extras cannot become STD (exit 3).
expect_status 0 "gen binary" "$bin" gen --threads 8 --events 20000 --seed 3 -o "$work/gen.rtrace"
expect_status 3 "extras have no STD form" "$bin" convert "$work/gen.rtrace" --to std -o "$work/gen.std"
expect_grep "$work/err" "has no STD equivalent" "unrepresentable message"
expect_status 0 "gen std" "$bin" gen --threads 4 --events 5000 --seed 3 --format std -o "$work/gen2.std"
expect_status 0 "stats" "$bin" stats "$work/gen2.std"
expect_grep "$work/out" "events     5000" "stats events"
expect_status 0 "stats json" "$bin" stats --json "$work/gen.rtrace"
expect_grep "$work/out" '"events": 20000' "stats json events"

# A corrupt binary trace: 65 naming the block.
expect_status 0 "gen raw" "$bin" gen --threads 4 --events 3000 --seed 9 -o "$work/raw.rtrace"
size=$(wc -c <"$work/raw.rtrace")
printf '\377' | dd of="$work/raw.rtrace" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
expect_status 65 "corrupt block" "$bin" check "$work/raw.rtrace"
expect_grep "$work/err" "block" "corrupt message names the block"
head -c $((size / 3)) "$work/raw.rtrace" >"$work/trunc.rtrace"
expect_status 65 "truncated binary" "$bin" check "$work/trunc.rtrace"

# --suppressions (ThreadSanitizer's format; docs/reports.md "Suppressions"):
# a trace race's frames are its sites, its global the memory's name.
printf '# counter races are known\nrace:^counter$\n' >"$work/counter.supp"
expect_status 66 "suppress counter" "$bin" check --suppressions "$work/counter.supp" "$t/simple-race.std"
expect_grep "$work/out" "simple-race.std: 7 events, 1 race, 1 suppressed (fasttrack)" "suppressed count in the summary"
expect_grep "$work/out" "race on flag" "the other race is still reported"
printf 'race:^21$\nrace:^10$\n' >"$work/sites.supp"
expect_status 0 "suppress by site" "$bin" check --suppressions "$work/sites.supp" "$t/simple-race.std"
expect_grep "$work/out" "7 events, 0 races, 2 suppressed" "all suppressed: exit 0"
expect_status 66 "suppressions json" "$bin" check --json --suppressions "$work/counter.supp" "$t/simple-race.std"
expect_grep "$work/out" '"suppressed": 1' "json suppressed count"
printf 'race:ok\nrace ok\n' >"$work/bad.supp"
expect_status 2 "malformed suppressions" "$bin" check --suppressions "$work/bad.supp" "$t/simple-race.std"
expect_grep "$work/err" "bad.supp:2: expected TYPE:PATTERN" "malformed suppressions names file:line"
expect_status 2 "missing suppressions" "$bin" check --suppressions "$work/none.supp" "$t/simple-race.std"
expect_grep "$work/err" "cannot read" "missing suppressions message"
expect_status 2 "suppressions is a directory" "$bin" check --suppressions "$work" "$t/simple-race.std"
expect_grep "$work/err" "cannot read" "directory suppressions message"
# --sarif: written also for a clean trace; an unwritable path is 74.
expect_status 66 "sarif" "$bin" check --sarif "$work/race.sarif" "$t/simple-race.std"
expect_grep "$work/race.sarif" '"version": "2.1.0"' "sarif version"
expect_grep "$work/race.sarif" '"raceaccelRace/v1"' "sarif fingerprints"
expect_status 0 "sarif clean" "$bin" check --sarif "$work/clean.sarif" "$t/fork-join.std"
expect_grep "$work/clean.sarif" '"results": \[\]' "sarif without results"
expect_status 74 "sarif unwritable" "$bin" check --sarif "$work/no/such/dir/x.sarif" "$t/simple-race.std"

# `run` passes its options through RACEACCEL_OPTIONS, whose separators a
# value cannot hold: a clear usage error (2), not another option.
expect_status 2 "run --record with ':'" "$bin" run --record "$work/x:exitcode=0" -- /bin/true
expect_grep "$work/err" "cannot contain white space" "run names the bad value"
expect_status 2 "run --record with a space" "$bin" run --record "$work/a b" -- /bin/true
# run --suppressions: the file is read and checked before the program starts.
expect_status 2 "run with malformed suppressions" "$bin" run --suppressions "$work/bad.supp" -- /bin/true
expect_grep "$work/err" "bad.supp:2: expected TYPE:PATTERN" "run names the malformed line"
expect_status 0 "run with suppressions and sarif" "$bin" run --suppressions "$work/counter.supp" --sarif "$work/run.sarif" -- /bin/true

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
