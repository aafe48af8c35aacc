// The binary readers' shared field handling (binary_fields.h): callback
// names answered from the last look-up are never another address's, and a
// class's name facts worked out once give the events the per-record
// reading from the name gives.
#include <string>
#include <vector>

#include "sim/trace/binary_fields.h"
#include "sim/trace/irq_events.h"

#include "tests/support/check_main.h"	// last: check.h defines a fail() macro

using namespace timersim;

namespace {

// A source that names 0x1000.. as "f<hex>" and counts its look-ups.
callback_names counting_names(std::vector<std::uint64_t> &asked, int &prepared)
{
	return callback_names(
		{[list = &asked](std::uint64_t a) {
			list->push_back(a);
			return a >= 0x1000 && a < 0x2000 ? "f" + std::to_string(a) : std::string();
		}},
		[count = &prepared] { ++*count; });
}

// NAMES answers ADDR with WANT. (Compared as strings: ck_assert_str_eq
// keeps the pointer past the full expression that made a temporary.)
void expect_name(callback_names &names, std::uint64_t addr, const std::string &want)
{
	std::string got(names.name(addr));
	ck_assert_msg(got == want, "0x%llx named %s, want %s", (unsigned long long)addr, got.c_str(),
		      want.c_str());
}

}  // namespace

START_TEST(callback_names_answer_each_address_its_own)
{
	std::vector<std::uint64_t> asked;
	int prepared = 0;
	callback_names names = counting_names(asked, prepared);
	ck_assert_int_eq(prepared, 0);
	const std::uint64_t seq[] = {0x1001, 0x1001, 0x1002, 0x1001, 0x1002, 0x1002, 0x9000, 0x1001};
	for (std::uint64_t a : seq) {
		std::string want = a < 0x2000 ? "f" + std::to_string(a) : hex_address(a);
		expect_name(names, a, want);
	}
	ck_assert_int_eq(prepared, 1);
	// Each address asked of the source once.
	ck_assert_uint_eq(asked.size(), 3);
}
END_TEST

START_TEST(callback_names_bound_keeps_answers_right)
{
	std::vector<std::uint64_t> asked;
	int prepared = 0;
	callback_names names = counting_names(asked, prepared);
	expect_name(names, 0x1234, "f4660");
	// Garbage addresses past the bound clear the kept names: the last
	// one answered must not outlive them.
	for (std::uint64_t a = 0x100000; a < 0x100000 + 65537; a++)
		expect_name(names, a, hex_address(a));
	expect_name(names, 0x100000 + 65536, hex_address(0x100000 + 65536));
	expect_name(names, 0x1234, "f4660");
	expect_name(names, 0x100000, hex_address(0x100000));
}
END_TEST

START_TEST(event_name_facts_match_the_names)
{
	for (const char *n : {"hrtimer_init", "hrtimer_setup", "hrtimer_start", "hrtimer_cancel",
			      "hrtimer_expire_entry", "hrtimer_expire_exit", "hrtimer_rearm",
			      "hrtimer_start_expired", "local_timer_entry", "local_timer_exit",
			      "reschedule_entry", "irq_handler_entry", "softirq_entry", "timer_start"}) {
		binary_event_name f = binary_event_name::of(n);
		bool vector = false;
		irq_event_kind(n, vector);
		ck_assert_int_eq(int(f.hrtimer), int(hrtimer_event_of(n)));
		ck_assert_int_eq(f.timer_vector, vector);
	}
	ck_assert(binary_event_name::of("local_timer_entry").timer_vector);
	ck_assert(!binary_event_name::of("reschedule_entry").timer_vector);
	ck_assert_int_eq(int(binary_event_name::of("hrtimer_start").hrtimer), int(hrtimer_event::start));
}
END_TEST

START_TEST(slots_with_name_facts_give_the_same_event)
{
	callback_names names({[](std::uint64_t) { return std::string("tick_nohz_handler"); }});
	struct named_event {
		const char *name;
		event_kind kind;
		binary_slot slot;
	};
	for (const named_event &c : {named_event{"hrtimer_start", event_kind::hrtimer, BS_HRTIMER},
				     named_event{"hrtimer_expire_entry", event_kind::hrtimer, BS_HRTIMER},
				     named_event{"local_timer_entry", event_kind::irq_entry, BS_VECTOR},
				     named_event{"reschedule_entry", event_kind::irq_entry, BS_VECTOR}}) {
		binary_slot_values v;
		v.set(c.slot, 0xec);
		v.set(BS_FUNCTION, 0xffffffff81000000);
		v.set(BS_EXPIRES, 5000);
		v.timer_bits = 64;
		trace_event by_name, by_class;
		by_name.name = by_class.name = c.name;
		by_name.kind = by_class.kind = c.kind;
		apply_binary_slots(v, 618, names, by_name);
		binary_event_name facts = binary_event_name::of(c.name);
		v.named = &facts;
		apply_binary_slots(v, 618, names, by_class);
		ck_assert_int_eq(int(by_class.hrtimer), int(by_name.hrtimer));
		ck_assert_int_eq(by_class.timer_interrupt, by_name.timer_interrupt);
		ck_assert_uint_eq(by_class.vec, by_name.vec);
		ck_assert_uint_eq(by_class.has, by_name.has);
	}
}
END_TEST

static Suite *binary_fields_suite()
{
	Suite *s = suite_create("binary_fields");
	TCase *tc = tcase_create("fields");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, callback_names_answer_each_address_its_own);
	tcase_add_test(tc, callback_names_bound_keeps_answers_right);
	tcase_add_test(tc, event_name_facts_match_the_names);
	tcase_add_test(tc, slots_with_name_facts_give_the_same_event);
	suite_add_tcase(s, tc);
	return s;
}

int main()
{
	return timersim::test::run_suite(binary_fields_suite());
}
