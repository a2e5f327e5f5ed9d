#!/bin/sh
# SARIF logs of `raceaccel check --sarif` and of the runtime's sarif= option:
# valid against the SARIF 2.1.0 schema (tests/report/schemas, draft-04, with
# Debian's python3-jsonschema), one result per report with the earlier
# access (and the allocation for heap memory) as related locations, the
# suppressed count, and fingerprints that are the same in a second run.
#
# Usage: sarif_schema_test.sh RACEACCEL RACEACCEL_CC PYTHON3 SOURCE_DIR WORK_DIR
set -u
raceaccel=$1 cc=$2 python=$3 src=$4 work=$5
schema=$src/tests/report/schemas/sarif-2.1.0-rtm.5.json
traces=$src/examples/traces
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# validate FILE: schema-valid; prints "RESULTS SUPPRESSED RELATED..." (related
# locations per result) and the sorted fingerprints to FILE.fp.
validate() {
  "$python" - "$schema" "$1" <<'PY'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
log = json.load(open(sys.argv[2]))
errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=lambda e: list(e.path))
for e in errors:
    print("schema:", "/".join(map(str, e.path)), e.message, file=sys.stderr)
if errors:
    sys.exit(1)
run = log["runs"][0]
results = run["results"]
related = " ".join(str(len(r.get("relatedLocations", []))) for r in results)
print(len(results), run["invocations"][0]["properties"]["suppressed"], related)
with open(sys.argv[2] + ".fp", "w") as out:
    for fp in sorted(r["partialFingerprints"]["raceaccelRace/v1"] for r in results):
        out.write(fp + "\n")
PY
}

# expect FILE "SUMMARY": validate and compare the summary line.
expect() {
  got=$(validate "$1") || {
    fail "$1 is not valid SARIF 2.1.0"
    return
  }
  [ "$got" = "$2" ] || fail "$1: expected '$2', got '$got'"
}

# The validator rejects what the schema forbids (so a pass means something).
echo '{"version": "2.1.0", "runs": [{"tool": {"driver": {}}}]}' >broken.sarif
validate broken.sarif >/dev/null 2>&1 && fail "a driver without a name passed the schema"

# ---- raceaccel check --sarif ----
"$raceaccel" check --sarif cli.sarif "$traces/simple-race.std" >/dev/null
[ $? -eq 66 ] || fail "check --sarif on a racy trace: exit status"
expect cli.sarif "2 0 1 1"
"$raceaccel" check --sarif cli2.sarif "$traces/simple-race.std" >/dev/null
expect cli2.sarif "2 0 1 1"
cmp -s cli.sarif.fp cli2.sarif.fp || fail "check: fingerprints differ between two runs"
"$raceaccel" check --sarif clean.sarif "$traces/fork-join.std" >/dev/null || fail "check --sarif on a clean trace"
expect clean.sarif "0 0 "
printf '# counter is protected elsewhere\nrace:^counter$\n' >trace.supp
"$raceaccel" check --suppressions trace.supp --sarif supp.sarif "$traces/simple-race.std" >/dev/null
expect supp.sarif "1 1 1"
"$raceaccel" check --sarif /nonexistent/dir/x.sarif "$traces/simple-race.std" >/dev/null 2>err.txt
[ $? -eq 74 ] || fail "check --sarif to an unwritable place: exit status 74 expected"

# ---- the runtime's sarif= ----
if ! "$cc" -O1 -g -pthread "$src/tests/programs/suppressions_race.c" "$src/tests/programs/suppressions_helper.c" \
  -o prog 2>build.txt; then
  cat build.txt
  fail "cannot build the test program"
else
  RACEACCEL_OPTIONS=sarif=rt.sarif ./prog 2>/dev/null
  [ $? -eq 66 ] || fail "runtime: exit status of the racy program"
  expect rt.sarif "3 0 1 1 2"
  RACEACCEL_OPTIONS=sarif=rt2.sarif ./prog 2>/dev/null
  validate rt2.sarif >/dev/null || fail "second runtime log invalid"
  cmp -s rt.sarif.fp rt2.sarif.fp || fail "runtime: fingerprints differ between two runs"
  printf 'race:^named_global$\n' >rt.supp
  RACEACCEL_OPTIONS="sarif=rt3.sarif suppressions=rt.supp" ./prog 2>/dev/null
  expect rt3.sarif "2 1 1 2"
  # A sampled run (sample=): its rate and warning must fit the schema too.
  RACEACCEL_OPTIONS="sarif=rt4.sarif sample=0.5" ./prog 2>/dev/null
  validate rt4.sarif >/dev/null || fail "sampled runtime log invalid"
  grep -q '"sampleRate": 0.5' rt4.sarif || fail "sampled runtime log: no sampleRate"
  grep -q '"toolExecutionNotifications"' rt4.sarif || fail "sampled runtime log: no warning"
fi

[ $failures -eq 0 ] && echo "sarif_schema_test: all passed" && exit 0
echo "sarif_schema_test: $failures failure(s)"
exit 1
