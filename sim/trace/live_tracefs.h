// The running kernel as a trace: a private tracefs instance of our own,
// its per-CPU raw ring buffers read with libtracefs, every record decoded
// by tep_decoder (tep_decode.h) as the trace.dat reader decodes a file's.
//
// The instance is named timersim-top-PID, so that a later start can tell a
// killed run's (its PID gone) and remove it; ours is removed when the
// reader is destroyed. Only the instance's own settings are touched: its
// events, buffer size and trace clock (mono: event timestamps are
// CLOCK_MONOTONIC, so the wall clock tells which events can still come).
//
// Events are handed on in timestamp order (ties: lower CPU first), as the
// trace.dat reader merges a file's CPUs: a poll keeps back the events of its
// last millisecond, which another CPU may still be writing before. The
// ring-buffer pages read can be written as they are to a trace.dat (--record),
// which `replay` then reads through the same decoding to the same events.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

#include "sim/trace/reader.h"

namespace timersim {

struct live_options {
	std::string tracing_dir;	// "" : where libtracefs finds tracefs
	std::string record;		// a trace.dat to write the pages to, or ""
	unsigned buffer_kb = 4096;	// each CPU's ring buffer
};

// What a live trace needs and the machine lacks: what() says what is
// missing and how to get it.
class live_unavailable : public std::runtime_error {
public:
	using std::runtime_error::runtime_error;
};

// The instance name of a run with this PID, and the prefix of them all.
std::string live_instance_name(long pid);
inline constexpr const char live_instance_prefix[] = "timersim-top-";

// Removes the instances of runs whose process is gone; returns their names.
std::vector<std::string> remove_dead_instances(const std::string &tracing_dir);

class live_reader : public trace_reader {
public:
	// Creates the instance and enables the events. Throws live_unavailable.
	explicit live_reader(const live_options &opt);
	~live_reader() override;

	// Reads what the ring buffers hold now; returns the events that became
	// ready. Cheap when nothing came.
	std::size_t poll();
	// The next ready event without waiting; false when none is ready.
	bool try_next(trace_event &ev);
	// trace_reader: waits (polling) for the next event; false once stop()
	// was called and every event read is handed on.
	bool next(trace_event &ev) override;
	// Ends the trace: tracing stops, the buffers are read out, and what
	// was read is handed on before next() returns false. Safe to call from
	// a signal handler's flag check (not from the handler itself).
	void stop();
	bool stopped() const { return stopped_; }

	const reader_stats &stats() const override { return stats_; }
	trace_format format() const override { return trace_format::trace_dat; }
	unsigned declared_cpus() const override { return cpus_; }
	std::string clock() const override { return "mono"; }
	const char *unit() const override { return "events"; }
	symbol_fit symbols_fit() const override;

	// Events asked for that this kernel does not have, with what stands
	// in ("irq_vectors:local_timer_entry (no x86 timer vector: irq:irq_handler_* used)").
	const std::vector<std::string> &missing() const { return missing_; }
	const std::string &instance() const { return name_; }
	// Events the ring buffers lost (overwritten before read), per CPU.
	const std::vector<std::uint64_t> &lost_by_cpu() const { return lost_; }
	// Ring-buffer pages read, and bytes.
	std::uint64_t pages() const { return pages_; }
	// CLOCK_MONOTONIC now, ns: the clock of the events' timestamps.
	static std::uint64_t now_ns();

	// The trace.dat written by --record, once stop()ped and read out;
	// false and WHY when it could not be written (then no file is left).
	bool finish_record(std::string &why);

private:
	struct state;
	void read_cpu(unsigned cpu, std::vector<trace_event> &out);
	void release(std::vector<trace_event> &fresh, bool all);
	std::string_view keep(std::string_view s);

	std::unique_ptr<state> st_;
	std::string name_;
	unsigned cpus_ = 0;
	bool stopped_ = false;
	bool drained_ = false;
	reader_stats stats_;
	std::vector<std::string> missing_;
	std::vector<std::uint64_t> lost_;
	std::uint64_t pages_ = 0;
	std::vector<trace_event> held_;		// read, but maybe not yet in order
	std::deque<trace_event> ready_;		// in order, to hand on
	std::unordered_set<std::string> strings_;	// callback names the events point to
};

}  // namespace timersim
