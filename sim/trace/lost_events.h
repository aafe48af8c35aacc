// Events a tracer recorded as lost: LTTng counts the events it discarded
// (its sub-buffers were full) in each CTF packet's context; tracefs,
// trace-cmd report and perf script print a note on the CPU whose ring
// buffer overran. A replay that misses them must say so, with where they
// went missing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace timersim {

struct lost_packet {
	std::string stream;		// the stream file, as named in the trace
	std::uint64_t packet = 0;	// its packet, from 0
	std::uint64_t offset = 0;	// the packet's byte offset in the file
	std::uint64_t events = 0;	// events lost since the stream's previous packet
};

// The losses of one CPU of a text trace.
struct lost_on_cpu {
	std::uint32_t cpu = 0;
	std::uint64_t events = 0;	// the notes' counts
	std::uint64_t notes = 0;	// notes, also those without a count
};

// Why a trace whose lost-event counts add up past 2^64 - 1 is refused: no
// ring buffer loses that many, so the counts are not a tracer's (and a
// total that wrapped would show a small, plausible number).
inline constexpr const char *lost_events_overflow =
	"the lost-event counts add up past 18446744073709551615: not counts a tracer can have";

// TOTAL += N, false (TOTAL unchanged) when the sum passes 2^64 - 1.
inline bool add_lost_events(std::uint64_t &total, std::uint64_t n)
{
	std::uint64_t sum;
	if (__builtin_add_overflow(total, n, &sum))
		return false;
	total = sum;
	return true;
}

// The lost-event notes of a text trace, in file order: counted per CPU, and
// each marks the next event of its CPU (the kernel prints the note just
// before the first event after the gap) with EF_AFTER_LOSS.
class lost_event_notes {
public:
	// A note: EVENTS (0: count unknown) lost on CPU. TOTAL, BY_CPU: the
	// reader's counts (reader_stats::lost_events, lost_cpus). False, and
	// nothing counted, when TOTAL would pass 2^64 - 1: the reader refuses
	// the note's line (lost_events_overflow).
	[[nodiscard]] bool note(std::uint32_t cpu, std::uint64_t events, std::uint64_t &total,
				std::vector<lost_on_cpu> &by_cpu);
	// Whether an event on CPU is the first after a note of its CPU
	// (then it is no longer).
	// Whether a note waits for its CPU's next event.
	bool waiting() const { return !waiting_.empty(); }
	bool follows_note(std::uint32_t cpu)
	{
		if (waiting_.empty())
			return false;
		return take(cpu);
	}

private:
	bool take(std::uint32_t cpu);
	std::vector<std::uint32_t> waiting_;	// CPUs whose next event follows a note
};

}  // namespace timersim
