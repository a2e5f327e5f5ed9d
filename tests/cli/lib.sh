# The helpers the CLI's shell tests share (sourced: `. "$(dirname "$0")/lib.sh"`
# once $work, the test's scratch directory, is set). Each check counts as a
# pass or a failure; `finish` prints the counts and fails the test when any
# check did.

failures=0
passes=0

pass() { passes=$((passes + 1)); }
fail() {
  failures=$((failures + 1))
  echo "FAIL: $*"
}

# expect_status STATUS DESCRIPTION COMMAND...: runs COMMAND (stdin closed,
# stdout and stderr in $work/out and $work/err) and checks its exit status.
expect_status() {
  want=$1 desc=$2
  shift 2
  "$@" >"$work/out" 2>"$work/err" </dev/null
  got=$?
  if [ "$got" -eq "$want" ]; then
    pass
  else
    fail "$desc: exit $got, expected $want"
    sed 's/^/  stdout: /' "$work/out" | head -5
    sed 's/^/  stderr: /' "$work/err" | head -5
  fi
}

# expect_grep FILE PATTERN DESCRIPTION
expect_grep() {
  if grep -q -- "$2" "$1"; then
    pass
  else
    fail "$3: '$2' not in $1:"
    head -5 "$1" | sed 's/^/  /'
  fi
}

# column FILE NAME: the values of one CSV column, one a line (no quoted fields).
column() {
  awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }' "$1"
}

# finish: the counts; the test's status.
finish() {
  echo "$passes passed, $failures failed"
  [ "$failures" -eq 0 ]
}
