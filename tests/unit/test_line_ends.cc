// lf_line_index (sim/trace/line_ends.h) against a byte loop: the '\n' of a
// block, none missed or made up, stopping before the line of a stray '\r'
// and at the end of its room, with AVX-512, AVX2 and SSE2 alike.

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "sim/trace/line_ends.h"

// Last: check.h defines macros that clash with <iostream> internals.
#include "tests/support/check_main.h"

using namespace timersim;

namespace {

// Checks one index() of TEXT[from..) as the contract says; returns the
// offset (from FROM) it covered.
std::size_t check_index(lf_line_index &ix, const std::string &text, std::size_t from, int width)
{
	const char *b = text.data() + from, *e = text.data() + text.size();
	std::size_t covered = ix.index(b, e, width);
	ck_assert_uint_le(covered, std::size_t(e - b));
	std::size_t first_cr = text.find('\r', from);
	std::vector<std::uint32_t> want;
	for (std::size_t i = from; i < from + covered; i++)
		if (text[i] == '\n' && (first_cr == std::string::npos || i < first_cr))
			want.push_back(std::uint32_t(i - from));
	std::vector<std::uint32_t> got(ix.begin(), ix.end());
	ck_assert_msg(got == want, "from %zu (width %d): %zu line ends, want %zu", from, width,
		      got.size(), want.size());
	ck_assert_uint_le(got.size(), lf_line_index::room);
	// Stopped at the first '\r' when there is one in what was looked
	// at: what the index stands for ends there.
	if (ix.stray_cr())
		ck_assert_uint_eq(from + covered, first_cr);
	else
		ck_assert(first_cr == std::string::npos || first_cr >= from + covered);
	if (!ix.stray_cr() && covered < std::size_t(e - b))
		ck_assert_msg(got.size() + lf_line_index::window > lf_line_index::room,
			      "stopped at %zu of %zu with room left", covered, std::size_t(e - b));
	return covered;
}

// Each width the CPU has (a wider one than it has is taken as the widest
// it has: the same answer again).
const int widths[] = {lf_line_index::sse2, lf_line_index::avx2, lf_line_index::avx512};

}  // namespace

START_TEST(line_ends_are_every_lf)
{
	std::mt19937 rng(7);
	for (int round = 0; round < 400; round++) {
		std::size_t size = rng() % 700;
		std::string text(size, 'x');
		for (char &c : text) {
			unsigned r = rng() % 100;
			c = r < 4 ? '\n' : r < 5 && round % 3 == 0 ? '\r' : char('a' + r % 26);
		}
		for (int width : widths) {
			lf_line_index ix;
			check_index(ix, text, 0, width);
			if (size > 9)
				check_index(ix, text, 9, width);	// not at a window's edge
		}
	}
}
END_TEST

START_TEST(a_block_of_short_lines_is_indexed_in_parts)
{
	// Blank lines: more line ends than the room holds.
	std::string text(3 * lf_line_index::room + 17, '\n');
	text[5] = 'a';
	for (int width : widths) {
		lf_line_index ix;
		std::size_t from = 0, lines = 0;
		while (from < text.size()) {
			check_index(ix, text, from, width);
			ck_assert(!ix.stray_cr());
			ck_assert_uint_gt(ix.end() - ix.begin(), 0);
			lines += std::size_t(ix.end() - ix.begin());
			from += ix.end()[-1] + 1;
			ck_assert_uint_le(from, text.size());
		}
		ck_assert_uint_eq(lines, text.size() - 1);	// all but the 'a'
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("line_ends");
	TCase *tc = tcase_create("line_ends");
	tcase_add_test(tc, line_ends_are_every_lf);
	tcase_add_test(tc, a_block_of_short_lines_is_indexed_in_parts);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
