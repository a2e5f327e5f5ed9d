#!/bin/sh
# A set of blocks for `make synth` / `make synth_card` and the rtl.synth_ci
# test: synth_block.sh for each "top|Param=val ..." argument, one text line
# per block on stdout, and the merged JSON report (an array of
# rac_netlist_depth objects) in <report.json>.
#
#   synth_set.sh <netlist_depth> <rtl_dir> <out_dir> <report.json> "top|params"...
set -eu
if [ $# -lt 5 ]; then
  echo "usage: $0 <netlist_depth> <rtl_dir> <out_dir> <report.json> \"top|params\"..." >&2
  exit 2
fi
tool=$1 rtl=$2 out=$3 report=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
"$tool" --header
files=""
for entry in "$@"; do
  top=${entry%%|*}
  params=${entry#*|}
  sh "$here/synth_block.sh" "$tool" "$rtl" "$out" "$top" "$params"
  tag=$top
  for p in $params; do tag="${tag}_${p%%=*}${p#*=}"; done
  files="$files $out/$tag.json"
done
# shellcheck disable=SC2086 # one argument per file
"$tool" --merge "$report" $files
echo "report: $report"
