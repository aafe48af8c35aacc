#!/usr/bin/python3
"""docs/results/README.md with its table replaced by a freshly made one.

    scripts/results-readme.py README.md TABLE.md COMMIT VERSION > NEW_README.md

The README holds the table between the lines `<!-- table: begin -->` and
`<!-- table: end -->`; what is between them is generated: a line naming the
commit and version whose code computed the numbers, then TABLE.md. Text
outside the markers is kept as written. scripts/results-check.sh compares
a regenerated README with the committed one, the commit line aside (it
names the commit that produced the numbers; every later commit must
compute the same).
"""
import sys

BEGIN, END = "<!-- table: begin -->", "<!-- table: end -->"
COMMIT_PREFIX = "Computed by `make results` with the code of commit"


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: results-readme.py README.md TABLE.md COMMIT VERSION")
    readme, table_path, commit, version = sys.argv[1:]
    text = open(readme).read()
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        sys.exit(f"results-readme.py: {readme}: needs one '{BEGIN}' line, then one '{END}' line")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    table = open(table_path).read().rstrip("\n")
    body = f"{BEGIN}\n{COMMIT_PREFIX} {commit} ({version}).\n\n{table}\n{END}"
    sys.stdout.write(head + body + tail)


if __name__ == "__main__":
    main()
