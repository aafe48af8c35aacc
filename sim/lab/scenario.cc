#include "sim/lab/scenario.h"

#include <cctype>
#include <charconv>
#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"

namespace timersim::lab {

namespace {

std::vector<std::string> words_of(std::string_view line)
{
	std::vector<std::string> words;
	std::size_t i = 0;
	while (i < line.size()) {
		while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i])))
			i++;
		std::size_t start = i;
		while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i])))
			i++;
		if (i > start)
			words.emplace_back(line.substr(start, i - start));
	}
	return words;
}

// A word of the input as an error shows it: printable, and short (the
// input may be anything, a binary file's bytes too).
std::string shown(std::string_view w)
{
	constexpr std::size_t most = 40;
	std::string out;
	for (std::size_t i = 0; i < w.size() && i < most; i++) {
		const auto c = static_cast<unsigned char>(w[i]);
		if (c >= 0x20 && c < 0x7f) {
			out += static_cast<char>(c);
		} else {
			static const char hex[] = "0123456789abcdef";
			out += "\\x";
			out += hex[c >> 4];
			out += hex[c & 15];
		}
	}
	if (w.size() > most)
		out += "...";
	return out;
}

class statement_parser {
public:
	statement_parser(const std::string &source, std::uint64_t line) : source_(source), line_(line) {}

	[[noreturn]] void fail(const std::string &reason) const { throw input_error(source_, line_, reason); }

	// Decimal or 0x hex, the whole word.
	std::uint64_t number(const std::string &w, const char *what) const
	{
		std::string_view s = w;
		int base = 10;
		if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			s.remove_prefix(2);
			base = 16;
		}
		std::uint64_t v = 0;
		auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
		if (s.empty() || ec == std::errc::result_out_of_range)
			fail(std::string(what) + " '" + shown(w) + "' is not a number that fits 64 bits");
		if (ec != std::errc() || end != s.data() + s.size())
			fail(std::string(what) + " '" + shown(w) + "' is not a number (decimal or 0x hex)");
		return v;
	}

	std::string name(const std::string &w) const
	{
		bool ok = !w.empty() && (std::isalpha(static_cast<unsigned char>(w[0])) || w[0] == '_');
		for (char c : w)
			ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ||
				    c == '-' || c == ':');
		if (!ok)
			fail("'" + shown(w) + "' is not a timer name (a letter or _, then letters, digits, _ . - :)");
		return w;
	}

	void arity(const std::vector<std::string> &w, std::size_t lo, std::size_t hi, const char *form) const
	{
		if (w.size() < lo || w.size() > hi)
			fail("'" + w[0] + "' takes " + form);
	}

	void arm_statement(const std::vector<std::string> &w, scenario_op &op) const
	{
		if (w.size() < 3)
			fail("'" + w[0] + "' takes a timer name and an expiry: " + w[0] + " NAME EXPIRES [options]");
		op.timer = name(w[1]);
		std::string e = w[2];
		if (e[0] == '+' || e[0] == '-') {
			op.relative = e[0] == '+' ? 1 : -1;
			e.erase(0, 1);
		}
		op.value = number(e, "expiry");
		for (std::size_t i = 3; i < w.size(); i++) {
			const std::string &o = w[i];
			if (o == "deferrable") {
				op.arm.deferrable = true;
			} else if (o == "round") {
				op.arm.round = rounding::round;
			} else if (o == "round-up") {
				op.arm.round = rounding::round_up;
			} else if (o == "slack=auto") {
				op.arm.slack = -1;
			} else if (o.rfind("slack=", 0) == 0) {
				std::uint64_t s = number(o.substr(6), "slack");
				if (s > 0x7fffffff)
					fail("slack " + shown(o.substr(6)) + " is beyond an int");
				op.arm.slack = static_cast<int>(s);
			} else {
				fail("unknown option '" + shown(o) + "' (known: slack=N, slack=auto, deferrable, round, round-up)");
			}
		}
	}

	// A time of an hrtimer statement: N or +N ns, below max_hr_ns.
	std::uint64_t hr_time(const std::string &w, const char *what, bool *relative) const
	{
		std::string v = w;
		if (relative) {
			*relative = !v.empty() && v[0] == '+';
			if (*relative)
				v.erase(0, 1);
		}
		const std::uint64_t n = number(v, what);
		if (n >= max_hr_ns)
			fail(std::string(what) + " " + shown(w) + " is beyond the lab's 10^18 ns");
		return n;
	}

	void hr_start_statement(const std::vector<std::string> &w, hr_op &op) const
	{
		if (w.size() < 3)
			fail("'hrstart' takes a timer name and a time: hrstart NAME SOFTEXPIRES [slack=NS] [soft] "
			     "[period=NS]");
		op.timer = name(w[1]);
		op.value = hr_time(w[2], "time", &op.relative);
		for (std::size_t i = 3; i < w.size(); i++) {
			const std::string &o = w[i];
			if (o == "soft")
				op.soft = true;
			else if (o.rfind("slack=", 0) == 0)
				op.slack = hr_time(o.substr(6), "slack", nullptr);
			else if (o.rfind("period=", 0) == 0) {
				op.period = hr_time(o.substr(7), "period", nullptr);
				if (!op.period)
					fail("period=0 would restart the timer at the same time for ever: give a period of at "
					     "least 1 ns");
			} else
				fail("unknown option '" + shown(o) + "' (known: slack=NS, soft, period=NS)");
		}
	}

private:
	const std::string &source_;
	std::uint64_t line_;
};

}  // namespace

namespace {

// One line of a scenario into `s`: a setting, a statement, or nothing.
void parse_line(scenario &s, std::uint64_t line_no, std::string_view line)
{
	if (std::size_t hash = line.find('#'); hash != std::string_view::npos)
		line = line.substr(0, hash);
	std::vector<std::string> w = words_of(line);
	if (w.empty())
		return;

	statement_parser p(s.source, line_no);
	const std::string &verb = w[0];
	const bool setting = verb == "hz" || verb == "word-bits" || verb == "base-small" || verb == "order" ||
			     verb == "start";
	// Either kind of statement: an hrtimer scenario's `start` after its
	// first hrstart was applied before line 1.
	if (setting && (!s.ops.empty() || !s.hr_ops.empty()))
		p.fail("'" + verb + "' is a setting: settings come before the first statement");

	if (verb == "hz") {
		p.arity(w, 2, 2, "one value: hz 100|250|300|1000");
		std::uint64_t hz = p.number(w[1], "HZ");
		if (hz != 100 && hz != 250 && hz != 300 && hz != 1000)
			p.fail("HZ must be 100, 250, 300 or 1000, not " + shown(w[1]));
		s.hz = static_cast<unsigned>(hz);
	} else if (verb == "word-bits") {
		p.arity(w, 2, 2, "one value: word-bits 32|64");
		if (w[1] != "32" && w[1] != "64")
			p.fail("word bits must be 32 or 64, not " + shown(w[1]));
		s.word_bits = w[1] == "32" ? 32 : 64;
	} else if (verb == "base-small") {
		p.arity(w, 1, 1, "no value");
		s.base_small = true;
	} else if (verb == "order") {
		p.arity(w, 2, 2, "one value: order fifo|lifo");
		if (w[1] != "fifo" && w[1] != "lifo")
			p.fail("order must be fifo or lifo, not " + shown(w[1]));
		s.lifo = w[1] == "lifo";
	} else if (verb == "start") {
		p.arity(w, 2, 2, "one value: start J|initial");
		if (w[1] == "initial")
			s.start_initial = true;
		else
			s.start = p.number(w[1], "start");
		s.start_line = line_no;
	} else {
		if (s.ops.size() + s.hr_ops.size() >= max_scenario_statements)
			p.fail("more than " + std::to_string(max_scenario_statements) +
			       " statements: the lab runs at most that many");
		const bool hr_verb = verb == "hrstart" || verb == "hrcancel" || verb == "run-to-ns";
		// A scenario drives the wheel or the hrtimers; `show` belongs to
		// whichever its other statements drive (shows before the first
		// hrtimer statement move over to it).
		if (hr_verb && !s.ops.empty()) {
			for (const scenario_op &o : s.ops)
				if (o.kind != op_kind::show)
					p.fail("'" + verb + "' is an hrtimer statement, and line " + std::to_string(o.line) +
					       " drives the wheel: a scenario holds one or the other");
			for (const scenario_op &o : s.ops) {
				hr_op h;
				h.line = o.line;
				h.text = "show";
				s.hr_ops.push_back(h);
			}
			s.ops.clear();
		}
		if (hr_verb || (s.is_hr() && verb == "show")) {
			hr_op op;
			op.line = line_no;
			if (verb == "hrstart") {
				op.kind = hr_op_kind::start;
				p.hr_start_statement(w, op);
			} else if (verb == "hrcancel") {
				p.arity(w, 2, 2, "a timer name: hrcancel NAME");
				op.kind = hr_op_kind::cancel;
				op.timer = p.name(w[1]);
			} else if (verb == "run-to-ns") {
				p.arity(w, 2, 2, "a time in ns: run-to-ns NS|+NS");
				op.kind = hr_op_kind::run_to;
				op.value = p.hr_time(w[1], "time", &op.relative);
			} else {
				p.arity(w, 1, 1, "no value");
				op.kind = hr_op_kind::show;
			}
			op.text = render_hr_op(op);
			s.hr_ops.push_back(std::move(op));
			return;
		}
		if (s.is_hr())
			p.fail("'" + shown(verb) + "' in a scenario of hrtimers (line " + std::to_string(s.hr_ops.front().line) +
			       "): known there: hrstart, hrcancel, run-to-ns, show");
		scenario_op op;
		op.line = line_no;
		if (verb == "add" || verb == "mod") {
			op.kind = verb == "add" ? op_kind::add : op_kind::mod;
			p.arm_statement(w, op);
		} else if (verb == "del") {
			p.arity(w, 2, 2, "a timer name: del NAME");
			op.kind = op_kind::del;
			op.timer = p.name(w[1]);
		} else if (verb == "tick") {
			p.arity(w, 1, 2, "at most one count: tick [N]");
			op.kind = op_kind::tick;
			op.value = w.size() == 2 ? p.number(w[1], "tick count") : 1;
			if (!op.value)
				p.fail("tick 0 does nothing: give a count of at least 1");
		} else if (verb == "run-to") {
			p.arity(w, 2, 2, "a jiffy: run-to J");
			op.kind = op_kind::run_to;
			op.value = p.number(w[1], "jiffy");
		} else if (verb == "show") {
			p.arity(w, 1, 1, "no value");
			op.kind = op_kind::show;
		} else {
			p.fail("unknown statement '" + shown(verb) +
			       "' (known: add, mod, del, tick, run-to, show; hrtimers: hrstart, hrcancel, "
			       "run-to-ns; settings hz, word-bits, base-small, order, start)");
		}
		op.text = render_op(op);
		s.ops.push_back(std::move(op));
	}
}

}  // namespace

scenario parse_scenario(std::string_view text, const std::string &source)
{
	scenario s;
	s.source = source;
	std::uint64_t line_no = 0;
	std::size_t pos = 0;
	while (pos < text.size()) {
		std::size_t end = text.find('\n', pos);
		if (end == std::string_view::npos)
			end = text.size();
		parse_line(s, ++line_no, text.substr(pos, end - pos));
		pos = end + 1;
	}
	return s;
}

scenario read_scenario(const std::string &path)
{
	// Read as the trace readers read: a line at a time through a buffer
	// of fixed size, so that no input (a device, a pipe, a huge file)
	// makes it grow.
	auto in = line_source::open_file(path, max_scenario_line, "scenario");
	scenario s;
	s.source = path;
	std::string_view line;
	while (in->next(line)) {
		if (in->overlong())
			throw input_error(path, in->line_no(),
					  "a line longer than " + std::to_string(max_scenario_line) +
						  " bytes: a scenario is statements, one a line");
		if (in->bytes() > max_scenario_bytes)
			throw input_error(path, in->line_no(),
					  "the scenario goes on past " + std::to_string(max_scenario_bytes >> 20) +
						  " MiB: the lab reads at most that much");
		parse_line(s, in->line_no(), line);
	}
	return s;
}

bool looks_like_scenario(std::string_view text)
{
	static const char *const verbs[] = {"hz", "word-bits", "base-small", "order", "start", "add",
					    "mod", "del", "tick", "run-to", "show", "hrstart", "hrcancel", "run-to-ns"};
	while (!text.empty()) {
		std::size_t eol = text.find('\n');
		std::string_view line = text.substr(0, eol);
		text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
		std::vector<std::string> w = words_of(line.substr(0, line.find('#')));
		if (w.empty())
			continue;
		for (const char *v : verbs)
			if (w[0] == v)
				return true;
		return false;
	}
	return false;
}

std::string render_op(const scenario_op &op)
{
	switch (op.kind) {
	case op_kind::add:
	case op_kind::mod: {
		std::string s = std::string(op.kind == op_kind::add ? "add " : "mod ") + op.timer + " " +
				(op.relative > 0 ? "+" : op.relative < 0 ? "-" : "") + std::to_string(op.value);
		if (op.arm.slack > 0)
			s += " slack=" + std::to_string(op.arm.slack);
		else if (op.arm.slack < 0)
			s += " slack=auto";
		if (op.arm.deferrable)
			s += " deferrable";
		if (op.arm.round == rounding::round)
			s += " round";
		else if (op.arm.round == rounding::round_up)
			s += " round-up";
		return s;
	}
	case op_kind::del: return "del " + op.timer;
	case op_kind::tick: return op.value == 1 ? "tick" : "tick " + std::to_string(op.value);
	case op_kind::run_to: return "run-to " + std::to_string(op.value);
	case op_kind::show: return "show";
	}
	return "";
}

std::string render_hr_op(const hr_op &op)
{
	const std::string at = (op.relative ? "+" : "") + std::to_string(op.value);
	switch (op.kind) {
	case hr_op_kind::start: {
		std::string s = "hrstart " + op.timer + " " + at;
		if (op.slack)
			s += " slack=" + std::to_string(op.slack);
		if (op.soft)
			s += " soft";
		if (op.period)
			s += " period=" + std::to_string(op.period);
		return s;
	}
	case hr_op_kind::cancel: return "hrcancel " + op.timer;
	case hr_op_kind::run_to: return "run-to-ns " + at;
	case hr_op_kind::show: return "show";
	}
	return "";
}

std::string render_scenario(const scenario &s)
{
	std::string out;
	if (s.hz)
		out += "hz " + std::to_string(*s.hz) + "\n";
	if (s.word_bits)
		out += "word-bits " + std::to_string(*s.word_bits) + "\n";
	if (s.base_small && *s.base_small)
		out += "base-small\n";
	if (s.lifo)
		out += std::string("order ") + (*s.lifo ? "lifo" : "fifo") + "\n";
	if (s.start_initial)
		out += "start initial\n";
	else if (s.start)
		out += "start " + std::to_string(*s.start) + "\n";
	for (const auto &op : s.ops)
		out += render_op(op) + "\n";
	for (const auto &op : s.hr_ops)
		out += render_hr_op(op) + "\n";
	return out;
}

}  // namespace timersim::lab
