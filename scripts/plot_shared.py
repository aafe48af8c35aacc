"""What plot.py and plot-sweep.py share: reading a CSV in bounded lines and
drawing a name as plain text. `make install` puts it beside them in
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
