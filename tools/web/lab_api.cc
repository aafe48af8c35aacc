// The browser lab's way into the lab (make web): the functions the page
// calls, each a thin layer over sim/lab and sim/view -- the same exercises,
// answers, grader and wheel pictures as `timersim lab`, `lab check`, `step`
// and `view`, compiled to WebAssembly. Every function takes and returns
// strings; a usage or input error comes back as {"error": MESSAGE,
// "status": 2}, the message `timersim` prints for it.
#include <emscripten/bind.h>

#include <string>

#include "sim/base/errors.h"
#include "sim/base/json_writer.h"
#include "sim/lab/answers.h"
#include "sim/lab/grade_report.h"
#include "sim/lab/lab_output.h"
#include "sim/lab/step.h"
#include "sim/trace/reader.h"
#include "sim/view/view_scenario.h"

namespace timersim::web {

namespace {

std::string error_json(const std::string &message)
{
	std::string out;
	json_writer j(out);
	j.begin_object();
	j.field("error", message);
	j.field("status", 2u);
	j.end_object();
	return out;
}

// The errors `timersim` turns into exit 2, as JSON.
template <class F>
std::string guarded(F &&f)
{
	try {
		return f();
	} catch (const input_error &e) {
		return error_json(e.what());
	} catch (const usage_error &e) {
		return error_json(e.what());
	} catch (const std::exception &e) {
		return error_json(std::string("internal error: ") + e.what());
	}
}

lab::lab_request request(const std::string &kind, const std::string &seed, unsigned count, unsigned hz,
			 unsigned word_bits, bool base_small, bool compute)
{
	lab::lab_request req;
	if (!lab::parse_lab_kind(kind, req.kind))
		throw usage_error("unknown kind '" + kind + "' (place, cascade, fire, next, wrap, v48, cost, coalesce)");
	req.seed = seed;
	req.count = count;
	req.cfg.hz = hz;
	req.cfg.word_bits = word_bits;
	req.cfg.base_small = base_small;
	req.compute = compute;
	return req;
}

lab::exercise one_exercise(const std::string &kind, const std::string &id, unsigned hz, unsigned word_bits,
			   bool base_small)
{
	return lab::make_exercise(lab::refs_of(request(kind, id, 1, hz, word_bits, base_small, false)).front());
}

}  // namespace

// The kinds and each one's fixed exercises: {kinds: [{name, fixed: [ids]}]}.
std::string kinds()
{
	std::string out;
	json_writer j(out);
	j.begin_object();
	j.key("kinds");
	j.begin_array();
	for (lab::lab_kind k : lab::lab_kinds()) {
		j.begin_object();
		j.field("name", lab::lab_kind_name(k));
		j.key("fixed");
		j.begin_array();
		for (const std::string &id : lab::fixed_ids(k))
			j.value(id);
		j.end_array();
		j.end_object();
	}
	j.end_array();
	j.end_object();
	return out;
}

// `timersim lab KIND -s SEED -n COUNT [--hz N] [--word-bits N]
// [--base-small] [-c]`'s standard output.
std::string lab_text(const std::string &kind, const std::string &seed, unsigned count, unsigned hz,
		     unsigned word_bits, bool base_small, bool compute)
{
	return guarded([&] {
		std::string out;
		json_writer j(out);
		j.begin_object();
		j.field("text", lab::lab_text(request(kind, seed, count, hz, word_bits, base_small, compute)));
		j.end_object();
		return out;
	});
}

// One exercise as the page shows it: {key, question, answer_form, scheme,
// hr (a scenario of hrtimers: no wheel to draw)}.
std::string exercise(const std::string &kind, const std::string &id, unsigned hz, unsigned word_bits,
		     bool base_small)
{
	return guarded([&] {
		const lab::exercise ex = one_exercise(kind, id, hz, word_bits, base_small);
		std::string out;
		json_writer j(out);
		j.begin_object();
		j.field("key", lab::answer_key(ex.ref));
		j.field("question", ex.question);
		j.field("answer_form", ex.answer_form);
		j.field("scheme", ex.scheme);
		j.field("hr", ex.sc.is_hr());
		j.end_object();
		return out;
	});
}

// `timersim lab check FILE` of the text `answers`: {text, format,
// all_right, right, wrong, lines: [{line, key, right, problem, given,
// expected, working}]}. format: "text" (with the working, as `lab check`),
// "gradescope" (its default --reveal) or "json".
std::string check(const std::string &answers, const std::string &format)
{
	return guarded([&] {
		const lab::check_result r = lab::check_answers(answers, "answers");
		std::string text;
		if (format == "gradescope")
			text = lab::gradescope_json(lab::make_grade_report(r, {}, true));
		else if (format == "json")
			text = lab::plain_json(lab::make_grade_report(r, {}, true), r, true);
		else
			text = lab::check_text(r);
		std::string out;
		json_writer j(out);
		j.begin_object();
		j.field("text", text);
		j.field("all_right", r.all_right());
		j.field("right", r.right);
		j.field("wrong", r.wrong);
		j.key("lines");
		j.begin_array();
		for (const lab::graded_line &g : r.lines) {
			j.begin_object();
			j.field("line", g.line);
			j.field("key", g.key);
			j.field("right", g.right);
			j.field("problem", g.problem);
			j.field("given", g.given);
			j.field("expected", g.expected);
			j.key("working");
			j.begin_array();
			for (const std::string &w : g.working)
				j.value(w);
			j.end_array();
			j.end_object();
		}
		j.end_array();
		j.end_object();
		return out;
	});
}

// A handed-out questions file (lab KIND --questions-out): {questions:
// [{key, question, answer_form, answer}]}; the keys are checked as `lab
// check --questions` checks them.
std::string handed_questions(const std::string &text)
{
	return guarded([&] {
		lab::parse_questions(text, "questions file");
		std::string out;
		json_writer j(out);
		j.begin_object();
		j.key("questions");
		j.begin_array();
		for (const lab::handed_question &q : lab::read_handed_questions(text)) {
			j.begin_object();
			j.field("key", q.key);
			j.field("question", q.question);
			j.field("answer_form", q.answer_form);
			j.field("answer", q.answer);
			j.end_object();
		}
		j.end_array();
		j.end_object();
		return out;
	});
}

// The exercise's scenario stepped: {html: `timersim view`'s page of it}
// for a wheel, or {text: `timersim step --explain`'s output} for hrtimers.
std::string steps(const std::string &kind, const std::string &id, unsigned hz, unsigned word_bits,
		  bool base_small)
{
	return guarded([&] {
		const lab::exercise ex = one_exercise(kind, id, hz, word_bits, base_small);
		lab::step_options opt;
		opt.scheme = ex.scheme;
		std::string out;
		json_writer j(out);
		j.begin_object();
		j.field("scenario", lab::render_scenario(ex.sc));
		if (ex.sc.is_hr()) {
			opt.explain = true;
			j.field("text", lab::step_text(ex.sc, opt));
		} else {
			j.field("html", scenario_view_html(ex.sc, opt));
		}
		j.end_object();
		return out;
	});
}

}  // namespace timersim::web

EMSCRIPTEN_BINDINGS(timersim_lab)
{
	emscripten::function("kinds", &timersim::web::kinds);
	emscripten::function("labText", &timersim::web::lab_text);
	emscripten::function("exercise", &timersim::web::exercise);
	emscripten::function("check", &timersim::web::check);
	emscripten::function("handedQuestions", &timersim::web::handed_questions);
	emscripten::function("steps", &timersim::web::steps);
}
