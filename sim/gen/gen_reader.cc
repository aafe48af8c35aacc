// make_gen_reader(): a generated trace read without the text in between,
// for sweeps and tests. The events are those the ftrace text reader
// returns for write_ftrace()'s output (test_gen checks it), with one
// line per event and no header lines.
#include "sim/gen/generator.h"

namespace timersim::gen {

namespace {

class gen_reader final : public trace_reader {
public:
	explicit gen_reader(const gen_options &opt) : g_(opt), cpus_(opt.cpus) {}

	bool next(trace_event &ev) override
	{
		while (pos_ == buf_.size()) {
			buf_.clear();
			pos_ = 0;
			if (!g_.step(buf_))
				return false;
		}
		const gen_event &g = buf_[pos_++];
		ev = trace_event{};
		ev.kind = g.kind;
		ev.name = event_kind_name(g.kind);
		ev.cpu = g.cpu;
		ev.ts_ns = g.ts_ns;
		ev.line = ++stats_.lines;
		ev.timer = g.timer;
		ev.timer_digits = 16;
		ev.has = EF_TIMESTAMP;
		if (g.kind == event_kind::timer_start || g.kind == event_kind::timer_expire_entry)
			ev.function = g_.the_machine().functions()[g.function];
		if (g.kind == event_kind::timer_start) {
			ev.expires = g.expires;
			ev.timeout = g.timeout;
			ev.has |= EF_TIMEOUT;
			if (g.v6) {
				ev.bucket_expiry = g.bucket_expiry;
				ev.target_cpu = g.cpu;
				ev.idx = g.idx;
				ev.flags = TF_PINNED;
				ev.has |= EF_BUCKET_EXPIRY | EF_TARGET_CPU | EF_IDX | EF_FLAGS;
			}
		}
		if (g.kind == event_kind::timer_expire_entry) {
			ev.now = g.now;
			if (g.v6) {
				ev.baseclk = g.now;
				ev.has |= EF_BASECLK;
			}
		}
		stats_.events++;
		return true;
	}

	const reader_stats &stats() const override { return stats_; }
	trace_format format() const override { return trace_format::ftrace; }
	unsigned declared_cpus() const override { return cpus_; }

private:
	generator g_;
	unsigned cpus_;
	std::vector<gen_event> buf_;
	std::size_t pos_ = 0;
	reader_stats stats_;
};

}  // namespace

std::unique_ptr<trace_reader> make_gen_reader(const gen_options &opt)
{
	return std::make_unique<gen_reader>(opt);
}

}  // namespace timersim::gen
