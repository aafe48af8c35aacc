"""timersim from Python: replay recorded Linux timer traces through timer
schemes and read what they cost as dicts, lists and pandas DataFrames.

    import timersim
    r = timersim.replay("trace.txt.gz", scheme="classic")
    r.callbacks            # one row per callback function (DataFrame)
    r.as_dict()            # the CLI's JSON report, key for key

Every figure comes from the command line's own code, run in this process
(timersim._core): replay() parses the options `timersim replay` parses,
runs the same replay and renders the report with the same JSON writer; this
module parses that JSON. So a report here is never a second implementation
of one the CLI prints. Errors raise timersim.Error subclasses carrying the
message the CLI prints after "timersim: " (an InputError names the file and
line or offset).

Options: a keyword argument is the CLI option of the same name, underscores
for dashes (what_if_hz=100 is --what-if-hz 100); True gives a flag, False
or None leaves the option out, a list or tuple repeats it. `timersim replay
--help` (or timersim.run("replay", "--help")) lists them.
"""
import json
import os
import sys

# libtracecmd and libtraceevent, loaded when a trace.dat first needs them,
# must find the hooks this module defines (sim/trace/libtracecmd_hooks.cc)
# before their own functions, as the executable's exported ones are: the
# module joins the global symbol scope.
_flags = sys.getdlopenflags()
sys.setdlopenflags(_flags | os.RTLD_GLOBAL)
try:
    from . import _core
finally:
    sys.setdlopenflags(_flags)

from .report import Report, Comparison, table  # noqa: E402

__all__ = ["replay", "compare", "events", "sweep", "merge", "read_sweep", "run",
           "Report", "Comparison", "Error", "UsageError", "InputError", "OutputError"]


class Error(Exception):
    """What the CLI reports as `timersim: MESSAGE` (exit status 1 or 2)."""

    def __init__(self, message, status):
        super().__init__(message)
        self.message = message
        self.status = status


class UsageError(Error, ValueError):
    """A bad option, scheme name or parameter (the CLI's exit status 2)."""


class InputError(Error, ValueError):
    """Bad input: `file`, `line` (0 when the place is a byte offset) and
    `reason`; str() is the CLI's "FILE:LINE: reason"."""

    def __init__(self, message, file, line, reason):
        super().__init__(message, 2)
        self.file = file
        self.line = line
        self.reason = reason


class OutputError(Error, OSError):
    """Writing an output failed (the CLI's exit status 1)."""


def _raise(failure):
    if failure is None or not failure[0]:
        return
    kind, message, file, line, reason = failure
    if kind == "input":
        raise InputError(message, file, line, reason)
    if kind == "usage":
        raise UsageError(message, 2)
    if kind == "output":
        raise OutputError(message, 1)
    if kind == "memory":
        raise MemoryError(message)
    raise Error(message, 1)


def options(**kw):
    """Keyword arguments as the CLI's options (see the module's help)."""
    args = []
    for key, value in kw.items():
        if value is None or value is False:
            continue
        name = "--" + key.replace("_", "-")
        if value is True:
            args.append(name)
        elif isinstance(value, (list, tuple)):
            for v in value:
                args += [name, str(v)]
        else:
            args += [name, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return args


def run(*args, capture=True):
    """`timersim ARGS...` in this process; returns what it printed on
    standard output (str). Raises Error as the CLI would exit non-zero.
    What it printed on standard error goes to sys.stderr. With
    capture=False the command prints where the process prints."""
    status, out, err, failure = _core.run([os.fspath(a) for a in args], capture)
    if err:
        sys.stderr.write(err.decode("utf-8", "replace"))
    _raise(failure)
    if status != 0:
        raise Error(f"timersim {args[0] if args else ''} exited with status {status}", status)
    return out.decode("utf-8", "replace")


def replay(path, scheme=None, ticks=None, cost_model=None, what_if_hz=None, **kw):
    """One trace through one scheme: `timersim replay PATH --json -`.
    scheme: a name (`timersim --list-schemes`) or None for the recording
    kernel's own; ticks: the tick model (--ticks); cost_model: a model file
    (--cost-model, docs/results/cost-model/); what_if_hz: replay as if
    recorded at that HZ (the report is then the what-if side by side with
    the recording, as the CLI's). Any other CLI option as a keyword."""
    args = ["replay", os.fspath(path)] + options(scheme=scheme, ticks=ticks, cost_model=cost_model,
                                                 what_if_hz=what_if_hz, **kw)
    return Report(json.loads(run(*args, "--json", "-")), args)


def compare(path, schemes=None, **kw):
    """The same trace through each scheme: `timersim compare PATH --json -`.
    schemes: a list of names (or a comma-separated string; None: the CLI's
    default set)."""
    if schemes is not None and not isinstance(schemes, str):
        schemes = ",".join(schemes)
    args = ["compare", os.fspath(path)] + options(schemes=schemes, **kw)
    return Comparison(json.loads(run(*args, "--json", "-")), args)


def events(path, **kw):
    """The events of a trace as the replay reads them, one dict each: kind
    (timer_start, hrtimer, softirq_entry, ...), name (the event as recorded),
    cpu, ns (timestamp), line (line or record number), timer, function, and
    the fields of the kind (expires, now, timeout, target_cpu, idx,
    bucket_expiry, baseclk, flags, hrtimer, softexpires, mode, clockid, vec,
    irq, timer_interrupt, ...). Every reader: text, trace-cmd report, perf
    script, trace.dat, CTF. Options: the reading ones of `timersim replay`
    (format=, lenient=True, symbols=, own_expiries=True). Lines that are not
    events are skipped, as by the replay. Raises InputError as the CLI
    would, after the events read before the bad line."""
    it = _core.Events([os.fspath(path)] + options(**kw))
    _raise(it.failure())
    yield from it
    _raise(it.failure())


def sweep(spec, jobs=None, **kw):
    """Runs a sweep spec's cells not done yet (`timersim sweep SPEC`), in
    processes of its own; prints its progress where the process prints.
    Returns the merged results (merge(spec)). A cell's key names this
    module as the program, so cells a `timersim` binary ran are run again."""
    run("sweep", os.fspath(spec), *options(jobs=jobs, **kw), capture=False)
    return merge(spec)


def merge(spec, summary=False, **kw):
    """A sweep's results (`timersim merge SPEC`): a DataFrame when pandas is
    installed, else a list of dicts; summary=True: one row per group of
    seeds with means and 95% intervals (`merge --summary`)."""
    return _csv_table(run("merge", os.fspath(spec), *options(summary=summary, **kw), "-o", "-"))


def read_sweep(csv_path):
    """A merged sweep CSV written earlier (`timersim merge ... -o FILE`), as merge() returns it."""
    with open(csv_path, newline="") as f:
        return _csv_table(f.read())


def _csv_table(text):
    import csv
    import io
    try:
        import pandas
    except ImportError:
        return [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(io.StringIO(text))]
    return pandas.read_csv(io.StringIO(text))


def _number(v):
    for kind in (int, float):
        try:
            return kind(v)
        except ValueError:
            pass
    return v
