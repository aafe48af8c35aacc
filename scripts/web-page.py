#!/usr/bin/python3
"""Assembles the browser lab's page (make web): tools/web/index.html with
its style, script, the lab's wasm module (emscripten's JavaScript with the
wasm inside) and the handbook pages (docs/lab/*.md, the student's: never
docs/lab/instructor) inline, into OUT_DIR/index.html -- one file that works
opened from disk (file://, nothing fetched) or from any static host.

    scripts/web-page.py MODULE.js OUT_DIR

Written to a temporary name and renamed: a failed run leaves no page.
"""
import json
import os
import re
import sys

# The handbook as the page lists it: the front page, then the labs in order.
HANDBOOK = ["README.md", "01-placement.md", "02-cascades.md", "03-networking.md",
            "04-the-4.8-trade.md", "05-your-trace.md", "06-hrtimers.md"]
BUDGET = 3 * 1000 * 1000  # the page and its wasm, bytes


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def script_safe(text):
    # Inside <script>, "</script" (any case) would end the element.
    return re.sub(r"</(script)", r"<\\/\1", text, flags=re.IGNORECASE)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: scripts/web-page.py MODULE.js OUT_DIR")
    module, out_dir = sys.argv[1], sys.argv[2]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    web = os.path.join(root, "tools", "web")
    pages = []
    for name in HANDBOOK:
        text = read(os.path.join(root, "docs", "lab", name))
        title = text.split("\n", 1)[0].lstrip("# ").strip()
        pages.append({"name": name, "title": title, "text": text})
    page = read(os.path.join(web, "index.html"))
    parts = {
        "/*STYLE*/": read(os.path.join(web, "lab.css")),
        "/*HANDBOOK*/": script_safe(json.dumps(pages, ensure_ascii=False)),
        "/*MODULE*/": script_safe(read(module)),
        "/*SCRIPT*/": script_safe(read(os.path.join(web, "lab.js"))),
    }
    for mark, text in parts.items():
        if page.count(mark) != 1:
            sys.exit("web-page.py: %s must be in tools/web/index.html once" % mark)
        page = page.replace(mark, text)
    # No instructor material: a line of docs/lab/instructor (one long
    # enough to be its own) that the student's pages do not have too.
    student = "\n".join(p["text"] for p in pages)
    guide = os.path.join(root, "docs", "lab", "instructor")
    for dirpath, _, files in os.walk(guide):
        for name in files:
            if not name.endswith((".md", ".txt")):
                continue
            for line in read(os.path.join(dirpath, name)).splitlines():
                line = line.strip()
                if len(line) >= 40 and line not in student and line in page:
                    sys.exit("web-page.py: the page holds a line of %s: %r" % (os.path.join(dirpath, name), line))
    data = page.encode("utf-8")
    if len(data) > BUDGET:
        sys.exit("web-page.py: the page is %d bytes, over its budget of %d" % (len(data), BUDGET))
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "index.html")
    with open(out + ".tmp", "wb") as f:
        f.write(data)
    os.replace(out + ".tmp", out)
    print("  PAGE  %s (%d bytes; budget %d)" % (out, len(data), BUDGET))


main()
