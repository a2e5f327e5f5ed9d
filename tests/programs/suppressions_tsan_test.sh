#!/bin/sh
# Suppression files mean the same to raceaccel as to stock ThreadSanitizer:
# suppressions_race.c (three races: racy_counter_bump on a global,
# other_writer on the global named_global, helper_heap_writer on the heap in
# suppressions_helper.c) is built with raceaccel-cc and with clang-19
# -fsanitize=thread, and run under each suppressions file below by both
# tools. For each file, both must report races in exactly the functions
# expected (the expectations were taken from clang-19's TSan), and exit 0
# when every race is suppressed. A second program races inside an
# uninstrumented library's memcpy, for `called_from_lib:`.
#
# Usage: suppressions_tsan_test.sh RACEACCEL_CC CLANG19 PROGRAMS_DIR WORK_DIR
set -u
cc=$1 clang=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work/raceaccel" "$work/tsan" && cd "$work" || exit 1
symbolizer=$(command -v llvm-symbolizer-19 || command -v llvm-symbolizer || echo /usr/bin/llvm-symbolizer)
sources="$src/suppressions_race.c $src/suppressions_helper.c"
# shellcheck disable=SC2086 # a word list
"$cc" -O1 -g -pthread $sources -o raceaccel/suppressed_prog || exit 1
# shellcheck disable=SC2086
"$clang" -O1 -g -pthread -fsanitize=thread $sources -o tsan/suppressed_prog || exit 1

# The library case: one uninstrumented shared library, one program per tool.
mkdir -p lib
"$clang" -O1 -g -fPIC -shared -fno-builtin -fno-optimize-sibling-calls "$src/suppressions_lib.c" -o lib/libsuppressions_lib.so || exit 1
"$cc" -O1 -g -pthread "$src/suppressions_lib_main.c" -Llib -lsuppressions_lib -Wl,-rpath,"$work/lib" \
  -o raceaccel/lib_prog || exit 1
"$clang" -O1 -g -pthread -fsanitize=thread "$src/suppressions_lib_main.c" -Llib -lsuppressions_lib \
  -Wl,-rpath,"$work/lib" -o tsan/lib_prog || exit 1

failures=0 cases=0
all="helper_heap_writer other_writer racy_counter_bump"
# functions FILE: the sorted functions of the SUMMARY lines of a report
# (TSan names its memcpy interceptor where raceaccel names the caller:
# counted as a race in lib_copy).
functions() {
  sed -n 's/^SUMMARY: [A-Za-z]*: data race .* in \([A-Za-z_0-9]*\).*$/\1/p' "$1" | sed 's/^memcpy$/lib_copy/' |
    sort -u | tr '\n' ' ' | sed 's/ $//'
}

# check NAME EXPECTED_FUNCTIONS: SUPPRESSIONS_FILE content is in NAME.supp;
# $program names the program.
program=suppressed_prog
check() {
  cases=$((cases + 1))
  RACEACCEL_OPTIONS="suppressions=$1.supp" ./raceaccel/$program 2>"$1.raceaccel.txt"
  ra_status=$?
  TSAN_OPTIONS="external_symbolizer_path=$symbolizer suppressions=$1.supp" ./tsan/$program 2>"$1.tsan.txt"
  tsan_status=$?
  ra=$(functions "$1.raceaccel.txt")
  tsan=$(functions "$1.tsan.txt")
  if [ "$ra" != "$2" ] || [ "$tsan" != "$2" ]; then
    echo "FAIL $1 ($(tr '\n' ';' <"$1.supp")): expected [$2], raceaccel [$ra], TSan [$tsan]"
    failures=$((failures + 1))
  fi
  if [ -z "$2" ] && { [ $ra_status -ne 0 ] || [ $tsan_status -ne 0 ]; }; then
    echo "FAIL $1: all suppressed, but exit statuses raceaccel $ra_status, TSan $tsan_status"
    failures=$((failures + 1))
  fi
}
case_() { # case_ NAME EXPECTED LINE...
  name=$1 expected=$2
  shift 2
  printf '%s\n' "$@" >"$name.supp"
  check "$name" "$expected"
}

case_ no_match "$all" "race:no_such_function"
case_ function "helper_heap_writer other_writer" "race:racy_counter_bump"
case_ function_substring "helper_heap_writer other_writer" "race:counter_bu"
case_ global_anchored "helper_heap_writer other_writer" "race:^racy_counter\$"
case_ global_name "helper_heap_writer racy_counter_bump" "race:named_global"
case_ file "other_writer racy_counter_bump" "race:suppressions_helper.c"
case_ file_anchored "other_writer racy_counter_bump" "race:^/*/suppressions_helper.c\$"
case_ other_file "helper_heap_writer" "race:suppressions_race.c"
case_ creation_stack_not_matched "$all" "race:race_with"
case_ allocation_stack_not_matched "$all" "race:malloc"
case_ module "" "race:suppressed_prog"
case_ star "racy_counter_bump" "race:*writer"
case_ star_anchors "helper_heap_writer other_writer" "race:^ra*y_*bump\$"
case_ first_occurrence "$all" "race:^o*er\$"
case_ first_occurrence_long "helper_heap_writer racy_counter_bump" "race:^other*er\$"
case_ race_top "other_writer racy_counter_bump" "race_top:helper_heap_writer"
case_ comments_and_blank_lines "racy_counter_bump" "# known races" "" "  race:other_writer  " "race:helper"
case_ other_types_ignored "$all" "thread:racy_counter_bump" "mutex:other_writer" "signal:main" "deadlock:x"

program=lib_prog
case_ lib_no_match "lib_copy" "race:no_such_function"
case_ lib_called_from_lib "" "called_from_lib:libsuppressions_lib.so"
case_ lib_called_from_other_lib "lib_copy" "called_from_lib:libother.so"
case_ lib_function "" "race:lib_copy"
case_ lib_module "" "race:libsuppressions_lib.so"

echo "suppressions_tsan_test: $cases cases, $failures failure(s)"
[ $failures -eq 0 ]
