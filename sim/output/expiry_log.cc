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
	buf_ = "cpu,timer,function,expires,fired,recorded,verdict\n";
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
	row &r = rows_.emplace_back();
	r.timer = t.id;
	append_number(r.text, cpu);
	r.text += ',';
	append_hex(r.text, t.ptr);
	r.text += ',';
	append_csv_field(r.text, t.name);
	r.text += ',';
	append_number(r.text, setup_->narrow(expires));
	r.text += ',';
	append_number(r.text, setup_->narrow(jiffy));
	r.text += ',';
	if (waiting_.size() <= t.id)
		waiting_.resize(t.id + 1, none);
	waiting_[t.id] = first_row_ + rows_.size() - 1;
	write_decided();
}

void expiry_log::fidelity(const timer_ref &t, unsigned, jiffies_t recorded, jiffies_t,
			  verdict v)
{
	// unmatched and a late that was still pending judge no simulated
	// expiry: they have no row.
	if (t.id >= waiting_.size() || waiting_[t.id] == none || v == verdict::unmatched)
		return;
	row &r = rows_[waiting_[t.id] - first_row_];
	if (v != verdict::simulated_only)
		append_number(r.tail, setup_->narrow(recorded));
	r.tail += ',';
	r.tail += verdict_name(v);
	r.decided = true;
	waiting_[t.id] = none;
	write_decided();
}

// Rows go out in firing order, each once decided; one left undecided too
// long goes out as such.
void expiry_log::write_decided()
{
	while (!rows_.empty() && (rows_.front().decided || rows_.size() > max_waiting)) {
		row &r = rows_.front();
		buf_ += r.text;
		buf_ += r.decided ? r.tail : ",undecided";
		buf_ += '\n';
		if (!r.decided)
			waiting_[r.timer] = none;
		rows_.pop_front();
		first_row_++;
		flush_if_full();
	}
}

void expiry_log::end(const replay_report &)
{
	for (row &r : rows_) {
		buf_ += r.text;
		buf_ += r.decided ? r.tail : ",undecided";
		buf_ += '\n';
	}
	rows_.clear();
	out_.write(buf_);
	buf_.clear();
}

}  // namespace timersim
