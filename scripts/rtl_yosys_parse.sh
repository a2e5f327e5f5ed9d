#!/bin/sh
# Enforces the SystemVerilog subset Yosys 0.23 accepts (toolchain.md 3.4) on
# every RTL file: reads all of rtl/*.sv (packages first) and elaborates every
# module at its default parameters, once as for synthesis (-DSYNTHESIS) and
# once with -formal (the assertion macros' formal flavour).
#
#   rtl_yosys_parse.sh [rtl_dir]   (ctest: rtl.yosys_parse)
set -eu
rtl=$(cd "${1:-$(dirname "$0")/../rtl}" && pwd)

pkgs="$rtl/rac_pkg.sv"
for f in "$rtl"/*_pkg.sv; do
  [ "$f" = "$rtl/rac_pkg.sv" ] || pkgs="$pkgs $f"
done
mods=""
for f in "$rtl"/*.sv; do
  case "$f" in *_pkg.sv) ;; *) mods="$mods $f" ;; esac
done

fail=0
for mode in "-DSYNTHESIS" "-formal"; do
  if yosys -q -p "read_verilog -sv $mode -I$rtl $pkgs $mods; hierarchy -check; proc" >/dev/null; then
    :
  else
    echo "rtl_yosys_parse: FAIL ($mode)" >&2
    fail=1
  fi
done
[ "$fail" = 0 ] && echo "rtl_yosys_parse: $(echo $pkgs $mods | wc -w) files accepted by $(yosys -V)"
exit $fail
