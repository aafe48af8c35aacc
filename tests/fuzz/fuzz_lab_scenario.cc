// libFuzzer target: arbitrary bytes as a lab scenario (the language of
// `timersim step` / `view` and docs/lab/scenarios) through the parser; a
// scenario that parses must render to text that parses back to the same
// rendering, and is then run on the lab wheel of both schemes, statement by
// statement, as `timersim step` would, huge steps included (idle
// stretches are skipped, so a step costs its timers, not its length; the
// corpus keeps 2^32-jiffy ticks and run-to 2^64 - 1). input_error and
// usage_error (a setting the lab has no wheel for) are the only ways out.
// A scenario of hrtimers (hrstart, hrcancel, run-to-ns) runs on the
// hrtimer model instead, bounded by its interrupt and callback caps.
//
// fuzz-sources: @sim
// fuzz-pkgs: zlib libzstd libtracecmd libtraceevent babeltrace babeltrace-ctf fmt libcrypto
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "sim/base/errors.h"
#include "sim/lab/hr_step.h"
#include "sim/lab/lab_wheel.h"
#include "sim/lab/scenario.h"
#include "sim/lab/step.h"
#include "sim/trace/reader.h"

using namespace timersim;
using namespace timersim::lab;

namespace {

void run_on(const scenario &s, const char *scheme)
{
	step_options opt;
	opt.scheme = scheme;
	try {
		auto wheel = make_lab_wheel(resolve_setup(s, opt));
		for (const scenario_op &op : s.ops) {
			step_record r = run_op(op, s.source, *wheel);
			format_step(r, true);
		}
	} catch (const input_error &) {
	} catch (const usage_error &) {
	}
}

}  // namespace

static void run_hr(const scenario &s)
{
	try {
		write_hr_step_text(s, true, [](std::string_view) {});
	} catch (const input_error &) {
	}
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	std::string_view text(reinterpret_cast<const char *>(data), size);
	looks_like_scenario(text);
	scenario s;
	try {
		s = parse_scenario(text, "fuzz.txt");
	} catch (const input_error &) {
		return 0;
	}
	std::string rendered = render_scenario(s);
	scenario back;
	try {
		back = parse_scenario(rendered, "rendered.txt");
	} catch (const input_error &) {
		__builtin_trap();	// its own rendering must parse
	}
	if (render_scenario(back) != rendered || back.ops.size() != s.ops.size())
		__builtin_trap();
	run_on(s, "classic");
	run_on(s, "v48");
	if (s.is_hr())
		run_hr(s);
	return 0;
}
