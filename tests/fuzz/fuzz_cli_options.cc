// libFuzzer target: arbitrary command lines through the option parser
// (the real app of tools/app.cc: every subcommand, option and validator),
// then the checks a chosen command makes before it reads anything
// (--param parsing). A usage error is the only way out; nothing runs.
//
// The input is split into arguments at NUL bytes.
// fuzz-sources: @sim @tools
// fuzz-pkgs: zlib libzstd libtracecmd libtraceevent babeltrace babeltrace-ctf fmt libcrypto ncursesw
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/base/errors.h"
#include "tools/commands.h"
#include "tools/suggest.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	std::vector<std::string> args{"timersim"};
	std::string cur;
	for (std::size_t i = 0; i < size; i++) {
		if (data[i] == 0) {
			args.push_back(cur);
			cur.clear();
		} else {
			cur += static_cast<char>(data[i]);
		}
	}
	args.push_back(cur);
	if (args.size() > 64)
		return 0;
	std::vector<char *> argv;
	for (std::string &a : args)
		argv.push_back(a.data());

	CLI::App app("fuzz", "timersim");
	timersim::cli::command_list commands;
	timersim::cli::build(app, commands);
	try {
		app.parse(static_cast<int>(argv.size()), argv.data());
	} catch (const CLI::ParseError &) {
		return 0;
	}
	// The suggestion search is what a typo reaches: it must stay bounded.
	timersim::cli::closest(args.back(), args);
	return 0;
}
