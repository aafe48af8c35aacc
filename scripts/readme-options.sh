#!/usr/bin/env bash
# Rewrites the option tables in docs/replay.md from the CLI's own definitions
# (`timersim options-table CMD`), between "<!-- options: CMD -->" and
# "<!-- end options -->". tests/unit/test_cli.cc checks they agree.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/timersim}
python3 - "$bin" <<'PY'
import re, subprocess, sys
bin = sys.argv[1]
text = open("docs/replay.md", encoding="utf-8").read()
def table(m):
    cmd = m.group(1)
    out = subprocess.run([bin, "options-table", cmd], check=True, capture_output=True, text=True).stdout
    return f"<!-- options: {cmd} -->\n{out}<!-- end options -->"
new = re.sub(r"<!-- options: (\S+) -->\n.*?<!-- end options -->", table, text, flags=re.S)
open("docs/replay.md", "w", encoding="utf-8").write(new)
PY
