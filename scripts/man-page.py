#!/usr/bin/python3
"""timersim.1, the manual page, made from the command line's own help: the
program's `--help` and `--version`, then every subcommand's `--help` (and
their subcommands', e.g. `lab check`), found in the "Subcommands:" section
of each help text. One definition of every option (tools/cmd_*.cc) thus
gives the parser, --help, docs/replay.md's tables and this page.

Usage: man-page.py TIMERSIM > timersim.1      (`make install` runs it)

The help texts go in as preformatted blocks (CLI11's two columns, the long
descriptions wrapped at 72 columns under their column), escaped for roff:
backslashes, leading dots and quotes, and every '-' as a minus sign so that
options copied from the page are the ASCII ones. No date: the same binary
gives the same page.
"""
import re
import subprocess
import sys
import textwrap

WIDTH = 72          # the page indents by 7: 79 columns on a terminal of 80


def run(binary, args):
    try:
        r = subprocess.run([binary] + args, capture_output=True, text=True, timeout=60)
    except OSError as e:
        sys.exit("man-page: cannot run %s: %s" % (binary, e.strerror))
    if r.returncode != 0:
        sys.exit("man-page: %s %s failed: %s" % (binary, " ".join(args), r.stderr.strip()))
    return r.stdout


def subcommands(help_text):
    """The subcommand names of a help text's "Subcommands:" section."""
    names, inside = [], False
    for line in help_text.splitlines():
        if line.strip() == "Subcommands:":
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            m = re.match(r"^  (\S+)\s", line)
            if m:
                names.append(m.group(1))
    return names


def wrap(line):
    """One help line, wrapped at WIDTH: an option's description continues
    under its description column."""
    if len(line) <= WIDTH:
        return [line]
    m = re.match(r"^(\s+\S.*?\s{2,})(\S.*)$", line)
    if m and len(m.group(1)) < WIDTH // 2:
        head, body = m.groups()
    else:
        head = re.match(r"^\s*", line).group(0)
        body = line[len(head):]
    return textwrap.wrap(body, WIDTH, initial_indent=head, subsequent_indent=" " * len(head),
                         break_on_hyphens=False, break_long_words=False) or [line]


def roff_text(text):
    """Text for a roff line: backslashes and minus signs escaped."""
    return text.replace("\\", "\\e").replace("-", "\\-")


def block(help_text):
    out = [".nf"]
    for line in help_text.rstrip("\n").splitlines():
        for piece in wrap(line.rstrip()):
            piece = roff_text(piece)
            # A line starting with . or ' would be a roff request.
            out.append("\\&" + piece if piece.startswith((".", "'")) else piece)
    out.append(".fi")
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: man-page.py TIMERSIM > timersim.1")
    binary = sys.argv[1]
    top = run(binary, ["--help"])
    version = run(binary, ["--version"]).strip()
    summary = top.splitlines()[0] if top.strip() else "timer-wheel simulator"
    summary = re.sub(r"^timersim:\s*", "", summary)

    page = [
        '.TH TIMERSIM 1 "" "%s" "User Commands"' % roff_text(version),
        ".SH NAME",
        "timersim \\- " + roff_text(summary),
        ".SH SYNOPSIS",
        ".B timersim",
        ".I COMMAND",
        "[\\fIoptions\\fR] [\\fIarguments\\fR]",
        ".br",
        ".B timersim",
        ".I COMMAND",
        ".B \\-\\-help",
        ".SH DESCRIPTION",
    ]
    page += block("\n".join(top.splitlines()[1:]).strip("\n"))
    page += [".SH COMMANDS"]
    todo = [[name] for name in subcommands(top)]
    while todo:
        path = todo.pop(0)
        text = run(binary, path + ["--help"])
        page += ['.SS "timersim %s"' % roff_text(" ".join(path))]
        page += block(text)
        todo[0:0] = [path + [name] for name in subcommands(text)]
    page += [
        ".SH EXIT STATUS",
        "0 on success; 2 for bad input or usage (a message names the file, line",
        "or option and what is wrong); 1 when an output cannot be written.",
        ".SH FILES",
        ".TP",
        ".I ../share/timersim/plot.py",
        "beside the binary's folder (PREFIX/share/timersim): the script",
        ".B timersim plot",
        "runs (python3\\-matplotlib);",
        ".I plot\\-sweep.py",
        "there draws a merged sweep CSV.",
        ".SH SEE ALSO",
        "The README.md of the timersim sources, and",
        ".BR trace\\-cmd (1).",
    ]
    sys.stdout.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
