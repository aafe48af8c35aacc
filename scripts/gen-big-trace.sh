#!/usr/bin/env bash
# Writes a large raw ftrace text trace for throughput measurements:
#
#   scripts/gen-big-trace.sh OUT [SIZE] [SOURCE]
#
# SIZE: bytes, or with K/M/G (default 1G; the output is at least that big).
# SOURCE: a raw ftrace text trace, plain or .gz (default
# tests/data/measured-network-quiet.txt.gz: a 6.18 recording that holds
# every kind of event a replay reads - the wheel's, the hrtimers', the
# softirq runs and the timer interrupts - in a real machine's proportions).
#
# The source's events are repeated back to back. Copy k has its timestamps
# shifted by k*S seconds and its jiffies (timer expires, now, baseclk,
# bucket_expiry) by k*S*HZ, with S whole seconds chosen so that each copy
# starts after the previous one ends: the result is monotonic in time and
# in jiffies, and keeps the source's timer-to-tick relation. hrtimer
# expires/softexpires/now (ns) move with the timestamps. HZ is estimated from
# the source (jiffies against timestamps, nearest of 100/250/300/1000).
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:?usage: gen-big-trace.sh OUT [SIZE] [SOURCE]}
size=${2:-1G}
src=${3:-tests/data/measured-network-quiet.txt.gz}

case $size in
  *[Kk]) bytes=$(( ${size%?} * 1024 )) ;;
  *[Mm]) bytes=$(( ${size%?} * 1024 * 1024 )) ;;
  *[Gg]) bytes=$(( ${size%?} * 1024 * 1024 * 1024 )) ;;
  *[!0-9]*|'') echo "gen-big-trace.sh: bad size '$size'" >&2; exit 2 ;;
  *) bytes=$size ;;
esac
[ -f "$src" ] || { echo "gen-big-trace.sh: no source trace $src" >&2; exit 2; }
cat_src() { case $src in *.gz) zcat -- "$src" ;; *) cat -- "$src" ;; esac; }
{ cat_src 2>/dev/null || true; } | head -c 4096 | grep -q '^# tracer:' ||
  echo "gen-big-trace.sh: warning: $src has no '# tracer:' header; expecting raw ftrace text" >&2
mkdir -p "$(dirname "$out")"

# mawk/gawk: numbers are doubles, exact below 2^53 - far above any jiffies
# or ns value here. Printed with %.0f, never %d (32-bit in old awks).
awk -v want="$bytes" '
function shift_fields(s, key, delta,    out, re, v) {
	# Adds DELTA to every " KEY=NUMBER" in S: the key a whole word, so that
	# "expires" leaves softexpires= alone (else it moved twice, and
	# hrtimer_start lines came out with softexpires past expires).
	out = ""
	re = " " key "=[0-9]+"
	while (match(s, re)) {
		v = substr(s, RSTART + length(key) + 2, RLENGTH - length(key) - 2) + delta
		out = out substr(s, 1, RSTART - 1) " " key "=" sprintf("%.0f", v)
		s = substr(s, RSTART + RLENGTH)
	}
	return out s
}
function field(s, key,    m) {
	if (!match(s, "(^| )" key "=[0-9]+"))
		return ""
	m = substr(s, RSTART, RLENGTH)
	sub(/^ /, "", m)
	return substr(m, length(key) + 2) + 0
}
function note_jiffies(j) {
	if (j == "")
		return
	if (first_j == "" || j < first_j) first_j = j
	if (last_j == "" || j > last_j) last_j = j
}
/^#/ {
	if (n == 0) header = header $0 "\n"
	next
}
{
	if (!match($0, / [0-9]+\.[0-9]+: /)) {
		bad++
		next
	}
	n++
	head[n] = substr($0, 1, RSTART)
	t = substr($0, RSTART + 1, RLENGTH - 3)
	split(t, p, ".")
	scale[n] = length(p[2])
	ts[n] = p[1] * 10 ^ scale[n] + p[2]
	rest[n] = substr($0, RSTART + RLENGTH - 1)
	bytes_per_copy += length($0) + 1
	if (rest[n] ~ /^ timer_/) {
		kind[n] = "j"
		if (rest[n] ~ /^ timer_start:/) {
			note_jiffies(field(rest[n], "expires") - (match(rest[n], /\[timeout=-?[0-9]+\]/) ? substr(rest[n], RSTART + 9, RLENGTH - 10) : 0))
		} else if (rest[n] ~ /^ timer_expire_entry:/) {
			note_jiffies(field(rest[n], "now"))
		}
	} else if (rest[n] ~ /^ hrtimer_/) {
		kind[n] = "n"
	}
}
END {
	if (n == 0 || first_j == "") {
		print "gen-big-trace.sh: no timer events with jiffies in the source" > "/dev/stderr"
		exit 1
	}
	us = 10 ^ scale[1]
	span_s = (ts[n] - ts[1]) / us
	span_j = last_j - first_j + 1
	hz = span_s > 0 ? span_j / span_s : 250
	best = 100
	split("100 250 300 1000", cands, " ")
	for (i in cands)
		if ((hz - cands[i]) ^ 2 < (hz - best) ^ 2)
			best = cands[i]
	hz = best
	# Whole seconds, so that both shifts are exact.
	secs = int(span_j / hz) + 1
	if (secs <= span_s)
		secs = int(span_s) + 1
	shift_j = secs * hz
	copies = int((want + bytes_per_copy - 1) / bytes_per_copy)
	printf "gen-big-trace.sh: %d events x %d copies, HZ %d, %d s / %d jiffies per copy\n", n, copies, hz, secs, shift_j > "/dev/stderr"
	printf "%s", header
	for (c = 0; c < copies; c++) {
		dts = c * secs * us
		dj = c * shift_j
		dns = c * secs * 1000000000
		for (i = 1; i <= n; i++) {
			t = ts[i] + dts
			sec = int(t / us)
			r = rest[i]
			if (c > 0 && kind[i] == "j") {
				r = shift_fields(r, "expires", dj)
				r = shift_fields(r, "now", dj)
				r = shift_fields(r, "baseclk", dj)
				r = shift_fields(r, "bucket_expiry", dj)
			} else if (c > 0 && kind[i] == "n") {
				r = shift_fields(r, "expires", dns)
				r = shift_fields(r, "softexpires", dns)
				r = shift_fields(r, "now", dns)
			}
			printf "%s%.0f.%0*.0f:%s\n", head[i], sec, scale[i], t - sec * us, r
		}
	}
}
' <(cat_src) >"$out"
ls -l "$out" | awk '{ printf "gen-big-trace.sh: wrote %s (%.1f MiB)\n", $NF, $5 / 1048576 }' >&2
