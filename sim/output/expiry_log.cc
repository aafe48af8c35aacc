#include "sim/output/expiry_log.h"

#include "sim/output/csv.h"
#include "sim/output/number_text.h"

namespace timersim {

expiry_log::expiry_log(output_file &out) : out_(out)
{
}

void expiry_log::begin(const replay_setup &setup)
{
	setup_ = &setup;
	buf_ = "cpu,timer,function,expires,fired\n";
}

void expiry_log::flush_if_full()
{
	if (buf_.size() >= (1u << 16)) {
		out_.write(buf_);
		buf_.clear();
	}
}

void expiry_log::expired(const timer_ref &t, unsigned cpu, jiffies_t jiffy, jiffies_t expires)
{
	append_number(buf_, cpu);
	buf_ += ',';
	append_hex(buf_, t.ptr);
	buf_ += ',';
	append_csv_field(buf_, t.name);
	buf_ += ',';
	append_number(buf_, setup_->narrow(expires));
	buf_ += ',';
	append_number(buf_, setup_->narrow(jiffy));
	buf_ += '\n';
	flush_if_full();
}

void expiry_log::end(const replay_report &)
{
	out_.write(buf_);
	buf_.clear();
}

}  // namespace timersim
