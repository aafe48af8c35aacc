// Our trace.dat reader (trace_dat_file.h, trace_dat_pages.h) against
// libtracecmd, the reference (trace_dat.h): the same events, fields and
// order on the shared 6.18 recording; damaged copies give input_error with
// the part of the file and its offset, never a crash; the kallsyms are read
// only when a callback needs a name.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "sim/trace/reader.h"
#include "sim/trace/trace_dat.h"
#include "sim/trace/symbols.h"
#include "sim/trace/trace_dat_file.h"
#include "sim/trace/trace_dat_kallsyms.h"
#include "tests/support/binary_test_util.h"
#include "tests/support/paths.h"
#include "tests/support/text_trace_util.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;
using test::owned_event;

namespace {

std::string error_of(const std::string &path, const reader_options &opt = {})
{
	return test::read_error([&] { return make_trace_dat_reader(path, opt); });
}

// The error of PATH read with records decoded ahead (the default), after
// checking that the blocking path (read_ahead 0) gives the same one.
std::string error_both_ways(const std::string &path)
{
	reader_options blocking;
	blocking.read_ahead = 0;
	std::string ahead = error_of(path), waits = error_of(path, blocking);
	ck_assert_msg(ahead == waits, "read ahead: '%s'; blocking: '%s'", ahead.c_str(), waits.c_str());
	return ahead;
}

bool contains(const std::string &s, const std::string &part)
{
	return s.find(part) != std::string::npos;
}

}  // namespace

START_TEST(trace_dat_matches_libtracecmd)
{
	NEED_SHARED(dat, "linux-6.18-http/trace.dat");
	auto ours = make_trace_dat_reader(dat, {});
	auto ref = make_trace_dat_libtracecmd_reader(dat, {});
	ck_assert_uint_eq(ours->declared_cpus(), ref->declared_cpus());
	std::vector<owned_event> a = test::read_all(*ours), b = test::read_all(*ref);
	ck_assert_uint_eq(a.size(), 34165);
	ck_assert_uint_eq(a.size(), b.size());
	std::size_t named = 0;
	for (std::size_t i = 0; i < a.size(); i++) {
		const owned_event &x = a[i], &y = b[i];
		ck_assert_msg(x.name == y.name && x.ts_ns == y.ts_ns && x.cpu == y.cpu,
			      "record %zu: %s at %lu on CPU %u vs libtracecmd %s at %lu on %u", i,
			      x.name.c_str(), x.ts_ns, x.cpu, y.name.c_str(), y.ts_ns, y.cpu);
		ck_assert_msg(x == y, "record %zu (%s): fields differ from libtracecmd's", i,
			      x.name.c_str());
		named += !x.function.empty() && x.function.substr(0, 2) != "0x";
	}
	ck_assert_uint_gt(named, 4000);	// callbacks named from the file's kallsyms
	ck_assert_uint_eq(ours->stats().bytes, ref->stats().bytes);
	ck_assert_uint_eq(ours->stats().lines, ref->stats().lines);
}
END_TEST

START_TEST(trace_dat_structure)
{
	NEED_SHARED(dat, "linux-6.18-http/trace.dat");
	trace_dat_file f = read_trace_dat_file(dat);
	ck_assert_uint_eq(f.version, 7);
	ck_assert_str_eq(f.compression.c_str(), "zstd");
	ck_assert_uint_eq(f.cpus, 2);
	ck_assert_uint_eq(f.cpu_data.size(), 2);
	ck_assert(f.data_compressed);
	ck_assert_uint_eq(f.commit_size, 8);
	ck_assert_uint_eq(f.data_offset, 16);
	ck_assert(f.kallsyms.present && f.kallsyms.compressed);
	ck_assert(f.unsupported.empty() && f.instances.empty() && !f.latency);
	ck_assert(contains(f.uname, "6.18"));
	const tdat_event *start = nullptr;
	for (const auto &[id, e] : f.events)
		if (e.name == "timer_start")
			start = &e;
	ck_assert_ptr_nonnull(start);
	ck_assert_ptr_nonnull(start->find("bucket_expiry"));
	ck_assert_uint_eq(start->find("timer")->size, 8);
	ck_assert_uint_gt(f.events.size(), 1000);	// every system's names and ids
	// The CPU data is merged by time, and the kernel's counts hold.
	std::vector<std::int64_t> n = tdat_read_events(f.cpustats, f.cpus);
	ck_assert_int_eq(n[0] + n[1], 34165);

	// The kallsyms are handed out once, before the event formats are
	// parsed: the reader inflates them meanwhile.
	int calls = 0;
	std::size_t events_then = 1;
	tdat_extent early;
	read_trace_dat_file(dat, [&](const trace_dat_file &g) {
		calls++;
		events_then = g.events.size();
		early = g.kallsyms;
	});
	ck_assert_int_eq(calls, 1);
	ck_assert_uint_eq(events_then, 0);
	ck_assert(early.present && early.offset == f.kallsyms.offset && early.size == f.kallsyms.size);
}
END_TEST

// Cut and flipped copies: every one an input_error naming the file and an
// offset, or (a flip in a value) a whole read; never a crash.
START_TEST(trace_dat_damage_sweep)
{
	NEED_SHARED(dat, "linux-6.18-http/trace.dat");
	const std::string whole = test::read_whole_file(dat);
	std::mt19937_64 rng(13);
	for (int i = 0; i < 40; i++) {
		std::size_t n = rng() % whole.size();
		std::string path = test::write_temp("cut.dat", whole.substr(0, n));
		std::string err = error_of(path);
		ck_assert_msg(contains(err, path + ": "), "cut at %zu: '%s'", n, err.c_str());
	}
	unsigned errors = 0;
	for (int i = 0; i < 120; i++) {
		std::string d = whole;
		std::size_t at = rng() % (d.size() - 4);
		for (int k = 0; k < 4; k++)
			d[at + k] = static_cast<char>(d[at + k] ^ (rng() | 1));
		std::string path = test::write_temp("flip.dat", d);
		std::string err = error_of(path);
		errors += !err.empty();
		// An offset; a flip in inflated kallsyms text names its line.
		if (!err.empty())
			ck_assert_msg(contains(err, path + ": offset ") ||
					      contains(err, path + " (kallsyms):") ||
					      contains(err, path + ":0:"),
				      "flip at %zu: %s", at, err.c_str());
	}
	// Most of the file is compressed: a flip there fails to inflate.
	ck_assert_uint_gt(errors, 80);
}
END_TEST

// Damage at known places names the part and the offset.
START_TEST(trace_dat_damage_named)
{
	NEED_SHARED(dat, "linux-6.18-http/trace.dat");
	const std::string whole = test::read_whole_file(dat);
	auto flipped = [&](std::size_t off) {
		std::string d = whole;
		for (int k = 0; k < 4; k++)
			d[off + k] = static_cast<char>(d[off + k] ^ 0x5a);
		return test::write_temp("named.dat", d);
	};
	// In CPU 0's first chunk: its zstd data, then a record inflated
	// from it (a garbled length), then one of another event id.
	std::string err = error_both_ways(flipped(1146900));
	ck_assert_msg(contains(err, "offset 1146884: CPU 0 data") &&
			      contains(err, "chunk 0 at offset 1146884: zstd data does not inflate"),
		      "%s", err.c_str());
	err = error_both_ways(flipped(1147000));
	ck_assert_msg(contains(err, "CPU 0 data, chunk 0 at offset 1146884, page 1 of the chunk") &&
			      contains(err, "runs past the page's data"), "%s", err.c_str());
	err = error_both_ways(flipped(1150000));
	ck_assert_msg(contains(err, "offset 1146884: ") && contains(err, "page 6 of the chunk") &&
			      contains(err, "which the file does not describe"), "%s", err.c_str());
	err = error_both_ways(flipped(1146880));	// the chunk count
	ck_assert_msg(contains(err, "offset 1146880: CPU 0 data") && contains(err, "chunk count"),
		      "%s", err.c_str());
	err = error_both_ways(flipped(2200));		// the event formats
	ck_assert_msg(contains(err, "offset 2079: event formats section"), "%s", err.c_str());
	// The kallsyms: read only when a callback needs a name, then named.
	err = error_both_ways(flipped(600000));
	ck_assert_msg(contains(err, "offset 124475: kallsyms section: zstd data does not inflate"),
		      "%s", err.c_str());
}
END_TEST

namespace {

tdat_bytes bytes_of(const std::string &s)
{
	tdat_bytes b(s.size());
	std::copy(s.begin(), s.end(), b.data());
	return b;
}

}  // namespace

// The binary search over ordered kallsyms names every address as
// symbol_table::load_text() of the whole text does: runs of equal
// addresses (the first text symbol wins), data symbols between, module
// suffixes, addresses below all and above all; unordered text, loaded
// whole, too.
START_TEST(kallsyms_search_names_like_the_whole_table)
{
	std::mt19937_64 rng(19);
	std::string text;
	std::uint64_t addr = 0xffffffff81000000ull;
	const char types[] = "tTtTdDbrWwT";
	for (int i = 0; i < 3000; i++) {
		addr += rng() % 3 == 0 ? 0 : rng() % 64;	// runs of equal addresses
		char line[128];
		std::snprintf(line, sizeof(line), "%016llx %c sym_%d%s\n",
			      static_cast<unsigned long long>(addr), types[rng() % 11], i,
			      i > 2500 ? "\t[mod]" : "");
		text += line;
	}
	symbol_table whole;
	whole.load_text(text, "whole");
	tdat_kallsyms ordered(bytes_of("xx" + text + "yy"), 2, text.size(), "ordered");
	ck_assert(ordered.searched());
	for (int i = 0; i < 4000; i++) {
		std::uint64_t a = 0xffffffff81000000ull - 100 + rng() % (addr - 0xffffffff81000000ull + 300);
		std::string want(whole.lookup(a));
		ck_assert_msg(ordered.lookup(a) == want, "%llx: %s", static_cast<unsigned long long>(a),
			      want.c_str());
	}
	ck_assert(ordered.lookup(0).empty());
	ck_assert(ordered.lookup(~0ull) == whole.lookup(~0ull));
	// Two lines swapped: not ordered, loaded whole.
	std::size_t cut = text.find('\n', text.size() / 2) + 1, next = text.find('\n', cut) + 1;
	std::string swapped = text.substr(cut, next - cut) + text.substr(0, cut) + text.substr(next);
	symbol_table whole2;
	whole2.load_text(swapped, "whole");
	tdat_kallsyms unordered(bytes_of(swapped), 0, swapped.size(), "unordered");
	ck_assert(!unordered.searched());
	for (int i = 0; i < 500; i++) {
		std::uint64_t a = 0xffffffff81000000ull + rng() % (addr - 0xffffffff81000000ull + 100);
		ck_assert(unordered.lookup(a) == whole2.lookup(a));
	}
	// An upper-case digit anywhere in an address column: not the kernel's
	// format, loaded whole (and named the same).
	for (std::size_t at : {std::size_t(0), std::size_t(7), std::size_t(15)}) {
		std::string upper = text;
		std::size_t line = upper.find('\n', upper.size() / 3) + 1;
		upper[line + at] = 'F';
		tdat_kallsyms u(bytes_of(upper), 0, upper.size(), "upper");
		ck_assert_msg(!u.searched(), "upper-case digit at column %zu taken as ordered", at);
	}
}
END_TEST

// A 32-bit kernel's 8-digit addresses, ending on a line shorter than 16
// bytes: searched, and named as the whole table names them.
START_TEST(kallsyms_search_8_digit_addresses)
{
	std::string text;
	for (unsigned i = 0; i < 200; i++) {
		char line[64];
		std::snprintf(line, sizeof(line), "%08x %c f%u\n", 0xc1000000u + i * 16, i % 7 ? 'T' : 'd', i);
		text += line;
	}
	text += "c1001000 T e";	// 12 bytes, no newline
	symbol_table whole;
	whole.load_text(text, "whole");
	tdat_kallsyms k(bytes_of(text), 0, text.size(), "k32");
	ck_assert(k.searched());
	for (std::uint64_t a = 0xc0fffff0u; a < 0xc1001010u; a += 3)
		ck_assert_msg(k.lookup(a) == whole.lookup(a), "%llx", static_cast<unsigned long long>(a));
	ck_assert(k.lookup(0xc1001004u) == "e");
	std::string upper = text;
	upper[upper.size() - 12] = 'C';	// the short last line's address
	tdat_kallsyms u(bytes_of(upper), 0, upper.size(), "k32upper");
	ck_assert(!u.searched());
	ck_assert(u.lookup(0xc1001004u) == "e");
}
END_TEST

// The order check a trace.dat's kallsyms get piece by piece as they
// inflate says what one pass over the whole text says: pieces of every
// size, cut anywhere (inside an address, at a newline, inside the first
// line), on ordered, swapped, upper-case and 8-digit text, a last line
// without a newline, one line, none.
START_TEST(kallsyms_order_in_pieces_is_the_whole_check)
{
	std::string ordered;
	for (unsigned i = 0; i < 300; i++) {
		char line[64];
		std::snprintf(line, sizeof(line), "%016llx %c f%u\n",
			      0xffffffff81000000ull + i / 3 * 16, "tTd"[i % 3], i);
		ordered += line;
	}
	std::string swapped = ordered.substr(40 * 31, 40 * 30) + ordered;
	std::string upper = ordered;
	upper[ordered.find('\n', 4000) + 3] = 'F';
	std::string short8 = "c1000000 T a\nc1000010 T b\nc1001000 T e";
	std::string down8 = "c1000010 T a\nc1000000 T b\n";
	std::vector<std::string> texts = {ordered, ordered.substr(0, ordered.size() - 1), swapped, upper,
					  short8, down8, "ffffffff81000000 T one", "", "\n",
					  "not hex at all\n"};
	std::mt19937 rng(41);
	for (const std::string &t : texts) {
		kallsyms_order whole;
		whole.check(t.data(), t.data() + t.size(), true);
		for (std::size_t piece : {1, 2, 7, 16, 17, 40, 41, 333, 100000, 0}) {
			kallsyms_order parts;
			const char *p = t.data(), *end = t.data() + t.size();
			for (std::size_t at = 0; at < t.size();) {
				std::size_t n = piece ? piece : 1 + rng() % 97;
				at = std::min(t.size(), at + n);
				p = parts.check(p, t.data() + at, at == t.size());
			}
			if (t.empty())
				parts.check(p, end, true);
			ck_assert_msg(parts.ordered() == whole.ordered() && parts.width() == whole.width(),
				      "text %zu bytes, pieces of %zu: %d/%u, whole %d/%u", t.size(), piece,
				      parts.ordered(), parts.width(), whole.ordered(), whole.width());
		}
	}
	ck_assert(!texts.empty());
	kallsyms_order o;
	o.check(ordered.data(), ordered.data() + ordered.size(), true);
	ck_assert(o.ordered() && o.width() == 16);
	kallsyms_order d;
	d.check(down8.data(), down8.data() + down8.size(), true);
	ck_assert(!d.ordered());
}
END_TEST

// The bundled sleep-net.dat is `trace-cmd extract -B`'s: an empty top
// buffer and the one instance that is the trace. Its kallsyms are handed
// out before the event formats as well (the reader inflates them
// meanwhile), with the instance already taken as the trace.
START_TEST(trace_dat_lone_instance_hands_out_the_kallsyms_early)
{
	const std::string dat = "tests/data/sleep-net.dat";
	trace_dat_file f = read_trace_dat_file(dat);
	ck_assert(!f.buffer.empty() && f.instances.empty());
	int calls = 0;
	std::size_t events_then = 1;
	std::string buffer_then;
	std::size_t instances_then = 1;
	read_trace_dat_file(dat, [&](const trace_dat_file &g) {
		calls++;
		events_then = g.events.size();
		buffer_then = g.buffer;
		instances_then = g.instances.size();
	});
	ck_assert_int_eq(calls, 1);
	ck_assert_uint_eq(events_then, 0);
	ck_assert_str_eq(buffer_then.c_str(), f.buffer.c_str());
	ck_assert_uint_eq(instances_then, 0);
}
END_TEST

// Records decoded ahead while the kallsyms load, their callbacks named as
// they leave the queue, are the events the blocking path gives (read_ahead
// 0: the first callback name waits for the kallsyms), field for field and
// in order, whatever the bound; the queue fills to its bound and no
// further (read_ahead_always takes the queued path whatever the timing).
START_TEST(trace_dat_read_ahead_gives_the_blocking_events)
{
	const std::string dat = "tests/data/sleep-net.dat";
	reader_options blocking;
	blocking.read_ahead = 0;
	auto ref_reader = make_trace_dat_reader(dat, blocking);
	const std::vector<owned_event> ref = test::read_all(*ref_reader);
	ck_assert_uint_eq(ref.size(), 13010);
	std::size_t first_named = 0;
	while (ref[first_named].function.empty())
		first_named++;
	ck_assert(ref[first_named].function.substr(0, 2) != "0x");	// named from the kallsyms
	for (std::size_t bound : {std::size_t{1}, std::size_t{7}, std::size_t{4096},
				  std::size_t{13010}, std::size_t{32768}}) {
		for (bool always : {true, false}) {
			reader_options opt;
			opt.read_ahead = bound;
			opt.read_ahead_always = always;
			auto r = make_trace_dat_reader(dat, opt);
			trace_event ev;
			std::size_t i = 0, most = 0;
			for (;;) {
				// The kallsyms given time to be out before the first
				// name: read_ahead_always must fill the queue anyway.
				if (i == first_named)
					std::this_thread::sleep_for(std::chrono::milliseconds(200));
				if (!r->next(ev))
					break;
				ck_assert_uint_lt(i, ref.size());
				ck_assert_msg(owned_event(ev) == ref[i],
					      "read_ahead %zu%s: event %zu (%s) differs from the blocking path's",
					      bound, always ? " always" : "", i, ref[i].name.c_str());
				// Records decoded and not yet handed on.
				most = std::max<std::size_t>(most, r->stats().lines - r->stats().events);
				i++;
			}
			ck_assert_uint_eq(i, ref.size());
			ck_assert_uint_le(most + 1, bound);	// the front one, handed on, was in it
			if (always)
				ck_assert_uint_eq(most + 1, std::min(bound, ref.size() - first_named));
		}
	}
}
END_TEST

static Suite *trace_dat_suite()
{
	Suite *s = suite_create("trace_dat_reader");
	TCase *tc = tcase_create("units");
	tcase_add_test(tc, kallsyms_search_names_like_the_whole_table);
	tcase_add_test(tc, kallsyms_search_8_digit_addresses);
	tcase_add_test(tc, kallsyms_order_in_pieces_is_the_whole_check);
	tcase_add_test(tc, trace_dat_lone_instance_hands_out_the_kallsyms_early);
	tcase_add_test(tc, trace_dat_read_ahead_gives_the_blocking_events);
	suite_add_tcase(s, tc);
	tc = tcase_create("shared");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, trace_dat_matches_libtracecmd);
	tcase_add_test(tc, trace_dat_structure);
	tcase_add_test(tc, trace_dat_damage_sweep);
	tcase_add_test(tc, trace_dat_damage_named);
	suite_add_tcase(s, tc);
	return s;
}

int main()
{
	return timersim::test::run_suite(trace_dat_suite());
}
