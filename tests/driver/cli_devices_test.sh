#!/bin/sh
# `raceaccel check --backend B --devices N` (host/offload/multi_device_checker.*,
# docs/driver.md "Several devices") prints what one device prints — text,
# --json but for the accelerator statistics, --sarif, exit status — byte for
# byte; the JSON accelerator block holds each device's statistics and their
# sums; bad --devices values are usage errors (2) and more cards than there
# are is "device unavailable" (69).
# Usage: cli_devices_test.sh RACEACCEL EXAMPLES_DIR WORK_DIR [XCLBIN XRT_ROOT [verilator]]
#   as cli_backend_test.sh: "-" leaves the XRT checks out; "verilator"
#   runs the Verilator backend too.
set -u
bin=$1
examples=$2
work=$3
xclbin=${4:-}
xrt_root=${5:-}
with_verilator=${6:-}
if [ "$xclbin" = "-" ]; then xclbin=""; fi
if [ "$xrt_root" = "-" ]; then xrt_root=""; fi
rm -rf "$work" && mkdir -p "$work"
. "$(dirname "$0")/../cli/lib.sh"


# run_check NAME ARGS...: stdout, stderr, SARIF and status of one check in
# $work/NAME.*; for --json the accelerator blocks are moved to NAME.accel.
run_check() {
  name=$1
  shift
  "$bin" check --sarif "$work/$name.sarif" "$@" >"$work/$name.out" 2>"$work/$name.err" </dev/null
  echo $? >"$work/$name.status"
  if grep -q '^  "tool": "raceaccel"' "$work/$name.out"; then
    python3 - "$work/$name.out" "$work/$name.accel" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
accel = [t.pop("accelerator", None) for t in doc["traces"]]
json.dump(doc, open(sys.argv[1], "w"), indent=2)
json.dump(accel, open(sys.argv[2], "w"), indent=2)
EOF
  fi
}

# same_as_one_device DESCRIPTION BACKEND COUNTS ARGS...: --devices N for each
# N of COUNTS against --devices 1.
same_as_one_device() {
  desc=$1 backend=$2 counts=$3
  shift 3
  run_check one --backend "$backend" --devices 1 "$@"
  for n in $counts; do
    run_check many --backend "$backend" --devices "$n" "$@"
    for part in out sarif status; do
      if cmp -s "$work/one.$part" "$work/many.$part"; then
        pass
      else
        fail "$desc: --backend $backend --devices $n $part differs from one device"
        diff "$work/one.$part" "$work/many.$part" | head -5
        head -3 "$work/many.err"
      fi
    done
  done
}

t=$examples/traces
"$bin" gen --threads 12 --events 200000 --seed 7 --racy 20 --mistakes 5 --extras 40 -o "$work/racy.rtrace" || fail "gen"
"$bin" gen --threads 70 --events 30000 --seed 8 --racy 8 --mistakes 3 -o "$work/many-threads.rtrace" || fail "gen 70"
"$bin" gen --threads 5 --events 20000 --seed 9 --format std -o "$work/named.std" || fail "gen std"

same_as_one_device "text" software "2 3 4" "$work/racy.rtrace"
[ "$(cat "$work/one.status")" = 66 ] && pass || fail "racy trace status $(cat "$work/one.status")"
grep -q " 0 races" "$work/one.out" && fail "the racy trace has no races" || pass
same_as_one_device "json" software "2 4" --json "$work/racy.rtrace"
same_as_one_device "more threads than slots" software "3" --json "$work/many-threads.rtrace"
same_as_one_device "tiny batches" software "2" --batch-words 1 "$work/named.std"
same_as_one_device "several traces" software "2 3" "$t/simple-race.std" "$work/named.std" "$t/lock-handoff.std"
# Cut short: the races before the malformed place, the same message, 65.
size=$(wc -c <"$work/racy.rtrace")
head -c $((size * 2 / 3)) "$work/racy.rtrace" >"$work/cut.rtrace"
same_as_one_device "cut short" software "2 3" "$work/cut.rtrace"
[ "$(cat "$work/one.status")" = 65 ] && pass || fail "cut trace status $(cat "$work/one.status")"
# And the same as the in-process detector (which one device matches:
# cli_backend_test.sh).
"$bin" check "$work/racy.rtrace" >"$work/in-process.out" 2>/dev/null </dev/null
run_check many --backend software --devices 3 "$work/racy.rtrace"
cmp -s "$work/in-process.out" "$work/many.out" && pass || fail "--devices 3 differs from the in-process detector"

# The JSON accelerator block: the sums and one block per device, whose
# accesses add up to one device's.
run_check one --json --backend software "$work/racy.rtrace"
run_check many --json --backend software --devices 3 "$work/racy.rtrace"
if python3 - "$work/one.accel" "$work/many.accel" <<'EOF'; then pass; else fail "JSON accelerator block of --devices 3"; fi
import json, sys
one = json.load(open(sys.argv[1]))[0]
many = json.load(open(sys.argv[2]))[0]
assert "devices" not in one, "one device has no per-device list"
devices = many["devices"]
assert len(devices) == 3, len(devices)
for key in ("accesses", "on_chip", "command_bytes"):
    assert many[key] == sum(d[key] for d in devices), key
assert many["accesses"] == one["accesses"], (many["accesses"], one["accesses"])
assert all(d["accesses"] > 0 and d["events"] > 0 for d in devices), devices
assert many["cycles"] is None and all(d["cycles"] is None for d in devices)
EOF
grep -q "accelerator (software, 3 devices" "$work/many.err" && pass || fail "stderr: the summed statistics"
grep -q "device 3 of 3: accelerator (software" "$work/many.err" && pass || fail "stderr: each device's statistics"

if [ "$with_verilator" = verilator ]; then
  "$bin" gen --threads 6 --events 6000 --seed 11 --racy 10 -o "$work/small.rtrace" || fail "gen small"
  same_as_one_device "verilator" verilator "2" --json "$work/small.rtrace"
  [ "$(cat "$work/one.status")" = 66 ] && pass || fail "verilator: small trace status $(cat "$work/one.status")"
  python3 -c "import json,sys; a=json.load(open(sys.argv[1]))[0]; assert len(a['devices'])==2 and a['cycles']>0 \
and a['cycles']==sum(d['cycles'] for d in a['devices'])" "$work/many.accel" && pass || fail "verilator: cycles summed"
fi

# Bad values: status 2 and a message naming the option.
for bad in 0 -1 65 99999999999999999999 two ""; do
  "$bin" check --backend software --devices "$bad" "$t/simple-race.std" >"$work/out" 2>"$work/err" </dev/null
  status=$?
  if [ "$status" = 2 ] && grep -q -- "--devices" "$work/err"; then
    pass
  else
    fail "--devices '$bad': status $status, stderr: $(head -1 "$work/err")"
  fi
done
"$bin" check --devices 2 "$t/simple-race.std" >"$work/out" 2>"$work/err" </dev/null
[ $? = 2 ] && grep -q -- "--devices requires --backend" "$work/err" && pass || fail "--devices without --backend"
"$bin" check --backend software --devices 2 --jobs 2 "$t/simple-race.std" >"$work/out" 2>"$work/err" </dev/null
[ $? = 2 ] && grep -q -- "--jobs" "$work/err" && pass || fail "--devices with --jobs"

# XRT: with no card (the first card is missing), and under XRT's noop
# emulation, which opens any card index but counts no card.
if [ -n "$xclbin" ] && [ -n "$xrt_root" ]; then
  env XILINX_XRT="$xrt_root" XCL_EMULATION_MODE= "$bin" check --backend xrt --xclbin "$xclbin" --devices 2 \
    "$t/simple-race.std" >"$work/out" 2>"$work/err" </dev/null
  [ $? = 69 ] && pass || fail "xrt --devices 2 with no card: $(head -1 "$work/err")"
  (cd "$work" && env XILINX_XRT="$xrt_root" XCL_EMULATION_MODE=noop "$bin" check --backend xrt --xclbin "$xclbin" \
    --devices 2 "$t/simple-race.std" >"$work/out" 2>"$work/err" </dev/null)
  status=$?
  if [ "$status" = 69 ] && grep -q -- "--devices 2: cards 0 to 1 were asked for, and XRT finds 0 cards" "$work/err"; then
    pass
  else
    fail "xrt noop --devices 2: status $status, stderr: $(head -1 "$work/err")"
  fi
fi

echo "cli_devices_test: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
