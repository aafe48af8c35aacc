#!/usr/bin/env bash
# Builds each libFuzzer target given (tests/fuzz/*.cc) with clang, ASan and
# UBSan into build/fuzz/, then runs it for ${FUZZ_SECONDS:-30} seconds.
# Fails on the first crash, leak, timeout or failed build.
#
# A target names what it links in comment lines (whole lines, repeatable):
#   // fuzz-sources: sim/trace/a.cc sim/trace/b.cc   (default: every sim/ source;
#                                                      @sim names them among others,
#                                                      @tools the CLI without main.cc)
#   // fuzz-pkgs: zlib                                (pkg-config names; default:
#                                                      every library of the build)
#   // fuzz-seed-lines: linux-6.18-http/trace.txt     (seed: the first lines of a
#                                                      ../shared/traces text file)
#   // fuzz-seed-bytes: linux-6.18-http/trace.dat     (seed: its first 64 KiB)
# Seeds are skipped, with a note, when ../shared is absent. The corpus kept in
# the repository, tests/fuzz/corpus/TARGET/, seeds every run too (and new
# finds can be added there with `FUZZ_KEEP=1`: the run's corpus is merged
# back, minimised).
set -euo pipefail
cd "$(dirname "$0")/.."

secs=${FUZZ_SECONDS:-30}
out=${FUZZ_OUT:-build/fuzz}
shared=${TIMERSIM_SHARED:-../shared}/traces
cxx=${FUZZ_CXX:-clang++}
all_pkgs="zlib libzstd libtracecmd libtraceevent babeltrace babeltrace-ctf fmt libcrypto"

[ $# -gt 0 ] || { echo "fuzz.sh: no fuzz targets given" >&2; exit 1; }
mkdir -p "$out"

# Values of the "// KEY:" comment lines of FILE, on one line.
directive() {
  sed -n "s|^// $2:||p" "$1" | tr '\n' ' '
}

seed_corpus() {
  local src=$1 corpus=$2 rel n=0
  mkdir -p "$corpus"
  for rel in $(directive "$src" fuzz-seed-lines); do
    if [ ! -f "$shared/$rel" ]; then echo "fuzz.sh: no $shared/$rel, seed skipped" >&2; continue; fi
    n=$((n + 1))
    head -n 40 "$shared/$rel" >"$corpus/seed-$n-head"
    # A few lines from the middle too, past the headers.
    sed -n '1000,1012p' "$shared/$rel" >"$corpus/seed-$n-middle"
  done
  for rel in $(directive "$src" fuzz-seed-bytes); do
    if [ ! -f "$shared/$rel" ]; then echo "fuzz.sh: no $shared/$rel, seed skipped" >&2; continue; fi
    n=$((n + 1))
    head -c 65536 "$shared/$rel" >"$corpus/seed-$n-bytes"
  done
}

for src in "$@"; do
  name=$(basename "$src" .cc)
  srcs=$(directive "$src" fuzz-sources)
  pkgs=$(directive "$src" fuzz-pkgs)
  # @sim: every sim/ source and the freestanding kernel/ ones it calls.
  all_sim=$(find sim kernel -name '*.cc' | sort | tr '\n' ' ')
  [ -n "$srcs" ] || srcs=$all_sim
  srcs=${srcs//@sim/$all_sim}
  # @tools: the command line without its main().
  srcs=${srcs//@tools/$(ls tools/*.cc | grep -v '^tools/main.cc$' | tr '\n' ' ')}
  [ -n "$pkgs" ] || pkgs=$all_pkgs
  echo "== $name: build"
  # Each source once per fuzz build (objects shared by the targets, two at
  # a time), then the target linked with libFuzzer's main.
  objs=()
  for f in $src $srcs; do objs+=("$out/obj/${f%.cc}.o"); done
  # shellcheck disable=SC2086
  # An object is current when newer than its source and than every header.
  touch -d "@$(find kernel sim tools tests -name '*.h' -printf '%T@\n' | sort -n | tail -1)" \
    "$out/headers.stamp"
  printf '%s\n' $src $srcs | xargs -P "${FUZZ_JOBS:-2}" -I{} sh -c '
    f={}; o="$0/obj/${f%.cc}.o"
    [ "$o" -nt "$f" ] && [ "$o" -nt "$0/headers.stamp" ] && exit 0
    mkdir -p "$(dirname "$o")"
    exec "$1" -std=c++20 -g -O1 -fno-omit-frame-pointer \
      -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
      -I. $2 -c "$f" -o "$o"' "$out" "$cxx" "$(pkg-config --cflags $pkgs)"
  # shellcheck disable=SC2086
  "$cxx" -fsanitize=fuzzer,address,undefined "${objs[@]}" $(pkg-config --libs $pkgs) \
    -o "$out/$name"
  corpus=$out/corpus-$name
  kept=tests/fuzz/corpus/$name
  seed_corpus "$src" "$corpus"
  mkdir -p "$kept"
  echo "== $name: run ${secs}s"
  if ! "$out/$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
       -max_len=8192 -print_final_stats=1 -artifact_prefix="$out/$name-" \
       "$corpus" "$kept" >"$out/$name.log" 2>&1; then
    tail -n 60 "$out/$name.log" >&2
    echo "fuzz.sh: $name FAILED (log: $out/$name.log, input: $out/$name-*)" >&2
    exit 1
  fi
  grep -E '^stat::(number_of_executed_units|new_units_added)' "$out/$name.log" || true
  if [ -n "${FUZZ_KEEP:-}" ]; then
    "$out/$name" -merge=1 -max_len=8192 "$kept" "$corpus" >/dev/null 2>&1
    echo "== $name: kept corpus now $(ls "$kept" | wc -l) inputs"
  fi
done
echo "fuzz.sh: all targets ran clean"
