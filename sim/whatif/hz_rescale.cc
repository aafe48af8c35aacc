#include "sim/whatif/hz_rescale.h"

#include "sim/whatif/kernel_time.h"

namespace timersim {

namespace {

class hz_rescale_reader final : public trace_reader {
public:
	hz_rescale_reader(std::unique_ptr<trace_reader> inner, unsigned from_hz, unsigned to_hz,
			  unsigned word_bits)
		: inner_(std::move(inner)), from_(from_hz), to_(to_hz),
		  mask_(word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0})
	{
	}

	bool next(trace_event &ev) override
	{
		if (!inner_->next(ev))
			return false;
		if (from_ == to_)
			return true;
		switch (ev.kind) {
		case event_kind::timer_start:
			if (ev.carries(EF_TIMEOUT)) {
				std::uint64_t call = map((ev.expires - static_cast<std::uint64_t>(ev.timeout)) & mask_);
				ev.timeout = rescale_timeout(ev.timeout, from_, to_);
				ev.expires = (call + static_cast<std::uint64_t>(ev.timeout)) & mask_;
			} else {
				ev.expires = map(ev.expires);
			}
			if (ev.carries(EF_BUCKET_EXPIRY))
				ev.bucket_expiry = map(ev.bucket_expiry);
			break;
		case event_kind::timer_expire_entry:
			ev.now = map(ev.now);
			if (ev.carries(EF_BASECLK))
				ev.baseclk = map(ev.baseclk);
			break;
		default:
			break;
		}
		return true;
	}

	const reader_stats &stats() const override { return inner_->stats(); }
	trace_format format() const override { return inner_->format(); }
	unsigned declared_cpus() const override { return inner_->declared_cpus(); }
	std::string clock() const override { return inner_->clock(); }
	const char *unit() const override { return inner_->unit(); }
	symbol_fit symbols_fit() const override { return inner_->symbols_fit(); }

private:
	// J0 + floor((j - J0) * to / from), the difference taken in the word.
	std::uint64_t map(std::uint64_t j)
	{
		if (!anchored_) {
			anchored_ = true;
			anchor_ = j;
		}
		std::uint64_t d = (j - anchor_) & mask_;
		bool back = mask_ == 0xffffffffull ? (d >> 31) != 0 : (d >> 63) != 0;
		std::uint64_t out;
		if (!back) {
			out = anchor_ + mul_div_down(d, to_, from_);
		} else {
			std::uint64_t ahead = (anchor_ - j) & mask_;
			out = anchor_ - mul_div_up(ahead, to_, from_);
		}
		return out & mask_;
	}

	std::unique_ptr<trace_reader> inner_;
	unsigned from_, to_;
	std::uint64_t mask_;
	bool anchored_ = false;
	std::uint64_t anchor_ = 0;
};

}  // namespace

std::unique_ptr<trace_reader> make_hz_rescale_reader(std::unique_ptr<trace_reader> inner, unsigned from_hz,
						     unsigned to_hz, unsigned word_bits)
{
	return std::make_unique<hz_rescale_reader>(std::move(inner), from_hz, to_hz, word_bits);
}

}  // namespace timersim
