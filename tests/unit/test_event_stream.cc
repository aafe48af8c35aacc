// The replay core's event window (sim/stream/event_stream.h) and the interner
// behind its callback ids: look-ahead far past a chunk of the window, events
// that stay put while the window grows and recycles, ids that are dense and
// stable; read on demand and by the background reader alike, which also
// surfaces a reader's error at the same event.

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/stream/event_stream.h"
#include "sim/base/interner.h"
#include "sim/trace/text_reader.h"
#include "tests/support/cli.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim;

namespace {

constexpr unsigned events = 3000;	// several chunks of the window
const char *const callbacks[] = {"process_timeout", "delayed_work_timer_fn", "0xffffffff81065e80",
				 "tcp_keepalive_timer", "a_callback_name_longer_than_sixteen_bytes"};
constexpr unsigned n_callbacks = sizeof callbacks / sizeof callbacks[0];

// Timer i+1 started at jiffy 1000 + i with callback i % n_callbacks.
std::string trace_text(unsigned n = events)
{
	std::string t = "# tracer: nop\n";
	char payload[200];
	for (unsigned i = 0; i < n; i++) {
		std::snprintf(payload, sizeof payload,
			      "timer_start: timer=%016x function=%s expires=%u [timeout=10]", i + 1,
			      callbacks[i % n_callbacks], 1010 + i);
		t += test::ftrace_line(0, 1000000 + i, payload);
	}
	return t;
}

}  // namespace

// Read on demand, by the background reader in chunks of chunk_events, and
// in text blocks of block_bytes: chunks of a few events each, of varying
// sizes (sim/stream/block_prefetch.h), whose borders every look-ahead
// below crosses many times.
const event_stream::reading modes[] = {event_stream::reading::on_demand,
				       event_stream::reading::background,
				       event_stream::reading::blocks};
constexpr std::size_t block_bytes = 700;

START_TEST(look_ahead_keeps_buffered_events_in_place)
{
	std::string text = trace_text();
	auto reader = make_text_reader_from_memory(text, "window.txt", trace_format::ftrace, {});
	interner names;
	event_stream stream(*reader, names, modes[_i], block_bytes);

	const sim_event *first = stream.peek(0);
	ck_assert_ptr_nonnull(first);
	ck_assert_uint_eq(first->timer, 1);
	const sim_event *last = stream.peek(events - 1);
	ck_assert_ptr_nonnull(last);
	ck_assert_uint_eq(last->timer, events);
	ck_assert_ptr_null(stream.peek(events));
	ck_assert_uint_eq(stream.buffered(), events);
	// Reading to the end did not move the first event.
	ck_assert_ptr_eq(stream.peek(0), first);
	ck_assert_uint_eq(first->timer, 1);
	ck_assert_uint_eq(first->line, 2);

	// Callbacks: one id per name, the same for every event naming it.
	std::vector<std::uint32_t> id_of(n_callbacks, 0);
	for (unsigned i = 0; i < n_callbacks; i++) {
		id_of[i] = stream.peek(i)->function;
		ck_assert_string_eq(names.name(id_of[i]).c_str(), callbacks[i]);
	}
	for (unsigned i = 0; i < events; i++)
		ck_assert_uint_eq(stream.peek(i)->function, id_of[i % n_callbacks]);
	ck_assert_uint_eq(names.size(), n_callbacks + 1);	// and "" as 0
}
END_TEST

START_TEST(popping_while_looking_ahead_keeps_the_order)
{
	std::string text = trace_text();
	auto reader = make_text_reader_from_memory(text, "window.txt", trace_format::ftrace, {});
	interner names;
	event_stream stream(*reader, names, modes[_i], block_bytes);

	// The window slides: each step looks up to 700 events ahead (across
	// chunks, some of them reused after a pop) and pops one.
	for (unsigned i = 0; i < events; i++) {
		const sim_event *cur = stream.peek(0);
		ck_assert_ptr_nonnull(cur);
		unsigned ahead = (i * 7) % 700;
		const sim_event *far = stream.peek(ahead);
		if (i + ahead < events) {
			ck_assert_ptr_nonnull(far);
			ck_assert_uint_eq(far->timer, i + ahead + 1);
			ck_assert_uint_eq(far->expires, 1010 + i + ahead);
		} else {
			ck_assert_ptr_null(far);
		}
		ck_assert_ptr_eq(stream.peek(0), cur);
		ck_assert_uint_eq(cur->timer, i + 1);
		ck_assert_uint_eq(cur->line, i + 2);
		stream.pop();
	}
	ck_assert_ptr_null(stream.peek(0));
	ck_assert_uint_eq(stream.buffered(), 0);
	stream.pop();	// nothing left: no effect
	ck_assert_ptr_null(stream.peek(0));
	// At the end, the reader's final counts.
	ck_assert_uint_eq(stream.stats().events, events);
	ck_assert_uint_eq(stream.stats().lines, events + 1);
	ck_assert_uint_eq(stream.stats().bytes, text.size());
}
END_TEST

// scan_ahead() walks chunks as arrays: it must visit the very events
// peek(i) gives, in order, with their positions, across chunk borders and
// up to the end of the trace, and stop where the visitor says so.
START_TEST(scan_ahead_visits_what_peek_gives)
{
	std::string text = trace_text();
	auto reader = make_text_reader_from_memory(text, "window.txt", trace_format::ftrace, {});
	interner names;
	event_stream stream(*reader, names, modes[_i], block_bytes);

	for (unsigned i = 0; i < events; i += 37) {
		// From 1 to a window of 1100 (past two chunk borders), or past
		// the end of the trace; stopping at a timer number in the
		// window's middle on every other step.
		const std::size_t last = 1100;
		const std::uint64_t stop_at = i % 2 ? i + 1 + 600 : 0;
		std::vector<const sim_event *> seen;
		std::size_t expect = 1;
		stream.scan_ahead(1, last, [&](const sim_event &e, std::size_t at) {
			ck_assert_uint_eq(at, expect);
			expect++;
			seen.push_back(&e);
			return e.timer != stop_at;
		});
		std::size_t want = std::min<std::size_t>(last, events - i - 1);
		if (stop_at && stop_at <= events)
			want = std::min<std::size_t>(want, 600);
		ck_assert_uint_eq(seen.size(), want);
		for (std::size_t k = 0; k < seen.size(); k++)
			ck_assert_ptr_eq(seen[k], stream.peek(k + 1));
		for (unsigned n = 0; n < 37 && stream.peek(0); n++)
			stream.pop();
	}
}
END_TEST

// A malformed line 1500 events in: every event before it is handed out,
// the error comes when the stream is asked for the next one, not before.
START_TEST(a_reader_error_surfaces_at_its_event)
{
	std::string text = trace_text();
	std::size_t at = 0;
	for (unsigned line = 0; line < 1501; line++)
		at = text.find('\n', at) + 1;
	text.insert(at, test::ftrace_line(0, 1999999, "timer_start: timer=zz function=f expires=1 [timeout=1]"));
	auto reader = make_text_reader_from_memory(text, "bad.txt", trace_format::ftrace, {});
	interner names;
	event_stream stream(*reader, names, modes[_i], block_bytes);
	for (unsigned i = 0; i < 1500; i++) {
		const sim_event *ev = stream.peek(0);
		ck_assert_ptr_nonnull(ev);
		ck_assert_uint_eq(ev->timer, i + 1);
		stream.pop();
	}
	bool thrown = false;
	try {
		stream.peek(0);
	} catch (const input_error &e) {
		thrown = true;
		ck_assert_uint_eq(e.line(), 1502);
		ck_assert_msg(std::string(e.what()).find("not a pointer") != std::string::npos, "%s", e.what());
	}
	ck_assert(thrown);
}
END_TEST

// The background reader numbers callbacks as reading on demand does, in a
// stream whose interner already knew names.
START_TEST(background_ids_are_the_on_demand_ones)
{
	std::string text = trace_text();
	std::vector<std::uint32_t> ids[2];
	for (int m = 0; m < 2; m++) {
		auto reader = make_text_reader_from_memory(text, "ids.txt", trace_format::ftrace, {});
		interner names;
		names.intern("known_before");
		names.intern(callbacks[3]);
		// On demand, then the background reader of loop _i.
		event_stream stream(*reader, names, m ? modes[_i] : modes[0], block_bytes);
		for (unsigned i = 0; i < events; i++) {
			ids[m].push_back(stream.peek(0)->function);
			ck_assert_string_eq(names.name(ids[m].back()).c_str(), callbacks[i % n_callbacks]);
			stream.pop();
		}
	}
	ck_assert(ids[0] == ids[1]);
}
END_TEST

// The background reader writes each callback name once a chunk: every
// event still gets its own name, among many names in a chunk (more than
// its events, so the table holding them fills to its limit), names that
// are prefixes of one another or alike, and repeats near and far apart;
// the replay's ids, interned once a name a chunk, are those on demand.
START_TEST(background_names_many_and_alike_each_stay_their_own)
{
	// Short names, names of one letter but their length, and names that
	// differ only in digits away from their ends and middle (alike to
	// the table's first look).
	std::vector<std::string> fns;
	char alike[80];
	for (unsigned k = 0; k < 700; k++) {
		std::snprintf(alike, sizeof alike, "%s%04u%s", std::string(20, 'a').c_str(), k, std::string(44, 'b').c_str());
		fns.push_back(k % 3 == 1 ? "fn_" + std::to_string(k) : k % 3 ? alike : std::string(k % 40 + 1, 'x'));
	}
	std::string text = "# tracer: nop\n";
	std::vector<std::string> expect;
	char payload[200];
	for (unsigned i = 0; i < 4000; i++) {
		const std::string &fn = fns[i < 1200 ? i % 700 : (i * 7919u) % 700];
		expect.push_back(fn);
		std::snprintf(payload, sizeof payload, "timer_start: timer=%016x function=%s expires=%u [timeout=10]",
			      i + 1, fn.c_str(), 1010 + i);
		text += test::ftrace_line(0, 1000000 + i, payload);
	}
	std::vector<std::uint32_t> ids[2];
	for (int m = 0; m < 2; m++) {
		auto reader = make_text_reader_from_memory(text, "names.txt", trace_format::ftrace, {});
		interner names;
		event_stream stream(*reader, names, modes[m]);
		for (unsigned i = 0; i < expect.size(); i++) {
			ids[m].push_back(stream.peek(0)->function);
			CK_REQUIRE(names.name(ids[m].back()) == expect[i], "mode %d event %u: %s, not %s", m, i,
				   names.name(ids[m].back()).c_str(), expect[i].c_str());
			stream.pop();
		}
	}
	ck_assert(ids[0] == ids[1]);
}
END_TEST

// Chunks of every size the blocks give: one event each (a block a line),
// a few, and many chunks of one block (more events than a chunk holds). A
// random walk of look-aheads, scans and pops: every event is the one at
// its position, and a pointer once handed out stays valid and unchanged
// until its event is popped, however far the stream reads meanwhile.
START_TEST(chunks_of_any_size_hand_out_each_event_in_place)
{
	const unsigned n = 12000;
	std::string text = trace_text(n);
	for (std::size_t block : {std::size_t{1}, std::size_t{700}, std::size_t{1} << 24}) {
		auto reader = make_text_reader_from_memory(text, "walk.txt", trace_format::ftrace, {});
		interner names;
		event_stream stream(*reader, names, event_stream::reading::blocks, block);
		std::uint64_t head = 0, x = 88172645463325252ull;
		std::vector<std::pair<std::uint64_t, const sim_event *>> held;	// position, pointer
		while (head < n) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			std::size_t ahead = x % 3 == 0 ? std::size_t(x >> 40) % 3000 : std::size_t(x >> 40) % 40;
			const sim_event *e = stream.peek(ahead);
			if (head + ahead >= n) {
				ck_assert_ptr_null(e);
			} else {
				CK_REQUIRE(e && e->timer == head + ahead + 1, "block %zu: at %llu + %zu: %lld",
					   block, (unsigned long long)head, ahead, e ? (long long)e->timer : -1LL);
				held.emplace_back(head + ahead, e);
			}
			std::uint64_t want = head + 2;
			stream.scan_ahead(1, ahead, [&](const sim_event &ev, std::size_t at) {
				CK_REQUIRE(at + head + 1 == want && ev.timer == want && &ev == stream.peek(at),
					   "block %zu: scan at %zu", block, at);
				want++;
				return true;
			});
			ck_assert_uint_eq(want, std::min<std::uint64_t>(head + ahead + 2, n + 1));
			std::size_t pops = std::size_t(x >> 20) % (x % 5 == 0 ? 1500 : 30);
			for (std::size_t i = 0; i < pops && stream.peek(0); i++, head++)
				stream.pop();
			// What was handed out and not popped is where it was.
			std::erase_if(held, [&](const auto &h) { return h.first < head; });
			for (const auto &[at, ev] : held)
				CK_REQUIRE(stream.peek(at - head) == ev && ev->timer == at + 1,
					   "block %zu: event %llu moved", block, (unsigned long long)at);
			if (held.size() > 64)
				held.erase(held.begin(), held.begin() + 32);
		}
		ck_assert_ptr_null(stream.peek(0));
		ck_assert_uint_eq(stream.buffered(), 0);
		ck_assert_uint_eq(stream.stats().events, n);
		ck_assert_uint_eq(stream.stats().lines, n + 1);
	}
}
END_TEST

// Events of one name share its place in a chunk's text (chunk_name_places),
// and the stream interns a place once through a small cache of places:
// names alike but for their second byte, more of them than that cache
// holds, in turns and in runs, keep their own names and the ids reading on
// demand gives them.
START_TEST(names_alike_to_the_place_cache_keep_their_ids)
{
	std::vector<std::string> alike;
	for (char c = 'A'; c <= 'Z'; c++)
		alike.push_back(std::string("t") + c + "_timer_callback_fn");
	std::string text = "# tracer: nop\n";
	char payload[200];
	const unsigned n = 6000;
	std::vector<std::string> want;
	for (unsigned i = 0; i < n; i++) {
		// Turns through all of them, then runs of one.
		const std::string &name = alike[i < 3000 ? i % alike.size() : (i / 7) % alike.size()];
		want.push_back(name);
		std::snprintf(payload, sizeof payload,
			      "timer_start: timer=%016x function=%s expires=%u [timeout=10]", i + 1,
			      name.c_str(), 1010 + i);
		text += test::ftrace_line(0, 1000000 + i, payload);
	}
	std::vector<std::uint32_t> ids[2];
	for (int m = 0; m < 2; m++) {
		auto reader = make_text_reader_from_memory(text, "alike.txt", trace_format::ftrace, {});
		interner names;
		event_stream stream(*reader, names,
				    m ? event_stream::reading::blocks : event_stream::reading::on_demand);
		for (unsigned i = 0; i < n; i++) {
			const sim_event *e = stream.peek(0);
			ck_assert_ptr_nonnull(e);
			CK_REQUIRE(names.name(e->function) == want[i], "event %u: %s, want %s", i,
				   names.name(e->function).c_str(), want[i].c_str());
			ids[m].push_back(e->function);
			stream.pop();
		}
		ck_assert_uint_eq(names.size(), alike.size() + 1);
	}
	ck_assert(ids[0] == ids[1]);
}
END_TEST

// Given up early: the background reader stops without reading the rest
// (it reads at most a few chunks ahead).
START_TEST(a_stream_left_early_stops_its_reader)
{
	const unsigned many = 40 * event_stream::chunk_events;
	std::string text = trace_text(many);
	for (int round = 0; round < 20; round++) {
		auto reader = make_text_reader_from_memory(text, "early.txt", trace_format::ftrace, {});
		interner names;
		{
			event_stream stream(*reader, names, event_stream::reading::background);
			ck_assert_ptr_nonnull(stream.peek(round));
		}
		ck_assert_uint_le(reader->stats().events,
				  (event_stream::background_chunks + 2) * event_stream::chunk_events);
	}
}
END_TEST

START_TEST(interned_ids_are_dense_and_stable)
{
	interner in;
	std::vector<std::string> strings;
	for (unsigned i = 0; i < 5000; i++)
		strings.push_back(std::string(i % 37, char('a' + i % 26)) + std::to_string(i));
	for (unsigned i = 0; i < strings.size(); i++)
		ck_assert_uint_eq(in.intern(strings[i]), i);
	ck_assert_uint_eq(in.size(), strings.size());
	for (unsigned i = 0; i < strings.size(); i++) {
		ck_assert_uint_eq(in.intern(strings[i]), i);
		ck_assert_string_eq(in.name(i).c_str(), strings[i].c_str());
	}
	// Same hash input, different strings: a prefix and the empty string.
	std::uint32_t empty = in.intern("");
	ck_assert_uint_eq(empty, strings.size());
	// Zero padding of a short tail: not the same string as a shorter one.
	ck_assert_uint_ne(in.intern("aaaaaaaa"), in.intern(std::string_view("aaaaaaaa\0", 9)));
	ck_assert_uint_ne(in.intern("ab"), in.intern(std::string_view("ab\0", 3)));
	ck_assert_uint_eq(in.intern(""), empty);
}
END_TEST

// The interner's inline comparison (hashes of different names hardly ever
// meet, so it is checked directly): equal bytes of every length up to five
// words, and a difference in any one byte found, in the words it reads
// twice too.
START_TEST(interner_compares_every_byte)
{
	std::string a(40, 'x'), b;
	for (std::size_t n = 0; n <= a.size(); n++) {
		for (std::size_t i = 0; i < n; i++)
			a[i] = char('a' + (i * 7 + n) % 26);
		b = a;
		ck_assert(interner::same_bytes(a.data(), b.data(), n));
		for (std::size_t at = 0; at < n; at++) {
			b[at] ^= 0x20;
			ck_assert_msg(!interner::same_bytes(a.data(), b.data(), n), "length %zu, byte %zu", n, at);
			b[at] = a[at];
		}
		// Bytes past N are not compared.
		if (n < b.size()) {
			b[n] ^= 1;
			ck_assert(interner::same_bytes(a.data(), b.data(), n));
			b[n] = a[n];
		}
	}
}
END_TEST

// The interner answers the last two names without hashing: ids stay the
// table's on runs, pairs and alternations of names alike in size and
// prefix, with fresh names (and the names' vector growing) between them.
START_TEST(recent_names_answer_as_the_table)
{
	const std::vector<std::string> pool = {"tcp_write_timer", "tcp_write_timex", "tcp_writ",
					       "tcp_write_timer_longer_name", "tcp_write_timer_longer_namf",
					       "", "a", "b"};
	interner in;
	std::map<std::string, std::uint32_t> want;
	std::uint64_t x = 88172645463325252ull;
	for (unsigned i = 0; i < 20000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		std::string s = pool[x % pool.size()];
		if (x % 97 == 0)	// a fresh name now and then
			s = "fresh_" + std::to_string(i);
		unsigned repeat = 1 + unsigned(x >> 60) % 3;
		for (unsigned r = 0; r < repeat; r++) {
			auto [it, fresh] = want.emplace(s, std::uint32_t(want.size()));
			(void)fresh;
			std::uint32_t id = in.intern(s);
			CK_REQUIRE(id == it->second, "%s: id %u, want %u", s.c_str(), id, it->second);
		}
	}
	ck_assert_uint_eq(in.size(), want.size());
	for (const auto &[name, id] : want)
		ck_assert_string_eq(in.name(id).c_str(), name.c_str());
}
END_TEST

int main()
{
	Suite *s = suite_create("event_stream");
	TCase *tc = tcase_create("window");
	tcase_add_loop_test(tc, look_ahead_keeps_buffered_events_in_place, 0, 3);
	tcase_add_loop_test(tc, popping_while_looking_ahead_keeps_the_order, 0, 3);
	tcase_add_loop_test(tc, scan_ahead_visits_what_peek_gives, 0, 3);
	tcase_add_loop_test(tc, a_reader_error_surfaces_at_its_event, 0, 3);
	tcase_add_loop_test(tc, background_ids_are_the_on_demand_ones, 1, 3);
	tcase_add_test(tc, background_names_many_and_alike_each_stay_their_own);
	tcase_add_test(tc, chunks_of_any_size_hand_out_each_event_in_place);
	tcase_add_test(tc, names_alike_to_the_place_cache_keep_their_ids);
	tcase_add_test(tc, a_stream_left_early_stops_its_reader);
	tcase_add_test(tc, interned_ids_are_dense_and_stable);
	tcase_add_test(tc, interner_compares_every_byte);
	tcase_add_test(tc, recent_names_answer_as_the_table);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
