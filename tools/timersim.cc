// timersim: replay recorded Linux timer traces through timer schemes.
//
//   timersim replay  [options] TRACE       one scheme, full cost report
//   timersim compare [options] TRACE       the same trace through each scheme
//
// The whole pipeline is replay_one(): reader -> replay core -> report.
// Exit status: 0 success, 2 usage or input error (message on stderr naming
// the file, line or offset and what was wrong), 1 internal error.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "sim/core/errors.h"
#include "sim/core/replay.h"
#include "sim/report/report_writers.h"
#include "sim/scheme/scheme.h"
#include "sim/trace/reader.h"

using namespace timersim;

namespace {

const char usage_text[] =
	"usage: timersim replay  [options] TRACE\n"
	"       timersim compare [options] [--schemes a,b,...] TRACE\n"
	"\n"
	"TRACE is raw tracefs text, `trace-cmd report` or `perf script` text (also\n"
	"gzip-compressed), a trace-cmd trace.dat, or an LTTng CTF directory.\n"
	"\n"
	"options:\n"
	"  --format F        auto (default), ftrace, trace-cmd-report, perf-script,\n"
	"                    trace-dat, ctf\n"
	"  --scheme S        replay: the scheme (default classic); see --list-schemes\n"
	"  --schemes a,b     compare: the schemes (default: all)\n"
	"  --param K=V       a scheme parameter; in compare SCHEME:K=V (repeatable)\n"
	"  --hz N            HZ (default: inferred from timestamps and jiffies)\n"
	"  --word-bits 32|64 width of unsigned long jiffies (default: inferred)\n"
	"  --base-small      CONFIG_BASE_SMALL wheel geometry (TVR 6, TVN 4)\n"
	"  --cpus N          number of CPU bases (default: from the trace)\n"
	"  --start J         jiffy the bases start at (default: the first in the trace)\n"
	"  --drain           after the last event, run until every timer has fired\n"
	"  --drain-limit J   ... but at most J jiffies past the last event (2^28)\n"
	"  --json FILE       the JSON report to FILE ('-': stdout, instead of text)\n"
	"  --expiry-log FILE replay: CSV cpu,timer,function,expires,fired per expiry\n"
	"  --lenient         skip malformed lines and count them, instead of failing\n"
	"  --symbols FILE    System.map or kallsyms to name CTF callback addresses\n"
	"  --top N           callbacks listed in the text report (default 10)\n"
	"  --timing          add wall time per event (not reproducible run to run)\n"
	"  --list-schemes    print the scheme names and exit\n";

struct cli {
	std::string command;
	std::string trace;
	trace_format format = trace_format::auto_detect;
	reader_options reader;
	replay_options replay;
	std::vector<std::string> schemes;
	std::vector<std::string> params;	// as given
	std::string json_path;
	std::string expiry_log_path;
	text_report_options text;
};

[[noreturn]] void usage_fail(const std::string &msg)
{
	throw usage_error(msg + "\n" + "try 'timersim --help'");
}

unsigned long long parse_number(const std::string &opt, const std::string &v)
{
	char *end = nullptr;
	errno = 0;
	unsigned long long n = std::strtoull(v.c_str(), &end, 0);
	if (v.empty() || *end || errno || v[0] == '-')
		usage_fail(opt + ": not a number: '" + v + "'");
	return n;
}

std::vector<std::string> split(const std::string &s, char sep)
{
	std::vector<std::string> out;
	std::size_t start = 0;
	for (std::size_t i = 0; i <= s.size(); i++)
		if (i == s.size() || s[i] == sep) {
			if (i > start)
				out.push_back(s.substr(start, i - start));
			start = i + 1;
		}
	return out;
}

cli parse(int argc, char **argv)
{
	cli c;
	std::vector<std::string> args(argv + 1, argv + argc);
	if (args.empty())
		usage_fail("no command given");
	c.command = args[0];
	if (c.command != "replay" && c.command != "compare")
		usage_fail("unknown command '" + c.command + "'");

	for (std::size_t i = 1; i < args.size(); i++) {
		const std::string &a = args[i];
		auto value = [&]() -> const std::string & {
			if (i + 1 >= args.size())
				usage_fail(a + " needs a value");
			return args[++i];
		};
		if (a == "--format") {
			if (!parse_trace_format(value(), c.format))
				usage_fail("--format: unknown format '" + args[i] + "'");
		} else if (a == "--scheme") {
			c.replay.scheme = value();
		} else if (a == "--schemes") {
			c.schemes = split(value(), ',');
		} else if (a == "--param") {
			c.params.push_back(value());
		} else if (a == "--hz") {
			c.replay.hz = static_cast<unsigned>(parse_number(a, value()));
			if (!c.replay.hz || c.replay.hz > 100000)
				usage_fail("--hz: out of range");
		} else if (a == "--word-bits") {
			auto bits = parse_number(a, value());
			if (bits != 32 && bits != 64)
				usage_fail("--word-bits: 32 or 64");
			c.replay.word_bits = static_cast<unsigned>(bits);
		} else if (a == "--base-small") {
			c.replay.base_small = true;
		} else if (a == "--cpus") {
			c.replay.cpus = static_cast<unsigned>(parse_number(a, value()));
			if (!c.replay.cpus || c.replay.cpus > 4096)
				usage_fail("--cpus: 1 to 4096");
		} else if (a == "--start") {
			c.replay.has_start = true;
			c.replay.start = parse_number(a, value());
		} else if (a == "--drain") {
			c.replay.drain = true;
		} else if (a == "--drain-limit") {
			c.replay.drain_limit = parse_number(a, value());
		} else if (a == "--json") {
			c.json_path = value();
		} else if (a == "--expiry-log") {
			c.expiry_log_path = value();
		} else if (a == "--lenient") {
			c.reader.lenient = c.replay.lenient = true;
		} else if (a == "--symbols") {
			c.reader.symbols = value();
		} else if (a == "--top") {
			c.text.top_functions = static_cast<unsigned>(parse_number(a, value()));
		} else if (a == "--timing") {
			c.text.timing = true;
		} else if (a.size() > 1 && a[0] == '-') {
			usage_fail("unknown option '" + a + "'");
		} else if (c.trace.empty()) {
			c.trace = a;
		} else {
			usage_fail("more than one trace given ('" + c.trace + "', '" + a + "')");
		}
	}
	if (c.trace.empty())
		usage_fail("no trace given");
	if (c.command == "compare" && !c.expiry_log_path.empty())
		usage_fail("--expiry-log belongs to replay");
	if (c.command == "replay" && !c.schemes.empty())
		usage_fail("--schemes belongs to compare; replay takes --scheme");
	return c;
}

// --param values for one scheme: "K=V" applies in replay, "SCHEME:K=V" to
// that scheme only.
std::vector<std::pair<std::string, std::string>> params_for(const cli &c, const std::string &scheme)
{
	std::vector<std::pair<std::string, std::string>> out;
	for (const std::string &p : c.params) {
		std::string kv = p;
		auto colon = p.find(':');
		if (colon != std::string::npos) {
			if (p.substr(0, colon) != scheme)
				continue;
			kv = p.substr(colon + 1);
		} else if (c.command == "compare") {
			usage_fail("--param " + p + ": in compare, name the scheme: SCHEME:" + p);
		}
		auto eq = kv.find('=');
		if (eq == std::string::npos || eq == 0)
			usage_fail("--param " + p + ": expected KEY=VALUE");
		out.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
	}
	return out;
}

std::uint64_t file_size(const std::string &path)
{
	struct stat st;
	return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : 0;
}

// The pipeline: reader -> replay core -> report.
replay_report replay_one(const cli &c, const std::string &scheme, std::FILE *expiry_log)
{
	replay_options opt = c.replay;
	opt.scheme = scheme;
	opt.params = params_for(c, scheme);
	// A bad scheme or parameter is the user's words: say so before reading.
	scheme_options check;
	check.params = opt.params;
	check.base_small = opt.base_small;
	make_scheme(scheme, check);

	std::unique_ptr<trace_reader> reader = open_trace(c.trace, c.format, c.reader);
	opt.expiry_log = expiry_log;
	opt.progress = isatty(STDERR_FILENO);
	opt.input_size = file_size(c.trace);
	return replay_trace(*reader, c.trace, opt);
}

void write_output(const std::string &path, const std::string &text)
{
	if (path == "-") {
		std::fwrite(text.data(), 1, text.size(), stdout);
		return;
	}
	std::FILE *f = std::fopen(path.c_str(), "w");
	if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size() || std::fclose(f))
		throw input_error(path, 0, std::string("cannot write: ") + std::strerror(errno));
}

int run(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h")) {
			std::fputs(usage_text, stdout);
			return 0;
		}
		if (!std::strcmp(argv[i], "--list-schemes")) {
			for (const std::string &n : scheme_names())
				std::printf("%s\n", n.c_str());
			return 0;
		}
	}
	cli c = parse(argc, argv);

	if (c.command == "replay") {
		std::FILE *log = nullptr;
		if (!c.expiry_log_path.empty()) {
			log = c.expiry_log_path == "-" ? stdout : std::fopen(c.expiry_log_path.c_str(), "w");
			if (!log)
				throw input_error(c.expiry_log_path, 0,
						  std::string("cannot write: ") + std::strerror(errno));
			std::fputs("cpu,timer,function,expires,fired\n", log);
		}
		replay_report r = replay_one(c, c.replay.scheme, log);
		if (log && log != stdout && std::fclose(log))
			throw input_error(c.expiry_log_path, 0, "cannot write");
		if (!c.json_path.empty())
			write_output(c.json_path, json_report(r, c.text.timing));
		if (c.json_path != "-" && c.expiry_log_path != "-")
			write_output("-", text_report(r, c.text));
		return 0;
	}

	std::vector<std::string> schemes = c.schemes.empty() ? scheme_names() : c.schemes;
	std::vector<replay_report> reports;
	for (const std::string &s : schemes)
		reports.push_back(replay_one(c, s, nullptr));
	if (!c.json_path.empty())
		write_output(c.json_path, json_compare(reports, c.text.timing));
	if (c.json_path != "-")
		write_output("-", compare_table(reports, c.text.timing));
	return 0;
}

}  // namespace

int main(int argc, char **argv)
{
	try {
		return run(argc, argv);
	} catch (const usage_error &e) {
		std::fprintf(stderr, "timersim: %s\n", e.what());
		return 2;
	} catch (const input_error &e) {
		std::fprintf(stderr, "timersim: %s\n", e.what());
		return 2;
	} catch (const std::bad_alloc &) {
		std::fprintf(stderr, "timersim: out of memory\n");
		return 1;
	} catch (const std::exception &e) {
		std::fprintf(stderr, "timersim: internal error: %s\n", e.what());
		return 1;
	}
}
