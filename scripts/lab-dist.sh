#!/usr/bin/env bash
# make lab-dist: what a student is handed -- the lab's sources (enough for
# `make lab`), the handbook, the bundled trace, and the browser lab when it
# has been built (build/web, `make web`) -- without the instructor's
# material (docs/lab/instructor: the guide with every answer, the example
# assignment and its graded answers) and without the tests (the fixed
# exercises' expected answers are written in them).
#
#   scripts/lab-dist.sh OUT.tar.gz [WEB_DIR]
#
# From the committed tree (git archive HEAD): the same commit gives the same
# bytes. Refuses to write a tarball that holds anything under
# docs/lab/instructor (checked on the result, not trusted to the excludes).
set -euo pipefail

out=${1:?usage: scripts/lab-dist.sh OUT.tar.gz [WEB_DIR]}
web=${2:-}
top=timersim-lab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git archive --format=tar --prefix="$top/" HEAD -- . \
  ':(exclude)docs/lab/instructor' ':(exclude)tests' ':(exclude).ci' >"$tmp/dist.tar"
# The trace lab 5 works on.
git archive --format=tar --prefix="$top/" HEAD -- tests/data/default-trace.txt.gz >"$tmp/trace.tar"
tar --concatenate -f "$tmp/dist.tar" "$tmp/trace.tar"
if [ -n "$web" ]; then
  [ -f "$web/index.html" ] || { echo "lab-dist: $web/index.html missing (make web)" >&2; exit 2; }
  # Fixed owner, times and order: the same page gives the same bytes.
  rel=$(cd "$web" && pwd | sed 's|^/||')
  tar --append -f "$tmp/dist.tar" --owner=0 --group=0 --numeric-owner --mtime=@0 --sort=name \
      --transform "s|^$rel|$top/web|" -C / "$rel"
fi
if tar -tf "$tmp/dist.tar" | grep -q "^$top/docs/lab/instructor"; then
  echo "lab-dist: instructor material in the tarball; not written" >&2
  exit 1
fi
gzip -n -9 <"$tmp/dist.tar" >"$tmp/out.tar.gz"
mv "$tmp/out.tar.gz" "$out"
echo "  DIST  $out ($(tar -tzf "$out" | grep -vc '/$') files$([ -n "$web" ] && echo ", with the browser lab in $top/web"))"
