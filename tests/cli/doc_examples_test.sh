#!/bin/sh
# Runs the examples in the docs and compares their output, so that the docs
# cannot drift from the CLI's behaviour.
#
# A doc example is a fenced block right after the line
#
#   <!-- doc-test -->
#
# In it, each line starting with "$ " is one command (one line, run with
# sh -c); the lines after it, up to the next command, are its expected
# standard output and standard error, merged in the order written (trailing
# blank lines are ignored). The command "echo $?" prints the previous
# command's exit status, so "$ echo $?" followed by "66" checks a status.
# A command without expected lines must print nothing.
#
# The commands of all blocks of one file run in one fresh directory, in
# order (a file written by one example may be read by a later one), with
# `examples` linked to the repository's examples/ and `raceaccel` on PATH.
#
# Usage: doc_examples_test.sh RACEACCEL SOURCE_DIR WORK_DIR [DOC...]
# (default docs: docs/cli.md docs/reports.md docs/trace-formats.md)
set -u
bin=$1
src=$2
work=$3
shift 3
[ $# -gt 0 ] || set -- docs/cli.md docs/reports.md docs/trace-formats.md
rm -rf "$work" && mkdir -p "$work/bin"
ln -s "$bin" "$work/bin/raceaccel"
failures=0
passes=0

for doc in "$@"; do
  name=$(echo "$doc" | tr '/.' '__')
  dir=$work/$name
  mkdir -p "$dir/run" "$dir/cases"
  ln -s "$src/examples" "$dir/run/examples"
  # Split the marked blocks into cases/NNNN.cmd and cases/NNNN.expect.
  awk -v out="$dir/cases" '
    /^<!-- doc-test -->$/ { armed = 1; next }
    armed && /^```/ { armed = 0; inblock = 1; next }
    { armed = 0 }
    inblock && /^```/ { inblock = 0; next }
    inblock && /^\$ / {
      n++
      file = sprintf("%s/%04d", out, n)
      printf "%s\n", substr($0, 3) > (file ".cmd")
      printf "" > (file ".expect")
      printf "%d\n", NR > (file ".line")
      next
    }
    inblock && n > 0 { print >> (sprintf("%s/%04d", out, n) ".expect") }
  ' "$src/$doc"
  count=$(ls "$dir/cases" | grep -c '\.cmd$')
  if [ "$count" -eq 0 ]; then
    failures=$((failures + 1))
    echo "FAIL: $doc has no <!-- doc-test --> example"
    continue
  fi
  status=0
  for cmdfile in "$dir/cases"/*.cmd; do
    case_=${cmdfile%.cmd}
    cmd=$(cat "$cmdfile")
    line=$(cat "$case_.line")
    if [ "$cmd" = 'echo $?' ]; then
      echo "$status" >"$case_.got"
    else
      (cd "$dir/run" && PATH="$work/bin:$PATH" timeout 120 sh -c "$cmd" >"$case_.got" 2>&1 </dev/null)
      status=$?
    fi
    # Trailing blank lines do not count (they separate examples in a block).
    for f in "$case_.expect" "$case_.got"; do
      sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$f" >"$f.trim"
    done
    if cmp -s "$case_.expect.trim" "$case_.got.trim"; then
      passes=$((passes + 1))
    else
      failures=$((failures + 1))
      echo "FAIL: $doc:$line: \$ $cmd"
      diff "$case_.expect.trim" "$case_.got.trim" | sed 's/^/  /' | head -20
    fi
  done
done

echo "$passes passed, $failures failed"
[ "$failures" -eq 0 ]
