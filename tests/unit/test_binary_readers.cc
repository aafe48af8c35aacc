// The binary readers (trace-cmd trace.dat, LTTng CTF) against the text
// renderings of the same recordings in ../shared/traces, read here with a
// few lines of independent parsing; damaged copies (cut, bytes flipped) must
// throw input_error; System.map symbol resolution.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "sim/trace/binary_names.h"
#include "sim/trace/reader.h"
#include "sim/trace/symbols.h"
#include "tests/support/binary_test_util.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;

namespace {

// ---- independent reading of the text renderings -------------------------

// The event name of a raw ftrace line: the word ending in ':' right after
// the "SECONDS.MICROS:" timestamp column. Empty for comments.
std::string text_event_name(const std::string &line, std::size_t &rest)
{
	if (line.empty() || line[0] == '#')
		return {};
	for (std::size_t p = line.find(": "); p != std::string::npos; p = line.find(": ", p + 1)) {
		std::size_t b = p;
		while (b > 0 && (std::isdigit(static_cast<unsigned char>(line[b - 1])) ||
				 line[b - 1] == '.'))
			b--;
		if (b == p || line.find('.', b) > p)
			continue;	// not the timestamp
		std::size_t e = line.find(": ", p + 2);
		if (e == std::string::npos)
			return {};
		rest = e + 2;
		return line.substr(p + 2, e - p - 2);
	}
	return {};
}

std::string kind_of_text_name(const std::string &name)
{
	if (name.rfind("hrtimer_", 0) == 0)
		return "hrtimer";
	for (const char *k : {"timer_init", "timer_start", "timer_cancel", "timer_expire_entry",
			      "timer_expire_exit", "timer_base_idle"})
		if (name == k)
			return k;
	// The NOHZ idle events (tmigr_*: one kind).
	if (name == "tick_stop" || name == "cpu_idle")
		return name;
	if (name.rfind("tmigr_", 0) == 0)
		return "tmigr";
	return "other";
}

struct text_timer_event {
	std::string kind;
	unsigned cpu = 0;
	std::map<std::string, std::string> f;	// key=value, [timeout=N] as timeout
};

// Per-kind counts of a raw ftrace text, and its timer_* events.
struct text_trace {
	std::map<std::string, unsigned long> counts;
	std::vector<text_timer_event> timers;
};

text_trace read_text(const std::string &path)
{
	text_trace t;
	std::ifstream in(path);
	ck_assert_msg(in.good(), "cannot open %s", path.c_str());
	std::string line;
	while (std::getline(in, line)) {
		std::size_t rest = 0;
		std::string name = text_event_name(line, rest);
		if (name.empty())
			continue;
		std::string kind = kind_of_text_name(name);
		t.counts[kind]++;
		if (kind == "hrtimer" || kind == "other" || kind == "timer_base_idle" || kind == "tick_stop" ||
		    kind == "cpu_idle" || kind == "tmigr")
			continue;
		text_timer_event e;
		e.kind = kind;
		std::size_t lb = line.find('[');
		e.cpu = std::stoul(line.substr(lb + 1));
		std::string body = line.substr(rest);
		std::size_t p = 0;
		while (p < body.size()) {
			std::size_t q = body.find(' ', p);
			if (q == std::string::npos)
				q = body.size();
			std::string tok = body.substr(p, q - p);
			if (tok.size() > 2 && tok.front() == '[' && tok.back() == ']')
				tok = tok.substr(1, tok.size() - 2);
			std::size_t eq = tok.find('=');
			if (eq != std::string::npos)
				e.f[tok.substr(0, eq)] = tok.substr(eq + 1);
			p = q + 1;
		}
		t.timers.push_back(e);
	}
	return t;
}

bool is_timer_kind(event_kind k)
{
	return k == event_kind::timer_init || k == event_kind::timer_start ||
	       k == event_kind::timer_cancel || k == event_kind::timer_expire_entry ||
	       k == event_kind::timer_expire_exit;
}

std::uint64_t num(const text_timer_event &e, const char *key)
{
	auto it = e.f.find(key);
	ck_assert_msg(it != e.f.end(), "text event %s lacks %s", e.kind.c_str(), key);
	return std::strtoull(it->second.c_str(), nullptr, 0);
}

std::uint32_t text_flags(const std::string &s)
{
	std::uint32_t f = 0;
	for (char c : s) {
		if (c == 'M')
			f |= TF_MIGRATING;
		if (c == 'D')
			f |= TF_DEFERRABLE;
		if (c == 'P')
			f |= TF_PINNED;
		if (c == 'I')
			f |= TF_IRQSAFE;
	}
	return f;
}

// ---- helpers -------------------------------------------------------------

struct temp_dir {
	std::string path;
	temp_dir()
	{
		char tmpl[] = "/tmp/timersim-binary-XXXXXX";
		ck_assert_ptr_nonnull(mkdtemp(tmpl));
		path = tmpl;
	}
	~temp_dir()
	{
		std::string cmd = "rm -rf '" + path + "'";
		if (std::system(cmd.c_str()) != 0)
			std::fprintf(stderr, "cannot remove %s\n", path.c_str());
	}
};

std::string slurp(const std::string &path)
{
	return test::read_whole_file(path);
}

void spit(const std::string &path, const std::string &data)
{
	test::write_file(path, data);
}

std::string read_expecting_error(const std::function<std::unique_ptr<trace_reader>()> &open)
{
	return test::read_error(open);
}

std::map<std::string, unsigned long> count_kinds(trace_reader &r)
{
	std::map<std::string, unsigned long> c;
	trace_event ev;
	while (r.next(ev))
		c[event_kind_name(ev.kind)]++;
	return c;
}

}  // namespace

// ---- trace.dat ------------------------------------------------------------

START_TEST(trace_dat_counts_match_text)
{
	NEED_SHARED(dat, "linux-6.18-http/trace.dat");
	NEED_SHARED(txt, "linux-6.18-http/trace.txt");
	text_trace t = read_text(txt);
	auto r = make_trace_dat_reader(dat, {});
	auto c = count_kinds(*r);
	ck_assert_uint_eq(c["timer_start"], 3529);	// sanity: the text count below
	for (const auto &[kind, n] : t.counts)
		ck_assert_msg(c[kind] == n, "%s: trace.dat %lu, text %lu", kind.c_str(), c[kind],
			      n);
	for (const auto &[kind, n] : c)
		ck_assert_msg(t.counts[kind] == n, "%s only in trace.dat", kind.c_str());
	const reader_stats &s = r->stats();
	ck_assert_uint_eq(s.lines, s.events);
	ck_assert_uint_eq(s.skipped, 0);
	struct stat st;
	ck_assert_int_eq(stat(dat.c_str(), &st), 0);
	ck_assert_uint_eq(s.bytes, st.st_size);
	ck_assert_uint_eq(r->declared_cpus(), 2);
	ck_assert(r->format() == trace_format::trace_dat);
}
END_TEST

// Field by field, in order: the timer events of trace.dat are those of the
// raw text (pointers aside: the text hashes them), flags included - the raw
// text prints the kernel's real flags.
START_TEST(trace_dat_timer_events_match_text)
{
	NEED_SHARED(dat, "linux-6.18-http/trace.dat");
	NEED_SHARED(txt, "linux-6.18-http/trace.txt");
	text_trace t = read_text(txt);
	auto r = make_trace_dat_reader(dat, {});
	trace_event ev;
	std::size_t i = 0, deferrable = 0;
	std::uint64_t last_ts = 0;
	while (r->next(ev)) {
		ck_assert_msg(ev.ts_ns >= last_ts, "time goes back at record %lu", ev.line);
		last_ts = ev.ts_ns;
		if (!is_timer_kind(ev.kind))
			continue;
		ck_assert_uint_lt(i, t.timers.size());
		const text_timer_event &x = t.timers[i];
		ck_assert_msg(x.kind == event_kind_name(ev.kind), "event %zu: %s vs text %s", i,
			      event_kind_name(ev.kind), x.kind.c_str());
		ck_assert_msg(ev.cpu == x.cpu, "event %zu: cpu %u vs %u", i, ev.cpu, x.cpu);
		ck_assert_uint_ne(ev.timer, 0);
		ck_assert_uint_eq(ev.timer_digits, 16);
		if (ev.kind == event_kind::timer_start) {
			ck_assert_uint_eq(ev.expires, num(x, "expires"));
			ck_assert(ev.carries(EF_TIMEOUT));
			ck_assert_int_eq(ev.timeout, static_cast<std::int64_t>(num(x, "timeout")));
			ck_assert(ev.carries(EF_BUCKET_EXPIRY));
			ck_assert_uint_eq(ev.bucket_expiry, num(x, "bucket_expiry"));
			ck_assert(ev.carries(EF_TARGET_CPU) && ev.carries(EF_IDX));
			ck_assert_uint_eq(ev.target_cpu, num(x, "cpu"));
			ck_assert_uint_eq(ev.idx, num(x, "idx"));
			ck_assert(ev.carries(EF_FLAGS));
			ck_assert_msg(ev.flags == text_flags(x.f.at("flags")),
				      "event %zu: flags %x vs text '%s'", i, ev.flags,
				      x.f.at("flags").c_str());
			deferrable += (ev.flags & TF_DEFERRABLE) != 0;
		}
		if (ev.kind == event_kind::timer_start || ev.kind == event_kind::timer_expire_entry)
			ck_assert_msg(ev.function == x.f.at("function"), "event %zu: %.*s vs %s", i,
				      static_cast<int>(ev.function.size()), ev.function.data(),
				      x.f.at("function").c_str());
		if (ev.kind == event_kind::timer_expire_entry) {
			ck_assert_uint_eq(ev.now, num(x, "now"));
			ck_assert(ev.carries(EF_BASECLK));
			ck_assert_uint_eq(ev.baseclk, num(x, "baseclk"));
		}
		i++;
	}
	ck_assert_uint_eq(i, t.timers.size());
	// trace-cmd report would show D|P|I on every timer; the truth is mixed.
	ck_assert_uint_eq(deferrable, 203 + 53 + 32);
}
END_TEST

START_TEST(trace_dat_cut_short_throws)
{
	NEED_SHARED(dat, "linux-6.18-http/trace.dat");
	const std::string whole = slurp(dat);
	temp_dir tmp;
	const std::string cut = tmp.path + "/cut.dat";
	// Header, formats, kallsyms, options, CPU 0 and CPU 1 data, the
	// trailing sections, one byte short.
	for (double frac : {0.0, 0.00001, 0.002, 0.05, 0.5, 0.79, 0.8, 0.85, 0.95, 0.99999})
	{
		std::size_t n = static_cast<std::size_t>(whole.size() * frac);
		if (frac > 0.9999)
			n = whole.size() - 1;
		spit(cut, whole.substr(0, n));
		std::string err = read_expecting_error(
			[&] { return make_trace_dat_reader(cut, {}); });
		ck_assert_msg(!err.empty(), "cut at %zu bytes read without error", n);
		ck_assert_msg(err.find(cut) == 0, "error names the file: %s", err.c_str());
	}
}
END_TEST

START_TEST(trace_dat_flipped_bytes_throw)
{
	NEED_SHARED(dat, "linux-6.18-http/trace.dat");
	const std::string whole = slurp(dat);
	temp_dir tmp;
	const std::string bad = tmp.path + "/bad.dat";
	// Offsets into this recording: magic, a section size, event formats,
	// the start of CPU 0's compressed data (libtracecmd crashed closing
	// it), a page header whose garbage size walked libtraceevent off the
	// page (a crash too), pages of CPU 0 and CPU 1.
	// 1337972 decompresses into two records too many.
	for (std::size_t off : {3ul, 20ul, 2100ul, 1146900ul, 1148287ul, 1150000ul, 1200000ul,
				1337972ul, 1441000ul}) {
		ck_assert_uint_lt(off + 4, whole.size());
		std::string d = whole;
		for (int k = 0; k < 4; k++)
			d[off + k] = static_cast<char>(d[off + k] ^ 0x5a);
		spit(bad, d);
		std::string err = read_expecting_error(
			[&] { return make_trace_dat_reader(bad, {}); });
		ck_assert_msg(!err.empty(), "bytes flipped at %zu read without error", off);
	}
}
END_TEST

// --lenient: records of undescribed events are counted as malformed and
// reading goes on; a CPU short of the kernel's count is read as it is.
START_TEST(trace_dat_lenient_reads_past_bad_records)
{
	NEED_SHARED(dat, "linux-6.18-http/trace.dat");
	const std::string whole = slurp(dat);
	temp_dir tmp;
	const std::string bad = tmp.path + "/bad.dat";
	reader_options lenient;
	lenient.lenient = true;
	for (std::size_t off : {1200000ul, 1441000ul}) {
		std::string d = whole;
		for (int k = 0; k < 4; k++)
			d[off + k] = static_cast<char>(d[off + k] ^ 0x5a);
		spit(bad, d);
		ck_assert(!read_expecting_error([&] { return make_trace_dat_reader(bad, {}); }).empty());
		auto r = make_trace_dat_reader(bad, lenient);
		trace_event ev;
		std::uint64_t n = 0;
		while (r->next(ev))
			n++;
		const reader_stats &s = r->stats();
		ck_assert_uint_eq(s.events, n);
		ck_assert_uint_eq(s.lines, s.events + s.skipped);
		ck_assert_uint_eq(s.skipped, s.malformed);
		ck_assert_uint_lt(s.events, 34165);	// damage shows in the counts
		if (off == 1200000)
			ck_assert_uint_gt(s.malformed, 0);
	}
}
END_TEST

START_TEST(trace_dat_missing_or_foreign)
{
	ck_assert(!read_expecting_error([] {
		return make_trace_dat_reader("/nonexistent/trace.dat", {});
	}).empty());
	temp_dir tmp;
	spit(tmp.path + "/text.dat", "# tracer: nop\nnot a trace.dat\n");
	ck_assert(!read_expecting_error([&] {
		return make_trace_dat_reader(tmp.path + "/text.dat", {});
	}).empty());
}
END_TEST

// ---- CTF ------------------------------------------------------------------

START_TEST(ctf_counts)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	NEED_SHARED(txt, "linux-3.6-scp_dest/trace.txt");
	auto r = make_ctf_reader(ctf, {});
	auto c = count_kinds(*r);
	ck_assert_uint_eq(c["timer_start"], 10617);
	ck_assert_uint_eq(c["timer_expire_entry"], 10544);
	ck_assert_uint_eq(c["timer_cancel"], 10616);
	ck_assert_uint_eq(c["timer_init"], 100);
	ck_assert_uint_eq(c["timer_expire_exit"], 10544);
	text_trace t = read_text(txt);
	ck_assert_uint_eq(c["hrtimer"], t.counts["hrtimer"]);
	ck_assert_uint_gt(c["hrtimer"], 0);
	const reader_stats &s = r->stats();
	ck_assert_uint_eq(s.lines, s.events);
	ck_assert_uint_eq(r->declared_cpus(), 1);
	ck_assert(r->format() == trace_format::ctf);
}
END_TEST

// The same (expires, now, function) sequence as the 3.x text rendering; the
// text's [timeout=N] is expires - now at the call.
START_TEST(ctf_timer_events_match_text)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	NEED_SHARED(txt, "linux-3.6-scp_dest/trace.txt");
	text_trace t = read_text(txt);
	auto r = make_ctf_reader(ctf, {});
	trace_event ev;
	std::size_t i = 0;
	std::uint64_t last_ts = 0;
	while (r->next(ev)) {
		ck_assert_msg(ev.ts_ns >= last_ts, "time goes back at event %lu", ev.line);
		last_ts = ev.ts_ns;
		if (!is_timer_kind(ev.kind))
			continue;
		ck_assert_uint_lt(i, t.timers.size());
		const text_timer_event &x = t.timers[i];
		ck_assert_msg(x.kind == event_kind_name(ev.kind), "event %zu: %s vs text %s", i,
			      event_kind_name(ev.kind), x.kind.c_str());
		ck_assert_uint_eq(ev.timer, std::strtoull(x.f.at("timer").c_str(), nullptr, 16));
		ck_assert_uint_eq(ev.timer_digits, 16);
		if (ev.kind == event_kind::timer_start) {
			ck_assert_uint_eq(ev.expires, num(x, "expires"));
			ck_assert(ev.carries(EF_TIMEOUT));
			// The record's now (the jiffies at the call) is kept as
			// the timeout, as the text prints it.
			ck_assert_int_eq(ev.timeout, static_cast<std::int64_t>(num(x, "timeout")));
			ck_assert(!ev.carries(EF_FLAGS) && !ev.carries(EF_TARGET_CPU));
		}
		if (ev.kind == event_kind::timer_expire_entry)
			ck_assert_uint_eq(ev.now, num(x, "now"));
		if (ev.kind == event_kind::timer_start || ev.kind == event_kind::timer_expire_entry) {
			ck_assert(ev.function.substr(0, 2) == "0x");
			ck_assert_msg(ev.function == x.f.at("function"), "event %zu: %.*s vs %s", i,
				      static_cast<int>(ev.function.size()), ev.function.data(),
				      x.f.at("function").c_str());
		}
		i++;
	}
	ck_assert_uint_eq(i, t.timers.size());
}
END_TEST

// Copies the shared CTF directory into TMP, with the channel file replaced.
std::string ctf_copy(const std::string &src, const temp_dir &tmp, const std::string &channel,
		     const std::string &metadata)
{
	std::string dir = tmp.path + "/ctf";
	mkdir(dir.c_str(), 0700);
	spit(dir + "/metadata", metadata);
	spit(dir + "/channel0_0", channel);
	(void)src;
	return dir;
}

START_TEST(ctf_damaged_throws)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	const std::string meta = slurp(ctf + "/metadata");
	const std::string chan = slurp(ctf + "/channel0_0");
	ck_assert_uint_gt(chan.size(), 1000000);
	temp_dir tmp;
	auto expect_error = [&](const std::string &c, const std::string &m, const char *what) {
		std::string dir = ctf_copy(ctf, tmp, c, m);
		std::string err = read_expecting_error([&] { return make_ctf_reader(dir, {}); });
		ck_assert_msg(!err.empty(), "%s read without error", what);
	};
	expect_error(chan.substr(0, 0), meta, "empty channel");
	expect_error(chan.substr(0, 100), meta, "channel cut in the first packet header");
	expect_error(chan.substr(0, chan.size() / 2), meta, "channel cut in half");
	expect_error(chan.substr(0, chan.size() - 1), meta, "channel one byte short");
	for (std::size_t off : {0ul, 40ul, 500ul, 70000ul}) {
		std::string c = chan;
		for (int k = 0; k < 8; k++)
			c[off + k] = static_cast<char>(0xff);
		expect_error(c, meta, ("channel bytes flipped at " + std::to_string(off)).c_str());
	}
	// A damaged sequence length there made libbabeltrace corrupt its heap
	// and abort; the length must fit in the packet's content.
	{
		std::string c = chan;
		for (int k = 0; k < 4; k++)
			c[787606 + k] = static_cast<char>(k % 2 ? 0xa5 : 0x5a);
		expect_error(c, meta, "channel bytes flipped at 787606 (babeltrace aborts)");
	}
	// There a damaged length made libbabeltrace allocate and fill memory
	// without end.
	{
		std::string c = chan;
		for (int k = 0; k < 4; k++)
			c[1050894 + k] = static_cast<char>(k % 2 ? 0xa5 : 0x5a);
		expect_error(c, meta, "channel bytes flipped at 1050894 (babeltrace balloons)");
	}
	expect_error(chan, meta.substr(0, 30), "metadata cut in its first packet header");
	expect_error(chan, meta.substr(0, 20000), "metadata cut inside a packet");
	expect_error(chan, meta.substr(0, 4096), "metadata cut after its first packet");
	// The intact copy reads: the damage above is what failed.
	std::string dir = ctf_copy(ctf, tmp, chan, meta);
	ck_assert(read_expecting_error([&] { return make_ctf_reader(dir, {}); }).empty());
}
END_TEST

START_TEST(ctf_not_a_trace)
{
	temp_dir tmp;
	ck_assert(!read_expecting_error([&] { return make_ctf_reader(tmp.path, {}); }).empty());
	ck_assert(!read_expecting_error([] {
		return make_ctf_reader("/nonexistent/ctf", {});
	}).empty());
	spit(tmp.path + "/metadata", "/* CTF 1.8 */ trace { major = 1; minor = 8; ");
	spit(tmp.path + "/channel0_0", std::string(4096, '\0'));
	std::string err = read_expecting_error([&] { return make_ctf_reader(tmp.path, {}); });
	ck_assert_msg(err.find("unclosed brace") != std::string::npos, "%s", err.c_str());
}
END_TEST

// ---- symbols ----------------------------------------------------------------

START_TEST(symbol_table_nearest_at_or_below)
{
	temp_dir tmp;
	const std::string map = tmp.path + "/System.map";
	spit(map, "ffffffff81000000 T _text\n"
		  "ffffffff81065e80 T delayed_work_timer_fn\n"
		  "ffffffff81065e80 t alias_of_it\n"
		  "ffffffff81066000 D some_data\n"
		  "ffffffff81067000 t process_timeout\n"
		  "ffffffffa02314a0 t e1000_watchdog\t[e1000]\n");
	symbol_table s;
	s.load(map);
	ck_assert_uint_eq(s.size(), 5);	// the D symbol is left out
	ck_assert(s.lookup(0xffffffff81065e80) == "delayed_work_timer_fn");	// exact, first
	ck_assert(s.lookup(0xffffffff81065e81) == "delayed_work_timer_fn");
	ck_assert(s.lookup(0xffffffff81066010) == "delayed_work_timer_fn");	// not data
	ck_assert(s.lookup(0xffffffff81067000) == "process_timeout");
	ck_assert(s.lookup(0xffffffffa02314a0) == "e1000_watchdog");
	ck_assert(s.lookup(0xffffffff80000000).empty());
	ck_assert(hex_address(0xffffffff81065e80) == "0xffffffff81065e80");
	spit(map, "no symbols here\n");
	symbol_table bad;
	bool threw = false;
	try {
		bad.load(map);
	} catch (const input_error &) {
		threw = true;
	}
	ck_assert(threw);
}
END_TEST

START_TEST(ctf_resolves_with_system_map)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	temp_dir tmp;
	const std::string map = tmp.path + "/System.map";
	// The first timer_start's callback and the module callback after it.
	spit(map, "ffffffff81000000 T _text\n"
		  "ffffffff81065e80 T delayed_work_timer_fn\n"
		  "ffffffffa0231000 t e1000_module_start\n");
	reader_options opt;
	opt.symbols = map;
	auto r = make_ctf_reader(ctf, opt);
	trace_event ev;
	std::map<std::string, unsigned long> names;
	while (r->next(ev))
		if (ev.kind == event_kind::timer_start)
			names[std::string(ev.function)]++;
	ck_assert_uint_gt(names["delayed_work_timer_fn"], 0);
	// 0xffffffffa02314a0: inside e1000_module_start, named with its offset.
	ck_assert_uint_gt(names["e1000_module_start+0x4a0"], 0);
	// Addresses far (> 8 KiB) past every symbol of this short map are no
	// symbol's: they stay in hex rather than take the nearest name below.
	for (const auto &[name, n] : names)
		if (name.rfind("0x", 0) == 0)
			ck_assert_msg(std::stoull(name, nullptr, 16) - 0xffffffff81065e80ull > 8192,
				      "%s left unresolved (%lu)", name.c_str(), n);
}
END_TEST

// ---- helpers shared by both readers ----------------------------------------

START_TEST(flag_layouts_and_names)
{
	ck_assert_uint_eq(kernel_release("6.18.44-fc-v595"), 618);
	ck_assert_uint_eq(kernel_release("3.6.11-1-ARCH"), 306);
	ck_assert_uint_eq(kernel_release("4.7"), 407);
	ck_assert_uint_eq(kernel_release("garbage"), 0);
	// 4.8+: CPU 1, D|I, wheel index 5.
	timer_flag_word w = decode_timer_flags(0x00280001 | (5u << 22), 618);
	ck_assert_uint_eq(w.flags, TF_DEFERRABLE | TF_IRQSAFE);
	ck_assert_uint_eq(w.cpu, 1);
	ck_assert_uint_eq(w.idx, 5);
	ck_assert(w.has_idx);
	// The same bits on 4.7 read as MIGRATING|IRQSAFE and CPU 0x80001 & mask.
	w = decode_timer_flags(0x00280001, 407);
	ck_assert_uint_eq(w.flags, TF_MIGRATING | TF_IRQSAFE);
	ck_assert(!w.has_idx);
	w = decode_timer_flags(0x00100003, 405);
	ck_assert_uint_eq(w.flags, TF_DEFERRABLE);
	ck_assert_uint_eq(w.cpu, 3);
	ck_assert(kernel_event_name("timer_hrtimer_start") == "hrtimer_start");
	ck_assert(kernel_event_name("timer_start") == "timer_start");
	ck_assert(event_kind_of("hrtimer_setup") == event_kind::hrtimer);
	ck_assert(event_kind_of("timer_base_idle") == event_kind::timer_base_idle);
	ck_assert(event_kind_of("sched_switch") == event_kind::other);
}
END_TEST

static Suite *binary_suite()
{
	Suite *s = suite_create("binary_readers");
	TCase *tc = tcase_create("units");
	tcase_add_test(tc, symbol_table_nearest_at_or_below);
	tcase_add_test(tc, flag_layouts_and_names);
	tcase_add_test(tc, trace_dat_missing_or_foreign);
	tcase_add_test(tc, ctf_not_a_trace);
	suite_add_tcase(s, tc);
	tc = tcase_create("shared");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, trace_dat_counts_match_text);
	tcase_add_test(tc, trace_dat_timer_events_match_text);
	tcase_add_test(tc, trace_dat_cut_short_throws);
	tcase_add_test(tc, trace_dat_flipped_bytes_throw);
	tcase_add_test(tc, trace_dat_lenient_reads_past_bad_records);
	tcase_add_test(tc, ctf_counts);
	tcase_add_test(tc, ctf_timer_events_match_text);
	tcase_add_test(tc, ctf_damaged_throws);
	tcase_add_test(tc, ctf_resolves_with_system_map);
	suite_add_tcase(s, tc);
	return s;
}

int main()
{
	return timersim::test::run_suite(binary_suite());
}
