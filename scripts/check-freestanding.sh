#!/usr/bin/env bash
# kernel/ must build as kernel code does: freestanding, no exceptions, no
# RTTI, linked against nothing. Compiles every kernel/*.cc that way and fails
# if an object references an outside symbol (the compiler's own memcpy,
# memset and memmove aside), if kernel/ includes a header outside the
# C++20 freestanding set, if a quoted include leaves kernel/, or if a
# header does not compile on its own under the same flags (a header no .cc
# includes would otherwise escape the check).
#
# Environment (defaults give the normal check of this tree):
#   FREESTANDING_ROOT  directory holding the kernel/ to check (default: the
#                      repository); tests point it at a doctored copy
#   FREESTANDING_OUT   where objects go (default: $BUILD/freestanding)
set -euo pipefail
cd "$(dirname "$0")/.."
root=${FREESTANDING_ROOT:-.}
out=${FREESTANDING_OUT:-${BUILD:-build}/freestanding}
mkdir -p "$out"
status=0
flags=(-std=c++20 -O2 -Wall -Wextra -Werror -ffreestanding -fno-exceptions -fno-rtti
       -nostdlib -fno-stack-protector -fno-asynchronous-unwind-tables -I"$root")

allowed='cstddef|cstdint|climits|cfloat|cstdarg|limits|type_traits|new|initializer_list|compare|concepts|version|bit|atomic|source_location|exception|typeinfo|coroutine'
while IFS= read -r line; do
  echo "freestanding: hosted header: $line" >&2
  status=1
done < <(cd "$root" && grep -HnE '^\s*#\s*include\s*<' kernel/*.h kernel/*.cc | grep -vE "<($allowed)>" || true)

# "..." includes are searched on the system path too: "vector" or
# "sim/..." would slip past the check above.
while IFS= read -r line; do
  echo "freestanding: include outside kernel/: $line" >&2
  status=1
done < <(cd "$root" && grep -HnE '^\s*#\s*include\s*"' kernel/*.h kernel/*.cc | grep -vE '"kernel/[A-Za-z0-9_]+\.h"' || true)

for hdr in "$root"/kernel/*.h; do
  rel=kernel/$(basename "$hdr")
  if ! echo "#include \"$rel\"" | g++ "${flags[@]}" -fsyntax-only -x c++ - ; then
    echo "freestanding: $rel does not compile on its own" >&2
    status=1
  fi
done

for src in "$root"/kernel/*.cc; do
  obj="$out/$(basename "${src%.cc}").o"
  if ! g++ "${flags[@]}" -c "$src" -o "$obj"; then
    echo "freestanding: $src does not compile freestanding" >&2
    status=1
    continue
  fi
  undefined=$(nm -u "$obj" | awk '{print $NF}' | grep -vE '^(memcpy|memset|memmove)$' || true)
  if [ -n "$undefined" ]; then
    echo "freestanding: $src references outside symbols:" $undefined >&2
    status=1
  fi
done
[ $status -eq 0 ] && echo "freestanding: kernel/ builds with -ffreestanding -fno-exceptions -fno-rtti -nostdlib and references no outside symbol"
exit $status
