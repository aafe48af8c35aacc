#!/usr/bin/env bash
# The cost model of docs/results, from the recordings in tests/data:
#   scripts/cost-model.sh TIMERSIM [OUTDIR]
# fits `timersim cost-model` on the two quiet recordings of this project's
# machine (a network workload and an idle one), checks it on the network
# recording made under load, and, where ../shared has it, on the classic
# kernel's LTTng recording (linux-3.6-scp_dest), which it also fits alone:
# that kernel cascades, the 6.x ones never do. Writes into OUTDIR (default
# docs/results/cost-model): model.json (the model, for --cost-model),
# fit.txt and fit.json (coefficients and checks), classic.txt and
# classic.json (the classic kernel's own fit), reference.txt (the figures
# of the built-in reference model and its leave-one-out checks).
set -euo pipefail
timersim=${1:?usage: cost-model.sh TIMERSIM [OUTDIR]}
out=${2:-docs/results/cost-model}
data=tests/data
shared=${TIMERSIM_SHARED:-../shared}
classic=$shared/traces/linux-3.6-scp_dest/ctf
mkdir -p "$out"

checks=(--check "$data/measured-network.txt.gz")
[ -d "$classic" ] && checks+=(--check "$classic")
"$timersim" cost-model --fit "$data/measured-network-quiet.txt.gz" --fit "$data/measured-idle.txt.gz" \
	"${checks[@]}" -o "$out/model.json" --json "$out/fit.json" > "$out/fit.txt"
if [ -d "$classic" ]; then
	"$timersim" cost-model --fit "$classic" -o "$out/classic-model.json" --json "$out/classic.json" \
		> "$out/classic.txt"
else
	echo "cost-model: $classic is absent: the classic kernel's fit is not made" >&2
fi
# The built-in reference (sim/measured/reference_model.cc): its figures
# from every recording of this machine with softirq events, state-scaled,
# leave-one-out, and the classic recording's cascade terms.
refs=("$data/measured-network-quiet.txt.gz" "$data/measured-idle.txt.gz" "$data/measured-network.txt.gz"
      "$data/sleep-net.txt.gz" "$data"/calibration/loaded-{mixed,idle,network,busy-idle}.txt.gz)
[ -d "$classic" ] && refs+=("$classic")
"$timersim" cost-model --reference $(printf -- '--fit %s ' "${refs[@]}") > "$out/reference.txt"
echo "cost-model: $out/fit.txt, $out/reference.txt"
