// --expiry-log: one CSV row per simulated expiry, in firing order.
//
//   cpu,timer,function,expires,fired
//   0,0xffff880000000b00,process_timeout,4295061000,4295061000
//
// cpu is the base that fired it, timer the address the trace printed,
// expires the requested expiry and fired the jiffy it fired in, both as the
// kernel prints jiffies (narrowed to 32 bits for a 32-bit kernel). Fields
// are quoted per RFC 4180 where needed.
#pragma once

#include <string>

#include "sim/core/replay_sink.h"
#include "sim/output/output_file.h"

namespace timersim {

class expiry_log final : public replay_sink {
public:
	explicit expiry_log(output_file &out);
	void begin(const replay_setup &setup) override;
	void expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t expires) override;
	void end(const replay_report &report) override;

private:
	void flush_if_full();
	output_file &out_;
	const replay_setup *setup_ = nullptr;
	std::string buf_;
};

}  // namespace timersim
