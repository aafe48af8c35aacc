"""The report objects timersim.replay() and timersim.compare() return: the
CLI's JSON report (as_dict(), key for key) and views of its tables, as
pandas DataFrames when pandas is installed, else lists of dicts. A view
only selects and flattens what the JSON holds: no figure is computed here.
"""
import copy
import io


def _pandas():
    try:
        import pandas
    except ImportError:
        return None
    return pandas


def _flat(row, prefix=""):
    """A row's nested dicts as columns "outer_inner" (one level of tables)."""
    out = {}
    for key, value in row.items():
        if isinstance(value, dict):
            out.update(_flat(value, prefix + key + "_"))
        else:
            out[prefix + key] = value
    return out


def table(rows, summary=None):
    """Rows (dicts, nested ones flattened) as a DataFrame, or as the list of
    flat dicts without pandas. `summary`: the scalar fields of the object
    the rows came from, as the DataFrame's attrs."""
    flat = [_flat(r) for r in rows or []]
    pandas = _pandas()
    if pandas is None:
        return flat
    df = pandas.DataFrame(flat)
    if summary:
        df.attrs = {k: v for k, v in summary.items() if not isinstance(v, (list, dict))}
    return df


class Report:
    """One replay: the CLI's JSON report and its tables."""

    def __init__(self, report, args):
        self._d = report
        self._args = list(args)

    def as_dict(self):
        """The CLI's JSON report of the same replay (a copy)."""
        return copy.deepcopy(self._d)

    def __getitem__(self, key):
        return self._d[key]

    def keys(self):
        return self._d.keys()

    @property
    def what_if(self):
        """With what_if_hz: the what-if's report (and .recorded the
        recording's), as Report objects."""
        return Report(self._d["what_if"], self._args) if "what_if" in self._d else None

    @property
    def recorded(self):
        return Report(self._d["recorded"], self._args) if "recorded" in self._d else None

    def _main(self):
        # A what-if report's tables are the what-if side's (the CLI's other
        # outputs follow it too).
        return self._d.get("what_if", self._d)

    @property
    def callbacks(self):
        """One row per callback function: started, canceled, expired, moved,
        the work units in process context and in the softirq, wakeups, and
        the measured time where the trace recorded it (JSON "functions")."""
        return table(self._main().get("functions"))

    @property
    def cpus(self):
        """One row per CPU: the measured softirq runs and timer interrupts
        (measured.cpus) beside the hrtimer model's interrupts (hrtimers.cpus)."""
        d = self._main()
        by_cpu = {}
        for r in (d.get("measured") or {}).get("cpus") or []:
            by_cpu.setdefault(r["cpu"], {}).update(_flat(r))
        for r in (d.get("hrtimers") or {}).get("cpus") or []:
            row = by_cpu.setdefault(r["cpu"], {"cpu": r["cpu"]})
            row.update({("cpu" if k == "cpu" else "hrtimer_" + k): v for k, v in _flat(r).items()})
        return table([by_cpu[c] for c in sorted(by_cpu)])

    @property
    def measured(self):
        """What the trace measured, per callback function (measured.callbacks);
        the DataFrame's attrs hold the scalar fields of "measured"."""
        m = self._main().get("measured") or {}
        return table(m.get("callbacks"), m)

    @property
    def hrtimers(self):
        """The hrtimer model per callback function (hrtimers.callbacks);
        attrs: the scalar fields of "hrtimers"."""
        h = self._main().get("hrtimers") or {}
        return table(h.get("callbacks"), h)

    @property
    def fidelity(self):
        """The simulated expiries against the recorded ones per callback
        function (fidelity_by_function); attrs: the totals of "fidelity"."""
        d = self._main()
        return table(d.get("fidelity_by_function"), d.get("fidelity"))

    @property
    def time(self):
        """What the timer code cost per callback, ns (time.callbacks; a cell's
        ns, modelled, low_ns, high_ns as columns "total_ns", ...); attrs: the
        start price and the trace's span."""
        t = self._main().get("time") or {}
        return table(t.get("callbacks"), t)

    @property
    def time_per_second(self):
        """The same per second and CPU (time.per_second): measured_ns and its
        parts, modelled_ns with modelled_low_ns/_high_ns and its parts."""
        return table((self._main().get("time") or {}).get("per_second"))

    def timeline(self, interval=None):
        """The replay's timeline (`--timeline`): one row per CPU and tick, or
        per CPU and interval (N jiffies, or a duration like "10ms", "1s").
        Replays the trace again with the same options."""
        from . import run
        args = [a for a in self._args]
        args += ["--timeline", "-"] + (["--interval", str(interval)] if interval is not None else [])
        text = run(*args)
        pandas = _pandas()
        if pandas is None:
            import csv
            from . import _number
            return [{k: _number(v) for k, v in r.items()} for r in csv.DictReader(io.StringIO(text))]
        return pandas.read_csv(io.StringIO(text))

    def __repr__(self):
        d = self._main()
        return "<timersim.Report {} scheme={} events={}>".format(
            d.get("input", {}).get("path"), d.get("scheme", {}).get("name"), d.get("input", {}).get("events"))


class Comparison:
    """One trace through several schemes: the CLI's compare JSON."""

    def __init__(self, report, args):
        self._d = report
        self._args = list(args)

    def as_dict(self):
        return copy.deepcopy(self._d)

    def __getitem__(self, key):
        return self._d[key]

    @property
    def reports(self):
        """Each scheme's report, in the CLI's order."""
        return [Report(s, self._args) for s in self._d.get("schemes", [])]

    @property
    def schemes(self):
        """One row per scheme: its name, the timers, cascade and cost counts
        and the work units (the compare table's columns, from the same JSON)."""
        rows = []
        for s in self._d.get("schemes", []):
            row = {"scheme": s["scheme"]["name"]}
            for part in ("timers", "costs"):
                row.update(_flat(s.get(part) or {}, part + "_"))
            work = s.get("work") or {}
            for ctx in ("process", "softirq"):
                row[ctx + "_units"] = (work.get(ctx) or {}).get("units")
            row["softirq_runs"] = work.get("runs")
            row["cascade_moved"] = (s.get("cascade") or {}).get("moved_total")
            for k, v in s.items():
                if k not in ("input", "scheme") and not isinstance(v, (dict, list)):
                    row[k] = v
            rows.append(row)
        return table(rows)

    def __repr__(self):
        return "<timersim.Comparison {}>".format(
            [s["scheme"]["name"] for s in self._d.get("schemes", [])])
