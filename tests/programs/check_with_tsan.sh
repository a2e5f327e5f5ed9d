#!/bin/sh
# Validates the expected verdicts of tests/programs against stock
# ThreadSanitizer: builds every program of the raceaccel_program() table in
# CMakeLists.txt with `clang-19 -fsanitize=thread -O1 -g` (gcc programs with
# gcc's own -fsanitize=thread), runs each one RUNS times through
# run_program.sh with RUN_PROGRAM_TOOL=ThreadSanitizer, and prints a verdict
# line per program. A manual check for whoever edits the suite, not a ctest.
#
# Usage: check_with_tsan.sh [-n RUNS] [-o WORK_DIR] [NAME_REGEX]
# Exits 0 when every selected program gave its expected verdict on every run.
set -u
set -f # table words (MATCH regexes) are never file patterns
here=$(cd "$(dirname "$0")" && pwd)
runs=3
work=${TMPDIR:-/tmp}/raceaccel-programs-tsan
while getopts n:o: opt; do
  case $opt in
    n) runs=$OPTARG ;;
    o) work=$OPTARG ;;
    *) echo "usage: check_with_tsan.sh [-n RUNS] [-o WORK_DIR] [NAME_REGEX]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
filter=${1:-.}
mkdir -p "$work"

symbolizer=$(command -v llvm-symbolizer-19 || command -v llvm-symbolizer || echo /usr/bin/llvm-symbolizer)
export TSAN_OPTIONS="external_symbolizer_path=$symbolizer ${TSAN_OPTIONS:-}"
export RUN_PROGRAM_TOOL=ThreadSanitizer RUN_PROGRAM_ACCEPT_INTERCEPTOR_SUMMARY=1
# The same language flags as CMakeLists.txt (RACEACCEL_PROGRAM_{C,CXX}_FLAGS).
c_flags=$(sed -n 's/^set(RACEACCEL_PROGRAM_C_FLAGS \(.*\))$/\1/p' "$here/CMakeLists.txt")
cxx_flags=$(sed -n 's/^set(RACEACCEL_PROGRAM_CXX_FLAGS \(.*\))$/\1/p' "$here/CMakeLists.txt")

passed=0 failed=0
# One table row per line: raceaccel_program(NAME SOURCE VERDICT [LANG x] [COMPILER x] [REPORTS n] [EXIT s] [MATCH ere] [FLAGS ...] [ARGS ...])
grep -E '^[[:space:]]*raceaccel_program\(' "$here/CMakeLists.txt" |
  sed -e 's/^[[:space:]]*raceaccel_program(//' -e 's/)[[:space:]]*$//' >"$work/table"
while read -r name source verdict rest; do
  echo "$name" | grep -Eq -- "$filter" || continue
  compiler=clang options='' args='' extra='' key=''
  for word in $rest; do
    case $word in
      LANG | COMPILER | REPORTS | EXIT | MATCH | FLAGS | ARGS) key=$word ;;
      *)
        case $key in
          COMPILER) compiler=$word ;;
          REPORTS) options="$options --reports $word" ;;
          EXIT) options="$options --exit $word" ;;
          MATCH) options="$options --match $(echo "$word" | tr -d '"')" ;;
          FLAGS) extra="$extra $word" ;;
          ARGS) args="$args $word" ;;
        esac
        ;;
    esac
  done
  case $source in
    *.c) if [ "$compiler" = gcc ]; then cc=gcc; else cc=clang-19; fi; flags=$c_flags ;;
    *) if [ "$compiler" = gcc ]; then cc=g++; else cc=clang++-19; fi; flags=$cxx_flags ;;
  esac
  # shellcheck disable=SC2086 # flags are a word list
  if ! $cc $flags $extra -fsanitize=thread "$here/$source" -o "$work/$name" </dev/null 2>"$work/$name.build"; then
    echo "FAIL  $name: does not build with $cc"
    head -20 "$work/$name.build"
    failed=$((failed + 1))
    continue
  fi
  ok=1
  i=0
  while [ $i -lt "$runs" ]; do
    # shellcheck disable=SC2086 # options and args are word lists
    if ! out=$("$here/run_program.sh" $options "$verdict" "$source" "$work/$name" $args </dev/null 2>&1); then
      ok=0
      echo "FAIL  $name (run $((i + 1)) of $runs, $cc): $out" | head -30
      break
    fi
    i=$((i + 1))
  done
  if [ $ok -eq 1 ]; then
    echo "ok    $name: $verdict ($runs runs, $cc)"
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
  fi
done <"$work/table"
echo "ThreadSanitizer agrees with $passed programs; $failed disagree"
[ $failed -eq 0 ]
