// kernel/rbtree.h and kernel/timerqueue.h on their own:
//
// - Property/fuzz: seeded random inserts and erases (many equal keys, runs
//   of ascending and descending keys, erases of the leftmost, of the root,
//   of random nodes) against a std::multiset of (expiry, insertion order);
//   after every operation the red-black rules, parent links, order and the
//   cached leftmost hold (timerqueue_check), the depth stays within
//   2 log2(n + 1), an in-order walk (rb_next) and a reverse one (rb_prev)
//   give the multiset's order exactly - equal expiries in insertion order.
// - timerqueue_add says "new first" exactly when the multiset's first is
//   the new node; timerqueue_del says "not empty" exactly when it is not.
// - The linked timerqueue (2026) on the same stream: its prev/next links are
//   the tree's in-order neighbours after every operation, leftmost has no
//   prev, and can_update_in_place() is true exactly when the new expiry lies
//   between the neighbours' (ties allowed on both sides).
// - Rotations are counted: ascending inserts rotate, and never more than
//   two per insert and three per erase.
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "kernel/hrtimer_check.h"
#include "kernel/timerqueue.h"

#include "tests/support/check_main.h"

using namespace kernel;

namespace {

struct item {
	timerqueue_node node;
	timerqueue_linked_node lnode;
	std::uint64_t order = 0;
	bool in = false;
};

using key = std::pair<ktime_t, std::uint64_t>;

struct harness {
	timerqueue_head head;
	timerqueue_linked_head lhead;
	std::vector<item> items;
	std::multiset<key> ref;
	std::uint64_t order = 0;

	explicit harness(std::size_t n) : items(n)
	{
		timerqueue_init_head(&head);
		timerqueue_linked_init_head(&lhead);
		for (item &it : items) {
			timerqueue_init(&it.node);
			timerqueue_linked_init(&it.lnode);
		}
	}

	item *of(const timerqueue_node *n) { return reinterpret_cast<item *>(const_cast<timerqueue_node *>(n)); }

	void insert(std::size_t i, ktime_t expires)
	{
		item &it = items[i];
		it.node.expires = it.lnode.expires = expires;
		it.order = ++order;
		it.in = true;
		ref.insert({expires, it.order});
		const bool first = ref.begin()->second == it.order;
		const std::uint64_t rot = head.rb_root.root.rotations;
		CK_REQUIRE(timerqueue_add(&head, &it.node) == first, "add: first flag wrong");
		CK_REQUIRE(head.rb_root.root.rotations - rot <= 2, "insert rotated more than twice");
		CK_REQUIRE(timerqueue_linked_add(&lhead, &it.lnode) == first, "linked add: first flag wrong");
	}

	void erase(std::size_t i)
	{
		item &it = items[i];
		ref.erase(ref.find({it.node.expires, it.order}));
		it.in = false;
		const std::uint64_t rot = head.rb_root.root.rotations;
		CK_REQUIRE(timerqueue_del(&head, &it.node) == !ref.empty(), "del: not-empty flag wrong");
		CK_REQUIRE(head.rb_root.root.rotations - rot <= 3, "erase rotated more than three times");
		CK_REQUIRE(!timerqueue_node_queued(&it.node), "erased node still marked queued");
		CK_REQUIRE(timerqueue_linked_del(&lhead, &it.lnode) == !ref.empty(), "linked del flag wrong");
	}

	void check()
	{
		std::uint64_t n = 0;
		unsigned depth = 0;
		kernel::hr::hrtimer_fault fault = kernel::hr::timerqueue_check(head, &n, &depth);
		CK_REQUIRE(fault == kernel::hr::hrtimer_fault::none, "timerqueue_check: %s", kernel::hr::hrtimer_fault_name(fault));
		CK_REQUIRE(n == ref.size(), "tree holds %llu, reference %zu", (unsigned long long)n, ref.size());
		CK_REQUIRE(!n || depth + 1 <= 2 * std::log2(static_cast<double>(n) + 1) + 1e-9,
			   "depth %u for %llu nodes", depth, (unsigned long long)n);
		// Forward and backward walks against the reference.
		auto it = ref.begin();
		for (timerqueue_node *tn = timerqueue_getnext(&head); tn; tn = timerqueue_iterate_next(tn), ++it) {
			CK_REQUIRE(it != ref.end(), "walk longer than reference");
			CK_REQUIRE(tn->expires == it->first && of(tn)->order == it->second, "walk order differs");
		}
		CK_REQUIRE(it == ref.end(), "walk shorter than reference");
		auto rit = ref.rbegin();
		for (rb_node *b = rb_last(&head.rb_root.root); b; b = rb_prev(b), ++rit)
			CK_REQUIRE(of(timerqueue_node_of(b))->order == rit->second, "reverse walk differs");
		// The linked tree: same shape rules, links are in-order neighbours.
		rb_node *prev = nullptr;
		for (rb_node *b = rb_first(&lhead.rb_root.root); b; prev = b, b = rb_next(b)) {
			timerqueue_linked_node *ln = timerqueue_linked_of(b);
			CK_REQUIRE(ln->prev == timerqueue_linked_of(prev), "linked prev is not the in-order predecessor");
			CK_REQUIRE(ln->next == timerqueue_linked_of(rb_next(b)), "linked next is not the successor");
		}
		CK_REQUIRE(lhead.rb_root.leftmost == rb_first(&lhead.rb_root.root), "linked leftmost stale");
	}
};

}  // namespace

START_TEST(random_against_multiset)
{
	for (std::uint64_t seed = 1; seed <= 12; seed++) {
		std::mt19937_64 rng(seed);
		const std::size_t n = seed % 3 == 0 ? 2000 : 300;
		harness h(n);
		std::vector<std::size_t> out, in;
		for (std::size_t i = 0; i < n; i++)
			out.push_back(i);
		ktime_t run = 0;
		for (unsigned step = 0; step < 20000; step++) {
			const unsigned op = rng() % 10;
			if ((op < 6 && !out.empty()) || in.empty()) {
				std::size_t k = rng() % out.size();
				std::size_t i = out[k];
				out[k] = out.back();
				out.pop_back();
				ktime_t e;
				switch (rng() % 4) {
				case 0: e = static_cast<ktime_t>(rng() % 16); break;	// many ties
				case 1: e = ++run; break;				// ascending
				case 2: e = 1000000 - static_cast<ktime_t>(step); break;	// descending
				default: e = static_cast<ktime_t>(rng() % 1000000); break;
				}
				h.insert(i, e);
				in.push_back(i);
			} else {
				std::size_t k;
				if (op == 8) {	// the leftmost, as an expiry does
					std::size_t first = h.of(timerqueue_getnext(&h.head)) - h.items.data();
					k = 0;
					while (in[k] != first)
						k++;
				} else {
					k = rng() % in.size();
				}
				std::size_t i = in[k];
				in[k] = in.back();
				in.pop_back();
				h.erase(i);
				out.push_back(i);
			}
			h.check();
		}
	}
}
END_TEST

START_TEST(in_place_rule)
{
	harness h(4);
	h.insert(0, 10);
	h.insert(1, 20);
	h.insert(2, 30);
	h.check();
	timerqueue_linked_node *mid = &h.items[1].lnode;
	ck_assert(timerqueue_linked_can_update_in_place(mid, 10));	// ties with prev: stays
	ck_assert(timerqueue_linked_can_update_in_place(mid, 30));	// ties with next: stays before it
	ck_assert(timerqueue_linked_can_update_in_place(mid, 25));
	ck_assert(!timerqueue_linked_can_update_in_place(mid, 9));
	ck_assert(!timerqueue_linked_can_update_in_place(mid, 31));
	timerqueue_linked_node *first = &h.items[0].lnode;
	ck_assert(timerqueue_linked_can_update_in_place(first, -1000));	// the first may go anywhere earlier
	ck_assert(timerqueue_linked_can_update_in_place(first, 20));
	ck_assert(!timerqueue_linked_can_update_in_place(first, 21));
	timerqueue_linked_node *last = &h.items[2].lnode;
	ck_assert(timerqueue_linked_can_update_in_place(last, 1 << 30));	// the last may go anywhere later
	ck_assert(!timerqueue_linked_can_update_in_place(last, 19));
}
END_TEST

START_TEST(ascending_inserts_rotate)
{
	harness h(1024);
	for (std::size_t i = 0; i < 1024; i++)
		h.insert(i, static_cast<ktime_t>(i));
	h.check();
	// A sorted run rotates about once per insert (the tree stays balanced).
	ck_assert(h.head.rb_root.root.rotations > 900);
	ck_assert(h.head.rb_root.root.rotations < 1024);
	ck_assert_uint_le(h.head.costs.max_depth, 2 * 10);
	ck_assert_uint_eq(h.head.costs.adds, 1024);
}
END_TEST

int main()
{
	Suite *s = suite_create("rbtree");
	TCase *tc = tcase_create("rbtree");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, random_against_multiset);
	tcase_add_test(tc, in_place_rule);
	tcase_add_test(tc, ascending_inserts_rotate);
	suite_add_tcase(s, tc);
	return timersim::test::run_suite(s);
}
