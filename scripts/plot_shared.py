"""What plot.py and plot-sweep.py share: reading a CSV in bounded lines,
drawing a name as plain text, and Student's t for the 95% intervals. `make install` puts it beside them in
share/timersim, where Python finds it (a script's own folder is on its path).

Each script words its own refusals: bounded_lines() says only which rule a
line broke, by the exception it raises.
"""


class line_too_long(Exception):
    def __init__(self, line):
        super().__init__(line)
        self.line = line


class file_too_large(Exception):
    def __init__(self, line):
        super().__init__(line)
        self.line = line


class not_utf8(Exception):
    def __init__(self, line, byte):
        super().__init__(line, byte)
        self.line = line
        self.byte = byte        # of the line, from 1


def bounded_lines(fh, line_limit, file_limit):
    """The lines of the binary file FH, decoded, each at most LINE_LIMIT and
    all at most FILE_LIMIT bytes: read no further than that, so a huge or
    binary file is refused before it fills the memory."""
    total, n = 0, 0
    while True:
        raw = fh.readline(line_limit + 1)
        if not raw:
            return
        n += 1
        total += len(raw)
        if len(raw) > line_limit:
            raise line_too_long(n)
        if total > file_limit:
            raise file_too_large(n)
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise not_utf8(n, e.start + 1)


def plain(text, limit):
    """A name as drawn: one line (control characters as '?'), cut with an
    ellipsis, and every `$` escaped - names come from traces, and
    `$\\frac{a}{$` is a callback's name, not a formula for mathtext (which
    the log-scale tick labels need, so it stays on)."""
    text = "".join(ch if ch.isprintable() else "?" for ch in str(text))
    if len(text) > limit:
        text = text[:limit - 1] + "\u2026"
    return text.replace("$", "\\$")


# t(0.975, df) for df = 1..30 (scipy.stats.t.ppf); the Cornish-Fisher series
# beyond, as `timersim merge --summary` computes it (sim/sweep/summary.cc).
T95 = [12.706204736432, 4.302652729911, 3.182446305284, 2.776445105198, 2.570581836615,
       2.446911848792, 2.364624251010, 2.306004135033, 2.262157162741, 2.228138851965,
       2.200985160083, 2.178812829663, 2.160368656461, 2.144786687917, 2.131449545559,
       2.119905299221, 2.109815577833, 2.100922040241, 2.093024054408, 2.085963447266,
       2.079613844728, 2.073873067904, 2.068657610419, 2.063898561628, 2.059538552753,
       2.055529438643, 2.051830516480, 2.048407141795, 2.045229642133, 2.042272456301]


def t95(df):
    if df <= 30:
        return T95[df - 1]
    z = 1.959963984540054
    g = [(z**3 + z) / 4, (5 * z**5 + 16 * z**3 + 3 * z) / 96, (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384,
         (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160]
    return z + sum(gi / df ** (i + 1) for i, gi in enumerate(g))
