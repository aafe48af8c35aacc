#include "sim/view/view_hrlane.h"

#include "sim/view/packed_json.h"

namespace timersim {

view_hrlane::view_hrlane(const view_window &window, std::size_t max_items)
	: window_(window), max_items_(max_items)
{
	names_.intern("");
}

void view_hrlane::begin(const replay_setup &setup)
{
	setup_ = &setup;
}

bool view_hrlane::keep(std::uint64_t ts_ns)
{
	if (!setup_ || !setup_->clock)
		return false;
	const jiffies_t j = setup_->clock->jiffy_of(ts_ns);
	if (j < window_.from() || j > window_.to())
		return false;
	if (items() >= max_items_) {
		truncated_ = true;
		return false;
	}
	return true;
}

void view_hrlane::activity(const cpu_activity &a)
{
	if (a.what == cpu_activity::kind::expiry && a.hrtimer) {
		if (keep(a.start_ns))
			expiries_.push_back({a.cpu, a.start_ns, a.end_ns, names_.intern(a.function), a.tick});
	} else if (a.what == cpu_activity::kind::model_interrupt) {
		if (keep(a.start_ns))
			model_.push_back({a.cpu, a.start_ns, a.predicted, a.recorded});
	}
}

void view_hrlane::woke(const wakeup &w)
{
	if (!keep(w.entry_ns))
		return;
	const std::uint8_t model = !w.modelled ? 0 : w.predicted ? 1 : 2;
	interrupts_.push_back({w.cpu, w.entry_ns, w.exit_ns, w.cause, names_.intern(w.cause_function),
			       names_.intern(w.first), w.expiries, model});
}

void view_hrlane::write(packed &p) const
{
	p.open('{');
	p.key("truncated").raw(truncated_ ? "true" : "false");
	p.key("names").open('[');
	for (std::size_t i = 0; i < names_.size(); i++)
		p.str(names_.name(static_cast<std::uint32_t>(i)));
	p.close(']');
	p.key("interrupts").open('[');
	for (const interrupt_item &i : interrupts_)
		p.open('[').num(i.cpu).num(i.entry_ns).num(i.exit_ns).str(wake_cause_name(i.cause)).num(i.woke_for)
			.num(i.first).num(i.expiries).num(i.model).close(']');
	p.close(']');
	p.nl();
	p.key("expiries").open('[');
	for (const expiry_item &e : expiries_)
		p.open('[').num(e.cpu).num(e.entry_ns).num(e.exit_ns).num(e.name).num(e.tick).close(']');
	p.close(']');
	p.nl();
	p.key("model").open('[');
	for (const model_item &m : model_)
		p.open('[').num(m.cpu).num(m.ns).num(m.due).num(m.recorded).close(']');
	p.close(']');
	p.close('}');
}

}  // namespace timersim
