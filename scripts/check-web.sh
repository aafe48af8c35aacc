#!/usr/bin/env bash
# make check-web: the browser lab against the native timersim.
#   1. scripts/web-diff.js under node: the wasm's questions, answers and
#      grades against the native build's, every kind x SEEDS seeds (default
#      1000) and every fixed exercise, byte for byte;
#   2. scripts/web-browser-check.py: the page in headless Chromium from
#      file://, place 7 answered right and wrong, three frames stepped, a
#      private variant's questions file opened; a screenshot to
#      $BUILD_WEB/lab-page.png and one at a phone's width.
#
#   scripts/check-web.sh WEB_DIR MODULE.js TIMERSIM
set -euo pipefail

web=${1:?usage: check-web.sh WEB_DIR MODULE.js TIMERSIM}
module=${2:?}
timersim=${3:?}
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

start=$(date +%s)
node scripts/web-diff.js "$module" "$timersim" "${SEEDS:-1000}" >"$tmp/diff.log" || {
  grep -v '^same ' "$tmp/diff.log" | head -40
  echo "check-web: the wasm lab and the native one differ" >&2
  exit 1
}
tail -1 "$tmp/diff.log"

# fire 7: six statements to step.
right=$("$timersim" lab fire -s 7 -c | sed -n 's/^  Answer: //p')
"$timersim" lab place -s 1 -n 3 --student alice --secret check-web-key --questions-out "$tmp/alice-questions.txt"
python3 scripts/web-browser-check.py "$web/index.html" --kind fire --seed 7 --right "$right" --wrong "A@1 B@2 C@3" \
  --questions "$tmp/alice-questions.txt" --screenshot "$web/../web-page.png" \
  --phone-screenshot "$web/../web-page-phone.png"
echo "check-web: all held ($(( $(date +%s) - start )) s; screenshots $(dirname "$web")/web-page.png, web-page-phone.png)"
