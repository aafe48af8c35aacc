#!/usr/bin/env bash
# Writes tests/data/report-digests.txt: the SHA-256 of every report the
# binary BIN writes for the commands below (each bundled and shared trace,
# in every format, text and JSON, replay and compare, the side outputs).
# tests/unit/test_report_digests.cc runs the same commands and compares.
# Run it (`make report-digests`) when a change means to change a report;
# the file's diff then names the reports that changed.
#
#   scripts/report-digests.sh BIN > tests/data/report-digests.txt
set -euo pipefail
bin=${1:?usage: report-digests.sh BIN}
[ -d ../shared/traces ] || { echo "report-digests.sh: ../shared/traces is absent: the shared traces' digests cannot be written" >&2; exit 2; }

D=tests/data S=../shared/traces
text_traces=($D/default-trace.txt.gz $D/busy-idle-trace.txt.gz $D/network-trace.txt.gz
	$D/measured-idle.txt.gz $D/measured-network.txt.gz $D/measured-network-quiet.txt.gz
	$D/sleep-net.txt.gz $D/sleep-net.perf-script.txt.gz $D/sleep-net.trace-cmd-report.txt.gz
	$D/idle-nohz.txt.gz $D/load.txt.gz
	$S/linux-6.18-http/trace.txt $S/linux-6.18-http/trace-cmd-report.txt
	$S/linux-6.18-tcp/perf-script.txt $S/linux-3.6-scp_dest/trace.txt)
binary_traces=($D/sleep-net.dat $S/linux-6.18-http/trace.dat $S/linux-3.6-scp_dest/ctf)

commands=()
for t in "${text_traces[@]}" "${binary_traces[@]}"; do
	commands+=("replay $t" "replay --json - $t" "replay --scheme auto --ticks every-jiffy $t"
		   "compare $t")
done
# The side outputs and options, on one recording of each kernel.
for t in $D/measured-network-quiet.txt.gz $S/linux-3.6-scp_dest/trace.txt; do
	commands+=("replay --scheme auto --drain --top 20 $t"
		   "replay --timeline - --interval 1s $t"
		   "replay --perfetto - $t"
		   "replay --expiry-log - $t"
		   "replay --what-if-hz 1000 $t"
		   "replay --json - --what-if-hz 100 $t"
		   "compare --json - $t")
done
commands+=("replay --cost-model docs/results/cost-model/model.json $D/measured-network.txt.gz"
	   "replay --json - --cost-model docs/results/cost-model/model.json $D/measured-idle.txt.gz"
	   "replay --why 0@15130.5 $D/measured-network-quiet.txt.gz"
	   "replay --what-if-hr-slack 2ms $D/load.txt.gz"
	   "replay --what-if-kernel 7.1 $S/linux-6.18-http/trace.txt")

echo "# SHA-256 of each report: \`timersim ARGS\`'s standard output. Written by"
echo "# scripts/report-digests.sh (make report-digests), checked by tests/unit/test_report_digests.cc."
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for c in "${commands[@]}"; do
	# shellcheck disable=SC2086
	out=$("$bin" $c 2>"$err" | sha256sum) || { cat "$err" >&2; echo "report-digests.sh: timersim $c failed" >&2; exit 1; }
	echo "${out%% *}  $c"
done
