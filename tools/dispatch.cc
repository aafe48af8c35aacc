// The command line parsed and its command run: what `timersim ARGS` does
// short of turning errors into an exit status (tools/main.cc does that; the
// Python module, tools/python/, raises them as exceptions instead).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sim/base/errors.h"
#include "sim/scheme/scheme.h"
#include "tools/commands.h"
#include "tools/suggest.h"

namespace timersim::cli {

namespace {

// The option names a subcommand (and the app) accepts, for suggestions.
std::vector<std::string> option_names(const CLI::App *app)
{
	std::vector<std::string> names;
	for (const CLI::App *a = app; a; a = a->get_parent())
		for (const CLI::Option *o : a->get_options())
			for (const std::string &n : o->get_lnames())
				names.push_back("--" + n);
	return names;
}

const CLI::App *chosen_command(const CLI::App &app)
{
	auto subs = app.get_subcommands();
	return subs.empty() ? &app : subs.front();
}

// The word standing where the subcommand should be, when none was chosen:
// "repaly" in `timersim repaly x`; "" when there is none.
std::string unknown_command(const CLI::App &app)
{
	if (chosen_command(app) != &app)
		return "";
	for (const std::string &word : app.remaining())
		if (!word.empty() && word[0] != '-')
			return word;
	return "";
}

std::vector<std::string> command_names(const CLI::App &app)
{
	std::vector<std::string> names;
	for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; }))
		names.push_back(sub->get_name());
	return names;
}

// CLI11's words, plus what a user needs next: the nearest option to a
// mistyped one, and where to read more.
[[noreturn]] void parse_failure(const CLI::App &app, const CLI::ParseError &e)
{
	const CLI::App *sub = chosen_command(app);
	std::string msg = e.what();
	// CLI11 would say "A subcommand is required" to a mistyped one.
	std::string word = unknown_command(app);
	if (!word.empty())
		msg = "unknown command '" + word + "'" + did_you_mean(word, command_names(app));
	if (dynamic_cast<const CLI::ExtrasError *>(&e)) {
		for (const std::string &extra : sub->remaining()) {
			if (extra.rfind("--", 0) != 0)
				continue;
			std::string name = extra.substr(0, extra.find('='));
			msg += "\n  unknown option '" + name + "'" +
			       did_you_mean(name, option_names(sub));
		}
	}
	std::string help = sub == &app ? "timersim --help" : "timersim " + sub->get_name() + " --help";
	throw usage_error(msg + "\ntry '" + help + "'");
}

}  // namespace

int run(int argc, char **argv)
{
	CLI::App app("timersim: replay recorded Linux timer traces through the classic "
		     "tv1..tv5 wheel and the other timer schemes, and report what each costs",
		     "timersim");
	cli::command_list commands;
	cli::build(app, commands, argc > 1 ? argv[1] : "");

	// --list-schemes needs no subcommand.
	for (int i = 1; i < argc; i++)
		if (!std::strcmp(argv[i], "--list-schemes")) {
			for (const std::string &n : scheme_names())
				std::printf("%s\n", n.c_str());
			return 0;
		}

	try {
		app.parse(argc, argv);
	} catch (const CLI::CallForHelp &) {
		std::fputs(chosen_command(app)->help().c_str(), stdout);
		return 0;
	} catch (const CLI::CallForAllHelp &) {
		std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
		return 0;
	} catch (const CLI::CallForVersion &) {
		std::printf("%s\n", version);
		return 0;
	} catch (const CLI::ParseError &e) {
		parse_failure(app, e);
	}
	for (const cli::command &c : commands)
		if (c.app->parsed())
			return c.run();
	return 2;
}

}  // namespace timersim::cli
