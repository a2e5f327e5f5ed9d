#!/bin/sh
# Yosys resource estimate of one RTL block for AMD UltraScale+ (xcup).
#
#   synth_report.sh <rtl_dir> <out_dir> <top> ["Param=val Param=val ..."]
#   synth_report.sh --header
#
# (make synth uses rtl/synth/ instead: per endpoint class, JSON; this one-line
# estimate is what driver/synth, sweep --resources, runs.)
# Runs synth_xilinx -family xcup -noiopad -noclkbuf -flatten on <top> (its
# submodules are found by file name in <rtl_dir>; rac_pkg.sv and any other
# *_pkg.sv are read first), and prints one line:
#   block params LUT FF CARRY BRAM URAM DSP depth
# LUT   all LUT1..LUT6 (LUTRAM/SRL are added to it)   FF    all FD* cells
# CARRY CARRY4/CARRY8 cells (Yosys 0.23 maps carries to CARRY4 even for xcup:
#       one CARRY8 is about two CARRY4)
# BRAM  RAMB36E2 + RAMB18E2/2                          URAM  URAM288
# DSP   DSP48E2
# depth longest combinational path in cells between FFs, RAMs and ports
#       (`delete t:FD* t:RAM*; ltp`, toolchain.md 3.3: without the RAM cells a
#       RAM's write data would seem to reach its registered read data); LUTs,
#       MUXF7/8/9 and every CARRY4 of a chain count one each, so wide-mux and
#       carry-heavy paths look deeper than they time.
# Full logs and stat/ltp reports go to <out_dir>/<block>_<params>.*; the
# harmless "Resizing cell port" warnings are dropped.
set -eu

if [ "${1:-}" = "--header" ]; then
  printf '%-18s %-28s %6s %6s %6s %5s %5s %4s %6s\n' \
    block params LUT FF CARRY BRAM URAM DSP depth
  exit 0
fi
if [ $# -lt 3 ]; then
  echo "usage: $0 <rtl_dir> <out_dir> <top> [\"Param=val ...\"] | --header" >&2
  exit 2
fi

rtl=$(cd "$1" && pwd)
mkdir -p "$2"
out=$(cd "$2" && pwd)
top=$3
params=${4:-}

chparam=""
tag=$top
for p in $params; do
  chparam="$chparam -set ${p%%=*} ${p#*=}"
  tag="${tag}_${p%%=*}${p#*=}"
done
if [ -n "$chparam" ]; then
  chparam="chparam$chparam $top;"
fi

pkgs="$rtl/rac_pkg.sv"
for f in "$rtl"/*_pkg.sv; do
  [ "$f" = "$rtl/rac_pkg.sv" ] || pkgs="$pkgs $f"
done

base="$out/$tag"
if ! yosys -q -l "$base.log" -p "
    read_verilog -sv -DSYNTHESIS -I$rtl $pkgs $rtl/$top.sv;
    $chparam
    hierarchy -libdir $rtl -top $top;
    synth_xilinx -family xcup -top $top -noiopad -noclkbuf -flatten;
    tee -q -o $base.stat.txt stat -tech xilinx;
    delete t:FD* t:RAM*;
    tee -q -o $base.ltp.txt ltp" >"$base.console" 2>&1; then
  grep -v 'Resizing cell port' "$base.console" >&2 || true
  echo "synth_report: yosys failed for $top ($params), log: $base.log" >&2
  exit 1
fi

# `stat -tech xilinx` lists "     <CELL>   <count>" per cell type.
awk -v block="$top" -v params="${params:--}" '
  $1 ~ /^(LUT[1-6]|RAM[0-9]+[MX]|SRL)/ && $2 ~ /^[0-9]+$/ { lut += $2 }
  $1 ~ /^FD/ && $2 ~ /^[0-9]+$/        { ff += $2 }
  $1 ~ /^CARRY/ && $2 ~ /^[0-9]+$/     { carry += $2 }
  $1 ~ /^RAMB36/ && $2 ~ /^[0-9]+$/    { bram += $2 }
  $1 ~ /^RAMB18/ && $2 ~ /^[0-9]+$/    { bram += $2 / 2 }
  $1 ~ /^URAM/ && $2 ~ /^[0-9]+$/      { uram += $2 }
  $1 ~ /^DSP/ && $2 ~ /^[0-9]+$/       { dsp += $2 }
  END { printf "%-18s %-28s %6d %6d %6d %5g %5d %4d ", block, params, lut, ff, carry, bram, uram, dsp }
' "$base.stat.txt"
depth=$(sed -nE 's/.*Longest topological path.*length=([0-9]+).*/\1/p' "$base.ltp.txt" | head -1)
printf '%6s\n' "${depth:-?}"
