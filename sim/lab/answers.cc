#include "sim/lab/answers.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <unordered_map>

#include "sim/base/errors.h"
#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"

namespace timersim::lab {

namespace {

// Bounds of an answers file. A line holds one answer of at most a hundred
// bytes or so, or a comment; 100,000 answers is every exercise of ten
// `lab -n 10000` runs, graded in a few minutes.
constexpr std::size_t max_line_bytes = std::size_t{1} << 16;	// with its line end
constexpr std::uint64_t max_file_bytes = std::uint64_t{16} << 20;
constexpr std::size_t max_answers = 100000;

std::vector<std::string> split_words(std::string_view s)
{
	std::vector<std::string> out;
	std::string cur;
	for (char c : s) {
		if (std::isspace(static_cast<unsigned char>(c))) {
			if (!cur.empty())
				out.push_back(cur);
			cur.clear();
		} else {
			cur += c;
		}
	}
	if (!cur.empty())
		out.push_back(cur);
	return out;
}

// Numbers that stand alone (not the 2 of tv2) in decimal, without leading zeros.
std::string decimal_numbers(const std::string &s)
{
	std::string out;
	std::size_t i = 0;
	while (i < s.size()) {
		const bool starts = std::isdigit(static_cast<unsigned char>(s[i])) &&
				    (i == 0 || !std::isalnum(static_cast<unsigned char>(s[i - 1])));
		if (!starts) {
			out += s[i++];
			continue;
		}
		int base = 10;
		std::size_t j = i;
		if (s[i] == '0' && i + 1 < s.size() && s[i + 1] == 'x') {
			base = 16;
			j = i + 2;
		}
		std::size_t k = j;
		while (k < s.size() && (base == 16 ? std::isxdigit(static_cast<unsigned char>(s[k]))
						   : std::isdigit(static_cast<unsigned char>(s[k]))))
			k++;
		std::uint64_t v = 0;
		auto [end, ec] = std::from_chars(s.data() + j, s.data() + k, v, base);
		if (k == j || ec != std::errc() || end != s.data() + k) {
			out.append(s, i, k - i);
		} else {
			out += std::to_string(v);
		}
		i = std::max(k, i + 1);
	}
	return out;
}

// A line that is not an answer: the reason, graded wrong.
struct not_an_answer {
	std::string reason;
};

exercise_ref parse_key(const std::vector<std::string> &w)
{
	auto fail = [&](const std::string &reason) { throw not_an_answer{reason}; };
	if (w.size() < 2)
		fail("an answer line is KIND ID [options] = ANSWER");
	exercise_ref ref;
	if (!parse_lab_kind(w[0], ref.kind))
		fail("unknown kind '" + w[0] + "' (known: place, cascade, fire, next, wrap, v48, cost, coalesce)");
	ref.id = w[1];
	for (std::size_t i = 2; i < w.size(); i++) {
		const std::string &o = w[i];
		auto value = [&]() -> unsigned {
			if (i + 1 >= w.size())
				fail(o + " needs a value");
			const std::string &v = w[++i];
			unsigned n = 0;
			auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
			if (ec != std::errc() || end != v.data() + v.size())
				fail(o + ": not a number: '" + v + "'");
			return n;
		};
		if (o == "--hz")
			ref.cfg.hz = value();
		else if (o == "--word-bits")
			ref.cfg.word_bits = value();
		else if (o == "--base-small")
			ref.cfg.base_small = true;
		else
			fail("unknown option '" + o + "' (known: --hz N, --word-bits N, --base-small)");
	}
	return ref;
}

// An answers file is small text: what is not (a device, random bytes, a
// runaway generator) is refused at the line that shows it, before it costs
// memory or time.
void check_bounds(const line_source &in, std::string_view line)
{
	const std::string &source = in.name();
	if (in.overlong())
		throw input_error(source, in.line_no(),
				  "a line longer than " + std::to_string(max_line_bytes - 1) +
					  " bytes: not an answers file");
	if (in.bytes() > max_file_bytes)
		throw input_error(source, in.line_no(),
				  "more than " + std::to_string(max_file_bytes >> 20) + " MiB: not an answers file");
	if (const char *why = in.stray_line_end())
		throw input_error(source, in.line_no(), why);
	for (char c : line) {
		const auto u = static_cast<unsigned char>(c);
		if ((u < 0x20 && c != '\t') || u == 0x7f) {
			char hex[8];
			std::snprintf(hex, sizeof hex, "0x%02x", u);
			throw input_error(source, in.line_no(),
					  std::string("a control character (") + hex + "): not a text answers file");
		}
	}
}

// An editor's UTF-8 byte order mark before the first line is not part of
// it: left there, it made a right first answer (or a comment) wrong.
std::string_view without_bom(const line_source &in, std::string_view line)
{
	constexpr std::string_view bom = "\xEF\xBB\xBF";
	return in.line_no() == 1 && line.substr(0, bom.size()) == bom ? line.substr(bom.size()) : line;
}

std::string lines_of(const std::vector<std::string> &lines, const char *indent)
{
	std::string out;
	for (const std::string &l : lines)
		out += indent + l + "\n";
	return out;
}

std::vector<answer_line> read_answers(line_source &in)
{
	const std::string &source = in.name();
	std::vector<answer_line> out;
	std::string_view line;
	while (in.next(line)) {
		const std::uint64_t line_no = in.line_no();
		check_bounds(in, line);
		line = without_bom(in, line);
		// '#' starts a comment, at the start of a line or after an answer.
		line = line.substr(0, line.find('#'));
		std::vector<std::string> words = split_words(line);
		if (words.empty())
			continue;
		if (out.size() == max_answers)
			throw input_error(source, line_no,
					  "more than " + std::to_string(max_answers) + " answers: split the file");
		answer_line a;
		a.line = line_no;
		for (const std::string &w : words)
			a.text += (a.text.empty() ? "" : " ") + w;
		try {
			const std::size_t eq = line.find('=');
			if (eq == std::string_view::npos)
				throw not_an_answer{"no '=': an answer line is KIND ID [options] = ANSWER"};
			a.ref = parse_key(split_words(line.substr(0, eq)));
			std::vector<std::string> given = split_words(line.substr(eq + 1));
			if (given.empty())
				throw not_an_answer{"no answer after '='"};
			for (const std::string &g : given)
				a.given += (a.given.empty() ? "" : " ") + g;
		} catch (const not_an_answer &e) {
			a.problem = e.reason;
		}
		out.push_back(a);
	}
	return out;
}

}  // namespace

std::vector<answer_line> parse_answers(std::string_view text, const std::string &source)
{
	// Through a buffer the size a file gets: the same bounds either way.
	auto in = line_source::from_memory(text, source, max_line_bytes);
	return read_answers(*in);
}

namespace {

std::vector<exercise_ref> read_questions(line_source &in)
{
	std::vector<exercise_ref> out;
	std::unordered_map<std::string, std::uint64_t> listed;	// answer key -> its line
	std::string_view line;
	while (in.next(line)) {
		check_bounds(in, line);
		line = without_bom(in, line);
		line = line.substr(0, line.find('#'));
		line = line.substr(0, line.find('='));
		std::vector<std::string> words = split_words(line);
		if (words.empty())
			continue;
		if (out.size() == max_answers)
			throw input_error(in.name(), in.line_no(),
					  "more than " + std::to_string(max_answers) + " questions");
		try {
			exercise_ref ref = parse_key(words);
			out.push_back(make_exercise(ref).ref);
		} catch (const not_an_answer &e) {
			throw input_error(in.name(), in.line_no(), e.reason);
		} catch (const usage_error &e) {
			throw input_error(in.name(), in.line_no(), e.what());
		}
		// One answer is graded once: a question listed again would score
		// it again.
		auto [at, first] = listed.emplace(answer_key(out.back()), in.line_no());
		if (!first)
			throw input_error(in.name(), in.line_no(),
					  "the question of line " + std::to_string(at->second) + " again (" + at->first +
						  "): each question is listed once");
	}
	if (out.empty())
		throw input_error(in.name(), 0, "no questions (lines KIND ID [options])");
	return out;
}

}  // namespace

std::vector<exercise_ref> parse_questions(std::string_view text, const std::string &source)
{
	auto in = line_source::from_memory(text, source, max_line_bytes);
	return read_questions(*in);
}

std::vector<exercise_ref> read_questions_file(const std::string &path)
{
	auto in = line_source::open_file(path, max_line_bytes, "lab questions file");
	return read_questions(*in);
}

std::string answer_key(const exercise_ref &ref)
{
	std::string s = std::string(lab_kind_name(ref.kind)) + " " + ref.id;
	const lab_config defaults;
	if (ref.cfg.hz != defaults.hz)
		s += " --hz " + std::to_string(ref.cfg.hz);
	if (ref.cfg.word_bits != defaults.word_bits && ref.kind != lab_kind::wrap)
		s += " --word-bits " + std::to_string(ref.cfg.word_bits);
	if (ref.cfg.base_small && ref.kind != lab_kind::v48)
		s += " --base-small";
	return s;
}

std::string normalise_answer(lab_kind kind, const std::string &answer)
{
	std::string s;
	for (char c : answer)
		s += c == ',' || c == ';' ? ' ' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
	// "key = value" -> "key=value"; other runs of blanks -> one (each
	// run is looked at once: a long run costs no more than its length).
	std::string joined;
	for (std::size_t i = 0; i < s.size();) {
		if (!std::isspace(static_cast<unsigned char>(s[i]))) {
			joined += s[i++];
			continue;
		}
		std::size_t j = i;
		while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j])))
			j++;
		if (!(j < s.size() && s[j] == '=') && !(!joined.empty() && joined.back() == '='))
			joined += ' ';
		i = j;
	}
	std::vector<std::string> words = split_words(decimal_numbers(joined));
	for (std::string &w : words) {
		for (const char *from : {"=true", "=false"})
			if (w.size() > std::string(from).size() && w.ends_with(from))
				w = w.substr(0, w.size() - std::string(from).size()) + (from[1] == 't' ? "=yes" : "=no");
	}
	if (kind == lab_kind::cascade) {
		// After "move": NAME LEVEL[SLOT] pairs in any order. The count
		// of words may be odd (`move none`, or an answer a word short):
		// a last word without a partner stays a word of its own.
		auto move = std::find(words.begin(), words.end(), "move");
		if (move != words.end()) {
			const std::size_t first = static_cast<std::size_t>(move - words.begin()) + 1;
			std::vector<std::string> pairs;
			for (std::size_t i = first; i < words.size(); i += 2)
				pairs.push_back(i + 1 < words.size() ? words[i] + " " + words[i + 1] : words[i]);
			std::sort(pairs.begin(), pairs.end());
			words.resize(first);
			for (const std::string &p : pairs)
				words.push_back(p);
		}
	}
	std::string out;
	for (const std::string &w : words)
		out += (out.empty() ? "" : " ") + w;
	return out;
}

bool answers_match(lab_kind kind, const std::string &expected, const std::string &given)
{
	return normalise_answer(kind, expected) == normalise_answer(kind, given);
}

namespace {

// Grades parsed lines, each on its own: a line that is not an answer, or
// answers an exercise answered already, is wrong with its reason and the
// other lines are graded all the same.
check_result grade(std::vector<answer_line> lines, const std::string &source, const std::string &student,
		   const std::string &secret)
{
	for (answer_line &a : lines) {
		a.ref.student = student;
		a.ref.secret = secret;
	}
	if (lines.empty())
		throw input_error(source, 0, "no answers (lines KIND ID [options] = ANSWER)");
	// A second answer to an exercise (the same answer or not) would let
	// a student hedge, and a grader cannot tell which one was meant: the
	// first counts.
	std::unordered_map<std::string, std::uint64_t> answered;	// key -> line
	check_result r;
	for (const answer_line &a : lines) {
		graded_line g;
		g.line = a.line;
		g.key = a.text;
		g.kind = a.ref.kind;
		g.given = a.given;
		g.problem = a.problem;
		if (g.problem.empty()) {
			try {
				const exercise ex = make_exercise(a.ref);
				g.key = answer_key(ex.ref);
				auto [at, fresh] = answered.emplace(g.key, a.line);
				if (!fresh) {
					g.problem = g.key + " is answered already on line " +
						    std::to_string(at->second) + ": one answer an exercise";
				} else {
					const solution s = solve(ex);
					g.expected = s.answer;
					g.working = s.working;
					g.right = answers_match(ex.ref.kind, s.answer, a.given);
				}
			} catch (const usage_error &e) {
				g.problem = e.what();
			}
		}
		(g.right ? r.right : r.wrong)++;
		r.lines.push_back(std::move(g));
	}
	return r;
}

}  // namespace

std::string check_text(const check_result &r, bool working, bool expected)
{
	std::string out;
	for (const graded_line &g : r.lines) {
		const std::string at = "line " + std::to_string(g.line) + ": ";
		if (!g.problem.empty()) {
			out += at + "NOT GRADED (wrong): " + g.problem + "\n";
			out += "  the line: " + g.key + "\n";
			continue;
		}
		if (g.right) {
			out += at + g.key + ": right\n";
			continue;
		}
		out += at + g.key + ": WRONG\n";
		out += "  you gave: " + g.given + "\n";
		if (expected)
			out += "  expected: " + g.expected + "\n";
		if (working)
			out += "  working:\n" + lines_of(g.working, "    ");
	}
	const unsigned n = r.right + r.wrong;
	out += std::to_string(n) + (n == 1 ? " answer: " : " answers: ") + std::to_string(r.right) + " right, " +
	       std::to_string(r.wrong) + " wrong\n";
	return out;
}

check_result check_answers(std::string_view text, const std::string &source, const std::string &student,
			   const std::string &secret)
{
	return grade(parse_answers(text, source), source, student, secret);
}

check_result check_answers_file(const std::string &path, const std::string &student, const std::string &secret)
{
	auto in = line_source::open_file(path, max_line_bytes, "lab answers file");
	return grade(read_answers(*in), path, student, secret);
}

}  // namespace timersim::lab
