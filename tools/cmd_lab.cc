// timersim lab: the teaching lab. `lab KIND` makes exercises from a seed
// (OSTEP style: -s seed, -n count, -c answers with their working, the
// arguments echoed); `lab check FILE` grades a file of answers.
#include <memory>
#include <string>
#include <vector>

#include "sim/base/errors.h"
#include "sim/lab/answers.h"
#include "sim/lab/grade_report.h"
#include "sim/lab/lab_output.h"
#include "sim/output/output_file.h"
#include "tools/commands.h"
#include "tools/numbers.h"

namespace timersim::cli {

namespace {

struct lab_args {
	std::string kind;
	lab::lab_request req;
	std::string json;
	std::string answers;
	bool no_working = false, show_expected = false;
	std::string reveal = "after-due";
	CLI::Option *reveal_opt = nullptr;
	std::string format = "text";
	std::string questions_out;
	std::string questions;
	std::string output = "-";
};

CLI::Validator kind_name()
{
	return CLI::Validator(
		[](std::string &name) -> std::string {
			lab::lab_kind k;
			if (lab::parse_lab_kind(name, k))
				return "";
			return "unknown kind '" + name + "' (place, cascade, fire, next, wrap, v48, cost, coalesce)";
		},
		"");
}

// A private variant needs both: the student's id makes it theirs, the
// key makes it the instructor's (without it neither questions nor answers).
void check_variant(const lab::lab_request &req, bool compute)
{
	if (!req.secret.empty() && req.student.empty())
		throw usage_error("--secret needs --student ID: the key makes a variant for a student");
	if (!req.student.empty() && req.secret.empty())
		throw usage_error(std::string("--student ") + req.student + ": a private variant needs the instructor's --secret" +
				  (compute ? "; its answers (-c) are the key holder's only" : ""));
}

int run_lab(lab_args &a)
{
	if (a.kind.empty())
		throw usage_error("lab: give a KIND (place, cascade, fire, next, wrap, v48, cost, coalesce), or `lab check FILE`");
	lab::parse_lab_kind(a.kind, a.req.kind);
	check_variant(a.req, a.req.compute || !a.json.empty());
	if (!a.json.empty()) {
		write_output(a.json, lab::lab_json(a.req));
		return 0;
	}
	if (!a.questions_out.empty()) {
		if (a.req.compute)
			throw usage_error("--questions-out writes questions only: -c would put the answers beside them");
		write_output(a.questions_out, lab::questions_file(a.req));
		return 0;
	}
	write_output("-", lab::lab_text(a.req));
	return 0;
}

// "A, B and C".
std::string listed(const std::vector<std::string> &names)
{
	std::string out;
	for (std::size_t i = 0; i < names.size(); i++)
		out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
	return out;
}

int run_check(const lab_args &a, const CLI::App &lab)
{
	// Each answer line names its exercise and its wheel options: what
	// `lab` was given for making exercises would be silently ignored.
	// Given before `check` they are `lab`'s options; after it, the hidden
	// stand-ins of `check` (add_lab) that catch them.
	std::vector<std::string> given;
	for (const CLI::App *app : {&lab, static_cast<const CLI::App *>(lab.get_subcommand("check"))})
		for (const CLI::Option *o : app->get_options())
			if (o->count() > 0 && (app == &lab ? o->get_name() != "--student" && o->get_name() != "--secret"
							   : o->get_group().empty()))
				// A hidden option has no get_name(); each of them a long name.
				given.push_back(app == &lab ? o->get_name() : "--" + o->get_lnames().front());
	if (!given.empty())
		throw usage_error(listed(given) + (given.size() == 1 ? " does" : " do") +
				  " not apply to `lab check`: each answer line names its exercise and options "
				  "(KIND ID [options] = ANSWER); run `timersim lab check FILE`");
	// Exit 0: every answer right; 1: some wrong (a line that is not an
	// answer counts wrong); 2: the file could not be read as answers.
	check_variant(a.req, true);
	if (a.reveal_opt->count() && a.format != "gradescope")
		throw usage_error("--reveal chooses when Gradescope shows the expected answers (--format gradescope); "
				  "the text and json grades show them unless --no-working");
	if (a.show_expected && !a.no_working)
		throw usage_error("--show-expected goes with --no-working (without it the expected answer is shown)");
	// --no-working hides the expected answer too: it is the working's result.
	const bool expected = !a.no_working || a.show_expected;
	std::vector<lab::exercise_ref> questions;
	if (!a.questions.empty())
		questions = lab::read_questions_file(a.questions);
	for (lab::exercise_ref &q : questions) {
		q.student = a.req.student;
		q.secret = a.req.secret;
	}
	lab::check_result r = lab::check_answers_file(a.answers, a.req.student, a.req.secret);
	if (a.format == "text" && questions.empty()) {
		write_output(a.output, lab::check_text(r, !a.no_working, expected));
		return r.all_right() ? 0 : 1;
	}
	const lab::grade_report g = lab::make_grade_report(r, questions, !a.no_working);
	if (a.format == "gradescope") {
		lab::reveal_mode reveal = lab::reveal_mode::after_due;
		lab::parse_reveal_mode(a.reveal, reveal);
		write_output(a.output, lab::gradescope_json(g, reveal));
	} else if (a.format == "json")
		write_output(a.output, lab::plain_json(g, r, expected));
	else
		write_output(a.output, lab::check_text(r, !a.no_working, expected) + "score: " + std::to_string(g.score) +
					       " of " + std::to_string(g.max_score) + "\n");
	return g.max_score > 0 && g.score == g.max_score ? 0 : 1;
}

}  // namespace

void add_lab(CLI::App &app, command_list &commands)
{
	auto a = std::make_shared<lab_args>();
	CLI::App *sub = app.add_subcommand("lab", "teaching lab: exercises on the timer wheels from a seed, "
						  "answered by the wheels themselves (docs/lab/)");
	sub->add_option("KIND", a->kind, "place, cascade, fire, next, wrap, v48, cost or coalesce")->check(kind_name());
	sub->add_option("-s,--seed", a->req.seed,
			"the seed of the first question (default 0); F1, F2, ...: the fixed, "
			"hand-worked exercises")
		->type_name("SEED");
	sub->add_option("-n,--count", a->req.count, "how many questions (seeds SEED, SEED+1, ...; default 1)")
		->type_name("N")
		->check(number_check(a->req.count))
		->check(CLI::Range(1u, 10000u).description(""));
	sub->add_flag("-c,--compute", a->req.compute, "print the answers with their working");
	sub->add_option("--hz", a->req.cfg.hz, "HZ (default 250)")
		->type_name("N")
		->check(number_check(a->req.cfg.hz))
		->check(CLI::IsMember({100u, 250u, 300u, 1000u}).description(""));
	sub->add_option("--word-bits", a->req.cfg.word_bits,
			"width of unsigned long jiffies (default 64; wrap is always 32)")
		->type_name("32|64")
		->check(number_check(a->req.cfg.word_bits))
		->check(CLI::IsMember({32u, 64u}).description(""));
	sub->add_flag("--base-small", a->req.cfg.base_small,
		      "CONFIG_BASE_SMALL wheel geometry (TVR_BITS 6, TVN_BITS 4)");
	sub->add_option("--json", a->json,
			"questions and answers as JSON to FILE, for an autograder ('-': stdout)")
		->type_name("FILE")
		->check(non_empty("path"));
	auto variant_options = [a](CLI::App *app) {
		app->add_option("--student", a->req.student,
				"a private variant: questions for this student, drawn with --secret")
			->type_name("ID")
			->check(non_empty("student id"));
		app->add_option("--secret", a->req.secret,
				"the instructor's key of private variants (questions and answers need it)")
			->type_name("KEY")
			->check(non_empty("key"));
	};
	sub->add_option("--questions-out", a->questions_out,
			"the questions only, as a file of answer lines to fill in (KIND ID [options] = ) "
			"under the questions as comments: what a student is handed ('-': stdout)")
		->type_name("FILE")
		->check(non_empty("path"));
	variant_options(sub);
	sub->require_subcommand(0, 1);
	sub->footer("examples:\n"
		    "  timersim lab place -s 7 -n 3\n"
		    "  timersim lab place -s 7 -n 3 -c\n"
		    "  timersim lab cascade -s F2 -c\n"
		    "  timersim lab check answers.txt");

	CLI::App *check = sub->add_subcommand("check", "grade a file of answers, one a line "
						       "(KIND ID [options] = ANSWER); exit 0: all right, 1: some "
						       "wrong (a line that is not an answer is wrong), 2: the file "
						       "cannot be read as answers");
	check->add_option("FILE", a->answers, "the answers file (see docs/lab/README.md)")->required();
	check->add_flag("--no-working", a->no_working,
			"for a wrong answer print neither the working nor the expected answer");
	check->add_flag("--show-expected", a->show_expected, "with --no-working: print the expected answer");
	a->reveal_opt = check->add_option("--reveal", a->reveal,
					  "gradescope: when students see a wrong answer's expected answer and "
					  "working: never, after-due (default: a test of its own with visibility "
					  "after_due_date) or always")
				->type_name("WHEN")
				->check(CLI::IsMember({"never", "after-due", "always"}).description(""));
	check->add_option("--format", a->format,
			  "text (default); gradescope: Gradescope's results.json (a score a question, "
			  "partial credit for answers of several parts); json: the same scores as plain JSON")
		->type_name("FORMAT")
		->check(CLI::IsMember({"text", "gradescope", "json"}).description(""));
	check->add_option("--questions", a->questions,
			  "the assignment's questions, KIND ID [options] a line: one without an answer "
			  "scores 0 (text: a score line follows the verdicts)")
		->type_name("FILE")
		->check(non_empty("path"));
	variant_options(check);
	// `lab`'s options written after `check` (`lab check -s 3 FILE`): named
	// as not applying, not taken for files. Hidden (group "").
	for (const char *name : {"-s,--seed", "-n,--count", "--hz", "--word-bits", "--json", "--questions-out"})
		check->add_option(name)->group("")->expected(1);
	for (const char *name : {"-c,--compute", "--base-small"})
		check->add_flag(name)->group("");
	check->add_option("-o,--output", a->output, "write the grades to FILE (default '-': stdout)")
		->type_name("FILE")
		->check(non_empty("path"));

	// `lab check` first: `lab` is parsed too when its subcommand is.
	commands.push_back({check, [a, sub] { return run_check(*a, *sub); }});
	commands.push_back({sub, [a] { return run_lab(*a); }});
}

}  // namespace timersim::cli
