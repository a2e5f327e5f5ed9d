#!/bin/sh
# The main job, for now: generate a multithreaded trace, check it with the
# golden DJIT+ detector and with FastTrack, and show that they agree.
# (When the accelerator backends and the instrumentation runtime land, the
# demo checks a real program offloaded to the simulated accelerator.)
set -eu
build=${1:-build}
bin=$build/bin/raceaccel
work=$build/demo
mkdir -p "$work"

echo "== a small STD trace with two races (examples/traces/simple-race.std)"
"$bin" check examples/traces/simple-race.std || [ $? -eq 66 ]

echo
echo "== generate 2,000,000 events from 16 threads (locks, atomics, barriers, heap reuse, a few races)"
"$bin" gen --threads 16 --events 2000000 --seed 2026 -o "$work/demo.rtrace"
"$bin" stats "$work/demo.rtrace"

for detector in djit fasttrack; do
  echo
  echo "== check with $detector"
  start=$(date +%s%N)
  status=0
  "$bin" check --detector "$detector" --json "$work/demo.rtrace" >"$work/$detector.json" || status=$?
  end=$(date +%s%N)
  [ "$status" -eq 0 ] || [ "$status" -eq 66 ] || { echo "check failed with $status"; exit 1; }
  races=$(grep -c '"kind"' "$work/$detector.json" || true)
  echo "$detector: $races races, exit $status, $(( (end - start) / 1000000 )) ms"
done

echo
if python3 - "$work/djit.json" "$work/fasttrack.json" <<'PY'
import json, sys
def races(path):
    doc = json.load(open(path))
    return sorted((r["address"], r["size"], r["event"], r["kind"]) for r in doc["races"])
a, b = races(sys.argv[1]), races(sys.argv[2])
print(f"djit and fasttrack agree on all {len(a)} races" if a == b else "DISAGREEMENT")
sys.exit(0 if a == b else 1)
PY
then :; else exit 1; fi
echo
echo "first races found:"
"$bin" check "$work/demo.rtrace" | head -3 || true
