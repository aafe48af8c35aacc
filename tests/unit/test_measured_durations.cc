// The order statistics of measured durations, against a sorted copy: a
// small set selected in place, a large one and several counted,
// durations past 32 bits kept apart and exact, and the edges - no sample,
// one, ties, odd counts, empty sets among full ones, a summary taken twice.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/measured/durations.h"

#include "tests/support/check_main.h"

using namespace timersim::measured;

namespace {

// What summarise() must give for VALUES: nearest rank on a sorted copy.
duration_stats reference(std::vector<std::uint64_t> values)
{
	duration_stats s;
	if (values.empty())
		return s;
	std::sort(values.begin(), values.end());
	auto rank = [&](unsigned p) {
		std::uint64_t r = (values.size() * p + 99) / 100;
		return values[r ? r - 1 : 0];
	};
	s.count = values.size();
	for (std::uint64_t v : values)
		s.total_ns += v;
	s.max_ns = values.back();
	s.p50_ns = rank(50);
	s.p99_ns = rank(99);
	return s;
}

void same(const duration_stats &got, const duration_stats &want, const char *what, std::size_t round)
{
	CK_REQUIRE(got.count == want.count && got.total_ns == want.total_ns && got.max_ns == want.max_ns &&
			   got.p50_ns == want.p50_ns && got.p99_ns == want.p99_ns,
		   "%s, round %zu: count %llu/%llu total %llu/%llu max %llu/%llu p50 %llu/%llu p99 %llu/%llu", what,
		   round, (unsigned long long)got.count, (unsigned long long)want.count,
		   (unsigned long long)got.total_ns, (unsigned long long)want.total_ns,
		   (unsigned long long)got.max_ns, (unsigned long long)want.max_ns, (unsigned long long)got.p50_ns,
		   (unsigned long long)want.p50_ns, (unsigned long long)got.p99_ns, (unsigned long long)want.p99_ns);
}

// A duration of one of several shapes: small with many ties, spread over
// microseconds, near the 32-bit edge, or far past it.
std::uint64_t draw(std::mt19937_64 &rng, unsigned shape)
{
	switch (shape % 5) {
	case 0:	return rng() % 4;
	case 1:	return 500 + rng() % 100000;
	case 2:	return 0xffffffffull - 2 + rng() % 5;
	case 3:	return rng();
	default: return rng() >> (rng() % 64);
	}
}

}  // namespace

START_TEST(no_sample_is_all_zero)
{
	duration_samples none;
	same(summarise(none), reference({}), "one empty set", 0);
	duration_samples a, b;
	duration_samples *sets[] = {&a, &b};
	same(summarise(sets), reference({}), "two empty sets", 0);
	same(summarise(std::span<duration_samples *const>{}), reference({}), "no set", 0);
}
END_TEST

START_TEST(one_sample_is_every_rank)
{
	for (std::uint64_t v : {std::uint64_t{0}, std::uint64_t{7}, std::uint64_t{0xffffffff},
				std::uint64_t{0x100000000}, ~std::uint64_t{0}}) {
		duration_samples one;
		one.add(v);
		same(summarise(one), reference({v}), "one sample", 0);
		duration_samples empty, other_empty;
		duration_samples *sets[] = {&empty, &one, &other_empty};
		same(summarise(sets), reference({v}), "one sample among empty sets", 0);
	}
}
END_TEST

// Ranks on both sides of the 32-bit edge: p50 among the short values and
// p99 among the long ones, both short, both long; in a set small enough to
// be selected in place and in one counted.
START_TEST(the_32_bit_edge_splits_nothing)
{
	std::vector<std::pair<std::size_t, std::size_t>> cases;	// samples, of which long
	for (std::size_t longs = 0; longs <= 100; longs++)
		cases.emplace_back(100, longs);
	// 5000: p99 is rank 4949 (from 0), p50 2499.
	for (std::size_t longs : {0, 1, 49, 50, 51, 52, 2499, 2500, 2501, 2502, 4999, 5000})
		cases.emplace_back(5000, longs);
	for (auto [n, longs] : cases) {
		std::vector<std::uint64_t> values;
		duration_samples s;
		for (std::size_t i = 0; i < n; i++) {
			std::uint64_t v = i < longs ? 0x100000000ull + (i * 7919) % 100 : 0xffffffffull - (i * 31) % 50;
			values.push_back(v);
			s.add(v);
		}
		same(summarise(s), reference(values), "samples about 2^32", n * 1000 + longs);
	}
}
END_TEST

// Bounded (top's whole run): count, total and max exact, p50 and p99
// within 1/16 of the exact ones, never outside the samples; and the bytes
// held stop growing while an exact set's keep growing.
START_TEST(bounded_sets_hold_flat_and_rank_within_a_sixteenth)
{
	std::mt19937_64 rng(37);
	for (std::size_t round = 0; round < 300; round++) {
		const std::size_t n = 1 + rng() % 20000;
		std::vector<std::uint64_t> values;
		duration_samples b, c;
		b.bound();
		c.bound();
		for (std::size_t i = 0; i < n; i++) {
			std::uint64_t v = draw(rng, unsigned(round + (i % 3 == 0 ? i : 0)));
			values.push_back(v);
			(i % 2 ? b : c).add(v);
		}
		duration_samples *sets[] = {&b, &c};
		const duration_stats got = summarise(sets), want = reference(values);
		CK_REQUIRE(got.count == want.count && got.total_ns == want.total_ns && got.max_ns == want.max_ns,
			   "round %zu: count, total or max differ", round);
		for (auto [g, w] : {std::pair{got.p50_ns, want.p50_ns}, std::pair{got.p99_ns, want.p99_ns}})
			CK_REQUIRE(g <= w && w - g <= w / 16, "round %zu: %llu for %llu", round, (unsigned long long)g,
				   (unsigned long long)w);
	}
	duration_samples bounded, exact;
	bounded.bound();
	std::uint64_t held = 0;
	for (std::uint64_t i = 0; i < 1000000; i++) {
		bounded.add(1000 + rng() % 100000);
		exact.add(1000 + rng() % 100000);
		if (i == 1000)
			held = bounded.bytes();
	}
	ck_assert_uint_eq(bounded.bytes(), held);
	ck_assert_uint_gt(exact.bytes(), 3900000);
}
END_TEST

START_TEST(one_set_against_a_sorted_copy)
{
	std::mt19937_64 rng(25);
	for (std::size_t round = 0; round < 2000; round++) {
		const std::size_t n = round < 300 ? round : rng() % 9000;
		std::vector<std::uint64_t> values;
		duration_samples s;
		for (std::size_t i = 0; i < n; i++) {
			std::uint64_t v = draw(rng, unsigned(round + (i % 3 == 0 ? i : 0)));
			values.push_back(v);
			s.add(v);
		}
		same(summarise(s), reference(values), "one set", round);
		// A second summary of the reordered samples is the same.
		same(summarise(s), reference(values), "one set again", round);
	}
}
END_TEST

START_TEST(several_sets_against_a_sorted_copy)
{
	std::mt19937_64 rng(2026);
	for (std::size_t round = 0; round < 1500; round++) {
		const std::size_t sets_n = 1 + rng() % 6;
		std::vector<duration_samples> sets(sets_n);
		std::vector<std::uint64_t> values;
		for (duration_samples &d : sets) {
			// Some sets empty, some of one sample, most of odd sizes.
			const std::size_t n = rng() % 4 == 0 ? rng() % 2 : rng() % 3001;
			const unsigned shape = unsigned(rng());
			for (std::size_t i = 0; i < n; i++) {
				std::uint64_t v = draw(rng, shape + (rng() % 8 == 0));
				values.push_back(v);
				d.add(v);
			}
		}
		std::vector<duration_samples *> ptrs;
		for (duration_samples &d : sets)
			ptrs.push_back(&d);
		// Each set's own first, as the report does, then all together.
		for (duration_samples &d : sets)
			summarise(d);
		same(summarise(ptrs), reference(values), "several sets", round);
	}
}
END_TEST

// Sets of more than one block of short values, at a block's edges.
START_TEST(sets_of_several_blocks)
{
	std::mt19937_64 rng(16384);
	const std::size_t block = duration_samples::block_values;
	for (std::size_t n : {block - 1, block, block + 1, 2 * block, 3 * block + 7}) {
		for (unsigned shape = 0; shape < 5; shape++) {
			std::vector<std::uint64_t> values;
			duration_samples one, a, b;
			for (std::size_t i = 0; i < n; i++) {
				std::uint64_t v = draw(rng, shape + (i % 11 == 0));
				values.push_back(v);
				one.add(v);
				(i % 3 ? a : b).add(v);
			}
			same(summarise(one), reference(values), "one set of blocks", n * 10 + shape);
			duration_samples *sets[] = {&a, &b};
			same(summarise(sets), reference(values), "two sets of blocks", n * 10 + shape);
		}
	}
}
END_TEST

START_TEST(ties_everywhere)
{
	for (std::size_t n = 1; n <= 203; n += 2) {
		duration_samples a, b;
		std::vector<std::uint64_t> values;
		for (std::size_t i = 0; i < n; i++) {
			std::uint64_t v = i % 2 ? 5 : 6;
			values.push_back(v);
			(i % 3 ? a : b).add(v);
		}
		duration_samples *sets[] = {&a, &b};
		same(summarise(sets), reference(values), "two values", n);
		duration_samples same_value_a, same_value_b;
		for (std::size_t i = 0; i < n; i++)
			(i % 2 ? same_value_a : same_value_b).add(~std::uint64_t{0});
		duration_samples *max_sets[] = {&same_value_a, &same_value_b};
		same(summarise(max_sets), reference(std::vector<std::uint64_t>(n, ~std::uint64_t{0})), "all 2^64 - 1", n);
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("measured_durations");
	TCase *tc = tcase_create("measured_durations");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, no_sample_is_all_zero);
	tcase_add_test(tc, bounded_sets_hold_flat_and_rank_within_a_sixteenth);
	tcase_add_test(tc, one_sample_is_every_rank);
	tcase_add_test(tc, the_32_bit_edge_splits_nothing);
	tcase_add_test(tc, one_set_against_a_sorted_copy);
	tcase_add_test(tc, several_sets_against_a_sorted_copy);
	tcase_add_test(tc, sets_of_several_blocks);
	tcase_add_test(tc, ties_everywhere);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
