#!/bin/sh
# One block of `make synth`: Yosys synth_xilinx for AMD UltraScale+ (xcup),
# then rac_netlist_depth on the netlist.
#
#   synth_block.sh <netlist_depth> <rtl_dir> <out_dir> <top> ["Param=val ..."]
#
# Writes <out_dir>/<top>_<params>.json (resources, depth overall and per
# endpoint class: rtl/synth/netlist_depth.cpp) and prints the block's line
# of the text report (rac_netlist_depth --header gives the column names).
# The Yosys log, console and netlist go next to it.
set -eu
if [ $# -lt 4 ]; then
  echo "usage: $0 <netlist_depth> <rtl_dir> <out_dir> <top> [\"Param=val ...\"]" >&2
  exit 2
fi
tool=$1
rtl=$(cd "$2" && pwd)
mkdir -p "$3"
out=$(cd "$3" && pwd)
top=$4
params=${5:-}

chparam=""
tag=$top
for p in $params; do
  chparam="$chparam -set ${p%%=*} ${p#*=}"
  tag="${tag}_${p%%=*}${p#*=}"
done
[ -z "$chparam" ] || chparam="chparam$chparam $top;"

pkgs="$rtl/rac_pkg.sv"
for f in "$rtl"/*_pkg.sv; do
  [ "$f" = "$rtl/rac_pkg.sv" ] || pkgs="$pkgs $f"
done

base="$out/$tag"
start=$(date +%s)
if ! yosys -q -l "$base.log" -p "
    read_verilog -sv -DSYNTHESIS -I$rtl $pkgs $rtl/$top.sv;
    $chparam
    hierarchy -libdir $rtl -top $top;
    synth_xilinx -family xcup -top $top -noiopad -noclkbuf -flatten;
    write_json $base.netlist.json" >"$base.console" 2>&1; then
  grep -v 'Resizing cell port' "$base.console" >&2 || true
  echo "synth_block: yosys failed for $top ($params), log: $base.log" >&2
  exit 1
fi
seconds=$(( $(date +%s) - start ))
"$tool" "$base.netlist.json" "$top" "$top" "$params" >"$base.tmp.json"
# The Yosys run time, for the docs' table (wall clock on this machine).
sed "1s/^{/{\n \"yosys_seconds\": $seconds,/" "$base.tmp.json" >"$base.json"
rm -f "$base.tmp.json"
[ -n "${KEEP_NETLIST:-}" ] || rm -f "$base.netlist.json"  # KEEP_NETLIST=1 keeps it
"$tool" --line "$base.json"
