"""docs/results never contradicts itself: the table and every number of the
README's prose follow from the committed CSVs (scripts/results-check.sh
--prose), a number edited by hand in the prose or the table fails that
check, the template types no result by hand, and the one-cell command the
README gives prints the table's figure for that cell. Run from the
checkout's top folder by scripts/run-tests.sh (make test)."""
import os
import re
import shutil
import subprocess
import tempfile
import unittest

R = "docs/results"
BIN = os.environ.get("TIMERSIM_BIN", "build/timersim")


def prose_check(d):
    return subprocess.run(["scripts/results-check.sh", "--prose", d], capture_output=True, text=True)


def copy_results(tmp):
    d = os.path.join(tmp, "results")
    os.makedirs(os.path.join(d, "cost-model"))
    for f in ("README.md", "README.template.md", "table.md", "recordings.csv", "generated.csv"):
        shutil.copy(os.path.join(R, f), d)
    shutil.copy(os.path.join(R, "cost-model", "reference.txt"), os.path.join(d, "cost-model"))
    return d


def prose(readme):
    """The README's text outside the generated table."""
    head, rest = readme.split("<!-- table: begin -->", 1)
    return head + rest.split("<!-- table: end -->", 1)[1]


class Results(unittest.TestCase):
    def test_committed_results_follow_from_their_data(self):
        p = prose_check(R)
        self.assertEqual(p.returncode, 0, p.stderr)

    def test_a_prose_number_edited_by_hand_fails(self):
        with open(os.path.join(R, "README.md")) as f:
            text = f.read()
        # Every ratio the prose states (1.23x), each edited in turn.
        ratios = sorted(set(re.findall(r"\b\d+\.\d\dx\b", prose(text))))
        self.assertGreaterEqual(len(ratios), 4, "the prose states the ratios")
        for r in ratios[:3]:
            with self.subTest(number=r), tempfile.TemporaryDirectory() as tmp:
                d = copy_results(tmp)
                head, rest = text.split("<!-- table: begin -->", 1)
                table, after = rest.split("<!-- table: end -->", 1)
                if r in head:
                    head = head.replace(r, "9.99x", 1)
                else:
                    after = after.replace(r, "9.99x", 1)
                with open(os.path.join(d, "README.md"), "w") as f:
                    f.write(head + "<!-- table: begin -->" + table + "<!-- table: end -->" + after)
                p = prose_check(d)
                self.assertNotEqual(p.returncode, 0, f"{r} edited to 9.99x, and the check passed")
                self.assertIn("README.md differs", p.stderr)
        # And one in the table.
        with tempfile.TemporaryDirectory() as tmp:
            d = copy_results(tmp)
            with open(os.path.join(d, "table.md")) as f:
                table = f.read()
            r = re.findall(r"\*\*(\d+\.\d\dx)\*\*", table)[0]
            with open(os.path.join(d, "table.md"), "w") as f:
                f.write(table.replace(r, "9.99x", 1))
            p = prose_check(d)
            self.assertNotEqual(p.returncode, 0)
            self.assertIn("table.md differs", p.stderr)

    def test_the_template_types_no_result(self):
        with open(os.path.join(R, "README.template.md")) as f:
            text = re.sub(r"\{\{[a-z0-9_]+\}\}", "N", f.read())
        # A ratio, or a time, written as a number: the results are placeholders.
        # (Not results: the kernel's own constants - 40 ms delayed ACK, 200 ms
        # retransmit - and the thresholds 1x and 2x the prose counts against;
        # "3.x" is a kernel version.)
        found = [m for m in re.findall(r"\b\d[\d,]*(?:\.\d+)?\s*(?:x|ms|us|ns)\b", text)
                 if m not in ("40 ms", "200 ms", "1x", "2x")]
        self.assertEqual(found, [])

    def test_the_one_cell_command_prints_the_table_s_cell(self):
        trace = "tests/data/sleep-net.txt.gz"
        p = subprocess.run(["scripts/results-cell.py", "--timersim", BIN, trace], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        ratio = re.search(r"classic / v48 (\d+\.\d\dx \(\d+\.\d\d-\d+\.\d\d\))", p.stdout)
        self.assertTrue(ratio, p.stdout)
        point, interval = ratio.group(1).split(" ", 1)
        with open(os.path.join(R, "table.md")) as f:
            row = [l for l in f if l.startswith("| sleep-net.txt.gz |") and "| recorded |" in l]
        self.assertEqual(len(row), 1)
        self.assertIn(f"**{point}** {interval}", row[0])


if __name__ == "__main__":
    unittest.main()
