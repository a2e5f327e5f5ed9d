#!/bin/sh
# Hostile inputs for the raceaccel CLI: malformed and crafted traces, option
# values out of range, outputs that must not be destroyed, standard output
# closed or full. Each case runs under a timeout and must end with its
# documented exit status, a message on stderr naming the problem, no crash
# (no status >= 128) and no sanitizer report.
#
# Usage: hostile_test.sh RACEACCEL EXAMPLES_DIR WORK_DIR
set -u
bin=$1
examples=$2
work=$3
rm -rf "$work" && mkdir -p "$work"
t=$examples/traces
failures=0
passes=0
limit=60  # seconds per case

fail() {
  failures=$((failures + 1))
  echo "FAIL: $*"
}

# hostile NAME STATUS STDERR_PATTERN COMMAND... : runs COMMAND with stdin
# from /dev/null and stdout/stderr to files (COMMAND may be `sh -c '...'`
# for redirections).
hostile() {
  name=$1 want=$2 pattern=$3
  shift 3
  timeout -k 5 "$limit" "$@" >"$work/out" 2>"$work/err" </dev/null
  got=$?
  ok=1
  if [ "$got" -eq 124 ] || [ "$got" -eq 137 ]; then
    fail "$name: timed out after ${limit}s"
    ok=0
  elif [ "$got" -ge 128 ]; then
    fail "$name: crashed (exit $got)"
    ok=0
  elif [ "$got" -ne "$want" ]; then
    fail "$name: exit $got, expected $want"
    ok=0
  fi
  if grep -q -E 'Sanitizer|runtime error:|internal error' "$work/err"; then
    fail "$name: sanitizer or internal error on stderr"
    ok=0
  fi
  if [ -n "$pattern" ] && ! grep -q -e "$pattern" "$work/err"; then
    fail "$name: stderr does not name the problem ('$pattern')"
    ok=0
  fi
  if [ "$ok" -eq 1 ]; then
    passes=$((passes + 1))
  else
    sed 's/^/  stdout: /' "$work/out" | head -3
    sed 's/^/  stderr: /' "$work/err" | head -3
  fi
}

# check_that DESCRIPTION COMMAND... : a plain assertion.
check_that() {
  desc=$1
  shift
  if "$@"; then passes=$((passes + 1)); else fail "$desc"; fi
}

# ---- binary traces: truncated, bad checksums, huge sizes -------------------
"$bin" gen --threads 4 --events 3000 --seed 9 -o "$work/good.rtrace" || exit 1
size=$(wc -c <"$work/good.rtrace")
head -c 10 "$work/good.rtrace" >"$work/short-header.rtrace"
hostile "truncated file header" 65 "short-header.rtrace" "$bin" check "$work/short-header.rtrace"
head -c 40 "$work/good.rtrace" >"$work/short-block.rtrace"
hostile "truncated block" 65 "block" "$bin" check "$work/short-block.rtrace"
head -c $((size - 20)) "$work/good.rtrace" >"$work/no-end.rtrace"
hostile "missing end block" 65 "no-end.rtrace" "$bin" check "$work/no-end.rtrace"
cp "$work/good.rtrace" "$work/payload.rtrace"
printf '\377' | dd of="$work/payload.rtrace" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
hostile "payload checksum" 65 "block" "$bin" check "$work/payload.rtrace"
cp "$work/good.rtrace" "$work/field.rtrace"
printf '\001' | dd of="$work/field.rtrace" bs=1 seek=36 conv=notrunc 2>/dev/null  # record_count
hostile "header-field checksum" 65 "block" "$bin" check "$work/field.rtrace"
cp "$work/good.rtrace" "$work/huge.rtrace"
printf '\377\377\377\377\377\377\377\377' | dd of="$work/huge.rtrace" bs=1 seek=24 conv=notrunc 2>/dev/null
hostile "huge block sizes" 65 "block" "$bin" check "$work/huge.rtrace"
printf '\211RAT\r\n\032\n\003\000\000\000\000\000\000\000' >"$work/version.rtrace"
hostile "unknown version" 65 "version.rtrace" "$bin" check "$work/version.rtrace"
hostile "corrupt binary to stats" 65 "block" "$bin" stats "$work/payload.rtrace"
hostile "corrupt binary from stdin" 65 "<stdin>" sh -c "\"$bin\" check - <\"$work/payload.rtrace\""

# ---- STD: overlong lines, numbers out of range, invalid UTF-8 --------------
hostile "endless line (/dev/zero)" 65 "/dev/zero:1: line longer than 1048576 bytes" "$bin" check /dev/zero
{
  echo 'T0|w(x)|1'
  head -c 2000000 /dev/zero | tr '\0' 'a'
  echo
} >"$work/long.std"
hostile "overlong line" 65 "long.std:2: line longer than" "$bin" check "$work/long.std"
printf 'T0|w(x)|18446744073709551616\n' >"$work/site.std"
hostile "site beyond 2^64-1" 65 "site.std:1: location" "$bin" check "$work/site.std"
printf 'T0|w(x)|-1\n' >"$work/negsite.std"
hostile "negative site" 65 "negsite.std:1: location" "$bin" check "$work/negsite.std"
printf 'T0|w(@0x10000000000000000:1)|1\n' >"$work/addr.std"
hostile "address beyond 2^64-1" 65 "addr.std:1: address access" "$bin" check "$work/addr.std"
printf 'T0|w(@0xffffffffffffffff:2)|1\n' >"$work/wrap.std"
hostile "wrapping range" 65 "wrap.std:1: write range" "$bin" check "$work/wrap.std"
printf 'T0|w(@0x10:99999999999)|1\n' >"$work/big.std"
hostile "access too large" 65 "big.std:1: write of" "$bin" check "$work/big.std"
printf 'T0|w(\377\376)|1\nT1|w(\377\376)|2\n' >"$work/utf8.std"
hostile "invalid UTF-8, text" 66 "" "$bin" check "$work/utf8.std"
hostile "invalid UTF-8, JSON" 66 "" "$bin" check --json "$work/utf8.std"
check_that "invalid bytes escaped as \\xNN in JSON" grep -q '"location": "\\\\xff\\\\xfe"' "$work/out"
if command -v python3 >/dev/null; then
  check_that "JSON with invalid bytes parses" python3 -c "import json; json.load(open('$work/out'))"
fi
cp "$work/utf8.std" "$work/name-$(printf '\377').std"
hostile "invalid UTF-8 path, stats JSON" 0 "" "$bin" stats --json "$work/name-$(printf '\377').std"
check_that "path escaped in stats JSON" grep -q 'name-\\\\xff.std' "$work/out"

# ---- option values out of range --------------------------------------------
hostile "gen --seed -1" 2 "--seed" "$bin" gen --seed -1 -n 5
hostile "gen --seed 2^64" 2 "--seed" "$bin" gen --seed 18446744073709551616 -n 5
hostile "gen --seed junk" 2 "--seed" "$bin" gen --seed 12abc -n 5
hostile "gen weights wrap" 2 "weights add up" "$bin" gen --local 4294967295 --racy 2 -n 5
hostile "gen weight 2^32" 2 "--racy" "$bin" gen --racy 4294967296 -n 5
hostile "gen --threads 0" 2 "--threads" "$bin" gen --threads 0
hostile "gen --events 2^40+1" 2 "--events" "$bin" gen --events 1099511627777
hostile "gen --mistakes 101" 2 "--mistakes" "$bin" gen --mistakes 101
hostile "gen --locks -3" 2 "--locks" "$bin" gen --locks -3
hostile "--batch-words 2^26" 2 "--batch-words" "$bin" check --backend software --batch-words 67108864 "$t/simple-race.std"
hostile "--batch-words 0" 2 "--batch-words" "$bin" check --backend software --batch-words 0 "$t/simple-race.std"
hostile "--device -1" 2 "--device" "$bin" check --backend software --device -1 "$t/simple-race.std"
hostile "unknown subcommand" 2 "unknown subcommand 'frobnicate'" "$bin" frobnicate
hostile "no subcommand" 2 "subcommand" "$bin"

# ---- outputs: never destroy what this run did not create --------------------
cp "$t/simple-race.std" "$work/in.std"
hostile "convert X -o X" 2 "is the input" "$bin" convert "$work/in.std" -o "$work/in.std"
ln -f "$work/in.std" "$work/hard.std"
hostile "convert X -o hard link" 2 "is the input" "$bin" convert "$work/in.std" -o "$work/hard.std"
ln -sf "$work/in.std" "$work/link.std"
hostile "convert X -o symlink to X" 2 "is the input" "$bin" convert "$work/in.std" -o "$work/link.std"
hostile "convert X -o other path of X" 2 "is the input" "$bin" convert "$work/in.std" -o "$work/../$(basename "$work")/in.std"
hostile "convert - -o - (same file)" 2 "is the input" sh -c "\"$bin\" convert - -o - <\"$work/in.std\" >>\"$work/in.std\""
check_that "input intact after output = input" cmp -s "$t/simple-race.std" "$work/in.std"
# A device node as the output: our own copy of /dev/null (as root; a CLI that
# removes its output on failure must not be let loose on the real one).
if mknod -m 666 "$work/null" c 1 3 2>/dev/null; then
  hostile "convert failing to a device node" 65 "malformed.std:2" "$bin" convert "$t/malformed.std" -o "$work/null"
  check_that "the device node is still there" test -c "$work/null"
else
  echo "note: not root, no device node made; the FIFO case below covers non-regular outputs"
fi
mkfifo "$work/fifo"
cat "$work/fifo" >/dev/null &
hostile "convert failing to a FIFO" 65 "malformed.std:2" "$bin" convert "$t/malformed.std" -o "$work/fifo"
wait
check_that "the FIFO is still there" test -p "$work/fifo"
echo "precious" >"$work/target"
ln -sf "$work/target" "$work/out-link"
hostile "convert failing through a symlink" 65 "malformed.std:2" "$bin" convert "$t/malformed.std" -o "$work/out-link"
check_that "symlink target keeps its content" grep -qx precious "$work/target"
check_that "symlink still a symlink" test -L "$work/out-link"
hostile "convert through a symlink" 0 "" "$bin" convert "$t/simple-race.std" --to std -o "$work/out-link"
check_that "symlink target written" cmp -s "$t/simple-race.std" "$work/target"
check_that "symlink kept after success" test -L "$work/out-link"
echo "precious" >"$work/existing"
hostile "convert failing onto an existing file" 65 "malformed.std:2" "$bin" convert "$t/malformed.std" -o "$work/existing"
check_that "existing file keeps its content" grep -qx precious "$work/existing"
hostile "convert failing, new file" 65 "malformed.std:2" "$bin" convert "$t/malformed.std" -o "$work/new.rtrace"
check_that "no partial new file" test ! -e "$work/new.rtrace"
check_that "no temporary files left" sh -c "! ls -A \"$work\" | grep -q '^\\.'"
hostile "output in a missing directory" 74 "cannot open for writing" "$bin" convert "$t/simple-race.std" -o "$work/nope/x"
hostile "output is a directory" 74 "cannot open for writing" "$bin" convert "$t/simple-race.std" -o "$work"
# A full disk: our own copy of /dev/full as the output (a CLI that removes
# its output on failure must not be let loose on the real one).
if mknod -m 666 "$work/full" c 1 7 2>/dev/null; then
  hostile "output to a full device" 74 "writing the output failed" "$bin" gen -n 100000 -o "$work/full"
  check_that "the full device is still there" test -c "$work/full"
fi
hostile "gen to a full stdout" 74 "write failed" sh -c "\"$bin\" gen -n 100000 >/dev/full"

# ---- standard output closed or full -----------------------------------------
# (Redirections only: the shell opens /dev/full, the CLI never names it.)
hostile "check --json, stdout closed" 74 "standard output: write failed" sh -c "\"$bin\" check --json \"$t/simple-race.std\" >&-"
hostile "check, stdout closed" 74 "standard output: write failed" sh -c "\"$bin\" check \"$t/lock-handoff.std\" >&-"
hostile "check, stdout full" 74 "standard output: write failed" sh -c "\"$bin\" check \"$t/simple-race.std\" >/dev/full"
hostile "stats --json, stdout full" 74 "standard output: write failed" sh -c "\"$bin\" stats --json \"$t/simple-race.std\" >/dev/full"
hostile "devices, stdout full" 74 "write failed" sh -c "\"$bin\" devices >/dev/full"
hostile "--help, stdout full" 74 "write failed" sh -c "\"$bin\" --help >/dev/full"
hostile "gen -o file, stdout closed" 0 "" sh -c "\"$bin\" gen -n 100 -o \"$work/closed.rtrace\" >&-"
hostile "check after gen with stdout closed" 0 "" "$bin" check "$work/closed.rtrace"
hostile "stdin closed" 0 "" sh -c "\"$bin\" check - <&-"

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
