#!/bin/sh
# Program benchmark (issue 5): the kernels of bench/programs built three
# ways -- native (clang-19 -O2), stock ThreadSanitizer (clang-19 -O2
# -fsanitize=thread) and raceaccel (build/bin/raceaccel-cc -O2) -- and run
# RUNS times each, interleaved, in this one session. Prints the median wall
# time, the slowdown over native and the median peak RSS. A benchmark, not a
# test: nothing here fails on a number.
#
# Usage: scripts/bench_programs.sh [BUILD_DIR] [RUNS]
#   Without BUILD_DIR/bin/raceaccel-cc the raceaccel column is left out.
#   KERNELS="matmul lookup" restricts the kernels; each kernel's size can be
#   changed with <NAME>_ARGS, e.g. matmul_ARGS="1200 4" (defaults: default_args below).
set -eu
build=${1:-build}
runs=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
src=$here/bench/programs
out=$build/bench-programs
mkdir -p "$out"
cc=${BENCH_CC:-clang-19}
cxx=${BENCH_CXX:-clang++-19}
kernels=${KERNELS:-matmul histogram prodcons mergesort lookup atomic_pipeline}

variants="native tsan"
if [ -x "$build/bin/raceaccel-cc" ] && [ -x "$build/bin/raceaccel-c++" ]; then
  variants="$variants raceaccel"
else
  echo "note: $build/bin/raceaccel-cc not found; measuring native and TSan only" >&2
fi

# Peak RSS: /usr/bin/time -f %M where it exists, else our own getrusage wrapper.
if [ -x /usr/bin/time ]; then
  rss_tool=usr_bin_time
else
  rss_tool=wrapper
  "$cc" -O2 "$src/peak_rss.c" -o "$out/peak_rss"
fi

source_of() { if [ -f "$src/$1.c" ]; then echo "$src/$1.c"; else echo "$src/$1.cpp"; fi; }

build_kernel() { # kernel variant
  file=$(source_of "$1")
  case $file in
    *.c) lang_flags="-std=c11" compiler=$cc wrapper=$build/bin/raceaccel-cc ;;
    *) lang_flags="-std=c++17" compiler=$cxx wrapper=$build/bin/raceaccel-c++ ;;
  esac
  case $2 in
    native) $compiler $lang_flags -O2 -g -pthread "$file" -o "$out/$1.$2" ;;
    tsan) $compiler $lang_flags -O2 -g -fsanitize=thread -pthread "$file" -o "$out/$1.$2" ;;
    raceaccel) $wrapper $lang_flags -O2 -g -pthread "$file" -o "$out/$1.$2" ;;
  esac
}

# Default sizes keep `make bench` to minutes (a few hundred ms per native
# run on 2 cores would take raceaccel's access-heavy kernels an hour):
# override with <NAME>_ARGS for the large sizes the kernels default to.
default_args() {
  case $1 in
    matmul) echo "300 2" ;;
    histogram) echo "500000 2" ;;
    prodcons) echo "100000 1" ;;
    mergesort) echo "1000000 1" ;;
    lookup) echo "2000000 2" ;;
    atomic_pipeline) echo "200000 2" ;;
  esac
}
args_of() {
  eval "given=\${$1_ARGS:-}"
  if [ -n "$given" ]; then echo "$given"; else default_args "$1"; fi
}

# run_once kernel variant -> appends "ms kib" to $out/kernel.variant.samples
run_once() {
  bin=$out/$1.$2
  # shellcheck disable=SC2046 # the kernel's arguments are a word list
  set -- "$1" "$2" $(args_of "$1")
  kernel=$1 variant=$2
  shift 2
  start=$(date +%s%N)
  if [ $rss_tool = usr_bin_time ]; then
    /usr/bin/time -f %M -o "$out/rss" "$bin" "$@" >/dev/null 2>"$out/$kernel.$variant.stderr" && status=0 || status=$?
  else
    "$out/peak_rss" "$out/rss" "$bin" "$@" >/dev/null 2>"$out/$kernel.$variant.stderr" && status=0 || status=$?
  fi
  end=$(date +%s%N)
  if [ "$status" -ne 0 ]; then
    echo "warning: $kernel ($variant) exited $status; first lines of its stderr:" >&2
    head -5 "$out/$kernel.$variant.stderr" >&2
  fi
  echo "$(((end - start) / 1000000)) $(tail -1 "$out/rss")" >>"$out/$kernel.$variant.samples"
}

median() { # column file
  sort -n -k "$1" "$2" | awk -v c="$1" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

echo "building kernels ($variants)..." >&2
for k in $kernels; do
  for v in $variants; do
    build_kernel "$k" "$v"
    rm -f "$out/$k.$v.samples"
  done
done

for r in $(seq 1 "$runs"); do
  echo "run $r of $runs..." >&2
  for k in $kernels; do
    for v in $variants; do run_once "$k" "$v"; done
  done
done

echo "machine: $(nproc) cores, $(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1); $("$cc" --version | head -1)"
echo "median of $runs runs; slowdown = median / native median; RSS = median peak resident set"
printf '| kernel | native | TSan | raceaccel | native RSS | TSan RSS | raceaccel RSS |\n'
printf '|---|---|---|---|---|---|---|\n'
for k in $kernels; do
  native_ms=$(median 1 "$out/$k.native.samples")
  row="| $k | ${native_ms} ms"
  for v in tsan raceaccel; do
    if [ -f "$out/$k.$v.samples" ]; then
      ms=$(median 1 "$out/$k.$v.samples")
      row="$row | $ms ms ($(awk -v a="$ms" -v b="$native_ms" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }')x)"
    else
      row="$row | n/a"
    fi
  done
  for v in native tsan raceaccel; do
    if [ -f "$out/$k.$v.samples" ]; then
      row="$row | $(awk -v kib="$(median 2 "$out/$k.$v.samples")" 'BEGIN { printf "%.1f MiB", kib / 1024 }')"
    else
      row="$row | n/a"
    fi
  done
  echo "$row |"
done
