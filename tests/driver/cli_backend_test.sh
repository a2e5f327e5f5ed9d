#!/bin/sh
# End-to-end checks of `raceaccel check --backend` and `raceaccel devices`:
# identical stdout whatever the backend, statistics on stderr, exit statuses
# of device failures (docs/cli.md).
# Usage: cli_backend_test.sh RACEACCEL EXAMPLES_DIR WORK_DIR [XCLBIN XRT_ROOT [verilator]]
#   XCLBIN, XRT_ROOT: the hand-built noop card image and a XILINX_XRT
#   directory (tests/driver/CMakeLists.txt); "-" or empty: the no-card
#   checks are left out. "verilator": compare the Verilator backend too.
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




# without_accelerator FILE: the JSON report without its traces' "accelerator"
# objects (the device's statistics, which the in-process detector has not;
# the object is the first key of a trace and its lines are indented 6+).
without_accelerator() {
  awk '/^      "accelerator": \{/ { skip = 1; next } skip && /^      \},?$/ { skip = 0; next } !skip' "$1" >"$1.stripped" &&
    mv "$1.stripped" "$1"
}

# same_stdout DESCRIPTION BACKEND ARGS...: stdout and exit status equal to the
# in-process detector's (with --json: but for the accelerator statistics)
same_stdout() {
  desc=$1 backend=$2
  shift 2
  "$bin" check "$@" >"$work/want" 2>/dev/null </dev/null
  want=$?
  "$bin" check --backend "$backend" "$@" >"$work/got" 2>"$work/stats" </dev/null
  got=$?
  without_accelerator "$work/got"
  if [ "$got" -ne "$want" ]; then
    fail "$desc ($backend): exit $got, in-process $want"
    sed 's/^/  stderr: /' "$work/stats" | head -5
  elif ! cmp -s "$work/want" "$work/got"; then
    fail "$desc ($backend): stdout differs from the in-process detector"
    diff "$work/want" "$work/got" | head -10 | sed 's/^/  /'
  else
    passes=$((passes + 1))
  fi
}

backends=software
if [ "$with_verilator" = verilator ]; then
  backends="$backends verilator"
fi

t=$examples/traces
for backend in $backends; do
  for f in "$t"/*.std; do
    same_stdout "$(basename "$f")" "$backend" "$f"
    same_stdout "$(basename "$f") --json" "$backend" --json "$f"
  done
  same_stdout "several traces" "$backend" "$t/simple-race.std" "$t/fork-join.std" "$t/lock-handoff.std"
  # Random traces: many threads (beyond the slots), heap reuse, atomics.
  for seed in 1 2 3; do
    "$bin" gen --threads $((20 * seed + 50)) --events 20000 --seed "$seed" --racy 8 --mistakes 3 \
      -o "$work/gen$seed.bin"
    same_stdout "generated trace seed $seed" "$backend" "$work/gen$seed.bin"
  done
  same_stdout "tiny batches" "$backend" --batch-words 1 "$work/gen1.bin"
  # The statistics go to stderr, after the report.
  expect_status 66 "$backend: racy example" "$bin" check --backend "$backend" "$t/simple-race.std"
  expect_grep "$work/err" "accelerator ($backend" "$backend: statistics on stderr"
  expect_grep "$work/err" "escalations" "$backend: escalation count"
  expect_grep "$work/err" "events 7" "$backend: event count"
  expect_grep "$work/err" "decided on chip 4 (100.0%)" "$backend: accesses decided on chip"
  # --json: each trace carries the accelerator's statistics.
  expect_status 66 "$backend: racy example, JSON" "$bin" check --json --backend "$backend" "$t/simple-race.std"
  expect_grep "$work/out" '"accelerator": {' "$backend: JSON accelerator object"
  expect_grep "$work/out" '"on_chip": 4' "$backend: JSON accesses decided on chip"
  expect_grep "$work/out" '"escalations": {}' "$backend: JSON escalations by cause"
  expect_grep "$work/out" '"host_ns_per_event": ' "$backend: JSON host time"
  expect_grep "$work/out" '"command_bytes": ' "$backend: JSON command bytes"
  expect_grep "$work/out" '"slot_recycles": 0' "$backend: JSON slots taken over from joined threads"
  if [ "$backend" = software ]; then
    expect_grep "$work/out" '"cycles": null' "software: cycles not modelled"
  else
    expect_grep "$work/out" '"cycles": [1-9]' "$backend: cycles"
  fi
  # A thread without a slot (70 threads on 64 or 8 slots): escalations by cause.
  expect_status 66 "$backend: generated trace, JSON" "$bin" check --json --backend "$backend" "$work/gen1.bin"
  expect_grep "$work/out" '"slotless": [1-9]' "$backend: JSON slotless escalations"
done

# Bad input.
expect_status 2 "unknown backend" "$bin" check --backend nosuch "$t/simple-race.std"
expect_grep "$work/err" "software" "unknown backend names the alternatives"
expect_status 2 "--backend with --detector" "$bin" check --backend software --detector djit "$t/simple-race.std"
expect_status 2 "xrt without --xclbin" "$bin" check --backend xrt "$t/simple-race.std"
expect_grep "$work/err" "xclbin" "xrt without --xclbin says what is missing"
expect_status 74 "missing card image" "$bin" check --backend xrt --xclbin "$work/missing.xclbin" "$t/simple-race.std"
expect_grep "$work/err" "missing.xclbin" "missing card image is named"
expect_status 65 "malformed trace on a device" "$bin" check --backend software "$t/malformed.std"
expect_status 74 "missing trace on a device" "$bin" check --backend software "$work/missing.std"

if [ -n "$xclbin" ] && [ -n "$xrt_root" ]; then
  expect_status 69 "xrt with no card" env XILINX_XRT="$xrt_root" XCL_EMULATION_MODE= \
    "$bin" check --backend xrt --xclbin "$xclbin" "$t/simple-race.std"
  expect_grep "$work/err" "no card" "no-card message"
  expect_grep "$work/err" "backend software|verilator" "no-card message names the alternatives"
  expect_status 69 "xrt without an XRT runtime" env -u XILINX_XRT \
    "$bin" check --backend xrt --xclbin "$xclbin" "$t/simple-race.std"
  expect_grep "$work/err" "XILINX_XRT" "no-runtime message names XILINX_XRT"
  expect_status 0 "devices with no card" env XILINX_XRT="$xrt_root" "$bin" devices
  expect_grep "$work/out" "^xrt  *unavailable" "devices: xrt unavailable without a card"
fi

expect_status 0 "devices" "$bin" devices
expect_grep "$work/out" "^software  *available" "devices lists the software backend"
expect_grep "$work/out" "^verilator" "devices lists the verilator backend"
expect_grep "$work/out" "^xrt" "devices lists the xrt backend"

finish
