// Our CTF reader (TSDL parser, packet walker, stream set checks):
// - on the shared LTTng 2.1 trace, the same events, fields and order as
//   libbabeltrace 1.x (the reference reader, ctf.h);
// - a stream file missing (named by the index, or a CPU the other streams
//   imply) or duplicated is an input error (exit 2), on copies of the
//   shared trace in a temporary directory;
// - cut and flipped copies: input_error with file and offset, or a whole
//   read, never a crash;
// - a small hand-made big-endian trace: bit fields, enum-tagged variants,
//   strings, sequences, plain-text metadata.
#include <cstring>
#include <random>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "sim/trace/ctf.h"
#include "sim/trace/ctf_metadata.h"
#include "sim/trace/ctf_tsdl.h"
#include "sim/trace/reader.h"
#include "tests/support/binary_test_util.h"
#include "tests/support/cli.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using test::owned_event;

namespace {

std::string slurp(const std::string &path)
{
	return test::read_whole_file(path);
}

void spit(const std::string &path, const std::string &data)
{
	test::write_file(path, data);
}

std::string ctf_error(const std::string &dir, std::uint64_t *events = nullptr)
{
	return test::read_error([&] { return make_ctf_reader(dir, {}); }, events);
}

bool contains(const std::string &s, const std::string &part)
{
	return s.find(part) != std::string::npos;
}

// ---- the LTTng 2.1 packet layout, read independently ----------------------
// packet.header: magic u32, uuid[16], stream_id u32; packet.context:
// timestamp_begin, timestamp_end, content_size, packet_size,
// events_discarded (u64 each), cpu_id u32. Little-endian.

std::uint64_t le(const std::string &b, std::size_t at, unsigned n)
{
	std::uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= std::uint64_t(static_cast<unsigned char>(b[at + i])) << (8 * i);
	return v;
}

struct packet {
	std::size_t offset;
	std::uint64_t begin, end, content_bits, packet_bits;
};

std::vector<packet> packets_of(const std::string &chan)
{
	std::vector<packet> out;
	for (std::size_t at = 0; at + 72 <= chan.size();) {
		packet p{at, le(chan, at + 24, 8), le(chan, at + 32, 8), le(chan, at + 40, 8),
			 le(chan, at + 48, 8)};
		ck_assert_uint_eq(le(chan, at, 4), 0xc1fc1fc1);
		ck_assert_uint_gt(p.packet_bits, 0);
		out.push_back(p);
		at += p.packet_bits / 8;
	}
	return out;
}

void put_le(std::string &b, std::size_t at, std::uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		b[at + i] = static_cast<char>(v >> (8 * i));
}

void put_be(std::string &b, std::uint64_t v, unsigned n)
{
	for (unsigned i = n; i-- > 0;)
		b += static_cast<char>(v >> (8 * i));
}

// index/<name>.idx as LTTng 2.4+ writes it (CTF index 1.0, big-endian).
std::string index_of(const std::string &chan)
{
	std::string idx;
	put_be(idx, 0xc1f1dcc1, 4);
	put_be(idx, 1, 4);
	put_be(idx, 0, 4);
	put_be(idx, 56, 4);
	for (const packet &p : packets_of(chan)) {
		for (std::uint64_t v : {std::uint64_t(p.offset), p.packet_bits, p.content_bits, p.begin,
					p.end, std::uint64_t(0), std::uint64_t(0)})
			put_be(idx, v, 8);
	}
	return idx;
}

// A copy of the shared trace in a fresh directory.
std::string copy_trace(const std::string &src, const std::string &name)
{
	std::string dir = test::temp_subdir(name);
	spit(dir + "/metadata", slurp(src + "/metadata"));
	spit(dir + "/channel0_0", slurp(src + "/channel0_0"));
	return dir;
}

}  // namespace

// ---- the reference -------------------------------------------------------

START_TEST(ctf_matches_babeltrace)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	auto ours = make_ctf_reader(ctf, {});
	auto ref = make_ctf_babeltrace_reader(ctf, {});
	std::vector<owned_event> a = test::read_all(*ours), b = test::read_all(*ref);
	ck_assert_uint_eq(a.size(), 85729);
	ck_assert_uint_eq(a.size(), b.size());
	std::size_t timers = 0;
	for (std::size_t i = 0; i < a.size(); i++) {
		const owned_event &x = a[i], &y = b[i];
		ck_assert_msg(x.name == y.name && x.ts_ns == y.ts_ns && x.cpu == y.cpu,
			      "event %zu: %s at %lu vs babeltrace %s at %lu", i, x.name.c_str(),
			      x.ts_ns, y.name.c_str(), y.ts_ns);
		ck_assert_msg(x == y, "event %zu (%s): fields differ from babeltrace's", i,
			      x.name.c_str());
		timers += x.kind == event_kind::timer_start;
	}
	ck_assert_uint_eq(timers, 10617);
	ck_assert_uint_eq(ours->stats().events, a.size());
	ck_assert_uint_eq(ours->stats().bytes, 1904640 + 36864);
	ck_assert_uint_eq(ours->declared_cpus(), 1);
}
END_TEST

// The shared trace is the hard case the reader must keep reading: packets
// that begin before the previous one ended.
START_TEST(ctf_reads_packets_stepping_back)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	std::vector<packet> ps = packets_of(slurp(ctf + "/channel0_0"));
	ck_assert_uint_eq(ps.size(), 8);
	unsigned back = 0;
	for (std::size_t i = 1; i < ps.size(); i++)
		back += ps[i].begin < ps[i - 1].end;
	ck_assert_uint_eq(back, 7);
	// Every packet's events are read: the last event lies in the last
	// packet, after the first of them began.
	auto r = make_ctf_reader(ctf, {});
	trace_event ev;
	std::uint64_t last = 0, n = 0;
	while (r->next(ev)) {
		ck_assert_uint_ge(ev.ts_ns, last);
		last = ev.ts_ns;
		n++;
	}
	ck_assert_uint_eq(n, 85729);
	const std::uint64_t clock_offset = 1361203569335098971ull;	// the metadata's
	ck_assert_uint_ge(last, clock_offset + ps.back().begin);
	ck_assert_uint_le(last, clock_offset + ps.back().end);
}
END_TEST

// ---- missing and duplicated streams (issue 14) ------------------------------

START_TEST(ctf_duplicated_stream_is_an_error)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	std::string dir = copy_trace(ctf, "dup");
	spit(dir + "/channel0_0.copy", slurp(ctf + "/channel0_0"));
	std::string err = ctf_error(dir);
	ck_assert_msg(contains(err, "channel0_0 and channel0_0.copy both hold CPU 0"), "%s",
		      err.c_str());
	test::cli_result r = test::run_timersim({"replay", dir});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, "channel0_0.copy"), "%s", r.err.c_str());
	ck_assert(r.out.empty());
}
END_TEST

// The tracer's lost events (packet context events_discarded, LTTng's
// running count per stream) are reported, by stream and packet: the
// shared trace with 5 events lost before packet 2 and 7 before packet 5.
START_TEST(ctf_discarded_events_are_reported)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	std::string dir = copy_trace(ctf, "discarded");
	std::string chan = slurp(dir + "/channel0_0");
	std::vector<packet> ps = packets_of(chan);
	ck_assert_uint_ge(ps.size(), 6);
	for (std::size_t i = 0; i < ps.size(); i++)
		put_le(chan, ps[i].offset + 56, i < 2 ? 0 : i < 5 ? 5 : 12, 8);
	spit(dir + "/channel0_0", chan);

	auto r = make_ctf_reader(dir, {});
	std::vector<owned_event> ev = test::read_all(*r);
	ck_assert_uint_gt(ev.size(), 0);
	const reader_stats &st = r->stats();
	ck_assert_uint_eq(st.lost_events, 12);
	ck_assert_uint_eq(st.lost_packets.size(), 2);
	ck_assert_str_eq(st.lost_packets[0].stream.c_str(), "channel0_0");
	ck_assert_uint_eq(st.lost_packets[0].packet, 2);
	ck_assert_uint_eq(st.lost_packets[0].offset, ps[2].offset);
	ck_assert_uint_eq(st.lost_packets[0].events, 5);
	ck_assert_uint_eq(st.lost_packets[1].packet, 5);
	ck_assert_uint_eq(st.lost_packets[1].offset, ps[5].offset);
	ck_assert_uint_eq(st.lost_packets[1].events, 7);

	// Both reports say so; the unmodified trace has no such line.
	test::cli_result text = test::run_timersim({"replay", dir});
	ck_assert_int_eq(text.status, 0);
	ck_assert_msg(contains(text.out, "lost     12 events the tracer discarded: channel0_0 packet 2 (offset " +
						 std::to_string(ps[2].offset) + "): 5, channel0_0 packet 5 (offset " +
						 std::to_string(ps[5].offset) + "): 7"),
		      "%s", text.out.c_str());
	test::cli_result json = test::run_timersim({"replay", "--json", "-", dir});
	ck_assert_int_eq(json.status, 0);
	std::string j = json.out;
	auto at = j.find("\"lost_event_packets\": [");
	ck_assert_msg(contains(j, "\"lost_events\": 12,") && at != std::string::npos, "%s", j.c_str());
	// The second packet's entry, its keys in order.
	std::vector<std::string> keys = {"\"packet\": 2,", "\"packet\": 5,",
					 "\"offset\": " + std::to_string(ps[5].offset) + ",", "\"events\": 7"};
	for (const std::string &k : keys) {
		at = j.find(k, at);
		ck_assert_msg(at != std::string::npos, "no %s in order in %s", k.c_str(), j.c_str());
	}
	test::cli_result plain = test::run_timersim({"replay", ctf});
	ck_assert_int_eq(plain.status, 0);
	ck_assert(!contains(plain.out, "discarded"));
}
END_TEST

// The trace split into two CPU streams (packets 0-3 on CPU 0, 4-7 on CPU
// 1) reads whole; without either file it is refused.
START_TEST(ctf_missing_cpu_stream_is_an_error)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	std::string chan = slurp(ctf + "/channel0_0");
	std::vector<packet> ps = packets_of(chan);
	std::string cpu0 = chan.substr(0, ps[4].offset), cpu1 = chan.substr(ps[4].offset);
	for (std::size_t at = 0; at < cpu1.size(); at += 262144)
		put_le(cpu1, at + 64, 1, 4);	// cpu_id
	std::string dir = copy_trace(ctf, "split");
	spit(dir + "/channel0_0", cpu0);
	spit(dir + "/channel0_1", cpu1);
	std::uint64_t n = 0;
	std::string err = ctf_error(dir, &n);
	ck_assert_msg(err.empty(), "%s", err.c_str());
	ck_assert_uint_eq(n, 85729);
	ck_assert_uint_eq(make_ctf_reader(dir, {})->declared_cpus(), 2);

	ck_assert_int_eq(::unlink((dir + "/channel0_0").c_str()), 0);
	err = ctf_error(dir);
	ck_assert_msg(contains(err, "no stream file holds CPU 0") &&
			      contains(err, "channel0_0 missing"), "%s", err.c_str());
	test::cli_result r = test::run_timersim({"replay", dir});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, "channel0_0"), "%s", r.err.c_str());
}
END_TEST

START_TEST(ctf_index_names_missing_stream)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	std::string chan = slurp(ctf + "/channel0_0");
	std::string dir = copy_trace(ctf, "indexed");
	ck_assert_int_eq(::mkdir((dir + "/index").c_str(), 0700), 0);
	spit(dir + "/index/channel0_0.idx", index_of(chan));
	std::uint64_t n = 0;
	std::string err = ctf_error(dir, &n);
	ck_assert_msg(err.empty(), "%s", err.c_str());
	ck_assert_uint_eq(n, 85729);

	// An index for a stream whose file is gone.
	spit(dir + "/index/channel0_1.idx", index_of(chan));
	err = ctf_error(dir);
	ck_assert_msg(contains(err, "stream file channel0_1 is missing: index/channel0_1.idx"),
		      "%s", err.c_str());
	test::cli_result r = test::run_timersim({"replay", dir});
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(contains(r.err, "channel0_1 is missing"), "%s", r.err.c_str());
	::unlink((dir + "/index/channel0_1.idx").c_str());

	// The only stream deleted: the index still names it.
	::unlink((dir + "/channel0_0").c_str());
	err = ctf_error(dir);
	ck_assert_msg(contains(err, "channel0_0 is missing"), "%s", err.c_str());
	spit(dir + "/channel0_0", chan);

	// A stream file the index does not know: a copy.
	spit(dir + "/channel0_0.copy", chan);
	err = ctf_error(dir);
	ck_assert_msg(contains(err, "channel0_0.copy is not in the trace's index"), "%s",
		      err.c_str());
	::unlink((dir + "/channel0_0.copy").c_str());

	// Cut at a packet boundary: only the index tells.
	spit(dir + "/channel0_0", chan.substr(0, packets_of(chan)[6].offset));
	err = ctf_error(dir);
	ck_assert_msg(contains(err, "holds 6 packets, index/channel0_0.idx lists 8"), "%s",
		      err.c_str());
	// A packet whose size differs from the index.
	std::string bad = index_of(chan);
	bad[16 + 56 * 2 + 23] ^= 8;	// packet 2's content_size
	spit(dir + "/channel0_0", chan);
	spit(dir + "/index/channel0_0.idx", bad);
	err = ctf_error(dir);
	ck_assert_msg(contains(err, "packet 2 differs from its entry in index/channel0_0.idx"),
		      "%s", err.c_str());
	spit(dir + "/index/channel0_0.idx", bad.substr(0, bad.size() - 3));
	err = ctf_error(dir);
	ck_assert_msg(contains(err, "index ends inside an entry"), "%s", err.c_str());
}
END_TEST

// A stream class the metadata declares (with events) and no file holds.
START_TEST(ctf_declared_stream_class_without_file)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	// The metadata's TSDL text: 37-byte packet headers, content_size at 24.
	std::string raw = slurp(ctf + "/metadata"), text = "/* CTF 1.8 */\n";
	for (std::size_t at = 0; at < raw.size(); at += le(raw, at + 28, 4) / 8)
		text += raw.substr(at + 37, le(raw, at + 24, 4) / 8 - 37);
	std::string dir = copy_trace(ctf, "classes");
	spit(dir + "/metadata", text);
	std::string err = ctf_error(dir);
	ck_assert_msg(err.empty(), "plain-text metadata: %s", err.c_str());
	text += "stream { id = 1; event.header := struct event_header_large;\n"
		"\tpacket.context := struct packet_context; };\n"
		"event { name = timer_other; id = 0; stream_id = 1;\n"
		"\tfields := struct { uint64_t _timer; }; };\n";
	spit(dir + "/metadata", text);
	err = ctf_error(dir);
	ck_assert_msg(contains(err, "declares stream class 1") &&
			      contains(err, "no stream file holds it"), "%s", err.c_str());
}
END_TEST

// ---- damage ------------------------------------------------------------------

START_TEST(ctf_cuts_and_flips)
{
	NEED_SHARED(ctf, "linux-3.6-scp_dest/ctf");
	const std::string chan = slurp(ctf + "/channel0_0");
	std::string dir = copy_trace(ctf, "damage");
	std::mt19937_64 rng(14);
	unsigned errors = 0;
	for (int i = 0; i < 30; i++) {
		std::size_t n = rng() % chan.size();
		if (n % 262144 == 0)
			n++;	// a cut at a packet boundary leaves a valid trace
		spit(dir + "/channel0_0", chan.substr(0, n));
		std::string err = ctf_error(dir);
		ck_assert_msg(contains(err, dir + "/channel0_0: offset "), "cut at %zu: '%s'", n,
			      err.c_str());
	}
	for (int i = 0; i < 150; i++) {
		std::string c = chan;
		std::size_t at = rng() % (c.size() - 4);
		for (int k = 0; k < 4; k++)
			c[at + k] = static_cast<char>(c[at + k] ^ (rng() | 1));
		spit(dir + "/channel0_0", c);
		std::uint64_t n = 0;
		std::string err = ctf_error(dir, &n);
		if (!err.empty()) {
			errors++;
			ck_assert_msg(contains(err, "offset "), "flip at %zu: %s", at, err.c_str());
		}
	}
	// Flips in payload values read as other values (there is no checksum);
	// flips in headers, ids, lengths must show.
	ck_assert_uint_gt(errors, 30);
}
END_TEST

// ---- a hand-made big-endian trace ----------------------------------------------

namespace {

// Bits written most significant first, as CTF lays out big-endian data.
struct be_bits {
	std::string bytes;
	std::uint64_t pos = 0;
	void align(unsigned a)
	{
		while (pos % a)
			put(0, 1);
	}
	void put(std::uint64_t v, unsigned len)
	{
		for (unsigned i = len; i-- > 0;) {
			if (pos % 8 == 0)
				bytes += '\0';
			if (v >> i & 1)
				bytes.back() = static_cast<char>(bytes.back() | (0x80 >> (pos % 8)));
			pos++;
		}
	}
	void str(const std::string &s)
	{
		align(8);
		for (char c : s)
			put(static_cast<unsigned char>(c), 8);
		put(0, 8);
	}
};

const char *be_metadata = R"(/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typedef integer { size = 64; align = 8; signed = true; } long long;
trace {
	major = 1; minor = 8;
	byte_order = be;
	packet.header := struct { uint32_t magic; uint32_t stream_id; };
};
env { kernel_release = "3.6.0"; };
clock { name = mono; freq = 1000000000; offset_s = 10; offset = 5; };
typealias integer { size = 27; align = 1; signed = false; map = clock.mono.value; } := ts27;
typealias integer { size = 64; align = 8; signed = false; map = clock.mono.value; } := ts64;
callsite { name = "x"; func = "y"; ip = 0; };
stream {
	event.header := struct {
		enum : integer { size = 5; align = 1; signed = false; } { compact = 0 ... 30, extended = 31 } id;
		variant <id> {
			struct { ts27 timestamp; } compact;
			struct { uint32_t id; ts64 timestamp; } extended;
		} v;
	} align(8);
	packet.context := struct { uint64_t content_size; uint64_t packet_size; uint32_t cpu_id; };
};
event { name = "sched_thing"; id = 3;
	fields := struct { string _comm; uint8_t _n; integer { size = 16; align = 16; } _vals[_n];
			   integer { size = 3; align = 1; } _bits; long long _neg; }; };
event { name = timer_start; id = 40;
	fields := struct { uint64_t _timer; uint64_t _function; uint64_t _expires; uint64_t _now; }; };
)";

}  // namespace

START_TEST(ctf_big_endian_handmade)
{
	be_bits b;
	b.put(0xc1fc1fc1, 32);
	b.put(0, 32);
	std::size_t content_at = b.bytes.size();
	b.put(0, 64);	// content_size, filled in below
	b.put(0, 64);	// packet_size
	b.put(0, 32);	// cpu_id
	// Event 1: compact header, id 3, timestamp 100.
	b.put(3, 5);
	b.put(100, 27);
	b.str("swapper");
	b.put(2, 8);
	b.align(16);
	b.put(0xbeef, 16);
	b.put(0xcafe, 16);
	b.put(5, 3);
	b.align(8);
	b.put(static_cast<std::uint64_t>(-7), 64);
	// Event 2: extended header, id 40, timestamp 1 << 40.
	b.align(8);
	b.put(31, 5);
	b.align(8);	// the extended struct is byte-aligned
	b.put(40, 32);
	b.put(std::uint64_t(1) << 40, 64);
	for (std::uint64_t v : {0xffff880012345678ull, 0xffffffff81065e80ull, 1000ull, 990ull})
		b.put(v, 64);
	std::uint64_t content = b.pos;
	b.align(8);
	b.bytes.append(13, '\0');	// padding to the packet's end
	std::string s = b.bytes;
	for (int i = 0; i < 8; i++) {
		s[content_at + i] = static_cast<char>(content >> (56 - 8 * i));
		s[content_at + 8 + i] = static_cast<char>((s.size() * 8) >> (56 - 8 * i));
	}
	std::string dir = test::temp_subdir("be");
	spit(dir + "/metadata", be_metadata);
	spit(dir + "/stream_2", s);
	auto r = make_ctf_reader(dir, {});
	ck_assert_uint_eq(r->declared_cpus(), 1);
	std::vector<owned_event> ev = test::read_all(*r);
	ck_assert_uint_eq(ev.size(), 2);
	ck_assert_str_eq(ev[0].name.c_str(), "sched_thing");
	ck_assert_uint_eq(ev[0].cpu, 0);
	ck_assert_uint_eq(ev[0].ts_ns, 10000000000ull + 5 + 100);
	ck_assert_str_eq(ev[1].name.c_str(), "timer_start");
	ck_assert_uint_eq(ev[1].ts_ns, 10000000000ull + 5 + (1ull << 40));
	ck_assert_uint_eq(ev[1].timer, 0xffff880012345678ull);
	ck_assert_uint_eq(ev[1].timer_digits, 16);
	ck_assert_str_eq(ev[1].function.c_str(), "0xffffffff81065e80");
	ck_assert_uint_eq(ev[1].expires, 1000);
	ck_assert(ev[1].carries(EF_TIMEOUT));
	ck_assert_int_eq(ev[1].timeout, 10);

	// The sequence's length byte made too large: its elements would run
	// past the content.
	std::string bad = s;
	std::size_t n_at = s.find("swapper") + 8;
	bad[n_at] = static_cast<char>(200);
	spit(dir + "/stream_2", bad);
	std::string err = ctf_error(dir);
	ck_assert_msg(contains(err, "offset ") && contains(err, "200 elements"), "%s", err.c_str());
	// A string without its NUL up to the end of the content.
	bad = s.substr(0, n_at - 1) + std::string(s.size() - n_at + 1, 'x');
	for (int i = 0; i < 8; i++)
		bad[content_at + i] = static_cast<char>((8 * n_at) >> (56 - 8 * i));
	spit(dir + "/stream_2", bad);
	err = ctf_error(dir);
	ck_assert_msg(contains(err, "terminating NUL"), "%s", err.c_str());
}
END_TEST

START_TEST(tsdl_errors_name_the_line)
{
	auto err = [](const std::string &text) {
		try {
			ctf::parse_tsdl(text, "meta");
		} catch (const input_error &e) {
			return std::string(e.what());
		}
		return std::string();
	};
	ck_assert(contains(err("trace { major = 1; };\nstruct x { nosuch_t y; };"), "meta:2:"));
	ck_assert(contains(err("struct x { integer { size = 65; } y; };"), "65 bits"));
	ck_assert(contains(err("typealias integer { size = 8; } := u8;\n"
			       "struct x { u8 a[len]; };"),
			   "'len' names no field"));
	ck_assert(contains(err("typealias integer { size = 8; } := u8;\n"
			       "struct x { u8 len; struct { } e[len]; };"),
			   "empty elements"));
	ck_assert(contains(err("event { name = a; id = 1; stream_id = 4; };"),
			   "not declared"));
	// Any byte outside the language, a non-ASCII one too, is named.
	ck_assert(contains(err("trace { major = 1; };\n\xc3\xa9"), "meta:2: unexpected character"));
	ck_assert(contains(err("trace { major = 1; }; @"), "unexpected character '@'"));
	// Every blank of the C locale separates tokens as a space does.
	std::string blanks;
	for (char c : std::string(be_metadata))
		blanks += c == ' ' ? std::string("\t\v\f\r ") : std::string(1, c);
	ctf::trace_model b = ctf::parse_tsdl(blanks, "meta");
	ck_assert(b.big_endian);
	ck_assert_uint_eq(b.streams.at(0).events.size(), 2);
	ck_assert_string_eq(b.env.at("kernel_release").c_str(), "3.6.0");
	ctf::trace_model m = ctf::parse_tsdl(be_metadata, "meta");
	ck_assert(m.big_endian);
	ck_assert_uint_eq(m.streams.size(), 1);
	ck_assert_uint_eq(m.streams.at(0).events.size(), 2);
	ck_assert_string_eq(m.env.at("kernel_release").c_str(), "3.6.0");
	ck_assert_uint_eq(m.clocks.at("mono").offset_s, 10);
}
END_TEST

// Packetized metadata (CTF 1.8 section 7.1): each packet's content after its
// 37-byte header, the padding after it dropped, the packets' texts joined
// (gathered in place); plain text whole, however long; a cut packet named.
std::string metadata_packet(const std::string &content, std::size_t padding, bool big)
{
	std::string p(37, '\0');
	auto put = [&](std::size_t at, std::uint32_t v) {
		for (unsigned i = 0; i < 4; i++)
			p[at + (big ? 3 - i : i)] = static_cast<char>(v >> (8 * i));
	};
	put(0, 0x75d11d57);
	put(24, static_cast<std::uint32_t>((37 + content.size()) * 8));
	put(28, static_cast<std::uint32_t>((37 + content.size() + padding) * 8));
	return p + content + std::string(padding, 'P');
}

START_TEST(metadata_packets_are_joined_and_plain_text_read_whole)
{
	std::string dir = test::temp_subdir("metadata");
	std::string text;
	for (int i = 0; i < 300; i++)
		text += "/* line " + std::to_string(i) + " of a metadata text longer than any one packet */\n";
	for (bool big : {false, true}) {
		std::string packed;
		for (std::size_t at = 0, k = 0; at < text.size(); k++) {
			std::size_t n = std::min<std::size_t>(text.size() - at, 1 + k * 97 % 4000);
			packed += metadata_packet(text.substr(at, n), k % 3 ? k * 13 % 200 : 0, big);
			at += n;
		}
		spit(dir + "/metadata", packed);
		ck_assert(read_ctf_metadata(dir + "/metadata") == text);
		// Cut inside its last packet.
		spit(dir + "/metadata", packed.substr(0, packed.size() - 1));
		std::string err = test::read_error([&] {
			read_ctf_metadata(dir + "/metadata");
			return std::unique_ptr<trace_reader>();
		});
		ck_assert_msg(contains(err, "truncated metadata packet"), "%s", err.c_str());
	}
	// Plain text past the first guess of a read's buffer (64 KB when the
	// size is not known), and of every size about it.
	std::string plain;
	while (plain.size() < 200000)
		plain += "// a line comment, which a cut anywhere leaves closed\n";
	for (std::size_t n : {std::size_t{1}, std::size_t{65535}, std::size_t{65536}, std::size_t{65537}, plain.size()}) {
		std::string t = plain.substr(0, n - 1) + "\n";
		spit(dir + "/metadata", t);
		ck_assert(read_ctf_metadata(dir + "/metadata") == t);
	}
	// A FIFO has no size to go by: the buffer grows as the text comes.
	std::string fifo = dir + "/fifo";
	ck_assert_int_eq(mkfifo(fifo.c_str(), 0600), 0);
	std::thread writer([&] { spit(fifo, plain); });
	std::string got = read_ctf_metadata(fifo);
	writer.join();
	ck_assert(got == plain);
}
END_TEST

static Suite *ctf_suite()
{
	Suite *s = suite_create("ctf_reader");
	TCase *tc = tcase_create("units");
	tcase_add_test(tc, ctf_big_endian_handmade);
	tcase_add_test(tc, tsdl_errors_name_the_line);
	tcase_add_test(tc, metadata_packets_are_joined_and_plain_text_read_whole);
	suite_add_tcase(s, tc);
	tc = tcase_create("shared");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, ctf_matches_babeltrace);
	tcase_add_test(tc, ctf_reads_packets_stepping_back);
	tcase_add_test(tc, ctf_duplicated_stream_is_an_error);
	tcase_add_test(tc, ctf_discarded_events_are_reported);
	tcase_add_test(tc, ctf_missing_cpu_stream_is_an_error);
	tcase_add_test(tc, ctf_index_names_missing_stream);
	tcase_add_test(tc, ctf_declared_stream_class_without_file);
	tcase_add_test(tc, ctf_cuts_and_flips);
	suite_add_tcase(s, tc);
	return s;
}

int main()
{
	return timersim::test::run_suite(ctf_suite());
}
