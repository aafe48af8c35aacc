#include "sim/lab/snapshot_json.h"

namespace timersim::lab {

void write_setup(json_writer &j, const wheel_setup &s)
{
	j.key("setup");
	j.begin_object();
	j.field("scheme", s.scheme);
	j.field("hz", s.hz);
	j.field("word_bits", s.word_bits);
	j.field("base_small", s.base_small);
	j.field("order", s.lifo ? "lifo" : "fifo");
	j.field("start", s.start);
	j.end_object();
}

void write_snapshot(json_writer &j, const wheel_snapshot &s)
{
	j.begin_object();
	j.field("scheme", s.scheme);
	j.field("word_bits", s.word_bits);
	j.field("now", s.now);
	j.field("pending", s.pending());
	j.key("bases");
	j.begin_array();
	for (const snapshot_base &b : s.bases) {
		j.begin_object();
		j.field("name", b.name);
		j.field("clock", b.clock);
		j.key("levels");
		j.begin_array();
		for (const snapshot_level &l : b.levels) {
			j.begin_object();
			j.field("name", l.name);
			j.field("size", l.size);
			j.field("index", l.index);
			j.field("width", l.width);
			j.key("slots");
			j.begin_array();
			for (const snapshot_slot &sl : l.slots) {
				j.begin_object();
				j.field("slot", sl.slot);
				j.key("timers");
				j.begin_array();
				for (const snapshot_timer &t : sl.timers) {
					j.begin_object();
					j.field("name", t.name);
					j.field("expires", t.expires);
					j.field("bucket_expiry", t.bucket_expiry);
					j.field("deferrable", t.deferrable);
					j.end_object();
				}
				j.end_array();
				j.end_object();
			}
			j.end_array();
			j.end_object();
		}
		j.end_array();
		j.end_object();
	}
	j.end_array();
	j.end_object();
}

void write_event(json_writer &j, const wheel_event &e)
{
	j.begin_object();
	j.field("kind", wheel_event_name(e.kind));
	j.field("timer", e.timer);
	j.field("base", e.base);
	j.field("jiffy", e.jiffy);
	j.field("level", e.level);
	j.field("slot", e.slot);
	j.field("from_level", e.from_level);
	j.field("from_slot", e.from_slot);
	j.field("expires", e.expires);
	j.field("requested", e.requested);
	j.field("bucket_expiry", e.bucket_expiry);
	j.field("clock", e.clock);
	j.field("count", static_cast<std::uint64_t>(e.count));
	j.field("rearm", e.rearm);
	j.field("why", e.why);
	j.end_object();
}

void write_step(json_writer &j, const step_record &r)
{
	j.begin_object();
	j.field("line", r.line);
	j.field("statement", r.text);
	j.field("at", r.at);
	j.key("events");
	j.begin_array();
	for (const wheel_event &e : r.events)
		write_event(j, e);
	j.end_array();
	j.field("not_pending", r.not_pending);
	j.field("shows_next", r.next_interrupt.has_value());
	j.field("next_interrupt", r.next_interrupt.value_or(0));
	j.field("ticks", r.work.ticks);
	j.field("cascade_calls", r.work.cascade_calls);
	j.key("wheel");
	if (r.after.bases.empty())
		j.null();	// past the picture budget (sim/lab/step.h)
	else
		write_snapshot(j, r.after);
	j.end_object();
}

void write_budget_json(json_writer &j, const budgeted_output &out)
{
	if (!out.stopped_at())
		return;
	j.key("bounded");
	j.begin_object();
	j.field("budget", static_cast<std::uint64_t>(out.budget()));
	j.field("from_line", out.stopped_at());
	j.end_object();
}

}  // namespace timersim::lab
