#include "sim/lab/lab_wheel.h"

#include "sim/base/errors.h"

namespace timersim::lab {

void validate(const wheel_setup &setup)
{
	if (setup.scheme != "classic" && setup.scheme != "v48")
		throw usage_error("the lab has the classic and v48 wheels, not '" + setup.scheme + "'");
	if (setup.word_bits != 32 && setup.word_bits != 64)
		throw usage_error("word bits must be 32 or 64, not " + std::to_string(setup.word_bits));
	if (setup.hz != 100 && setup.hz != 250 && setup.hz != 300 && setup.hz != 1000)
		throw usage_error("HZ must be 100, 250, 300 or 1000, not " + std::to_string(setup.hz));
	if (setup.word_bits == 32 && setup.start > 0xffffffffull)
		throw usage_error("start " + std::to_string(setup.start) + " does not fit 32-bit jiffies");
}

std::unique_ptr<lab_wheel> make_lab_wheel(const wheel_setup &setup)
{
	validate(setup);
	if (setup.scheme == "v48")
		return make_v48_lab_wheel(setup);
	return make_classic_lab_wheel(setup);
}

const char *wheel_event_name(wheel_event_kind k)
{
	switch (k) {
	case wheel_event_kind::placed: return "placed";
	case wheel_event_kind::unchanged: return "unchanged";
	case wheel_event_kind::deleted: return "deleted";
	case wheel_event_kind::cascaded: return "cascaded";
	case wheel_event_kind::moved: return "moved";
	case wheel_event_kind::expired: return "expired";
	}
	return "?";
}

std::uint64_t snapshot_base::pending() const
{
	std::uint64_t n = 0;
	for (const auto &l : levels)
		for (const auto &s : l.slots)
			n += s.timers.size();
	return n;
}

std::uint64_t wheel_snapshot::pending() const
{
	std::uint64_t n = 0;
	for (const auto &b : bases)
		n += b.pending();
	return n;
}

}  // namespace timersim::lab
