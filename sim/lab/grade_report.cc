#include "sim/lab/grade_report.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>

#include "sim/output/json_string.h"

namespace timersim::lab {

std::vector<std::string> answer_parts(lab_kind kind, const std::string &answer)
{
	std::vector<std::string> words;
	std::istringstream in(normalise_answer(kind, answer));
	for (std::string w; in >> w;)
		words.push_back(w);
	if (kind != lab_kind::cascade)
		return words;
	// A cascade's moves: NAME LEVEL[SLOT] is one part (normalise_answer
	// has sorted the pairs).
	std::vector<std::string> parts;
	auto move = std::find(words.begin(), words.end(), "move");
	parts.assign(words.begin(), move == words.end() ? move : move + 1);
	if (move != words.end())
		for (auto i = move + 1; i != words.end(); i += std::min<std::ptrdiff_t>(2, words.end() - i))
			parts.push_back(i + 1 != words.end() ? *i + " " + *(i + 1) : *i);
	return parts;
}

std::pair<unsigned, unsigned> part_score(lab_kind kind, const std::string &expected, const std::string &given)
{
	const std::vector<std::string> want = answer_parts(kind, expected);
	const unsigned max = static_cast<unsigned>(want.size());
	if (answers_match(kind, expected, given))
		return {max, max};
	std::map<std::string, unsigned> left;
	for (const std::string &p : want)
		left[p]++;
	const std::vector<std::string> got = answer_parts(kind, given);
	unsigned held = 0;
	for (const std::string &p : got) {
		auto at = left.find(p);
		if (at != left.end() && at->second > 0) {
			at->second--;
			held++;
		}
	}
	const unsigned extra = got.size() > want.size() ? static_cast<unsigned>(got.size() - want.size()) : 0;
	return {held > extra ? held - extra : 0, max};
}

namespace {

graded_question graded(std::string name, const graded_line &g, bool working)
{
	auto [score, max] = part_score(g.kind, g.expected, g.given);
	graded_question t{std::move(name), score, max, "line " + std::to_string(g.line) + ": ", ""};
	if (g.right) {
		t.output += "right\n";
		return t;
	}
	t.output += score ? "partly right (" + std::to_string(score) + " of " + std::to_string(max) + " parts)\n"
			  : "wrong\n";
	t.output += "you gave: " + g.given + "\n";
	t.answer = "expected: " + g.expected + "\n";
	if (working) {
		t.answer += "working:\n";
		for (const std::string &w : g.working)
			t.answer += "  " + w + "\n";
	}
	return t;
}

}  // namespace

grade_report make_grade_report(const check_result &r, const std::vector<exercise_ref> &questions, bool working)
{
	grade_report rep;
	const bool assigned = !questions.empty();
	std::unordered_map<std::string, const graded_line *> answered;	// key -> its line
	for (const graded_line &g : r.lines) {
		if (!g.problem.empty()) {
			// Counted as missing below when the questions are known.
			rep.tests.push_back({"line " + std::to_string(g.line), 0, assigned ? 0u : 1u,
					     "line " + std::to_string(g.line) + ": not graded: " + g.problem +
						     "\nthe line: " + g.key + "\n",
					     ""});
			continue;
		}
		answered.emplace(g.key, &g);
		if (assigned)
			continue;
		rep.tests.push_back(graded(g.key, g, working));
	}
	for (const exercise_ref &q : questions) {
		const exercise ex = make_exercise(q);
		const std::string key = answer_key(ex.ref);
		auto at = answered.find(key);
		if (at == answered.end()) {
			const unsigned max = static_cast<unsigned>(answer_parts(q.kind, solve(ex).answer).size());
			rep.tests.push_back({key, 0, max, "no answer to " + key + "\n", ""});
			continue;
		}
		rep.tests.push_back(graded(key, *at->second, working));
	}
	for (const graded_question &t : rep.tests) {
		rep.score += t.score;
		rep.max_score += t.max_score;
	}
	return rep;
}

bool parse_reveal_mode(const std::string &name, reveal_mode &out)
{
	if (name == "never")
		out = reveal_mode::never;
	else if (name == "after-due")
		out = reveal_mode::after_due;
	else if (name == "always")
		out = reveal_mode::always;
	else
		return false;
	return true;
}

std::string gradescope_json(const grade_report &g, reveal_mode reveal)
{
	// The top-level visibility is the default of tests that name none:
	// every test here names its own.
	std::string out = "{\n  \"score\": " + std::to_string(g.score) + ",\n  \"max_score\": " +
			  std::to_string(g.max_score) + ",\n  \"visibility\": \"visible\",\n  \"tests\": [";
	bool first = true;
	for (const graded_question &t : g.tests) {
		const std::string output = reveal == reveal_mode::always ? t.output + t.answer : t.output;
		out += std::string(first ? "" : ",") + "\n    {\"name\": " + json_string(t.name) +
		       ", \"score\": " + std::to_string(t.score) + ", \"max_score\": " + std::to_string(t.max_score) +
		       ", \"status\": " + (t.score == t.max_score ? "\"passed\"" : "\"failed\"") +
		       ", \"output\": " + json_string(output) + ", \"visibility\": \"visible\"}";
		first = false;
		// Scoreless: the question's own test carries its points.
		if (reveal == reveal_mode::after_due && !t.answer.empty())
			out += ",\n    {\"name\": " + json_string(t.name + ": expected answer") +
			       ", \"status\": \"failed\", \"output\": " + json_string(t.answer) +
			       ", \"visibility\": \"after_due_date\"}";
	}
	out += "\n  ]\n}\n";
	return out;
}

std::string plain_json(const grade_report &g, const check_result &r, bool reveal)
{
	std::string out = "{\n  \"score\": " + std::to_string(g.score) + ",\n  \"max_score\": " +
			  std::to_string(g.max_score) + ",\n  \"right\": " + std::to_string(r.right) +
			  ",\n  \"wrong\": " + std::to_string(r.wrong) + ",\n  \"questions\": [";
	for (std::size_t i = 0; i < g.tests.size(); i++) {
		const graded_question &t = g.tests[i];
		out += std::string(i ? "," : "") + "\n    {\"name\": " + json_string(t.name) +
		       ", \"score\": " + std::to_string(t.score) + ", \"max_score\": " + std::to_string(t.max_score) +
		       ", \"output\": " + json_string(t.output) +
		       (reveal && !t.answer.empty() ? ", \"answer\": " + json_string(t.answer) : "") + "}";
	}
	out += "\n  ]\n}\n";
	return out;
}

}  // namespace timersim::lab
