// timersim: replay recorded Linux timer traces through timer schemes.
//
//   timersim replay  [options] TRACE       one scheme, full cost report
//   timersim compare [options] TRACE       the same trace through each scheme
//
// Each subcommand lives in tools/cmd_*.cc; tools/dispatch.cc parses and
// dispatches; this file turns what it throws into a message and a status.
// Exit status: 0 success, 2 usage or input error (message on stderr naming
// the file, line or offset and what was wrong), 1 a failed output or an
// internal error.
#include <cstdio>
#include <new>

#include "sim/base/errors.h"
#include "sim/base/malloc_tuning.h"
#include "sim/output/output_file.h"
#include "sim/trace/reader.h"
#include "tools/commands.h"

using namespace timersim;

int main(int argc, char **argv)
{
	tune_malloc();
	install_output_cleanup();
	try {
		return cli::run(argc, argv);
	} catch (const usage_error &e) {
		std::fprintf(stderr, "timersim: %s\n", e.what());
		return 2;
	} catch (const input_error &e) {
		std::fprintf(stderr, "timersim: %s\n", e.what());
		return 2;
	} catch (const output_error &e) {
		std::fprintf(stderr, "timersim: %s\n", e.what());
		return 1;
	} catch (const std::bad_alloc &) {
		std::fprintf(stderr, "timersim: out of memory\n");
		return 1;
	} catch (const std::exception &e) {
		std::fprintf(stderr, "timersim: internal error: %s\n", e.what());
		return 1;
	}
}
