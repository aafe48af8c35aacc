// rank_treap against the list it stands for: a vector kept in (due, start
// order), walked from the tail as sorted-list's model walks it. Random
// starts, cancels and head pops over a few thousand timers with many
// equal dues; after each step the walk's count, the head, the size and
// the in-order sequence must be the list's, and the tree consistent.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "sim/scheme/rank_treap.h"
#include "tests/support/check_main.h"

using timersim::jiffies_t;
using timersim::rank_treap;
using timersim::timer_id;

namespace {

struct reference_list {
	std::vector<std::pair<jiffies_t, timer_id>> items;	// list order

	// The nodes a walk from the tail passes, plus the one it stops at.
	std::uint64_t walk(jiffies_t due) const
	{
		std::uint64_t n = 0;
		for (auto it = items.rbegin(); it != items.rend(); ++it) {
			n++;
			if (it->first <= due)
				break;
		}
		return n;
	}
	void insert(timer_id t, jiffies_t due)
	{
		auto at = items.end();
		while (at != items.begin() && std::prev(at)->first > due)
			--at;
		items.insert(at, {due, t});
	}
	void erase(timer_id t)
	{
		items.erase(std::find_if(items.begin(), items.end(), [t](auto &p) { return p.second == t; }));
	}
};

}  // namespace

START_TEST(counts_and_order_are_the_lists)
{
	std::mt19937_64 rng(20261127);
	constexpr timer_id timers = 3000;
	rank_treap tree;
	tree.grow(timers);
	timer_id root = rank_treap::none;
	reference_list list;
	std::vector<bool> in(timers, false);
	for (int step = 0; step < 40000; step++) {
		timer_id t = timer_id(rng() % timers);
		unsigned what = unsigned(rng() % 10);
		if (what < 6 && !in[t]) {
			jiffies_t due = 1000 + rng() % 200;	// many equal dues
			std::uint64_t passed = tree.due_after(root, due);
			std::uint64_t walk = passed + (passed < tree.size(root) ? 1 : 0);
			ck_assert_uint_eq(walk, list.walk(due));
			tree.insert(root, t, due);
			list.insert(t, due);
			in[t] = true;
		} else if (what < 8 && in[t]) {
			tree.erase(root, t);
			list.erase(t);
			in[t] = false;
		} else if (!list.items.empty()) {
			timer_id head = tree.first(root);
			ck_assert_uint_eq(head, list.items.front().second);
			tree.erase(root, head);
			list.erase(head);
			in[head] = false;
		}
		ck_assert_uint_eq(tree.size(root), list.items.size());
		if (step % 500 == 0) {
			ck_assert(tree.consistent(root));
			std::vector<timer_id> order;
			tree.each(root, [&](timer_id x) { order.push_back(x); return true; });
			ck_assert_uint_eq(order.size(), list.items.size());
			for (std::size_t i = 0; i < order.size(); i++)
				ck_assert_uint_eq(order[i], list.items[i].second);
		}
	}
}
END_TEST

int main()
{
	Suite *s = suite_create("rank_treap");
	TCase *tc = tcase_create("rank_treap");
	tcase_add_test(tc, counts_and_order_are_the_lists);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
