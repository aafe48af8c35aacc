#include "tests/support/shown_commands.h"

#include <dirent.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "tests/support/cli.h"

namespace timersim::test {

std::string read_text_file(const std::string &path)
{
	std::ifstream in(path);
	std::ostringstream s;
	s << in.rdbuf();
	return s.str();
}

std::string trim_blanks(const std::string &s)
{
	std::size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
	return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::vector<std::string> markdown_in(const std::string &dir)
{
	std::vector<std::string> out;
	if (DIR *d = opendir(dir.c_str())) {
		while (dirent *e = readdir(d)) {
			std::string n = e->d_name;
			if (n.size() > 3 && n.substr(n.size() - 3) == ".md")
				out.push_back(n);
		}
		closedir(d);
	}
	std::sort(out.begin(), out.end());
	return out;
}

std::vector<shown_command> commands_in(const std::string &file, const std::string &text)
{
	std::vector<shown_command> out;
	std::istringstream in(text);
	bool fenced = false;
	unsigned n = 0;
	shown_command *cur = nullptr;
	for (std::string line; std::getline(in, line);) {
		n++;
		if (line.rfind("```", 0) == 0) {
			fenced = !fenced;
			cur = nullptr;
			continue;
		}
		if (!fenced)
			continue;
		if (line.rfind("$ ", 0) == 0) {
			shown_command c;
			c.file = file;
			c.line = n;
			std::string cmd = line.substr(2);
			if (std::size_t hash = cmd.find("# exits "); hash != std::string::npos) {
				c.exit_status = std::stoi(cmd.substr(hash + 8));
				cmd = cmd.substr(0, hash);
			}
			std::istringstream words(cmd);
			for (std::string w; words >> w;)
				c.args.push_back(w);
			out.push_back(c);
			cur = &out.back();
			continue;
		}
		if (cur && trim_blanks(line) != "..." && !trim_blanks(line).empty())
			cur->expected.push_back(trim_blanks(line));
	}
	return out;
}

std::string run_shown(const shown_command &c, const std::string &page)
{
	if (c.args.size() < 2 || c.args[0] != "timersim")
		return "not a timersim command";
	cli_result r = run_timersim(std::vector<std::string>(c.args.begin() + 1, c.args.end()));
	if (r.status != c.exit_status)
		return "exit " + std::to_string(r.status) + ", " + page + " says " + std::to_string(c.exit_status) +
		       "; stderr: " + r.err;
	std::istringstream out(r.out);
	std::size_t want = 0;
	for (std::string got; want < c.expected.size() && std::getline(out, got);)
		if (trim_blanks(got) == c.expected[want])
			want++;
	if (want < c.expected.size())
		return "the output has no line '" + c.expected[want] + "' (after the ones before it)";
	return "";
}

}  // namespace timersim::test
