#!/bin/sh
# Runs one instrumented test program and checks its verdict (the ctest driver
# of tests/programs, also used by check_with_tsan.sh).
#
# Usage: run_program.sh [--reports N] [--exit S] [--match ERE] VERDICT SOURCE PROGRAM [ARGS...]
#   VERDICT  race  -> exit status 66, at least one "WARNING: <tool>: data race",
#                     and every "SUMMARY: <tool>: data race" line names SOURCE
#                     (as SOURCE:LINE in FUNCTION);
#            clean -> exit status 0 and no "<tool>:" line on stderr at all.
#   SOURCE   the program's source file name (basename).
#   --reports N  exactly N race reports (default: at least one for race).
#   --exit S     expect exit status S instead of 66 / 0.
#   --match ERE  stderr must also have a line matching the extended regex ERE.
# The tool name defaults to raceaccel; RUN_PROGRAM_TOOL=ThreadSanitizer checks
# the same expectations against stock TSan, and RUN_PROGRAM_ACCEPT_INTERCEPTOR_SUMMARY=1
# (for TSan only) also accepts a SUMMARY naming one of its interceptors. Exits 0
# when the verdict matches, 1 when it does not, 2 on a usage error.
set -u
usage() {
  echo "usage: run_program.sh [--reports N] [--exit S] [--match ERE] race|clean SOURCE PROGRAM [ARGS...]" >&2
  exit 2
}
reports=any
want_status=
match=
while [ $# -gt 0 ]; do
  case $1 in
    --reports) [ $# -ge 2 ] || usage; reports=$2; shift 2 ;;
    --exit) [ $# -ge 2 ] || usage; want_status=$2; shift 2 ;;
    --match) [ $# -ge 2 ] || usage; match=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -ge 3 ] || usage
verdict=$1 source=$2
shift 2
case $verdict in
  race) want_status=${want_status:-66} ;;
  clean) want_status=${want_status:-0} ;;
  *) echo "run_program.sh: unknown verdict '$verdict' (race or clean)" >&2; exit 2 ;;
esac
tool=${RUN_PROGRAM_TOOL:-raceaccel}
err=$(mktemp "${TMPDIR:-/tmp}/run_program.XXXXXX")
trap 'rm -f "$err"' EXIT

"$@" </dev/null >/dev/null 2>"$err"
status=$?

fail() {
  echo "FAIL: $*"
  echo "--- stderr (first 40 lines) ---"
  head -40 "$err"
  exit 1
}

[ "$status" -eq "$want_status" ] || fail "$source: exit status $status, expected $want_status ($verdict)"
warnings=$(grep -c "WARNING: $tool: data race" "$err")
if [ "$verdict" = race ]; then
  [ "$warnings" -ge 1 ] || fail "$source: no 'WARNING: $tool: data race' line"
  summaries=$(grep -c "SUMMARY: $tool: data race" "$err")
  [ "$summaries" -ge 1 ] || fail "$source: no 'SUMMARY: $tool: data race' line"
  right=$(grep -cE "SUMMARY: $tool: data race (.*/)?$source:[0-9]+(:[0-9]+)? in " "$err")
  if [ -n "${RUN_PROGRAM_ACCEPT_INTERCEPTOR_SUMMARY:-}" ]; then
    # Stock TSan names its own interceptor (free, memcpy, pthread_mutex_lock)
    # without a file when the racing access happened inside one.
    right=$((right + $(grep -cE "SUMMARY: $tool: data race \([^)]*\)( \(BuildId: [0-9a-f]+\))? in [^/]*$" "$err")))
  fi
  [ "$right" -eq "$summaries" ] ||
    fail "$source: $((summaries - right)) of $summaries SUMMARY lines do not name $source:LINE in FUNCTION"
  if [ "$reports" != any ] && [ "$warnings" -ne "$reports" ]; then
    fail "$source: $warnings race reports, expected exactly $reports"
  fi
elif grep -q "$tool:" "$err"; then
  fail "$source: clean program produced a $tool report"
fi
if [ -n "$match" ] && ! grep -Eq -- "$match" "$err"; then
  fail "$source: no line matching '$match'"
fi
exit 0
