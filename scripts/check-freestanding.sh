#!/usr/bin/env bash
# kernel/ must build as kernel code does: freestanding, no exceptions, no
# RTTI, linked against nothing. Compiles every kernel/*.cc that way and fails
# if an object references an outside symbol (the compiler's own memcpy,
# memset and memmove aside) or if kernel/ includes a header outside the
# C++20 freestanding set.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${BUILD:-build}/freestanding
mkdir -p "$out"
status=0

allowed='cstddef|cstdint|climits|cfloat|cstdarg|limits|type_traits|new|initializer_list|compare|concepts|version|bit|atomic|source_location|exception|typeinfo|coroutine'
while IFS= read -r line; do
  echo "freestanding: hosted header: $line" >&2
  status=1
done < <(grep -HnE '^\s*#\s*include\s*<' kernel/*.h kernel/*.cc | grep -vE "<($allowed)>" || true)

for src in kernel/*.cc; do
  obj="$out/$(basename "${src%.cc}").o"
  g++ -std=c++20 -O2 -Wall -Wextra -Werror -ffreestanding -fno-exceptions -fno-rtti \
      -nostdlib -fno-stack-protector -fno-asynchronous-unwind-tables -I. -c "$src" -o "$obj"
  undefined=$(nm -u "$obj" | awk '{print $NF}' | grep -vE '^(memcpy|memset|memmove)$' || true)
  if [ -n "$undefined" ]; then
    echo "freestanding: $src references outside symbols:" $undefined >&2
    status=1
  fi
done
[ $status -eq 0 ] && echo "freestanding: kernel/ builds with -ffreestanding -fno-exceptions -fno-rtti -nostdlib and references no outside symbol"
exit $status
