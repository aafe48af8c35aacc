// Intrusive doubly linked lists, as include/linux/list.h has them.
//
// A list is a circular chain through a head; an empty list's head points at
// itself. Nodes live inside the objects they link (timer_list::entry), so
// linking never allocates.
#pragma once

#include <cstddef>

namespace kernel {

struct list_head {
	list_head *next;
	list_head *prev;
};

inline void INIT_LIST_HEAD(list_head *list)
{
	list->next = list;
	list->prev = list;
}

inline void __list_add(list_head *node, list_head *prev, list_head *next)
{
	next->prev = node;
	node->next = next;
	node->prev = prev;
	prev->next = node;
}

// Insert right after the head: the slot becomes LIFO (hlist_add_head, 4.2+).
inline void list_add(list_head *node, list_head *head)
{
	__list_add(node, head, head->next);
}

// Insert before the head, i.e. at the end: the slot stays FIFO (up to 4.1).
inline void list_add_tail(list_head *node, list_head *head)
{
	__list_add(node, head->prev, head);
}

inline void __list_del(list_head *prev, list_head *next)
{
	next->prev = prev;
	prev->next = next;
}

inline bool list_empty(const list_head *head)
{
	return head->next == head;
}

// Move every node of `old` onto `fresh` (which need not be initialised) and
// leave `old` empty: how cascade() and __run_timers() detach a whole slot.
inline void list_replace_init(list_head *old, list_head *fresh)
{
	if (list_empty(old)) {
		INIT_LIST_HEAD(fresh);
		return;
	}
	fresh->next = old->next;
	fresh->next->prev = fresh;
	fresh->prev = old->prev;
	fresh->prev->next = fresh;
	INIT_LIST_HEAD(old);
}

// Sorts the list stably by `before(a, b)` (a node that is not before the
// other keeps its place after it): a bottom-up merge sort, O(n log n) and
// no allocation, as lib/list_sort.c does it.
template <class Before>
void list_sort(list_head *head, Before before)
{
	if (list_empty(head) || head->next->next == head)
		return;
	// As a null-terminated singly linked list, merged in runs of 1, 2, 4, ...
	head->prev->next = nullptr;
	list_head *list = head->next;
	for (unsigned long run = 1;; run *= 2) {
		list_head *merged = nullptr, **tail = &merged, *p = list;
		unsigned long merges = 0;
		while (p) {
			merges++;
			list_head *q = p;
			unsigned long psize = 0, qsize = run;
			while (psize < run && q) {
				psize++;
				q = q->next;
			}
			while (psize || (qsize && q)) {
				list_head *e;
				if (!psize || (qsize && q && before(q, p))) {
					e = q;
					q = q->next;
					qsize--;
				} else {
					e = p;
					p = p->next;
					psize--;
				}
				*tail = e;
				tail = &e->next;
			}
			p = q;
		}
		*tail = nullptr;
		list = merged;
		if (merges <= 1)
			break;
	}
	// Back to a circular doubly linked list through head.
	list_head *prev = head;
	for (list_head *n = list; n; prev = n, n = n->next)
		n->prev = prev;
	head->next = list;
	prev->next = head;
	head->prev = prev;
}

// The object that holds `node` as its member at byte offset `offset`.
template <class T>
inline T *list_entry_at(list_head *node, std::size_t offset)
{
	return reinterpret_cast<T *>(reinterpret_cast<char *>(node) - offset);
}

}  // namespace kernel
