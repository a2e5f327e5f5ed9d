#!/bin/sh
# Installs the Debian packages raceaccel needs, and nothing when they are
# all present. `make demo` and `make test` run this first, so on a fresh
# Debian 12 machine those two commands are the whole setup.
set -eu

# Build and test requirements (C++ side).
PACKAGES="cmake ninja-build g++ make pkg-config
libcli11-dev libfmt-dev nlohmann-json3-dev libzstd-dev libxxhash-dev
libgtest-dev libgmock-dev libbenchmark-dev
clang-19 libclang-rt-19-dev"
# Hardware tools: optional for the CMake build, installed here so that CI
# runs the RTL simulation, formal and XRT host-path tests (tcl: tclsh for the
# dry run of the Vitis packaging script).
PACKAGES="$PACKAGES verilator yosys z3 libxrt-dev uuid-dev tcl"
# Symbolization for the instrumentation runtime.
PACKAGES="$PACKAGES libdw-dev libelf-dev"
# The SARIF logs are validated against the SARIF 2.1.0 schema in a test
# (tests/report/sarif_schema_test.sh) with Debian's JSON Schema validator.
PACKAGES="$PACKAGES python3 python3-jsonschema"
# `raceaccel sweep --plot` draws its SVGs with gnuplot (tests/cli/sweep_test.sh).
PACKAGES="$PACKAGES gnuplot-nox"

missing=""
for p in $PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -z "$missing" ]; then
  exit 0
fi

echo "install-deps: installing:$missing"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $missing
