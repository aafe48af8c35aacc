// --expiry-log: one CSV row per simulated expiry, in firing order, with the
// recorded expiry it was judged against.
//
//   cpu,timer,function,expires,fired,recorded,verdict
//   0,0xffff880000000b00,process_timeout,4295061000,4295061000,4295061000,exact
//   1,0xffff880000000c00,blk_stat_timer_fn,4295061010,4295061012,,simulated_only
//
// cpu is the base that fired it, timer the address the trace printed,
// expires the requested expiry and fired the jiffy it fired in (with
// recorded ticks: the jiffies of the softirq run that fired it), recorded
// the `now` of the recorded timer_expire_entry that claimed it (empty when
// none did), verdict exact, early, late or simulated_only (fidelity of
// README). Jiffies are printed as the kernel prints them (narrowed to 32
// bits for a 32-bit kernel). Fields are quoted per RFC 4180 where needed.
//
// A row is written once its verdict is known, which may be a while after
// the expiry (the kernel's own expiry comes later, or a re-arm or the end
// of the trace decides it); rows wait so that the file stays in firing
// order. A row still undecided after `max_waiting` later rows is written
// with the verdict `undecided`, so that memory stays bounded.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "sim/replay/replay_sink.h"
#include "sim/output/output_file.h"

namespace timersim {

class expiry_log final : public replay_sink {
public:
	static constexpr std::size_t max_waiting = std::size_t{1} << 20;

	explicit expiry_log(output_file &out);
	void begin(const replay_setup &setup) override;
	void expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t expires) override;
	void fidelity(const timer_ref &t, unsigned cpu, jiffies_t recorded, jiffies_t simulated,
		      verdict v) override;
	void end(const replay_report &report) override;

private:
	struct row {
		std::string text;	// cpu,timer,function,expires,fired,
		timer_id timer = 0;
		bool decided = false;
		std::string tail;	// recorded,verdict
	};
	static constexpr std::uint64_t none = ~std::uint64_t{0};

	void write_decided();
	void flush_if_full();
	output_file &out_;
	const replay_setup *setup_ = nullptr;
	std::string buf_;
	std::deque<row> rows_;
	std::uint64_t first_row_ = 0;		// number of rows_.front()
	std::vector<std::uint64_t> waiting_;	// per timer: its undecided row, or none
};

}  // namespace timersim
