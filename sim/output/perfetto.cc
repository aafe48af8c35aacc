#include "sim/output/perfetto.h"

#include <algorithm>
#include <cmath>

#include "sim/output/json_string.h"
#include "sim/output/number_text.h"
#include "sim/replay/replay_report.h"

namespace timersim {

namespace {

const char *ending_name(std::uint64_t how)
{
	static const char *const names[] = {"expired", "canceled", "rearmed", "pending at end"};
	return how < 4 ? names[how] : "?";
}

}  // namespace

const char *slice_source_name(slice_source s)
{
	switch (s) {
	case slice_source::simulated: return "timer softirq (simulated)";
	}
	return "?";
}

perfetto_trace::perfetto_trace(output_file &out) : out_(out)
{
}

void perfetto_trace::begin(const replay_setup &setup)
{
	setup_ = &setup;
	pending_.begin(setup);
	armings_.clear();
	events_.clear();
	samples_.clear();
	last_sample_.assign(setup.cpus, std::vector<std::uint64_t>(pending_.levels() + 1, 0));
	tick_moves_.assign(setup.cpus, 0);
	last_moves_.assign(setup.cpus, 0);
	tick_jiffy_.assign(setup.cpus, setup.start);
	tick_open_.assign(setup.cpus, false);
	last_jiffy_ = setup.start;
	std::fill(std::begin(source_used_), std::end(source_used_), false);
}

void perfetto_trace::push(event e)
{
	e.seq = events_.size();
	last_jiffy_ = std::max(last_jiffy_, e.jiffy);
	events_.push_back(e);
}

std::uint32_t perfetto_trace::name_of(const timer_ref &t)
{
	if (!t.name.empty())
		return names_.intern(t.name);
	std::string addr;
	append_hex(addr, t.ptr);
	return names_.intern(addr);
}

void perfetto_trace::close_arming(const timer_ref &t, jiffies_t jiffy, ending how, std::uint64_t late)
{
	if (armings_.size() <= t.id)
		armings_.resize(std::size_t{t.id} + 1);
	arming_state &a = armings_[t.id];
	if (!a.arming)
		return;
	push({jiffy, 0, a.arming, late, static_cast<std::uint64_t>(how), a.cpu, a.name, 0, kind::end});
	a.arming = 0;
}

void perfetto_trace::started(const timer_ref &t, unsigned cpu, jiffies_t now, jiffies_t expires,
			     unsigned level, bool rearm)
{
	pending_.started(t, cpu, level);
	if (rearm)
		close_arming(t, now, ending::rearmed, 0);
	if (armings_.size() <= t.id)
		armings_.resize(std::size_t{t.id} + 1);
	arming_state &a = armings_[t.id];
	a.arming = next_arming_++;
	a.cpu = cpu;
	a.name = name_of(t);
	a.expires = expires;
	unsigned placed = pending_.where(t.id).level ? pending_.where(t.id).level : level;
	push({now, 0, a.arming, t.ptr, setup_->narrow(expires), cpu, a.name, placed, kind::begin});
}

void perfetto_trace::canceled(const timer_ref &t, unsigned, jiffies_t now)
{
	pending_.removed(t);
	close_arming(t, now, ending::canceled, 0);
}

void perfetto_trace::expired(const timer_ref &t, unsigned, jiffies_t jiffy, jiffies_t expires)
{
	pending_.removed(t);
	close_arming(t, jiffy, ending::expired, jiffy > expires ? jiffy - expires : 0);
}

void perfetto_trace::fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded,
			      jiffies_t simulated, verdict v)
{
	if (v == verdict::early || v == verdict::late || v == verdict::unmatched)
		push({recorded, 0, 0, t.ptr, static_cast<std::uint64_t>(v), cpu, name_of(t), 0,
		      kind::miss});
	if (expired_by_replay(v, recorded, simulated)) {
		pending_.removed(t);
		std::uint64_t expires = t.id < armings_.size() ? armings_[t.id].expires : recorded;
		close_arming(t, recorded, ending::expired, recorded > expires ? recorded - expires : 0);
	}
}

// Counters are sampled where they change: a sample holds until the next.
void perfetto_trace::sample(unsigned cpu, jiffies_t jiffy)
{
	const std::vector<std::uint64_t> &now = pending_.of(cpu);
	if (now == last_sample_[cpu])
		return;
	last_sample_[cpu] = now;
	push({jiffy, 0, 0, 0, 0, cpu, 0, static_cast<std::uint32_t>(samples_.size()), kind::pending});
	samples_.push_back(now);
}

void perfetto_trace::close_tick(unsigned cpu)
{
	if (!tick_open_[cpu])
		return;
	tick_open_[cpu] = false;
	if (tick_moves_[cpu] == last_moves_[cpu])
		return;
	last_moves_[cpu] = tick_moves_[cpu];
	push({tick_jiffy_[cpu], 0, 0, tick_moves_[cpu], 0, cpu, 0, 0, kind::moves});
}

void perfetto_trace::tick(unsigned cpu, jiffies_t jiffy)
{
	close_tick(cpu);
	sample(cpu, jiffy);
	tick_open_[cpu] = true;
	tick_moves_[cpu] = 0;
	tick_jiffy_[cpu] = jiffy;
}

void perfetto_trace::idle_ticks(unsigned cpu, jiffies_t first, std::uint64_t)
{
	close_tick(cpu);
	sample(cpu, first);
	if (last_moves_[cpu]) {
		last_moves_[cpu] = 0;
		push({first, 0, 0, 0, 0, cpu, 0, 0, kind::moves});
	}
}

// Only cascades that moved something: the empty ones are every tv1 wrap.
void perfetto_trace::cascaded(unsigned cpu, jiffies_t jiffy, unsigned level, std::uint32_t count)
{
	if (!count)
		return;
	std::uint32_t name = names_.intern(level && level <= setup_->level_names.size()
						   ? setup_->level_names[level - 1]
						   : "level " + std::to_string(level));
	push({jiffy, 0, 0, count, 0, cpu, name, level, kind::cascade});
}

void perfetto_trace::moved(const timer_ref &t, unsigned cpu, jiffies_t, unsigned)
{
	pending_.moved(t);
	tick_moves_[cpu]++;
}

void perfetto_trace::add_run(slice_source source, unsigned cpu, jiffies_t jiffy, double dur_ns,
			     std::uint64_t units, std::uint64_t expired, std::string_view woke_for)
{
	const auto src = static_cast<std::uint32_t>(source);
	source_used_[src] = true;
	const std::uint32_t name = woke_for.empty() ? ~0u : names_.intern(woke_for);
	push({jiffy, 0, 0, 0, 0, cpu, 0, src, kind::interrupt});
	push({jiffy, 0, static_cast<std::uint64_t>(dur_ns * 1e3), units, expired, cpu, name, src, kind::run});
}

void perfetto_trace::softirq_run(unsigned cpu, jiffies_t jiffy, std::uint64_t units,
				 std::uint64_t expired, const timer_ref *wake)
{
	std::string woke;
	if (wake)
		woke = names_.name(name_of(*wake));
	add_run(slice_source::simulated, cpu, jiffy, double(units) * drawn_ns_per_unit, units, expired, woke);
}

unsigned perfetto_trace::tid_of(const event &e)
{
	return e.what == kind::run || e.what == kind::interrupt ? 2 + e.level : 1;
}

void perfetto_trace::render(const event &e, double ts, std::string &out) const
{
	std::string name = json_string(names_.size() > e.name ? names_.name(e.name) : "");
	out += "{\"pid\":";
	append_number(out, e.cpu + 1u);
	out += ",\"tid\":";
	append_number(out, tid_of(e));
	out += ",\"ts\":";
	append_fixed(out, ts, 3);
	switch (e.what) {
	case kind::begin:
	case kind::end:
		out += e.what == kind::begin ? ",\"ph\":\"b\"" : ",\"ph\":\"e\"";
		out += ",\"cat\":\"timer\",\"id\":\"";
		append_hex(out, e.arming);
		out += "\",\"name\":" + name + ",\"args\":{";
		if (e.what == kind::begin) {
			out += "\"timer\":\"";
			append_hex(out, e.a);
			out += "\",\"expires\":";
			append_number(out, e.b);
			if (e.level && e.level <= setup_->level_names.size())
				out += ",\"level\":" + json_string(setup_->level_names[e.level - 1]);
		} else {
			out += "\"how\":\"";
			out += ending_name(e.b);
			out += "\",\"late\":";
			append_number(out, e.a);
		}
		out += "}}";
		break;
	case kind::cascade:
		out += ",\"ph\":\"i\",\"s\":\"t\",\"cat\":\"cascade\",\"name\":\"cascade " +
		       name.substr(1) + ",\"args\":{\"level\":" + name + ",\"count\":";
		append_number(out, e.a);
		out += "}}";
		break;
	case kind::miss:
		out += ",\"ph\":\"i\",\"s\":\"t\",\"cat\":\"fidelity\",\"name\":\"";
		out += verdict_name(static_cast<verdict>(e.b));
		out += " expiry\",\"args\":{\"timer\":\"";
		append_hex(out, e.a);
		out += "\",\"function\":" + name + "}}";
		break;
	case kind::pending: {
		out += ",\"ph\":\"C\",\"name\":\"pending\",\"args\":{";
		const std::vector<std::uint64_t> &s = samples_[e.level];
		if (!pending_.levels()) {
			out += "\"all\":";
			append_number(out, s[0]);
		}
		for (unsigned l = 1; l <= pending_.levels(); l++) {
			if (l > 1)
				out += ',';
			out += json_string(setup_->level_names[l - 1]) + ":";
			append_number(out, s[l]);
		}
		out += "}}";
		break;
	}
	case kind::moves:
		out += ",\"ph\":\"C\",\"name\":\"moves per tick\",\"args\":{\"moves\":";
		append_number(out, e.a);
		out += "}}";
		break;
	case kind::run:
		out += ",\"ph\":\"X\",\"dur\":";
		append_fixed(out, std::round(double(e.arming) / 1e3) / 1e3, 3);
		out += ",\"cat\":\"softirq\",\"name\":" +
		       json_string(slice_source_name(static_cast<slice_source>(e.level))) +
		       ",\"args\":{\"jiffy\":";
		append_number(out, setup_->narrow(e.jiffy));
		out += ",\"units\":";
		append_number(out, e.a);
		out += ",\"expired\":";
		append_number(out, e.b);
		out += ",\"woke_for\":" + name + "}}";
		break;
	case kind::interrupt:
		out += ",\"ph\":\"i\",\"s\":\"t\",\"cat\":\"interrupt\",\"name\":\"timer interrupt\"}";
		break;
	case kind::time: {
		out += ",\"ph\":\"C\",\"name\":\"timer time (ms in the second)\",\"args\":{";
		const second_time_row *s = e.level < seconds_.size() ? &seconds_[e.level] : nullptr;
		const auto ms = [&](const char *key, double ns, bool comma) {
			if (comma)
				out += ',';
			out += key;
			append_fixed(out, ns / 1e6, 6);
		};
		bool any = false;
		if (s ? s->measured.known : measured_seconds_) {
			ms("\"measured\":", s ? s->measured.ns : 0.0, false);
			any = true;
		}
		if (s ? s->modelled.known : modelled_seconds_) {
			ms("\"modelled\":", s ? s->modelled.ns : 0.0, any);
			ms("\"modelled low\":", s ? s->modelled.low : 0.0, true);
			ms("\"modelled high\":", s ? s->modelled.high : 0.0, true);
		}
		out += "}}";
		break;
	}
	}
}

// The time table's seconds as counter samples, a 0 where a CPU's seconds
// leave a gap and after its last (a counter holds its value until the
// next sample).
void perfetto_trace::add_seconds(const replay_report &report)
{
	seconds_ = report.time.per_second;
	for (const second_time_row &s : seconds_) {
		measured_seconds_ = measured_seconds_ || s.measured.known;
		modelled_seconds_ = modelled_seconds_ || s.modelled.known;
	}
	std::vector<std::int64_t> last(setup_->cpus, -1);
	auto sample = [&](unsigned cpu, std::uint64_t second, std::uint32_t index) {
		events_.push_back({setup_->start + second * setup_->hz, events_.size(), 0, 0, 0, cpu, 0, index,
				   kind::time});
	};
	for (std::uint32_t i = 0; i < seconds_.size(); i++) {
		const second_time_row &s = seconds_[i];
		if (s.cpu >= last.size())
			continue;
		if (last[s.cpu] >= 0 && std::uint64_t(last[s.cpu]) + 1 < s.second)
			sample(s.cpu, std::uint64_t(last[s.cpu]) + 1, ~0u);
		sample(s.cpu, s.second, i);
		last[s.cpu] = s.second;
	}
	for (unsigned cpu = 0; cpu < last.size(); cpu++)
		if (last[cpu] >= 0)
			sample(cpu, std::uint64_t(last[cpu]) + 1, ~0u);
}

void perfetto_trace::end(const replay_report &report)
{
	add_seconds(report);
	for (unsigned cpu = 0; cpu < tick_open_.size(); cpu++)
		close_tick(cpu);
	jiffies_t last = last_jiffy_;
	for (const arming_state &a : armings_)
		if (a.arming)
			events_.push_back({last, events_.size(), a.arming, 0,
					   static_cast<std::uint64_t>(ending::pending_at_end), a.cpu, a.name,
					   0, kind::end});
	std::sort(events_.begin(), events_.end(), [](const event &x, const event &y) {
		if (x.cpu != y.cpu)
			return x.cpu < y.cpu;
		if (x.jiffy != y.jiffy)
			return x.jiffy < y.jiffy;
		return x.seq < y.seq;
	});

	lanes_.sort();

	std::string buf = "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"trace\":" +
			  json_string(setup_->path) + ",\"scheme\":" + json_string(setup_->scheme) +
			  ",\"hz\":" + std::to_string(setup_->hz) + "},\n\"traceEvents\":[\n";
	// Items joined by ",\n", the file written as it fills.
	bool first = true;
	auto emit = [&](const std::string &item) {
		if (!first)
			buf += ",\n";
		first = false;
		buf += item;
		if (buf.size() >= (1u << 16)) {
			out_.write(buf);
			buf.clear();
		}
	};
	for (unsigned cpu = 0; cpu < setup_->cpus; cpu++) {
		std::string pid = std::to_string(cpu + 1);
		std::string meta = "{\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"CPU " +
		       std::to_string(cpu) + "\"}},\n";
		meta += "{\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":1,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":" +
		       std::to_string(cpu) + "}},\n";
		meta += "{\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":\"softirq\"}}";
		for (unsigned src = 0; src < slice_sources; src++)
			if (source_used_[src])
				meta += ",\n{\"ph\":\"M\",\"pid\":" + pid + ",\"tid\":" + std::to_string(2 + src) +
				       ",\"name\":\"thread_name\",\"args\":{\"name\":" +
				       json_string(slice_source_name(static_cast<slice_source>(src))) + "}}";
		emit(meta);
		lanes_.thread_names(cpu, cpu + 1, emit);
	}
	// A CPU's timestamps never go back, even where the trace clock's
	// steps of 1/HZ overshoot its next anchor.
	// A CPU's runs of one source never overlap: one starts where the
	// previous ended at the earliest (several runs in one jiffy).
	// The CPU timeline's events (at their own ns) go in between, in time.
	std::string item;
	std::size_t i = 0;
	for (unsigned cpu = 0; cpu < setup_->cpus || i < events_.size(); cpu++) {
		double ts_floor = 0;
		double run_end[slice_sources] = {};
		for (; i < events_.size() && events_[i].cpu == cpu; i++) {
			const event &e = events_[i];
			double ts = std::max(setup_->seconds(e.jiffy) * 1e6, ts_floor);
			if (e.what == kind::run || e.what == kind::interrupt)
				ts = std::max(ts, run_end[e.level]);
			// As written, to the nanosecond: the next run starts at
			// this one's printed end or later.
			ts = std::round(ts * 1e3) / 1e3;
			if (e.what == kind::run)
				run_end[e.level] = ts + std::round(double(e.arming) / 1e3) / 1e3;
			ts_floor = ts;
			lanes_.write(cpu, cpu + 1, std::uint64_t(std::llround(ts * 1e3)), emit);
			item.clear();
			render(e, ts, item);
			emit(item);
		}
		lanes_.write(cpu, cpu + 1, ~std::uint64_t{0}, emit);
	}
	buf += "\n";
	buf += "]}\n";
	out_.write(buf);
	events_.clear();
}

}  // namespace timersim
