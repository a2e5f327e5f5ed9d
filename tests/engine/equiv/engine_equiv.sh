#!/bin/sh
# The working tree's check engine in lockstep with the engine of an earlier
# revision, at eight shapes (docs/verification.md, "Lockstep equivalence"):
# for refactorings that must keep every output the same in every cycle.
#
#   engine_equiv.sh <rev> [work_dir] [cycles per shape]
#
# Every module of <rev>'s rtl/ is renamed *_ref (file and name) and found
# with its own -y; the packages are the working tree's (the old modules
# must still read them). One Verilator model per shape, then
# engine_equiv_main.cpp runs it (default 1,000,000 cycles). Exits 1 at the
# first shape with a difference.
set -eu
if [ $# -lt 1 ]; then
  echo "usage: $0 <rev> [work_dir] [cycles]" >&2
  exit 2
fi
rev=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
work=${2:-${TMPDIR:-/tmp}/rac_engine_equiv}
cycles=${3:-1000000}
rtl=$root/rtl

rm -rf "$work/ref"
mkdir -p "$work/ref"
git -C "$root" archive "$rev" rtl | tar -x -C "$work/ref"
ref=$work/ref/rtl
mods=$(sed -n 's/^module \([A-Za-z_0-9]*\).*/\1/p' "$ref"/*.sv)
for f in "$ref"/*.sv; do
  case "$f" in *_pkg.sv) rm -f "$f"; continue ;; esac
  for m in $mods; do sed -i "s/\b$m\b/${m}_ref/g" "$f"; done
  mv "$f" "${f%.sv}_ref.sv"
done

pkgs="$rtl/rac_pkg.sv"
for f in "$rtl"/*_pkg.sv; do
  [ "$f" = "$rtl/rac_pkg.sv" ] || pkgs="$pkgs $f"
done

fail=0
while read -r name params; do
  [ -n "$name" ] || continue
  obj=$work/obj_$name
  # shellcheck disable=SC2086 # one argument per word
  if ! verilator --cc --exe --build -j 1 -Wno-fatal -Wno-lint -Wno-style --x-assign 0 --x-initial 0 \
      -CFLAGS -O1 --Mdir "$obj" -I"$rtl" -y "$rtl" -y "$ref" $pkgs \
      "$here/engine_equiv_top.sv" "$here/engine_equiv_main.cpp" --top-module engine_equiv_top $params \
      >"$work/build_$name.log" 2>&1; then
    echo "engine_equiv: $name does not build (log: $work/build_$name.log)" >&2
    exit 1
  fi
  printf '%s (%s): ' "$name" "$params"
  "$obj/Vengine_equiv_top" "$cycles" || fail=1
  [ "$fail" = 0 ] || break
done <<SHAPES
ci        -GNumSlots=8 -GClkW=16 -GSets=64 -GWays=4 -GObjects=16 -GReadVcs=16
small     -GNumSlots=8 -GClkW=16 -GSets=4 -GWays=4 -GObjects=16 -GReadVcs=4
poolways4 -GNumSlots=4 -GClkW=8 -GSets=4 -GWays=2 -GObjects=4 -GReadVcs=4 -GReadVcWays=4
poolways2 -GNumSlots=4 -GClkW=8 -GSets=8 -GWays=2 -GObjects=4 -GReadVcs=8 -GReadVcWays=2 -GReplPolicy=1
nopool    -GNumSlots=8 -GClkW=16 -GSets=4 -GWays=4 -GObjects=16 -GReadVcs=0
tiny      -GNumSlots=2 -GClkW=4 -GSets=2 -GWays=2 -GObjects=2 -GReadVcs=2
oneset    -GNumSlots=1 -GClkW=4 -GSets=1 -GWays=1 -GObjects=1 -GReadVcs=0
directmap -GNumSlots=8 -GClkW=16 -GSets=32 -GWays=1 -GObjects=1 -GReadVcs=0
SHAPES
exit $fail
