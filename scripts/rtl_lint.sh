#!/bin/sh
# Verilator lint of every RTL file: `verilator --lint-only -Wall --assert`,
# one run per module file with that module as the top (other modules are
# found by file name with -y), packages (*_pkg.sv, rac_pkg.sv first) read
# ahead of it (so the packages are linted with every module). rtl/lint/waivers.vlt is added when it exists. --assert lints
# the simulation flavour of the assertion macros too.
#
#   rtl_lint.sh [rtl_dir]          (ctest: rtl.lint)
set -eu
rtl=$(cd "${1:-$(dirname "$0")/../rtl}" && pwd)

pkgs="$rtl/rac_pkg.sv"
for f in "$rtl"/*_pkg.sv; do
  [ "$f" = "$rtl/rac_pkg.sv" ] || pkgs="$pkgs $f"
done
waiver=""
[ -f "$rtl/lint/waivers.vlt" ] && waiver="$rtl/lint/waivers.vlt"

fail=0
n=0
for f in "$rtl"/*.sv; do
  case "$f" in *_pkg.sv) continue ;; esac
  top=$(basename "$f" .sv)
  n=$((n + 1))
  # shellcheck disable=SC2086
  if ! verilator --lint-only -Wall --assert -I"$rtl" -y "$rtl" $waiver $pkgs "$f" --top-module "$top"; then
    echo "rtl_lint: FAIL $f" >&2
    fail=1
  fi
done
[ "$fail" = 0 ] && echo "rtl_lint: $n modules and $(echo $pkgs | wc -w) package(s) clean"
exit $fail
