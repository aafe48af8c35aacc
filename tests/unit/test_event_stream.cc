// The replay core's event window (sim/core/event_stream.h) and the interner
// behind its callback ids: look-ahead far past a chunk of the window, events
// that stay put while the window grows and recycles, ids that are dense and
// stable.

#include <cstdio>
#include <string>
#include <vector>

#include "sim/core/event_stream.h"
#include "sim/core/interner.h"
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
std::string trace_text()
{
	std::string t = "# tracer: nop\n";
	char payload[200];
	for (unsigned i = 0; i < events; i++) {
		std::snprintf(payload, sizeof payload,
			      "timer_start: timer=%016x function=%s expires=%u [timeout=10]", i + 1,
			      callbacks[i % n_callbacks], 1010 + i);
		t += test::ftrace_line(0, 1000000 + i, payload);
	}
	return t;
}

}  // namespace

START_TEST(look_ahead_keeps_buffered_events_in_place)
{
	std::string text = trace_text();
	auto reader = make_text_reader_from_memory(text, "window.txt", trace_format::ftrace, {});
	interner names;
	event_stream stream(*reader, names);

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
		ck_assert_str_eq(names.name(id_of[i]).c_str(), callbacks[i]);
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
	event_stream stream(*reader, names);

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
		ck_assert_str_eq(in.name(i).c_str(), strings[i].c_str());
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

int main()
{
	Suite *s = suite_create("event_stream");
	TCase *tc = tcase_create("window");
	tcase_add_test(tc, look_ahead_keeps_buffered_events_in_place);
	tcase_add_test(tc, popping_while_looking_ahead_keeps_the_order);
	tcase_add_test(tc, interned_ids_are_dense_and_stable);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
