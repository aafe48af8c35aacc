// README.md, docs/*.md and docs/results/README.md cannot go stale: every
// command they show runs here against the build, as the lab handbook's do
// (test_lab_handbook.cc).
//
// The rules a page follows (docs/building.md, "Docs are tested"):
// - A fenced block says what it holds. ```console: a shell session, where
//   `$ CMD` is a command (a line ending in `\` goes on on the next), and
//   the lines under it, up to the next command, are what it prints: each
//   must appear in its standard output, in that order (`...` skips any).
//   A command exits 0, or as its line says: `$ CMD   # exits N`.
//   Any other language (text, json, csv, ...) is not run and may hold no
//   `$ ` line; a fence with no language is an error, as is an indented
//   code block (neither could say whether it runs).
// - `<!-- not run: WHY -->` on the line before a ```console fence: its
//   commands are not run (they need root and tracefs, another machine, or
//   minutes). WHY is required; the test lists every such command with it.
// Each command runs in `sh -c`, with the build's timersim first on PATH,
// from a temporary folder that looks like the repository root (a link to
// each of its entries, and ../shared beside it when that exists), so that
// what a command writes lands there; the commands of one page run in
// order in one such folder. A command naming ../shared is skipped, with a
// SKIP note, when ../shared is absent.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/paths.h"
#include "tests/support/shown_commands.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"

using namespace timersim::test;
namespace fs = std::filesystem;

namespace {

struct doc_command {
	std::string file;
	unsigned line = 0;
	std::string cmd;
	int exit_status = 0;
	std::string not_run;		// why it is not run, or ""
	std::vector<std::string> expected;	// trimmed output lines, in order
};

struct doc_page {
	std::vector<doc_command> commands;
	std::vector<std::string> errors;	// "FILE:LINE: what is wrong"
};

bool starts_with(const std::string &s, const std::string &p)
{
	return s.rfind(p, 0) == 0;
}

bool list_item(const std::string &t)
{
	if (starts_with(t, "- ") || starts_with(t, "* ") || starts_with(t, "+ "))
		return true;
	std::size_t i = 0;
	while (i < t.size() && t[i] >= '0' && t[i] <= '9')
		i++;
	return i > 0 && i + 1 < t.size() && (t[i] == '.' || t[i] == ')') && t[i + 1] == ' ';
}

// The commands TEXT (the content of FILE) shows, and what breaks the rules.
doc_page parse_page(const std::string &file, const std::string &text)
{
	doc_page page;
	std::vector<std::string> lines;
	{
		std::size_t at = 0;
		while (at < text.size()) {
			std::size_t nl = text.find('\n', at);
			if (nl == std::string::npos)
				nl = text.size();
			lines.push_back(text.substr(at, nl - at));
			at = nl + 1;
		}
	}
	auto where = [&](std::size_t i) { return file + ":" + std::to_string(i + 1) + ": "; };
	bool fenced = false, console = false;
	std::string lang, not_run, pending_not_run;
	std::size_t pending_line = 0;
	doc_command *cur = nullptr;
	bool in_list = false;	// the last text outside a fence was a list item or its continuation
	for (std::size_t i = 0; i < lines.size(); i++) {
		const std::string &line = lines[i];
		const std::string t = trim_blanks(line);
		if (starts_with(t, "```")) {
			if (fenced) {
				fenced = false;
				cur = nullptr;
				continue;
			}
			fenced = true;
			std::string info = trim_blanks(t.substr(3));
			lang = info.substr(0, info.find(' '));
			console = lang == "console";
			not_run = pending_not_run;
			if (lang.empty())
				page.errors.push_back(where(i) + "a fence with no language: ```console if it runs, "
								 "```text (or json, csv, ...) if it is output");
			if (!pending_not_run.empty() && !console)
				page.errors.push_back(where(pending_line) + "`not run` before a ```" + lang +
						      " block: it marks ```console blocks only");
			pending_not_run.clear();
			continue;
		}
		if (fenced) {
			if (!console) {
				if (starts_with(line, "$ ") && !lang.empty())
					page.errors.push_back(where(i) + "a `$ ` command in a ```" + lang +
							      " block: ```console runs it");
				continue;
			}
			if (starts_with(line, "$ ")) {
				doc_command c;
				c.file = file;
				c.line = static_cast<unsigned>(i + 1);
				c.not_run = not_run;
				std::string cmd = line.substr(2);
				while (!cmd.empty() && cmd.back() == '\\' && i + 1 < lines.size())
					cmd += "\n" + lines[++i];	// the shell joins them
				if (std::size_t hash = cmd.rfind("# exits "); hash != std::string::npos) {
					c.exit_status = std::atoi(cmd.c_str() + hash + 8);
					cmd = cmd.substr(0, hash);
				}
				c.cmd = trim_blanks(cmd);
				page.commands.push_back(c);
				cur = &page.commands.back();
				continue;
			}
			if (t.empty() || t == "...")
				continue;
			if (!cur)
				page.errors.push_back(where(i) + "output before any `$ ` command in a ```console block");
			else
				cur->expected.push_back(t);
			continue;
		}
		// Outside fences.
		if (starts_with(t, "<!-- not run:")) {
			std::size_t end = t.find("-->");
			std::string why = trim_blanks(t.substr(13, end == std::string::npos ? std::string::npos : end - 13));
			if (why.empty())
				page.errors.push_back(where(i) + "`<!-- not run: -->` without a reason");
			pending_not_run = why.empty() ? "?" : why;
			pending_line = i;
			continue;
		}
		if (t.empty())
			continue;
		const bool indented = starts_with(line, "    ") || starts_with(line, "\t");
		const bool after_blank = i > 0 && trim_blanks(lines[i - 1]).empty();
		if (indented && after_blank && !in_list && !starts_with(t, "|"))
			page.errors.push_back(where(i) + "an indented code block: fence it (```console or ```text)");
		if (!pending_not_run.empty()) {
			page.errors.push_back(where(pending_line) + "`not run` is not followed by a ```console fence");
			pending_not_run.clear();
		}
		if (list_item(t))
			in_list = true;
		else if (!indented)
			in_list = false;
	}
	if (fenced)
		page.errors.push_back(file + ": a fence is never closed");
	return page;
}

// A folder that looks like the repository root (ROOT): a link to each of
// its entries, and ../shared beside it when ROOT has one.
std::string make_mirror(const fs::path &root)
{
	std::string tmpl = (fs::temp_directory_path() / "timersim-docs.XXXXXX").string();
	if (!mkdtemp(tmpl.data()))
		return "";
	fs::path top = tmpl, repo = top / "repo";
	fs::create_directory(repo);
	for (const fs::directory_entry &e : fs::directory_iterator(root))
		fs::create_symlink(e.path(), repo / e.path().filename());
	std::error_code ec;
	fs::path shared = fs::canonical(root / ".." / "shared", ec);
	if (!ec)
		fs::create_symlink(shared, top / "shared");
	return repo.string();
}

struct shell_result {
	int status = -1;
	std::string out, err;
	double seconds = 0;
};

// CMD in `sh -c` from DIR with BIN_DIR first on PATH; killed (status -1)
// past LIMIT seconds.
shell_result run_shell(const std::string &cmd, const std::string &dir, const std::string &bin_dir, unsigned limit)
{
	shell_result r;
	std::string out_path = write_temp("docs.out", ""), err_path = write_temp("docs.err", "");
	auto t0 = std::chrono::steady_clock::now();
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		int out = open(out_path.c_str(), O_WRONLY | O_TRUNC), err = open(err_path.c_str(), O_WRONLY | O_TRUNC);
		int in = open("/dev/null", O_RDONLY);
		dup2(in, 0);
		dup2(out, 1);
		dup2(err, 2);
		if (chdir(dir.c_str()) != 0)
			_exit(126);
		const char *path = std::getenv("PATH");
		setenv("PATH", (bin_dir + ":" + (path ? path : "/usr/bin:/bin")).c_str(), 1);
		execl("/bin/sh", "sh", "-c", cmd.c_str(), static_cast<char *>(nullptr));
		_exit(127);
	}
	int status = 0;
	bool killed = false;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(limit)) {
			kill(-pid, SIGKILL);
			killed = true;
			waitpid(pid, &status, 0);
			break;
		}
		std::this_thread::sleep_for(std::chrono::milliseconds(5));
	}
	r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	r.status = !killed && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	r.out = read_text_file(out_path);
	r.err = read_text_file(err_path) + (killed ? "\nkilled: still running after " + std::to_string(limit) + " s" : "");
	std::remove(out_path.c_str());
	std::remove(err_path.c_str());
	return r;
}

// "" when C ran as the page says, else what went wrong.
std::string check_run(const doc_command &c, const shell_result &r)
{
	if (r.status != c.exit_status)
		return "exit " + std::to_string(r.status) + ", the page says " + std::to_string(c.exit_status) +
		       "; stderr: " + r.err.substr(0, 2000);
	std::size_t want = 0, at = 0;
	while (want < c.expected.size() && at < r.out.size()) {
		std::size_t nl = r.out.find('\n', at);
		if (nl == std::string::npos)
			nl = r.out.size();
		if (trim_blanks(r.out.substr(at, nl - at)) == c.expected[want])
			want++;
		at = nl + 1;
	}
	if (want < c.expected.size())
		return "the output has no line '" + c.expected[want] + "' (after the ones before it)";
	return "";
}

struct page_outcome {
	unsigned ran = 0, not_run = 0, skipped = 0;
	std::vector<std::string> failures;	// rule breaks and failed commands
};

// Every command of FILE (its content TEXT) run from a mirror of ROOT.
page_outcome run_page(const std::string &file, const std::string &text, const fs::path &root)
{
	page_outcome o;
	doc_page page = parse_page(file, text);
	o.failures = page.errors;
	std::string mirror;
	const std::string bin_dir = fs::absolute(timersim_bin()).parent_path().string();
	for (const doc_command &c : page.commands) {
		const std::string at = c.file + ":" + std::to_string(c.line) + ": ";
		if (!c.not_run.empty()) {
			std::fprintf(stderr, "not run: %s%s (%s)\n", at.c_str(), c.cmd.c_str(), c.not_run.c_str());
			o.not_run++;
			continue;
		}
		if (c.cmd.find("../shared/") != std::string::npos && shared_trace("").empty()) {
			skip_note(at + c.cmd + ": ../shared is absent");
			o.skipped++;
			continue;
		}
		if (mirror.empty() && (mirror = make_mirror(root)).empty()) {
			o.failures.push_back(at + "no temporary folder to run it in");
			break;
		}
		shell_result r = run_shell(c.cmd, mirror, bin_dir, 120);
		if (r.seconds > 10)
			std::fprintf(stderr, "slow: %s%s took %.1f s (keep commands in docs cheap)\n", at.c_str(),
				     c.cmd.c_str(), r.seconds);
		if (std::string wrong = check_run(c, r); !wrong.empty())
			o.failures.push_back(at + c.cmd + ": " + wrong);
		o.ran++;
	}
	if (!mirror.empty())
		fs::remove_all(fs::path(mirror).parent_path());
	return o;
}

std::vector<std::string> pages()
{
	// docs/lab has its own test (test_lab_handbook.cc), in the handbook's
	// format.
	std::vector<std::string> out{"README.md", "docs/results/README.md"};
	for (const std::string &n : markdown_in("docs"))
		out.push_back("docs/" + n);
	return out;
}

std::string joined(const std::vector<std::string> &v)
{
	std::string s;
	for (const std::string &x : v)
		s += "\n  " + x;
	return s;
}

}  // namespace

START_TEST(every_command_in_readme_and_docs_runs_as_shown)
{
	const fs::path root = fs::current_path();
	std::vector<std::string> files = pages();
	ck_assert_msg(files.size() >= 10, "docs has %zu .md files (run from the repository root)", files.size() - 2);
	unsigned ran = 0, readme_ran = 0, not_run = 0;
	std::vector<std::string> failures;
	for (const std::string &file : files) {
		std::string text = read_text_file(file);
		ck_assert_msg(!text.empty(), "%s cannot be read", file.c_str());
		page_outcome o = run_page(file, text, root);
		failures.insert(failures.end(), o.failures.begin(), o.failures.end());
		ran += o.ran;
		not_run += o.not_run;
		if (file == "README.md")
			readme_ran = o.ran;
	}
	std::fprintf(stderr, "docs: %u commands run, %u not run (listed above with why)\n", ran, not_run);
	ck_assert_msg(failures.empty(), "%zu failures:%s", failures.size(), joined(failures).c_str());
	ck_assert_uint_ge(readme_ran, 5);
	ck_assert_uint_ge(ran, 30);
}
END_TEST

// Every relative link of those pages (a page or a picture)
// resolves from the page's folder.
START_TEST(every_link_resolves)
{
	unsigned links = 0;
	for (const std::string &file : pages()) {
		const std::string text = read_text_file(file);
		const fs::path dir = fs::path(file).parent_path();
		for (std::size_t at = text.find("]("); at != std::string::npos; at = text.find("](", at + 1)) {
			std::size_t end = text.find(')', at);
			if (end == std::string::npos)
				break;
			std::string target = text.substr(at + 2, end - at - 2);
			if (target.rfind("http", 0) == 0 || target.empty() || target[0] == '#')
				continue;
			target = target.substr(0, target.find('#'));
			ck_assert_msg(fs::exists(dir / target), "%s links %s, which does not exist", file.c_str(),
				      target.c_str());
			links++;
		}
	}
	ck_assert_uint_ge(links, 20);
}
END_TEST

// README.md's layout table names every folder of the tree: the top level
// (build/ and hidden ones aside; sim/ through its folders) and the folders
// of sim/, tests/ and docs/.
START_TEST(the_layout_names_every_folder)
{
	const std::string readme = read_text_file("README.md");
	const std::size_t at = readme.find("\n## Layout\n");
	ck_assert_msg(at != std::string::npos, "README.md has no ## Layout section");
	const std::string layout = readme.substr(at, readme.find("\n## ", at + 1) - at);
	std::vector<std::string> folders;
	for (const fs::directory_entry &e : fs::directory_iterator(".")) {
		const std::string n = e.path().filename().string();
		if (!e.is_directory() || n == "build" || n[0] == '.')
			continue;
		folders.push_back(n + "/");
		if (n == "sim" || n == "tests" || n == "docs")
			for (const fs::directory_entry &f : fs::directory_iterator(e.path()))
				if (f.is_directory())
					folders.push_back(n + "/" + f.path().filename().string() + "/");
	}
	ck_assert_uint_ge(folders.size(), 25);
	for (const std::string &f : folders) {
		// A top-level folder whose folders are named (sim/base/) counts as named.
		const bool top = f.find('/') == f.size() - 1;
		ck_assert_msg(layout.find("`" + f + (top ? "" : "`")) != std::string::npos,
			      "README.md's layout table does not name `%s`", f.c_str());
	}
}
END_TEST

// The checker itself: each way a page can go wrong is caught.
START_TEST(the_checker_catches_a_wrong_page)
{
	const fs::path root = fs::current_path();
	struct bad_page {
		const char *text, *says;
	} cases[] = {
		{"```console\n$ timersim replay --top 3 --no-such-option tests/data/default-trace.txt.gz\n```\n",
		 "exit 2, the page says 0"},
		{"```console\n$ timersim replay --top 3 tests/data/default-trace.txt.gz\nno such line in a report\n```\n",
		 "the output has no line 'no such line in a report'"},
		{"```console\n$ timersim replay --top 3 tests/data/default-trace.txt.gz   # exits 2\n```\n",
		 "exit 0, the page says 2"},
		{"```console\n$ timersim replay --top 3 \\\n    --no-such-option tests/data/default-trace.txt.gz\n```\n",
		 "exit 2"},
		{"```\n$ timersim --version\n```\n", "a fence with no language"},
		{"```text\n$ timersim --version\n```\n", "a `$ ` command in a ```text block"},
		{"Run this:\n\n    timersim --version\n", "an indented code block"},
		{"<!-- not run: -->\n```console\n$ timersim --version\n```\n", "without a reason"},
		{"<!-- not run: needs root -->\nsome text\n", "not followed by a ```console fence"},
		{"```console\nstray output\n$ timersim --version\n```\n", "output before any `$ ` command"},
	};
	for (const bad_page &p : cases) {
		page_outcome o = run_page("bad.md", p.text, root);
		ck_assert_msg(o.failures.size() == 1, "%s: %zu failures, expected 1 saying '%s':%s", p.text,
			      o.failures.size(), p.says, joined(o.failures).c_str());
		ck_assert_msg(o.failures[0].find(p.says) != std::string::npos, "%s: '%s' does not say '%s'", p.text,
			      o.failures[0].c_str(), p.says);
	}

	// ... and a right one passes: output in order with `...`, an exit status
	// as shown, a continued line, a not-run block, a list's indented lines.
	const char *good =
		"- a list item\n\n    its continuation, not code\n\n"
		"```console\n$ timersim replay --top 3 \\\n    tests/data/default-trace.txt.gz\n"
		"timersim replay of tests/data/default-trace.txt.gz\n...\n"
		"$ timersim replay --top 3 --json out.json tests/data/default-trace.txt.gz && test -s out.json\n"
		"$ timersim replay --no-such-option x   # exits 2\n```\n\n"
		"<!-- not run: needs root and tracefs -->\n```console\n$ false\n```\n\n"
		"```text\nan output\n```\n";
	page_outcome o = run_page("good.md", good, root);
	ck_assert_msg(o.failures.empty(), "a right page fails:%s", joined(o.failures).c_str());
	ck_assert_uint_eq(o.ran, 3);
	ck_assert_uint_eq(o.not_run, 1);
	// What a command wrote stayed in its temporary folder.
	ck_assert(!fs::exists(root / "out.json"));
}
END_TEST

int main()
{
	Suite *s = suite_create("docs_commands");
	TCase *tc = tcase_create("docs");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, the_checker_catches_a_wrong_page);
	tcase_add_test(tc, every_link_resolves);
	tcase_add_test(tc, the_layout_names_every_folder);
	tcase_add_test(tc, every_command_in_readme_and_docs_runs_as_shown);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
