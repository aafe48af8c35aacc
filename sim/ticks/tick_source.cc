#include "sim/ticks/tick_source.h"

#include "sim/base/errors.h"

namespace timersim {

namespace {

// How far past a tick the source looks for the softirq that followed it:
// its expiries come right after the tick on the same CPU, before that CPU
// does any other timer work.
constexpr std::size_t softirq_lookahead = 4096;

}  // namespace

const char *tick_mode_name(tick_mode m)
{
	switch (m) {
	case tick_mode::automatic:	return "auto";
	case tick_mode::recorded:	return "recorded";
	case tick_mode::every_jiffy:	return "every-jiffy";
	}
	return "?";
}

bool parse_tick_mode(std::string_view s, tick_mode &m)
{
	for (tick_mode c : {tick_mode::automatic, tick_mode::recorded, tick_mode::every_jiffy})
		if (s == tick_mode_name(c)) {
			m = c;
			return true;
		}
	return false;
}

tick_source::tick_source(event_stream &stream, const interner &names, tick_mode requested,
			 unsigned hz, unsigned word_bits, unsigned cpus, std::size_t prologue,
			 const std::string &every_jiffy_why)
	: model_(cpus)
{
	summary_.tick = identify_tick(stream, names, hz, prologue);
	if (summary_.tick.found())
		summary_.grid = fit_tick_grid(stream, summary_.tick, word_bits, prologue);
	const bool have = summary_.tick.found() && summary_.grid.known();

	if (requested == tick_mode::every_jiffy) {
		summary_.reason = every_jiffy_why.empty() ? "--ticks every-jiffy" : every_jiffy_why;
	} else if (have) {
		recorded_ = true;
		summary_.reason = requested == tick_mode::recorded ? "--ticks recorded"
			: "the trace records its ticks";
	} else {
		std::string why = !summary_.tick.found()
			? "the trace has no tick events (" + summary_.tick.describe() + ")"
			: "the tick's expiries could not be placed on jiffies (" +
				  summary_.grid.describe() + ")";
		if (requested == tick_mode::recorded)
			throw usage_error("--ticks recorded: " + why);
		summary_.reason = why;
	}
	summary_.model = recorded_ ? "recorded" : "every-jiffy";
}

tick_run tick_source::run(const sim_event &ev, event_stream &stream,
			  const std::function<jiffies_t(std::uint64_t)> &unwrap)
{
	const tick_grid &g = summary_.grid;
	const std::uint64_t line = g.line(ev.now);
	const jiffies_t grid = unwrap(g.jiffies(ev.now));

	std::optional<jiffies_t> seen;
	bool other_first = false;
	stream.scan_ahead(1, softirq_lookahead, [&](const sim_event &next, std::size_t) {
		if (is_tick(next)) {
			if (next.cpu == ev.cpu)
				return false;
			other_first = other_first || g.line(next.now) >= line;
			return true;
		}
		if (next.cpu != ev.cpu || next.carries(EF_MEASURE_ONLY))
			return true;
		if (next.kind == event_kind::timer_expire_entry) {
			seen = unwrap(next.now);
			return false;
		}
		// The CPU went on to other timer work first: this tick's
		// softirq, if it ran, fired nothing.
		return !(next.kind == event_kind::timer_start || next.kind == event_kind::timer_init ||
			 next.kind == event_kind::timer_base_idle);
	});
	return model_.tick(ev.cpu, grid, seen, other_first);
}

tick_summary tick_source::summary() const
{
	tick_summary s = summary_;
	s.runs = model_.stats();
	return s;
}

}  // namespace timersim
