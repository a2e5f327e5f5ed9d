#!/bin/sh
# ctest deployment.xclbin_*: `make xclbin` (Makefile -> constraints/vitis/Makefile).
#   xclbin_make_test.sh missing-tools|commands MAKE ROOT WORK RACEACCEL
#
# missing-tools: with no vivado/v++ on PATH (PATH is a directory holding only
#   mkdir, so that a recipe run past the check would leave a trace) and with
#   a bad PLATFORM/TARGET, make must fail, print what is needed and create
#   nothing.
# commands: with stand-in vivado, v++ and emconfigutil scripts that only log
#   their arguments and create the file they are asked to write, make must
#   call them with the documented command lines, in order, rebuild nothing
#   when nothing changed, and honour TARGET=hw_emu. This checks the Makefile,
#   not Vitis: the real tools are not installed here (docs/deployment.md).
set -u
mode=$1 make=$2 root=$3 work=$4 raceaccel=$5
rm -rf "$work"
mkdir -p "$work/no_tools" "$work/bin"
ln -s "$(command -v mkdir)" "$work/no_tools/mkdir"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# run_make <PATH> <args...>: output in $work/out.txt, status in $status.
run_make() {
  path=$1
  shift
  PATH=$path "$make" --no-print-directory -C "$root" xclbin XCLBIN_DIR="$work/xclbin" RACEACCEL="$raceaccel" "$@" \
    >"$work/out.txt" 2>&1
  status=$?
}
expect_text() {
  grep -qF -- "$1" "$work/out.txt" || fail "$2: output lacks '$1'"
}
reject_text() {
  if grep -qF -- "$1" "$work/out.txt"; then fail "$2: output has '$1'"; fi
}

case $mode in
missing-tools)
  run_make "$work/no_tools"
  [ "$status" -ne 0 ] || fail "no tools, no PLATFORM: status 0"
  expect_text "'vivado' is not on PATH" "no tools"
  expect_text "'v++' is not on PATH" "no tools"
  expect_text "PLATFORM is not set" "no PLATFORM"
  expect_text "nothing was built" "no tools"
  [ ! -e "$work/xclbin" ] || fail "no tools: $work/xclbin was created"

  run_make "$work/no_tools" PLATFORM=xilinx_u250_gen3x16_xdma_4_1_202210_1
  [ "$status" -ne 0 ] || fail "no tools, PLATFORM set: status 0"
  expect_text "'vivado' is not on PATH" "PLATFORM set"
  reject_text "PLATFORM is not set" "PLATFORM set"
  [ ! -e "$work/xclbin" ] || fail "PLATFORM set: $work/xclbin was created"

  run_make "$work/no_tools" PLATFORM=x TARGET=sw_emu
  [ "$status" -ne 0 ] || fail "TARGET=sw_emu: status 0"
  expect_text "TARGET=sw_emu is not supported" "TARGET=sw_emu"
  [ ! -e "$work/xclbin" ] || fail "TARGET=sw_emu: $work/xclbin was created"

  # A SHAPE needs the raceaccel that checks it; without it make says so.
  PATH=$work/no_tools "$make" --no-print-directory -C "$root" xclbin XCLBIN_DIR="$work/xclbin" \
    RACEACCEL="$work/no_such_raceaccel" SHAPE="slots=64" >"$work/out.txt" 2>&1
  status=$?
  [ "$status" -ne 0 ] || fail "SHAPE without raceaccel: status 0"
  expect_text "SHAPE needs $work/no_such_raceaccel" "SHAPE without raceaccel"
  [ ! -e "$work/xclbin" ] || fail "SHAPE without raceaccel: $work/xclbin was created"
  ;;

commands)
  log=$work/calls.log
  # Stand-ins: log "name args", then create the output file named by the
  # third -tclargs value (vivado), after -o (v++) or in --od (emconfigutil).
  for tool in vivado v++ emconfigutil; do
    cat >"$work/bin/$tool" <<EOF
#!/bin/sh
echo "$tool \$*" >>"$log"
out=""
prev=""
tclargs=0
for a in "\$@"; do
  case \$prev in
    -o) out=\$a ;;
    --od) out=\$a/emconfig.json ;;
  esac
  if [ "\$prev" = "-tclargs" ]; then tclargs=1; fi
  if [ \$tclargs -ge 1 ]; then
    if [ \$tclargs -eq 3 ]; then out=\$a; fi
    tclargs=\$((tclargs + 1))
  fi
  prev=\$a
done
[ -n "\$out" ] && : >"\$out"
exit 0
EOF
    chmod +x "$work/bin/$tool"
  done
  tools_path=$work/bin:/usr/bin:/bin
  platform=xilinx_u250_gen3x16_xdma_4_1_202210_1
  x=$work/xclbin

  run_make "$tools_path" PLATFORM=$platform
  [ "$status" -eq 0 ] || { cat "$work/out.txt" >&2; fail "with tools: status $status"; }
  [ -f "$x/rac_kernel.xclbin" ] || fail "no $x/rac_kernel.xclbin"
  expected_vivado="vivado -mode batch -nojournal -log $x/package_kernel.log -source $root/constraints/vitis/package_kernel.tcl -tclargs $root $x/package $x/rac_kernel.xo xcu250-figd2104-2L-e"
  expected_vpp="v++ --link --target hw --platform $platform --config $root/constraints/vitis/connectivity.cfg --temp_dir $x/_x.hw -o $x/rac_kernel.xclbin $x/rac_kernel.xo"
  [ "$(sed -n 1p "$log")" = "$expected_vivado" ] || fail "first call: got '$(sed -n 1p "$log")', expected '$expected_vivado'"
  [ "$(sed -n 2p "$log")" = "$expected_vpp" ] || fail "second call: got '$(sed -n 2p "$log")', expected '$expected_vpp'"
  [ "$(wc -l <"$log")" -eq 2 ] || fail "expected 2 tool calls, got $(wc -l <"$log")"

  run_make "$tools_path" PLATFORM=$platform
  [ "$status" -eq 0 ] || fail "second make: status $status"
  [ "$(wc -l <"$log")" -eq 2 ] || fail "up-to-date make called tools again"

  run_make "$tools_path" PLATFORM=$platform TARGET=hw_emu
  [ "$status" -eq 0 ] || { cat "$work/out.txt" >&2; fail "hw_emu: status $status"; }
  grep -qF "emconfigutil --platform $platform --od $x" "$log" || fail "hw_emu: no emconfigutil call"
  grep -qF "v++ --link --target hw_emu --platform $platform --config $root/constraints/vitis/connectivity.cfg --temp_dir $x/_x.hw_emu -o $x/rac_kernel.hw_emu.xclbin $x/rac_kernel.xo" "$log" ||
    fail "hw_emu: no v++ --target hw_emu call"
  [ "$(grep -c '^vivado' "$log")" -eq 1 ] || fail "hw_emu: the .xo was packaged again"

  # SHAPE: `raceaccel shape` turns the sweep's knob names into rac_kernel's
  # parameters, all seven, which follow the part on vivado's -tclargs; a new
  # shape packages the .xo again (the same parameters do not, however named).
  params="NumSlots=64 ClkW=32 Sets=4096 Ways=8 Objects=16 ReadVcs=32 BucketWays=4"
  run_make "$tools_path" PLATFORM=$platform SHAPE="slots=64 sets=4096 ways=8 pool=32"
  [ "$status" -eq 0 ] || { cat "$work/out.txt" >&2; fail "SHAPE: status $status"; }
  grep -qF -- "-tclargs $root $x/package $x/rac_kernel.xo xcu250-figd2104-2L-e $params" "$log" ||
    fail "SHAPE: '$params' not on vivado's -tclargs: $(grep '^vivado' "$log" | tail -1)"
  [ "$(grep -c '^vivado' "$log")" -eq 2 ] || fail "SHAPE: the .xo was not packaged again"
  [ "$(grep -c '^v++' "$log")" -eq 3 ] || fail "SHAPE: the xclbin was not linked again"
  [ "$(cat "$x/shape.txt")" = "$params" ] || fail "SHAPE: shape.txt holds '$(cat "$x/shape.txt")'"
  run_make "$tools_path" PLATFORM=$platform SHAPE="slots=64 sets=4096 ways=8 pool=32"
  [ "$(grep -c '^vivado' "$log")" -eq 2 ] || fail "SHAPE: the same shape packaged again"
  # The same shape in a shape file, with a comment and the default ways
  # per bucket named: the same parameters, nothing packaged again.
  printf '# the study'"'"'s shape\nslots=64 sets=4096\nways=8 pool=32 bucket_ways=4  # default\n' >"$work/study.shape"
  run_make "$tools_path" PLATFORM=$platform SHAPE="$work/study.shape"
  [ "$status" -eq 0 ] || { cat "$work/out.txt" >&2; fail "SHAPE file: status $status"; }
  [ "$(grep -c '^vivado' "$log")" -eq 2 ] || fail "SHAPE file: the same parameters packaged again"
  # A named shape: constraints/vitis/shapes/NAME.shape.
  run_make "$tools_path" PLATFORM=$platform SHAPE=reference-study
  [ "$status" -eq 0 ] || { cat "$work/out.txt" >&2; fail "SHAPE=reference-study: status $status"; }
  named=$("$raceaccel" shape --file "$root/constraints/vitis/shapes/reference-study.shape")
  grep -qF -- "xcu250-figd2104-2L-e $named" "$log" || fail "SHAPE=reference-study: '$named' not on vivado's -tclargs"

  # Shapes that cannot be built: make stops (status 2) with raceaccel's
  # reason, before any tool runs.
  calls_before=$(wc -l <"$log")
  run_make "$tools_path" PLATFORM=$platform SHAPE="slots=64 colour=3"
  [ "$status" -eq 2 ] || fail "unknown SHAPE name: status $status"
  expect_text "unknown knob 'colour'" "unknown SHAPE name"
  run_make "$tools_path" PLATFORM=$platform SHAPE="slots=64 ways=x"
  [ "$status" -eq 2 ] || fail "bad SHAPE value: status $status"
  expect_text "SHAPE word ways=x: 'x' is not an unsigned decimal integer" "bad SHAPE value"
  run_make "$tools_path" PLATFORM=$platform SHAPE="slots=64 sets=100"
  [ "$status" -eq 2 ] || fail "impossible SHAPE: status $status"
  expect_text "not a kernel shape: a 100 x 4 cache: the kernel needs powers of two" "impossible SHAPE"
  expect_text "nothing was built" "impossible SHAPE"
  run_make "$tools_path" PLATFORM=$platform SHAPE="slots=300"
  [ "$status" -eq 2 ] || fail "too many slots: status $status"
  expect_text "slots=300: 300 is out of range for slots [1 - 256]" "too many slots"
  run_make "$tools_path" PLATFORM=$platform SHAPE="slots=64 latency=8"
  [ "$status" -eq 2 ] || fail "SHAPE with latency: status $status"
  expect_text "latency is a setting of the host or the bus model, not a kernel parameter" "SHAPE with latency"
  run_make "$tools_path" PLATFORM=$platform SHAPE=no-such-shape
  [ "$status" -eq 2 ] || fail "unknown named shape: status $status"
  expect_text "cannot read $root/constraints/vitis/shapes/no-such-shape.shape" "unknown named shape"
  [ "$(wc -l <"$log")" -eq "$calls_before" ] || fail "bad SHAPE: tools were called"
  ;;

*)
  echo "usage: $0 missing-tools|commands MAKE ROOT WORK RACEACCEL" >&2
  exit 2
  ;;
esac

if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed" >&2
  exit 1
fi
echo "ok ($mode)"
