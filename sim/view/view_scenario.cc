#include "sim/view/view_scenario.h"

#include <map>

#include "sim/lab/lab_wheel.h"
#include "sim/view/packed_json.h"
#include "sim/view/view_page.h"

namespace timersim {

namespace {

using namespace lab;

// Timers are named in a scenario; the page knows them by number, in the
// order they first appear. A statement left off the page takes back the
// names it brought.
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
	void forget_after(std::size_t count)
	{
		while (names_.size() > count) {
			ids_.erase(names_.back());
			names_.pop_back();
		}
	}

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

// Where in its slot's list a placement or move puts a timer: the page
// inserts at that position, so that the events alone rebuild every slot
// in list order. The classic wheel appends (FIFO, up to 4.1) or pushes
// (LIFO, 4.2+); v48's buckets are hlists, pushed at the head.
constexpr unsigned at_tail = ~0u;	// the page clamps it to the list's length

unsigned insert_position(const wheel_setup &setup)
{
	return setup.scheme == "classic" && !setup.lifo ? at_tail : 0;
}

// The empty wheel the page starts from: every base and level, no slots.
void write_keyframe(packed &p, const wheel_snapshot &w)
{
	p.key("keyframe").open('[').open('[');
	for (const snapshot_base &b : w.bases) {
		p.open('{');
		p.key("name").str(b.name);
		p.key("clock").num(b.clock);
		p.key("levels").open('[');
		for (const snapshot_level &l : b.levels) {
			p.open('{');
			p.key("name").str(l.name);
			p.key("size").num(l.size);
			p.key("width").num(l.width);
			p.key("slots").open('[').close(']');
			p.close('}');
		}
		p.close(']');
		p.close('}');
	}
	p.close(']').close(']');
}

void write_frame(packed &p, std::uint64_t now, const std::vector<std::uint64_t> &clocks, const wheel_setup &setup,
		 const std::string &label)
{
	p.nl().open('[').str("F").num(0u).num(now);
	// Unwrapped distance from the start, in the word.
	std::uint64_t ran = now - setup.start;
	if (setup.word_bits == 32)
		ran &= 0xffffffffull;
	p.fixed(static_cast<double>(ran) / setup.hz, 6).open('[');
	for (std::uint64_t c : clocks)
		p.num(c);
	p.close(']').str(label).close(']');
}

// One lab event as the page's event. A re-arm that changed no slot is an
// "E": only the timer's expiry changes (v48's same-bucket shortcut).
void write_event(packed &p, const wheel_event &e, const wheel_snapshot &shape, unsigned position,
		 timer_table &timers)
{
	const unsigned base = base_index(shape, e.base);
	// A placement and a move begin alike: which timer, and the slot it lands in.
	// A re-arm the wheel left in place has the position -1: it stays.
	auto into_slot = [&](const char *kind) {
		p.str(kind).num(timers.id(e.timer)).num(0u).num(base).num(level_number(shape, base, e.level))
			.num(e.slot);
		if (e.stayed)
			p.raw("-1");
		else
			p.num(position);
		p.num(e.jiffy);
	};
	p.nl().open('[');
	switch (e.kind) {
	case wheel_event_kind::placed:
		into_slot("P");
		p.num(e.expires).num(e.bucket_expiry).num(e.clock).num(e.rearm).str(e.why);
		break;
	case wheel_event_kind::moved:
		into_slot("M");
		p.num(e.clock).str(e.why);
		break;
	case wheel_event_kind::cascaded:
		p.str("C").num(0u).num(level_number(shape, base, e.level)).num(e.count).num(e.jiffy);
		break;
	case wheel_event_kind::expired:
	case wheel_event_kind::deleted:
		p.str(e.kind == wheel_event_kind::expired ? "X" : "D").num(timers.id(e.timer)).num(0u).num(e.jiffy);
		break;
	case wheel_event_kind::unchanged:
		p.str("E").num(timers.id(e.timer)).num(0u).num(e.expires);
		break;
	}
	p.close(']');
}

struct busiest {
	std::size_t frame = 0;
	std::uint64_t jiffy = 0, moves = 0, expired = 0;
};

// What the page shows of a run: its statements and their events, up to
// the budget.
struct page_parts {
	std::string statements, events;
	std::vector<bool> deferrable;	// per timer id
	std::size_t framed = 0;		// statements on the page
	std::uint64_t to = 0;		// now after the last of them
	busiest worst;
	bool truncated = false;
};

// The cost of a timer in the tables at the end: its name and its row.
std::size_t table_bytes(const std::string &name) { return name.size() + 48; }

}  // namespace

std::string scenario_view_data(const scenario &s, const step_options &opt, std::size_t budget)
{
	const wheel_setup setup = resolve_setup(s, opt);
	auto wheel = make_lab_wheel(setup);
	// The empty wheel: the keyframe, and the shape (bases, levels) events name.
	const wheel_snapshot first = wheel->snapshot();
	const unsigned position = insert_position(setup);

	timer_table timers;
	std::map<std::string, bool> deferrable;
	page_parts page;
	page.to = first.now;
	std::size_t used = 0;
	{
		packed p(page.events);
		write_frame(p, first.now, wheel->clocks(), setup, "start");
	}
	for (const scenario_op &op : s.ops) {
		// Every statement runs, on the page or not: a mistake after the
		// cut is still an error, as in `timersim step`.
		step_record r = run_op(op, s.source, *wheel, false);
		// A timer's flags are fixed at its first arming.
		if (op.kind == op_kind::add || op.kind == op_kind::mod)
			deferrable.try_emplace(op.timer, op.arm.deferrable);
		if (page.truncated)
			continue;
		const std::size_t known = timers.names().size();
		std::string events, statement;
		packed pe(events, page.events.empty());
		std::uint64_t moves = 0, expired = 0;
		for (const wheel_event &e : r.events) {
			write_event(pe, e, first, position, timers);
			moves += e.kind == wheel_event_kind::moved;
			expired += e.kind == wheel_event_kind::expired;
		}
		const std::uint64_t now = wheel->now_word();
		write_frame(pe, now, wheel->clocks(), setup, "line " + std::to_string(r.line) + ": " + r.text);
		packed ps(statement, page.statements.empty());
		ps.nl().open('[').num(r.line).str(r.text).num(r.at).num(page.framed + 1)
			.num(r.next_interrupt.has_value()).num(r.next_interrupt.value_or(0)).close(']');
		std::size_t cost = events.size() + statement.size();
		for (std::size_t id = known; id < timers.names().size(); id++)
			cost += table_bytes(timers.names()[id]);
		if (used + cost > budget) {
			// The page ends with the last statement that fits, whole.
			timers.forget_after(known);
			page.truncated = true;
			continue;
		}
		used += cost;
		page.events += events;
		page.statements += statement;
		page.framed++;
		page.to = now;
		for (const wheel_event &e : r.events)
			if (e.kind == wheel_event_kind::placed) {
				const std::uint64_t id = timers.id(e.timer);
				if (page.deferrable.size() <= id)
					page.deferrable.resize(id + 1, false);
				page.deferrable[id] = deferrable.at(e.timer);
			}
		if (moves > page.worst.moves || (!page.worst.moves && expired > page.worst.expired))
			page.worst = {page.framed, r.at, moves, expired};
	}

	std::string out;
	packed p(out);
	p.open('{');
	p.key("trace").str(s.source);
	p.key("scheme").str(setup.scheme);
	p.key("hz").num(setup.hz);
	p.key("word_bits").num(setup.word_bits);
	p.key("cpus").num(1u);
	p.key("levels").open('[');
	for (const snapshot_level &l : first.bases.front().levels)
		p.str(l.name);
	p.close(']');
	p.key("worst").open('{');
	p.key("cpu").num(0u);
	p.key("frame").num(page.worst.frame);
	p.key("jiffy").num(page.worst.jiffy);
	p.key("moves").num(page.worst.moves);
	p.key("expired").num(page.worst.expired);
	p.close('}');
	p.nl().key("lab").open('{');
	// The setup as `step --json` writes it (sim/lab/snapshot_json.h).
	p.key("setup").open('{');
	p.key("scheme").str(setup.scheme);
	p.key("hz").num(setup.hz);
	p.key("word_bits").num(setup.word_bits);
	p.key("base_small").raw(setup.base_small ? "true" : "false");
	p.key("order").str(setup.lifo ? "lifo" : "fifo");
	p.key("start").num(setup.start);
	p.close('}');
	p.key("wheel").str(wheel->describe());
	p.key("statements_total").num(s.ops.size());
	p.key("statements").open('[').items(page.statements).close(']');
	p.close('}');
	p.nl().key("window").open('{');
	p.key("drawable").raw("true");
	p.key("from").num(first.now);
	p.key("to").num(page.to);
	p.key("truncated").raw(page.truncated ? "true" : "false");
	write_keyframe(p, first);
	p.key("events").open('[').items(page.events).close(']');
	// Last: the events named every timer.
	p.nl().key("names").open('[');
	for (const std::string &n : timers.names())
		p.str(n);
	p.close(']');
	p.nl().key("timers").open('[');
	for (std::size_t id = 0; id < timers.names().size(); id++)
		p.open('[').num(id).str("").num(id).num(first.now).num(first.now).num(0u)
			.num(id < page.deferrable.size() && page.deferrable[id]).close(']');
	p.close(']');
	p.close('}');
	p.close('}');
	return out;
}

std::string scenario_view_html(const scenario &s, const step_options &opt)
{
	return view_page_html("timersim view: " + s.source + " (" + opt.scheme + ")", scenario_view_data(s, opt));
}

}  // namespace timersim
