#!/usr/bin/python3
"""docs/results/README.md, made from README.template.md: the table, and
every number of the prose, from the data the table is made of.

    scripts/results-readme.py TEMPLATE TABLE.md COMMIT VERSION SWEEP.csv... > README.md
    scripts/results-readme.py --check README.md TEMPLATE TABLE.md SWEEP.csv...

The template holds the prose with `{{name}}` where a number goes, and the
lines `<!-- table: begin -->` and `<!-- table: end -->`, between which the
table goes, after a line naming the commit and version whose code
computed it. The names are those numbers() computes, from the merged
sweep CSVs (through scripts/results_rows.py, as the table) and the cost
built-in reference model (cost-model/reference.txt): no number of the README is
typed by hand. A name numbers() does not compute is an error.

--check renders and compares with README.md (the commit line aside: it
names the commit that produced the numbers; every later commit must
compute the same): exit status 1 and the differing lines when one was
edited by hand. scripts/results-check.sh runs it on the regenerated data;
tests/python/test_results.py on the committed data.
"""
import difflib
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_rows as rr  # noqa: E402

BEGIN, END = "<!-- table: begin -->", "<!-- table: end -->"
COMMIT_PREFIX = "Computed by `make results` with the code of commit"
PLACE = re.compile(r"\{\{([a-z0-9_]+)\}\}")


def x(r):
    return f"{r:.2f}x"


def numbers(csvs):
    """Every number the prose states, by name."""
    pairs = rr.pairs(rr.load(csvs))
    ref_path = os.path.join(os.path.dirname(csvs[0]), "cost-model", "reference.txt")
    with open(ref_path) as f:
        ref = f.read()
    n = {}
    rec = [p for p in pairs if p.kind == "trace" and p.ratio()]
    gen = [p for p in pairs if p.kind == "workload" and p.ratio()]
    rec6 = [p for p in rec if p.c["kernel"].startswith("Linux 6") and p.expiries == "recorded"]
    rec6_own = [p for p in rec if p.c["kernel"].startswith("Linux 6") and p.expiries == "own"]
    old = [p for p in rec if not p.c["kernel"].startswith("Linux 6") and p.expiries == "recorded"]

    def span(ps, name):
        rs = sorted(p.ratio()[0] for p in ps)
        n[name + "_min"], n[name + "_max"] = x(rs[0]), x(rs[-1])
        n[name + "_n"] = str(len(rs))
        lows = sorted(p.ratio()[1] for p in ps)
        highs = sorted(p.ratio()[2] for p in ps)
        n[name + "_low_min"], n[name + "_high_max"] = f"{lows[0]:.2f}", f"{highs[-1]:.2f}"
        n[name + "_ge2"] = str(sum(r >= 2 for r in rs))
        n[name + "_lt1"] = str(sum(r < 1 for r in rs))

    span(rec6, "rec6")
    span(rec6_own, "rec6_own")
    span(gen, "gen")
    label = lambda p: f"HZ {p.c['hz']}, scale {float(p.c['scale']):g}"
    n["gen_max_at"] = label(max(gen, key=lambda p: p.ratio()[0]))
    n["gen_min_at"] = label(min(gen, key=lambda p: p.ratio()[0]))
    n["gen_near1"] = str(sum(p.ratio()[1] <= 1 <= p.ratio()[2] for p in gen))
    if old:
        n["old_name"] = old[0].name
        n["old_ratio"] = rr.ratio_text(old[0], bold=False)
    # The one-cell command's output for the shared HTTP recording, as
    # README shows it (scripts/results-cell.py prints rr.cell_line too).
    for p in rec:
        if p.name == "linux-6.18-http/trace.txt":
            n["cell_http_" + p.expiries] = rr.cell_line(p)
    n["rec_measured_n"] = str(sum(p.measured("v48") or p.measured("classic") for p in rec))
    n["rec_moves_max"] = f"{max(int(p.c['moved_total']) for p in rec):,}"
    n["gen_moves_max"] = f"{max(int(p.c['moved_total']) for p in gen):,}"
    n["gen_armings_max"] = f"{max(float(p.c['timers_started']) for p in gen) / 1e6:.1f} million"
    # Ticks: classic processes every jiffy, v48 only where a base is due.
    quiet = max(rec6, key=lambda p: float(p.c["ticks"]) / float(p.v["ticks"]))
    n["quiet_name"] = quiet.name
    n["quiet_ticks"] = f"{int(quiet.c['ticks']):,} / {int(quiet.v['ticks']):,}"
    n["quiet_ratio"] = x(quiet.ratio()[0])
    busy = min(rec6, key=lambda p: float(p.c["ticks"]) / float(p.v["ticks"]))
    n["busy_name"] = busy.name
    n["busy_ticks"] = f"{int(busy.c['ticks']):,} / {int(busy.v['ticks']):,}"
    n["busy_ratio"] = x(busy.ratio()[0])
    # Which model priced the recordings' modelled figures.
    recs = {p.c["input"] for p in rec}
    n["rec_n"] = str(len(recs))
    n["rec_self_n"] = str(len({p.c["input"] for p in rec if p.model("classic") == "self-calibrated"
                               or p.model("v48") == "self-calibrated"}))
    # The built-in reference (cost-model/reference.txt, what
    # `timersim cost-model --reference` prints of it).
    terms = re.search(r"f\.model\.ns = \{([^}]*)\}", ref).group(1).split(",")
    n["ref_run_ns"] = f"{float(terms[0]):,.0f}"
    n["ref_expiry_ns"] = f"{float(terms[1]):,.0f}"
    n["ref_state_us"] = re.search(r"ns per unit at a (\d+) us timer interrupt", ref).group(1)
    low = float(re.search(r"f\.low_ratio = ([-0-9.]+);", ref).group(1))
    high = float(re.search(r"f\.high_ratio = ([-0-9.]+);", ref).group(1))
    n["ref_low"], n["ref_high"] = f"{low:+.0%}", f"{high:+.0%}"
    return n


def render(template_text, table, commit, version, nums):
    if template_text.count(BEGIN) != 1 or template_text.count(END) != 1 or \
            template_text.index(BEGIN) > template_text.index(END):
        sys.exit(f"results-readme.py: the template needs one '{BEGIN}' line, then one '{END}' line")
    used = set(PLACE.findall(template_text))
    unknown = sorted(used - set(nums))
    if unknown:
        sys.exit("results-readme.py: the template names numbers nobody computes: " + ", ".join(unknown))
    text = PLACE.sub(lambda m: nums[m.group(1)], template_text)
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    body = f"{BEGIN}\n{COMMIT_PREFIX} {commit} ({version}).\n\n{table.rstrip(chr(10))}\n{END}"
    return head + body + tail


def strip_commit(text):
    return [l for l in text.splitlines() if not l.startswith(COMMIT_PREFIX)]


def main():
    args = sys.argv[1:]
    if args[:1] == ["--check"]:
        if len(args) < 5:
            sys.exit("usage: results-readme.py --check README.md TEMPLATE TABLE.md SWEEP.csv...")
        readme, template, table_path, csvs = args[1], args[2], args[3], args[4:]
        want = render(open(template).read(), open(table_path).read(), "", "", numbers(csvs))
        have = open(readme).read()
        diff = list(difflib.unified_diff(strip_commit(have), strip_commit(want), readme, "made from the data",
                                         lineterm="", n=0))
        if diff:
            print("\n".join(diff[:40]), file=sys.stderr)
            print(f"results-readme.py: {readme} differs from what {template} and the data make "
                  "(a number edited by hand? edit the template, then make results)", file=sys.stderr)
            sys.exit(1)
        return
    if len(args) < 5:
        sys.exit("usage: results-readme.py TEMPLATE TABLE.md COMMIT VERSION SWEEP.csv...")
    template, table_path, commit, version, csvs = args[0], args[1], args[2], args[3], args[4:]
    sys.stdout.write(render(open(template).read(), open(table_path).read(), commit, version, numbers(csvs)))


if __name__ == "__main__":
    main()
