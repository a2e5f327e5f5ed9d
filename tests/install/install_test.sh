#!/bin/sh
# Installs the build tree into a temporary prefix and uses the installed
# package as a user would (docs/api.md):
#   1. the layout: programs, runtime, headers, CMake and pkg-config files,
#      the kernel's sources, docs;
#   2. the installed headers compile with only the installed include dir
#      (no header includes one that is not installed);
#   3. the installed CLI checks an example trace (and converts it to the
#      binary format);
#   4. examples/api/ configured with find_package(raceaccel) against the
#      prefix, built, run: the same races with DJIT+, FastTrack and on the
#      device backends, and on the example trace the CLI's race lines;
#   5. the same examples built with pkg-config (raceaccel, raceaccel-device);
#   6. the installed raceaccel-cc builds examples/programs/bank.c against
#      the installed runtime, which reports the race (exit 66); likewise
#      raceaccel-c++ on a small C++ program;
#   7. the Vitis packaging script runs on the installed kernel sources.
# Usage: install_test.sh CMAKE BUILD_DIR SOURCE_DIR WORK_DIR LIBDIR GENERATOR CXX HAVE_VERILATOR
set -u
cmake=$1
build=$2
src=$3
work=$4
libdir=$5
generator=$6
cxx=$7
have_verilator=$8

rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}
# expect_status WANT LOG CMD...: runs CMD, output to LOG; checks its status.
expect_status() {
  want=$1
  log=$2
  shift 2
  "$@" >"$log" 2>&1
  got=$?
  if [ "$got" -ne "$want" ]; then
    fail "$* exited $got, expected $want; its output:"
    sed 's/^/  | /' "$log"
    return 1
  fi
  return 0
}

# ---- 1. install and layout ---------------------------------------------------
expect_status 0 "$work/install.log" "$cmake" --install "$build" --prefix "$prefix" || {
  echo "install_test: cmake --install failed, nothing more to check"
  exit 1
}
for f in bin/raceaccel bin/raceaccel-cc bin/raceaccel-c++ "$libdir/libraceaccel_rt.so" "$libdir/libraceaccel_rt_fast.a" \
  "$libdir/libraceaccel_core.a" "$libdir/cmake/raceaccel/raceaccel-config.cmake" \
  "$libdir/cmake/raceaccel/raceaccel-config-version.cmake" "$libdir/cmake/raceaccel/raceaccel-targets.cmake" \
  "$libdir/pkgconfig/raceaccel.pc" "$libdir/pkgconfig/raceaccel-device.pc" \
  include/raceaccel/core/event.hpp include/raceaccel/detect/detector.hpp include/raceaccel/trace/trace_reader.hpp \
  include/raceaccel/report/race_report.hpp include/raceaccel/driver/device.hpp \
  include/raceaccel/offload/offload_checker.hpp \
  share/raceaccel/kernel/constraints/vitis/kernel.xml share/raceaccel/kernel/constraints/vitis/package_kernel.tcl \
  share/raceaccel/kernel/constraints/vitis/Makefile share/raceaccel/kernel/rtl/rac_kernel.sv \
  share/doc/raceaccel/README.md share/doc/raceaccel/docs/api.md share/doc/raceaccel/examples/api/feed_events.cpp; do
  [ -e "$prefix/$f" ] || fail "not installed: $f"
done
[ "$(readlink "$prefix/bin/raceaccel-c++")" = raceaccel-cc ] || fail "bin/raceaccel-c++ is not a link to raceaccel-cc"
# Private headers and build-only folders stay out.
for f in include/raceaccel/cli include/raceaccel/runtime include/raceaccel/driver/verilator; do
  [ -e "$prefix/$f" ] && fail "installed but private: $f"
done

# ---- 2. installed headers: only the installed include dir --------------------
all_headers=$work/all_headers.cpp
(cd "$prefix/include/raceaccel" && find . -name '*.hpp' | sort | sed 's|^\./\(.*\)|#include "\1"|') >"$all_headers"
[ "$(wc -l <"$all_headers")" -gt 30 ] || fail "fewer installed headers than expected: $(wc -l <"$all_headers")"
# fmt and nlohmann_json are in /usr/include; nothing of the source tree is on the path.
expect_status 0 "$work/headers.log" "$cxx" -std=c++20 -fsyntax-only -I"$prefix/include/raceaccel" "$all_headers"

# ---- 3. the installed CLI -------------------------------------------------------
# Its race lines are what the library examples must print for the same trace;
# the binary copy makes the examples read zstd blocks with xxhash checksums.
trace=$src/examples/traces/simple-race.std
binary_trace=$work/simple-race.rtrace
expect_status 0 "$work/cli-convert.out" "$prefix/bin/raceaccel" convert "$trace" -o "$binary_trace"
expect_status 66 "$work/cli.out" "$prefix/bin/raceaccel" check "$trace"
expect_status 0 "$work/cli-clean.out" "$prefix/bin/raceaccel" check "$src/examples/traces/lock-handoff.std"
grep -v ' events, ' "$work/cli.out" >"$work/cli-races.txt"
[ "$(wc -l <"$work/cli-races.txt")" -eq 2 ] || fail "raceaccel check $trace: expected 2 races: $(cat "$work/cli.out")"
# check_trace_run NAME TRACE CMD...: exit 66, the CLI's race lines (named by TRACE), the summary.
check_trace_run() {
  name=$1
  shown=$2
  shift 2
  expect_status 66 "$work/$name.out" "$@" || return
  { sed "s|^$trace:|$shown:|" "$work/cli-races.txt" && echo "fasttrack: 2 race(s)"; } | diff - "$work/$name.out" \
    >"$work/$name.diff" || { fail "$name: output differs from raceaccel check's:" && sed 's/^/  | /' "$work/$name.diff"; }
}

# ---- 4. find_package(raceaccel) ------------------------------------------------
expected=$work/expected.txt
# The one race of examples/api/example_trace.hpp, as format_race_text prints it.
cat >"$expected" <<'END'
example: event 5: write-write race on counter (4 bytes): write by worker at site 20; earlier write by main@2 at site 10
END
# check_run NAME WANT_LAST_LINE CMD...: exit 66, the race line, then the summary line.
check_run() {
  name=$1
  summary=$2
  shift 2
  expect_status 66 "$work/$name.out" "$@" || return
  { cat "$expected" && echo "$summary"; } | diff - "$work/$name.out" >"$work/$name.diff" ||
    { fail "$name: output differs from the expected:" && sed 's/^/  | /' "$work/$name.diff"; }
}

api=$work/api-cmake
if expect_status 0 "$work/api-configure.log" "$cmake" -S "$src/examples/api" -B "$api" -G "$generator" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release &&
  expect_status 0 "$work/api-build.log" "$cmake" --build "$api"; then
  check_run cmake-djit "djit: 1 race(s)" "$api/feed_events" djit
  check_run cmake-fasttrack "fasttrack: 1 race(s)" "$api/feed_events" fasttrack
  check_trace_run cmake-std-trace "$trace" "$api/feed_events" fasttrack "$trace"
  check_trace_run cmake-binary-trace "$binary_trace" "$api/feed_events" fasttrack "$binary_trace"
  check_run cmake-software "software: 1 race(s)" "$api/check_on_device" software
  if [ "$have_verilator" = ON ]; then
    check_run cmake-verilator "verilator: 1 race(s)" "$api/check_on_device" verilator
  fi
  expect_status 2 "$work/cmake-bad-detector.out" "$api/feed_events" nosuch
  # The package's own location, not the build tree, is what it was found in.
  grep -q "raceaccel_DIR:PATH=$prefix/$libdir/cmake/raceaccel" "$api/CMakeCache.txt" ||
    fail "find_package(raceaccel) did not use $prefix"
fi

# ---- 5. pkg-config ---------------------------------------------------------------
export PKG_CONFIG_PATH="$prefix/$libdir/pkgconfig"
pc=$work/api-pkgconfig
mkdir -p "$pc"
# The .pc files locate the prefix from their own place: no --define-prefix needed.
cflags=$(pkg-config --cflags raceaccel) && libs=$(pkg-config --libs raceaccel) &&
  device_libs=$(pkg-config --libs raceaccel-device) || fail "pkg-config does not know raceaccel/raceaccel-device"
case "$cflags" in *"$prefix"*) ;; *) fail "pkg-config --cflags raceaccel does not point into $prefix: $cflags" ;; esac
# shellcheck disable=SC2086 # the flags are words
if expect_status 0 "$work/pc-build.log" "$cxx" -std=c++20 $cflags "$src/examples/api/feed_events.cpp" -o "$pc/feed_events" $libs; then
  check_run pkgconfig-fasttrack "fasttrack: 1 race(s)" "$pc/feed_events"
  check_trace_run pkgconfig-binary-trace "$binary_trace" "$pc/feed_events" fasttrack "$binary_trace"
fi
# shellcheck disable=SC2086
if expect_status 0 "$work/pc-device-build.log" "$cxx" -std=c++20 $cflags "$src/examples/api/check_on_device.cpp" \
  -o "$pc/check_on_device" $device_libs; then
  check_run pkgconfig-software "software: 1 race(s)" "$pc/check_on_device"
fi

# ---- 6. the installed compiler wrappers and runtime ---------------------------------
programs=$work/programs
mkdir -p "$programs"
# The program must load the installed runtime, not the build tree's.
if expect_status 0 "$work/bank-build.log" "$prefix/bin/raceaccel-cc" -O1 "$src/examples/programs/bank.c" -o "$programs/bank"; then
  runpath=$(readelf -d "$programs/bank" | grep -E 'RUNPATH|RPATH')
  case "$runpath" in *"$prefix/$libdir"*) ;; *) fail "bank's run path is not the installed runtime's: $runpath" ;; esac
  # The access callbacks are linked into the executable (libraceaccel_rt_fast.a).
  nm "$programs/bank" | grep -q " T __tsan_write4$" || fail "bank does not define __tsan_write4 (the callbacks' archive)"
  expect_status 66 "$work/bank.out" "$programs/bank" &&
    { grep -q "WARNING: raceaccel: data race" "$work/bank.out" || fail "bank: no race report: $(cat "$work/bank.out")"; }
  # bank.c's one race is in the interest pass (docs: examples/README.md).
  grep -q "bank.c" "$work/bank.out" || fail "bank: the report names no line of bank.c"
fi
# A fully static link cannot take the runtime (a shared object): the
# wrapper says so with its own status rather than the linker's error.
expect_status 2 "$work/static-build.log" "$prefix/bin/raceaccel-cc" -static "$src/examples/programs/bank.c" \
  -o "$programs/bank-static" &&
  { grep -q "raceaccel-cc: -static is not supported" "$work/static-build.log" || fail "-static: $(cat "$work/static-build.log")"; }
cat >"$programs/counter.cpp" <<'END'
#include <thread>
int counter;
int main() {
  std::thread t([] { ++counter; });
  ++counter;
  t.join();
  return 0;
}
END
if expect_status 0 "$work/counter-build.log" "$prefix/bin/raceaccel-c++" -O1 "$programs/counter.cpp" -o "$programs/counter"; then
  expect_status 66 "$work/counter.out" "$programs/counter" &&
    { grep -q "WARNING: raceaccel: data race" "$work/counter.out" || fail "counter: no race report"; }
fi


# ---- 7. the installed kernel sources ------------------------------------------------
# The Vitis packaging script runs on the installed tree as on the source tree
# (Vivado's commands recorded, tests/deployment/): every RTL file is there.
kernel=$prefix/share/raceaccel/kernel
[ "$(ls "$kernel"/rtl/*.sv | wc -l)" -eq "$(ls "$src"/rtl/*.sv | wc -l)" ] || fail "not every rtl/*.sv is installed"
if command -v tclsh >/dev/null 2>&1; then
  expect_status 0 "$work/package_kernel.log" tclsh "$src/tests/deployment/package_kernel_dry_run.tcl" "$kernel" \
    "$work/package_kernel" "$prefix/bin/raceaccel"
fi

if [ "$failures" -ne 0 ]; then
  echo "install_test: $failures failure(s) (logs and the installed tree in $work)"
  exit 1
fi
rm -rf "$prefix"  # about 150 MB with debug information
echo "install_test: installed package, find_package, pkg-config, wrappers and CLI all work"
