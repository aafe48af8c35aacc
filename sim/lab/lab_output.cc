#include "sim/lab/lab_output.h"

#include "sim/base/errors.h"
#include "sim/lab/answers.h"
#include "sim/base/json_writer.h"

namespace timersim::lab {

namespace {

std::string indent_block(const std::string &text, const char *indent)
{
	std::string out;
	std::size_t pos = 0;
	while (pos < text.size()) {
		std::size_t end = text.find('\n', pos);
		if (end == std::string::npos)
			end = text.size();
		out += indent + text.substr(pos, end - pos) + "\n";
		pos = end + 1;
	}
	return out;
}

std::string options_of(const lab_config &cfg, lab_kind kind)
{
	exercise_ref ref;
	ref.kind = kind;
	ref.cfg = cfg;
	std::string key = answer_key(ref);	// "KIND ID [options]"
	std::size_t opts = key.find(" --");
	return opts == std::string::npos ? "" : key.substr(opts);
}

}  // namespace

std::vector<exercise_ref> refs_of(const lab_request &req)
{
	if (req.count < 1 || req.count > 10000)
		throw usage_error("-n: the number of questions must be 1 to 10000, not " + std::to_string(req.count));
	bool fixed = false;
	std::uint64_t first = 0;
	parse_exercise_id(req.seed, fixed, first);
	// The last question's seed is first + count - 1: up to 2^64-1.
	if (first > ~std::uint64_t{0} - (req.count - 1))
		throw usage_error("-s " + req.seed + ": the seeds of " + std::to_string(req.count) + " questions overflow");
	std::vector<exercise_ref> refs;
	for (std::uint64_t i = 0; i < req.count; i++) {
		exercise_ref r;
		r.kind = req.kind;
		r.cfg = req.cfg;
		r.id = (fixed ? "F" : "") + std::to_string(first + i);
		r.student = req.student;
		r.secret = req.secret;
		refs.push_back(r);
	}
	return refs;
}

std::string lab_text(const lab_request &req)
{
	std::vector<exercise> exs;
	for (const exercise_ref &r : refs_of(req))
		exs.push_back(make_exercise(r));
	const lab_config &cfg = exs.front().ref.cfg;
	const char *kind = lab_kind_name(req.kind);

	std::string out;
	out += std::string("ARG kind ") + kind + "\n";
	out += "ARG seed " + req.seed + "\n";
	out += "ARG count " + std::to_string(req.count) + "\n";
	out += std::string("ARG compute ") + (req.compute ? "yes" : "no") + "\n";
	out += "ARG hz " + std::to_string(cfg.hz) + "\n";
	out += "ARG word-bits " + std::to_string(cfg.word_bits) + "\n";
	out += std::string("ARG base-small ") + (cfg.base_small ? "yes" : "no") + "\n";
	// A private variant names its student, never the key.
	const std::string variant = req.student.empty() ? "" : " --student " + req.student + " --secret KEY";
	if (!req.student.empty())
		out += "ARG student " + req.student + "\n";
	out += std::string("(again: timersim lab ") + kind + " -s " + req.seed + " -n " + std::to_string(req.count) +
	       options_of(cfg, req.kind) + variant + (req.compute ? " -c" : "") + ")\n";

	for (std::size_t i = 0; i < exs.size(); i++) {
		const exercise &ex = exs[i];
		out += "\nQuestion " + std::to_string(i + 1) + " of " + std::to_string(exs.size()) + ": " +
		       answer_key(ex.ref) + "\n";
		out += indent_block(ex.question, "  ");
		out += "  Answer as: " + ex.answer_form + "\n";
		if (!req.compute)
			continue;
		const solution s = solve(ex);
		out += "\n  Answer: " + s.answer + "\n  Working:\n";
		for (const std::string &w : s.working)
			out += "    " + w + "\n";
		// An hrtimer scenario runs through the hrtimer model, no wheel.
		const std::string run = ex.sc.is_hr() ? "timersim step FILE --explain"
						      : "timersim step FILE --scheme " + ex.scheme + " --explain";
		out += "  Scenario (save it and run: " + run + "):\n";
		out += indent_block(render_scenario(ex.sc), "    ");
	}
	if (!req.compute)
		out += "\nCompute the answers with -c, or grade your own: write one line per question,\n  " +
		       answer_key(exs.front().ref) + " = YOUR ANSWER\nto a file and run: timersim lab check FILE\n";
	if (!req.compute && !req.student.empty())
		out += "(graded by your instructor: timersim lab check" + variant + " FILE)\n";
	return out;
}

std::string questions_file(const lab_request &req)
{
	std::vector<exercise> exs;
	for (const exercise_ref &r : refs_of(req))
		exs.push_back(make_exercise(r));
	const char *kind = lab_kind_name(req.kind);
	std::string out = "# timersim lab: " + std::to_string(exs.size()) + (exs.size() == 1 ? " question" : " questions");
	out += req.student.empty() ? std::string(" (timersim lab ") + kind + " -s " + req.seed + " -n " +
					     std::to_string(req.count) + options_of(exs.front().ref.cfg, req.kind) + ")\n"
				   : " for " + req.student + " (a private variant: your instructor grades it)\n";
	out += "# Write each answer after its line's '=', keep the lines as they are, and hand\n"
	       "# the file in; it is graded by `timersim lab check" +
	       std::string(req.student.empty() ? "" : " --student " + req.student + " --secret KEY") +
	       " FILE`. Open it in the browser lab (build/web/index.html) to answer there.\n";
	for (std::size_t i = 0; i < exs.size(); i++) {
		const exercise &ex = exs[i];
		const std::string key = answer_key(ex.ref);
		out += "\n# Question " + std::to_string(i + 1) + " of " + std::to_string(exs.size()) + ": " + key + "\n";
		out += indent_block(ex.question, "#   ");
		out += "#   Answer as: " + ex.answer_form + "\n";
		out += key + " =\n";
	}
	return out;
}

std::vector<handed_question> read_handed_questions(std::string_view text)
{
	std::vector<handed_question> out;
	handed_question q;
	bool in_question = false;
	std::size_t pos = 0;
	while (pos < text.size()) {
		std::size_t end = text.find('\n', pos);
		if (end == std::string_view::npos)
			end = text.size();
		std::string line(text.substr(pos, end - pos));
		pos = end + 1;
		if (!line.empty() && line.back() == '\r')
			line.pop_back();
		static const std::string head = "# Question ", body = "#   ", form = "#   Answer as: ";
		if (line.compare(0, head.size(), head) == 0) {
			const std::size_t colon = line.find(": ");
			q = {};
			q.key = colon == std::string::npos ? "" : line.substr(colon + 2);
			in_question = true;
		} else if (in_question && line.compare(0, form.size(), form) == 0) {
			q.answer_form = line.substr(form.size());
		} else if (in_question && line.compare(0, body.size(), body) == 0) {
			q.question += line.substr(body.size()) + "\n";
		} else if (in_question && line.compare(0, q.key.size() + 2, q.key + " =") == 0) {
			std::string a = line.substr(q.key.size() + 2);
			const std::size_t hash = a.find('#');
			a = a.substr(0, hash);
			const std::size_t first = a.find_first_not_of(" \t"), last = a.find_last_not_of(" \t");
			q.answer = first == std::string::npos ? "" : a.substr(first, last - first + 1);
			out.push_back(q);
			in_question = false;
		}
	}
	return out;
}

std::string lab_json(const lab_request &req)
{
	std::string out;
	json_writer j(out);
	j.begin_object();
	std::vector<exercise> exs;
	for (const exercise_ref &r : refs_of(req))
		exs.push_back(make_exercise(r));
	const lab_config &cfg = exs.front().ref.cfg;
	j.key("args");
	j.begin_object();
	j.field("kind", lab_kind_name(req.kind));
	j.field("seed", req.seed);
	j.field("count", req.count);
	j.field("hz", cfg.hz);
	j.field("word_bits", cfg.word_bits);
	j.field("base_small", cfg.base_small);
	if (!req.student.empty())
		j.field("student", req.student);
	j.end_object();
	j.key("questions");
	j.begin_array();
	for (const exercise &ex : exs) {
		const solution s = solve(ex);
		j.begin_object();
		j.field("kind", lab_kind_name(ex.ref.kind));
		j.field("id", ex.ref.id);
		j.field("key", answer_key(ex.ref));
		j.field("question", ex.question);
		j.field("answer_form", ex.answer_form);
		j.field("answer", s.answer);
		j.key("working");
		j.begin_array();
		for (const std::string &w : s.working)
			j.value(w);
		j.end_array();
		j.field("scheme", ex.scheme);
		j.field("scenario", render_scenario(ex.sc));
		j.end_object();
	}
	j.end_array();
	j.end_object();
	return out;
}

}  // namespace timersim::lab
