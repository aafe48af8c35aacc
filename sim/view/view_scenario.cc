#include "sim/view/view_scenario.h"

#include <map>

#include "sim/lab/lab_wheel.h"
#include "sim/lab/snapshot_json.h"
#include "sim/report/json_writer.h"
#include "sim/view/view_page.h"

namespace timersim {

namespace {

using namespace lab;

// Timers are named in a scenario; the page knows them by number, in the
// order they first appear.
class timer_table {
public:
	std::uint64_t id(const std::string &name)
	{
		auto [it, added] = ids_.emplace(name, names_.size());
		if (added)
			names_.push_back(name);
		return it->second;
	}
	const std::vector<std::string> &names() const { return names_; }

private:
	std::map<std::string, std::uint64_t> ids_;
	std::vector<std::string> names_;
};

unsigned base_index(const wheel_snapshot &w, const std::string &name)
{
	for (std::size_t b = 0; b < w.bases.size(); b++)
		if (w.bases[b].name == name)
			return static_cast<unsigned>(b);
	return 0;
}

// 1-based, as the page's events count levels.
unsigned level_number(const wheel_snapshot &w, unsigned base, const std::string &name)
{
	const std::vector<snapshot_level> &levels = w.bases[base].levels;
	for (std::size_t l = 0; l < levels.size(); l++)
		if (levels[l].name == name)
			return static_cast<unsigned>(l + 1);
	return 1;
}

void write_slots(json_writer &j, const snapshot_level &l, timer_table &timers)
{
	j.begin_array();
	for (const snapshot_slot &s : l.slots) {
		j.begin_array();
		j.value(s.slot);
		j.begin_array();
		for (const snapshot_timer &t : s.timers) {
			j.begin_array();
			j.value(timers.id(t.name));
			j.value(t.expires);
			j.value(t.bucket_expiry);
			j.value(t.deferrable);
			j.end_array();
		}
		j.end_array();
		j.end_array();
	}
	j.end_array();
}

void write_keyframe(json_writer &j, const wheel_snapshot &w, timer_table &timers)
{
	j.key("keyframe");
	j.begin_array();
	j.begin_array();
	for (const snapshot_base &b : w.bases) {
		j.begin_object();
		j.field("name", b.name);
		j.field("clock", b.clock);
		j.key("levels");
		j.begin_array();
		for (const snapshot_level &l : b.levels) {
			j.begin_object();
			j.field("name", l.name);
			j.field("size", l.size);
			j.field("width", l.width);
			j.key("slots");
			write_slots(j, l, timers);
			j.end_object();
		}
		j.end_array();
		j.end_object();
	}
	j.end_array();
	j.end_array();
}

void write_state(json_writer &j, const wheel_snapshot &w, timer_table &timers)
{
	j.begin_array();
	j.value("S");
	j.value(0u);
	j.begin_array();
	for (const snapshot_base &b : w.bases) {
		j.begin_array();
		for (const snapshot_level &l : b.levels)
			write_slots(j, l, timers);
		j.end_array();
	}
	j.end_array();
	j.end_array();
}

void write_frame(json_writer &j, const wheel_snapshot &w, const wheel_setup &setup, const std::string &label)
{
	j.begin_array();
	j.value("F");
	j.value(0u);
	j.value(w.now);
	// Unwrapped distance from the start, in the word.
	std::uint64_t ran = w.now - setup.start;
	if (setup.word_bits == 32)
		ran &= 0xffffffffull;
	j.value_fixed(static_cast<double>(ran) / setup.hz, 6);
	j.begin_array();
	for (const snapshot_base &b : w.bases)
		j.value(b.clock);
	j.end_array();
	j.value(label);
	j.end_array();
}

// One lab event as the page's event; `unchanged` changes no slot and is
// left out.
void write_event(json_writer &j, const wheel_event &e, const wheel_snapshot &w, timer_table &timers)
{
	if (e.kind == wheel_event_kind::unchanged)
		return;
	const unsigned base = base_index(w, e.base);
	// A placement and a move begin alike: which timer, and the slot it lands in.
	auto into_slot = [&](const char *kind) {
		j.value(kind);
		j.value(timers.id(e.timer));
		j.value(0u);
		j.value(base);
		j.value(level_number(w, base, e.level));
		j.value(e.slot);
		j.value(~0u);
		j.value(e.jiffy);
	};
	j.begin_array();
	switch (e.kind) {
	case wheel_event_kind::placed:
		into_slot("P");
		j.value(e.expires);
		j.value(e.bucket_expiry);
		j.value(e.clock);
		j.value(e.rearm);
		j.value(e.why);
		break;
	case wheel_event_kind::moved:
		into_slot("M");
		j.value(e.clock);
		j.value(e.why);
		break;
	case wheel_event_kind::cascaded:
		j.value("C");
		j.value(0u);
		j.value(level_number(w, base, e.level));
		j.value(e.count);
		j.value(e.jiffy);
		break;
	case wheel_event_kind::expired:
	case wheel_event_kind::deleted:
		j.value(e.kind == wheel_event_kind::expired ? "X" : "D");
		j.value(timers.id(e.timer));
		j.value(0u);
		j.value(e.jiffy);
		break;
	case wheel_event_kind::unchanged:
		break;
	}
	j.end_array();
}

struct busiest {
	std::size_t frame = 0;
	std::uint64_t jiffy = 0, moves = 0, expired = 0;
};

}  // namespace

std::string scenario_view_data(const scenario &s, const step_options &opt)
{
	const wheel_setup setup = resolve_setup(s, opt);
	auto wheel = make_lab_wheel(setup);
	const wheel_snapshot first = wheel->snapshot();
	std::vector<step_record> records;
	run_scenario(s, *wheel, [&](const step_record &r) { records.push_back(r); });

	busiest worst;
	for (std::size_t k = 0; k < records.size(); k++) {
		std::uint64_t moves = 0, expired = 0;
		for (const wheel_event &e : records[k].events) {
			moves += e.kind == wheel_event_kind::moved;
			expired += e.kind == wheel_event_kind::expired;
		}
		if (moves > worst.moves || (!worst.moves && expired > worst.expired))
			worst = {k + 1, records[k].at, moves, expired};
	}

	timer_table timers;
	std::string out;
	json_writer j(out);
	j.begin_object();
	j.field("trace", s.source);
	j.field("scheme", setup.scheme);
	j.field("hz", setup.hz);
	j.field("word_bits", setup.word_bits);
	j.field("cpus", 1u);
	j.key("levels");
	j.begin_array();
	for (const snapshot_level &l : first.bases.front().levels)
		j.value(l.name);
	j.end_array();
	j.key("worst");
	j.begin_object();
	j.field("cpu", 0u);
	j.field("frame", static_cast<std::uint64_t>(worst.frame));
	j.field("jiffy", worst.jiffy);
	j.field("moves", worst.moves);
	j.field("expired", worst.expired);
	j.end_object();
	j.key("lab");
	j.begin_object();
	write_setup(j, setup);
	j.field("wheel", wheel->describe());
	j.key("statements");
	j.begin_array();
	for (std::size_t k = 0; k < records.size(); k++) {
		j.begin_array();
		j.value(records[k].line);
		j.value(records[k].text);
		j.value(records[k].at);
		j.value(static_cast<std::uint64_t>(k + 1));
		j.value(records[k].next_interrupt.has_value());
		j.value(records[k].next_interrupt.value_or(0));
		j.end_array();
	}
	j.end_array();
	j.end_object();
	j.key("window");
	j.begin_object();
	j.field("drawable", true);
	j.field("from", first.now);
	j.field("to", records.empty() ? first.now : records.back().after.now);
	j.field("truncated", false);
	write_keyframe(j, first, timers);
	j.key("events");
	j.begin_array();
	write_frame(j, first, setup, "start");
	for (const step_record &r : records) {
		for (const wheel_event &e : r.events)
			write_event(j, e, r.after, timers);
		write_state(j, r.after, timers);
		write_frame(j, r.after, setup, "line " + std::to_string(r.line) + ": " + r.text);
	}
	j.end_array();
	// Last: the events named every timer.
	j.key("names");
	j.begin_array();
	for (const std::string &n : timers.names())
		j.value(n);
	j.end_array();
	j.key("timers");
	j.begin_array();
	for (std::size_t id = 0; id < timers.names().size(); id++) {
		j.begin_array();
		j.value(static_cast<std::uint64_t>(id));
		j.value("");
		j.value(static_cast<std::uint64_t>(id));
		j.value(first.now);
		j.value(first.now);
		j.value(false);
		j.end_array();
	}
	j.end_array();
	j.end_object();
	j.end_object();
	return out;
}

std::string scenario_view_html(const scenario &s, const step_options &opt)
{
	return view_page_html("timersim view: " + s.source + " (" + opt.scheme + ")", scenario_view_data(s, opt));
}

}  // namespace timersim
