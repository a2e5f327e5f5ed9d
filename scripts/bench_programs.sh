#!/bin/sh
# Program benchmark (issues 5 and 10): the kernels of bench/programs built
# three ways -- native (clang-19 -O2), stock ThreadSanitizer (clang-19 -O2
# -fsanitize=thread) and raceaccel (build/bin/raceaccel-cc -O2) -- and run
# RUNS times each, interleaved (run 1 of every kernel and variant, then run
# 2, ...), in this one session. Prints, per kernel and variant, the median
# wall time, CPU time (user + system) and peak RSS, and raceaccel's ratios to
# TSan with their geometric means. A benchmark, not a test: nothing here
# fails on a number.
#
# Usage: scripts/bench_programs.sh [BUILD_DIR] [RUNS]
#   Without BUILD_DIR/bin/raceaccel-cc the raceaccel rows are left out.
#   KERNELS="matmul lookup" restricts the kernels; each kernel's size can be
#   changed with <NAME>_ARGS, e.g. matmul_ARGS="1200 4" (defaults: default_args below).
#   ABLATIONS="key=value ..." adds one raceaccel row per word,
#   the same binary run with RACEACCEL_OPTIONS=<word> (a switch of
#   docs/runtime.md turned off), interleaved with the other runs. The word
#   static_callbacks=0 instead adds the row raceaccel_rcb: the kernel linked
#   without the access callbacks' archive (RACEACCEL_STATIC_CALLBACKS=0, the
#   runtime's own callbacks; docs/runtime.md, "The hot path").
#   RUNTIMES="name=DIR ..." adds one row per word, raceaccel_rcb@name: the
#   kernel linked without the archive (so that a runtime from before it can
#   run it too) run against the runtime library in DIR (its
#   libraceaccel_rt.so, through LD_LIBRARY_PATH, which the binaries' RUNPATH
#   yields to): a change's before and after measured in one run, e.g.
#   RUNTIMES="before=/tmp/lib0" ABLATIONS=static_callbacks=0 with the library
#   of the commit before the change copied there (the raceaccel_rcb row is
#   then the same binary against this build's library).
set -eu
build=${1:-build}
runs=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
src=$here/bench/programs
out=$build/bench-programs
mkdir -p "$out"
cc=${BENCH_CC:-clang-19}
cxx=${BENCH_CXX:-clang++-19}
kernels=${KERNELS:-matmul histogram prodcons mergesort lookup atomic_pipeline bytescan stencil chase thread_per_task}
ablations=${ABLATIONS:-}

builds="native tsan"
if [ -x "$build/bin/raceaccel-cc" ] && [ -x "$build/bin/raceaccel-c++" ]; then
  builds="$builds raceaccel"
else
  echo "note: $build/bin/raceaccel-cc not found; measuring native and TSan only" >&2
  ablations=
fi
# A variant is a build plus, for the ablation rows, one RACEACCEL_OPTIONS word.
variants=$builds
runtimes=${RUNTIMES:-}
case $builds in *raceaccel*) ;; *) runtimes= ;; esac
rcb_build=
[ -n "$runtimes" ] && rcb_build=raceaccel_rcb
for a in $ablations; do
  if [ "$a" = static_callbacks=0 ]; then
    rcb_build=raceaccel_rcb
    variants="$variants raceaccel_rcb"
  else
    variants="$variants raceaccel:$a"
  fi
done
builds="$builds $rcb_build"
for r in $runtimes; do
  dir=${r#*=}
  if [ "$dir" = "$r" ] || [ ! -f "$dir/libraceaccel_rt.so" ]; then
    echo "bench_programs.sh: RUNTIMES word '$r' is not name=DIR with DIR/libraceaccel_rt.so" >&2
    exit 2
  fi
  variants="$variants raceaccel_rcb@${r%%=*}"
done
# The library directory of a raceaccel@name variant.
runtime_dir() { for r in $runtimes; do [ "${r%%=*}" = "$1" ] && echo "${r#*=}" && return; done; }

# Wall time, CPU time and peak RSS of each run, measured by our own wrapper
# (fork, wait4, getrusage of the child).
"$cc" -std=c11 -O2 "$src/peak_rss.c" -o "$out/peak_rss"

source_of() { if [ -f "$src/$1.c" ]; then echo "$src/$1.c"; else echo "$src/$1.cpp"; fi; }

build_kernel() { # kernel build
  file=$(source_of "$1")
  case $file in
    *.c) lang_flags="-std=c11" compiler=$cc wrapper=$build/bin/raceaccel-cc ;;
    *) lang_flags="-std=c++17" compiler=$cxx wrapper=$build/bin/raceaccel-c++ ;;
  esac
  case $2 in
    native) $compiler $lang_flags -O2 -g -pthread "$file" -o "$out/$1.$2" ;;
    tsan) $compiler $lang_flags -O2 -g -fsanitize=thread -pthread "$file" -o "$out/$1.$2" ;;
    raceaccel) $wrapper $lang_flags -O2 -g -pthread "$file" -o "$out/$1.$2" ;;
    raceaccel_rcb) RACEACCEL_STATIC_CALLBACKS=0 $wrapper $lang_flags -O2 -g -pthread "$file" -o "$out/$1.$2" ;;
  esac
}

# Default sizes keep `make bench` to a few minutes on 2 cores (5 runs of
# every kernel, TSan and raceaccel included): override with <NAME>_ARGS for
# the large sizes the kernels default to.
default_args() {
  case $1 in
    matmul) echo "200 2" ;;
    histogram) echo "200000 2" ;;
    prodcons) echo "100000 1" ;;
    mergesort) echo "200000 1" ;;
    lookup) echo "500000 2 4096" ;; # 4-byte random reads of a 4 K-entry table
    atomic_pipeline) echo "100000 2" ;;
    bytescan) echo "4 2" ;;
    stencil) echo "100000 40 2" ;;
    chase) echo "200000 2" ;;
    thread_per_task) echo "20000 4" ;;
  esac
}
args_of() {
  eval "given=\${$1_ARGS:-}"
  if [ -n "$given" ]; then echo "$given"; else default_args "$1"; fi
}

# run_once kernel variant: appends "wall_ms cpu_ms rss_kib" to $out/kernel.variant.samples
run_once() {
  kernel=$1 variant=$2
  build_of=${variant%%[:@]*}
  options= libs=${LD_LIBRARY_PATH:-}
  case $variant in
    *:*) options=${variant#*:} ;;
    *@*) libs=$(runtime_dir "${variant#*@}") ;;
  esac
  tag=$(echo "$variant" | tr ':=@' '___')
  bin=$out/$kernel.$build_of
  # shellcheck disable=SC2046 # the kernel's arguments are a word list
  set -- $(args_of "$kernel")
  if LD_LIBRARY_PATH=$libs RACEACCEL_OPTIONS=$options "$out/peak_rss" "$out/$kernel.$tag.samples" "$bin" "$@" \
    >/dev/null 2>"$out/$kernel.$tag.stderr"; then
    :
  else
    echo "warning: $kernel ($variant) exited $?; first lines of its stderr:" >&2
    head -5 "$out/$kernel.$tag.stderr" >&2
  fi
}

median() { # column file
  sort -n -k "$1" "$2" | awk -v c="$1" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

echo "building kernels ($builds)..." >&2
for k in $kernels; do
  for b in $builds; do build_kernel "$k" "$b"; done
  for v in $variants; do rm -f "$out/$k.$(echo "$v" | tr ':=@' '___').samples"; done
done

for r in $(seq 1 "$runs"); do
  echo "run $r of $runs..." >&2
  for k in $kernels; do
    for v in $variants; do run_once "$k" "$v"; done
  done
done

seconds() { awk -v ms="$1" 'BEGIN { printf "%.2f s", ms / 1000 }'; }
mib() { awk -v kib="$1" 'BEGIN { printf "%.1f MiB", kib / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "n/a" }'; }

echo "machine: $(nproc) cores, $(lscpu 2>/dev/null | sed -n 's/^Model name:[[:space:]]*//p' | head -1), load average $(cut -d' ' -f1-3 /proc/loadavg); $("$cc" --version | head -1)"
echo "median of $runs interleaved runs; CPU = user + system; RSS = peak resident set; ratios = raceaccel / TSan"
[ -n "$rcb_build" ] && echo "raceaccel_rcb: linked without the access callbacks' archive (RACEACCEL_STATIC_CALLBACKS=0)"
printf '| kernel (args) | variant | wall | CPU | peak RSS | CPU / TSan | RSS / TSan |\n'
printf '|---|---|---|---|---|---|---|\n'
: >"$out/ratios"
for k in $kernels; do
  tsan_cpu=$(median 2 "$out/$k.tsan.samples")
  tsan_rss=$(median 3 "$out/$k.tsan.samples")
  for v in $variants; do
    file=$out/$k.$(echo "$v" | tr ':=@' '___').samples
    wall=$(median 1 "$file")
    cpu=$(median 2 "$file")
    rss=$(median 3 "$file")
    cpu_ratio= rss_ratio=
    case $v in
      raceaccel*)
        cpu_ratio=$(ratio "$cpu" "$tsan_cpu")
        rss_ratio=$(ratio "$rss" "$tsan_rss")
        echo "$v $cpu_ratio $rss_ratio" >>"$out/ratios"
        ;;
    esac
    echo "| $k ($(args_of "$k")) | $(echo "$v" | tr ':' ' ') | $(seconds "$wall") | $(seconds "$cpu") | $(mib "$rss") | $cpu_ratio | $rss_ratio |"
  done
done
echo
for v in $variants; do
  case $v in
    raceaccel*)
      awk -v v="$v" '$1 == v && $2 > 0 && $3 > 0 { c += log($2); r += log($3); n++ }
        END { if (n) printf "geometric mean over %d kernels, %s / TSan: CPU %.2fx, peak RSS %.2fx\n", n, v, exp(c / n), exp(r / n) }' \
        "$out/ratios"
      ;;
  esac
done
