"""The classic vs v48 figures of docs/results, from merged sweep CSVs: the
one place that pairs a cell of classic with its v48 twin and computes
their ratio and its interval. The table (results-table.py), the prose
numbers (results-readme.py), the headline figure (results-figure.py) and
the one-cell command (results-cell.py) all call it, so none can disagree
with another.

The figure per cell is the sweep's `softirq_ns`: the timer softirq's own
overhead in ns over the whole input, measured where the recording kernel
ran that scheme and recorded its softirq runs (`softirq_ns_is` =
measured), else modelled by the replay's own cost model (`softirq_model`:
self-calibrated on the recording's runs, or the built-in reference), with
its interval (`softirq_ns_lo`/`_hi`).

The ratio's interval: where both sides are modelled, one model priced
both (the same recording's, or the reference), so an error in its level
is common to both and cancels; what does not cancel is how its held-out
fits disagree on the mix of terms. Each fit prices both sides
(`modelled_softirq_ns_folds`: self-calibrated, the 5 fits each with one
stretch of the recording held out; the reference, the 8 fits each with
one recording left out), and the interval is the range of their ratios.
Where one side is measured, nothing cancels: the modelled side's interval
over the measured figure.
"""
import csv
from collections import OrderedDict


def load(paths):
    rows = []
    for p in paths:
        with open(p, newline="") as f:
            rows += list(csv.DictReader(f))
    return rows


def num(v):
    return None if v in ("", None) else float(v)


class Pair:
    """One input (a recording, or a workload at one HZ and scale) and way of
    treating its expiries, classic and v48 side by side."""

    def __init__(self, key, classic, v48):
        self.key = key
        self.c = classic
        self.v = v48

    @property
    def kind(self):
        return self.c["input_kind"]

    @property
    def name(self):
        if self.kind == "trace":
            return self.c["input"].split("traces/")[-1].split("data/")[-1]
        return "webserver"

    @property
    def expiries(self):
        return self.c["expiries"]

    def ns(self, side):
        r = self.c if side == "classic" else self.v
        return num(r["softirq_ns"]), num(r["softirq_ns_lo"]), num(r["softirq_ns_hi"])

    def measured(self, side):
        r = self.c if side == "classic" else self.v
        return r["softirq_ns_is"] == "measured"

    def model(self, side):
        """Which model priced SIDE's figure: measured, self-calibrated, reference, file."""
        r = self.c if side == "classic" else self.v
        return "measured" if self.measured(side) else r.get("softirq_model", "")

    @property
    def modelled_by(self):
        """The model of the row's modelled figures (both sides share one)."""
        return self.c.get("softirq_model") or self.v.get("softirq_model") or ""

    def folds(self, side):
        r = self.c if side == "classic" else self.v
        f = r.get("modelled_softirq_ns_folds") or ""
        return [float(x) for x in f.split(";")] if f else []

    def ratio(self):
        """classic / v48: (point, low, high); None without the figures."""
        c, clo, chi = self.ns("classic")
        v, vlo, vhi = self.ns("v48")
        if None in (c, clo, chi, v, vlo, vhi) or not v or not vlo or not vhi:
            return None
        fc, fv = self.folds("classic"), self.folds("v48")
        if (not self.measured("classic") and not self.measured("v48") and fc and len(fc) == len(fv)
                and all(fv)):
            rs = [a / b for a, b in zip(fc, fv)] + [c / v]
            return c / v, min(rs), max(rs)
        return c / v, clo / vhi, chi / vlo


def pairs(rows):
    groups = OrderedDict()
    for r in rows:
        key = (r["input_kind"], r["input"], r["recorded_hz"], r["hz"], r["cpus"], r["scale"], r["seed"], r["expiries"])
        groups.setdefault(key, {})[r["scheme"]] = r
    return [Pair(k, by["classic"], by["v48"]) for k, by in groups.items() if "classic" in by and "v48" in by]


def ms(ns):
    return f"{ns / 1e6:,.2f}"


def ns_text(pair, side):
    x, lo, hi = pair.ns(side)
    if x is None:
        return "-"
    if pair.measured(side):
        return f"{ms(x)} measured"
    return f"{ms(x)} ({ms(lo)}-{ms(hi)})"


def cell_line(pair):
    """What scripts/results-cell.py prints for a cell (README shows it too)."""
    return (f"{pair.name} ({pair.expiries} expiries): classic / v48 {ratio_text(pair, bold=False)}; "
            f"classic {ns_text(pair, 'classic')} ms, v48 {ns_text(pair, 'v48')} ms")


def ratio_text(pair, bold=True):
    r = pair.ratio()
    if r is None:
        return "-"
    x, lo, hi = r
    point = f"{x:.2f}x"
    return f"{'**' + point + '**' if bold else point} ({lo:.2f}-{hi:.2f})"
