#include "sim/output/expiry_log.h"

#include <charconv>

#include "sim/output/csv.h"

namespace timersim {

namespace {

void append_number(std::string &out, std::uint64_t v)
{
	char buf[24];
	auto res = std::to_chars(buf, buf + sizeof buf, v);
	out.append(buf, res.ptr);
}

void append_hex(std::string &out, std::uint64_t v)
{
	char buf[24];
	auto res = std::to_chars(buf, buf + sizeof buf, v, 16);
	out += "0x";
	out.append(buf, res.ptr);
}

}  // namespace

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
