// An intrusive red-black tree with the rules of the kernel's lib/rbtree.c
// (include/linux/rbtree.h, rbtree_augmented.h): the caller walks down to
// the leaf where a node belongs and links it there (rb_link_node), then
// rb_insert_color() restores the colour rules; rb_erase() unlinks any node
// and rebalances. Written here from the rules, not copied:
//
//   1. every node is red or black; the root is black;
//   2. a red node has no red child;
//   3. every path from a node down to a leaf holds the same number of
//      black nodes (its black height).
//
// So the longest path is at most twice the shortest: depth <= 2 log2(n+1).
// Nodes carry an explicit parent pointer and colour (the kernel packs the
// colour into the parent's low bit; a separate byte reads plainer and the
// simulator has no cache line to save). A node not in any tree points at
// itself (RB_CLEAR_NODE), as the kernel's do.
//
// The "cached" root keeps the leftmost node, so the earliest timer is O(1):
// the timerqueue (kernel/timerqueue.h) is built on it. Every rotation is
// counted in the root, the cost the tree adds to an insert or erase.
//
// Freestanding: no allocation, nothing hosted; header-only, so that every
// kernel/ object that uses it stands alone (scripts/check-freestanding.sh).
#pragma once

#include <cstdint>

namespace kernel {

enum : unsigned char { RB_RED = 0, RB_BLACK = 1 };

struct rb_node {
	rb_node *parent;	// == this: in no tree
	rb_node *left;
	rb_node *right;
	unsigned char colour;
};

struct rb_root {
	rb_node *node;
	std::uint64_t rotations;	// rotations made by inserts and erases so far
};

struct rb_root_cached {
	rb_root root;
	rb_node *leftmost;	// the first node in order, nullptr when empty
};

inline void rb_root_init(rb_root *root)
{
	root->node = nullptr;
	root->rotations = 0;
}

inline void rb_root_cached_init(rb_root_cached *root)
{
	rb_root_init(&root->root);
	root->leftmost = nullptr;
}

inline void RB_CLEAR_NODE(rb_node *node) { node->parent = node; }
inline bool RB_EMPTY_NODE(const rb_node *node) { return node->parent == node; }
inline bool RB_EMPTY_ROOT(const rb_root *root) { return root->node == nullptr; }

// Puts `node` at the empty child pointer `*link` of `parent` (nullptr: the
// root), red and childless; rb_insert_color() must follow.
inline void rb_link_node(rb_node *node, rb_node *parent, rb_node **link)
{
	node->parent = parent;
	node->left = node->right = nullptr;
	node->colour = RB_RED;
	*link = node;
}

namespace rb_detail {

inline bool is_red(const rb_node *n) { return n && n->colour == RB_RED; }
inline bool is_black(const rb_node *n) { return !n || n->colour == RB_BLACK; }

// Makes `fresh` take `old`'s place under old's parent (or as the root).
inline void replace_child(rb_node *old, rb_node *fresh, rb_node *parent, rb_root *root)
{
	if (!parent)
		root->node = fresh;
	else if (parent->left == old)
		parent->left = fresh;
	else
		parent->right = fresh;
}

// x's right child y takes x's place; x becomes y's left child and takes y's
// left subtree as its right one. rotate_right() is the mirror image.
inline void rotate_left(rb_node *x, rb_root *root)
{
	rb_node *y = x->right;
	rb_node *parent = x->parent;

	x->right = y->left;
	if (y->left)
		y->left->parent = x;
	y->left = x;
	x->parent = y;
	y->parent = parent;
	replace_child(x, y, parent, root);
	root->rotations++;
}

inline void rotate_right(rb_node *x, rb_root *root)
{
	rb_node *y = x->left;
	rb_node *parent = x->parent;

	x->left = y->right;
	if (y->right)
		y->right->parent = x;
	y->right = x;
	x->parent = y;
	y->parent = parent;
	replace_child(x, y, parent, root);
	root->rotations++;
}

// After removing a black node, `node` (possibly null) under `parent` is one
// black short on its paths: push the deficit up, or fix it with the
// sibling's red nodes.
inline void erase_fixup(rb_node *node, rb_node *parent, rb_root *root)
{
	while (node != root->node && is_black(node)) {
		if (parent->left == node) {
			rb_node *sibling = parent->right;
			if (is_red(sibling)) {
				sibling->colour = RB_BLACK;
				parent->colour = RB_RED;
				rotate_left(parent, root);
				sibling = parent->right;
			}
			if (is_black(sibling->left) && is_black(sibling->right)) {
				sibling->colour = RB_RED;
				node = parent;
				parent = node->parent;
				continue;
			}
			if (is_black(sibling->right)) {
				sibling->left->colour = RB_BLACK;
				sibling->colour = RB_RED;
				rotate_right(sibling, root);
				sibling = parent->right;
			}
			sibling->colour = parent->colour;
			parent->colour = RB_BLACK;
			sibling->right->colour = RB_BLACK;
			rotate_left(parent, root);
		} else {
			rb_node *sibling = parent->left;
			if (is_red(sibling)) {
				sibling->colour = RB_BLACK;
				parent->colour = RB_RED;
				rotate_right(parent, root);
				sibling = parent->left;
			}
			if (is_black(sibling->left) && is_black(sibling->right)) {
				sibling->colour = RB_RED;
				node = parent;
				parent = node->parent;
				continue;
			}
			if (is_black(sibling->left)) {
				sibling->right->colour = RB_BLACK;
				sibling->colour = RB_RED;
				rotate_left(sibling, root);
				sibling = parent->left;
			}
			sibling->colour = parent->colour;
			parent->colour = RB_BLACK;
			sibling->left->colour = RB_BLACK;
			rotate_right(parent, root);
		}
		node = root->node;
		break;
	}
	if (node)
		node->colour = RB_BLACK;
}

}  // namespace rb_detail

// Restores rules 1-3 after rb_link_node(): recolouring up the tree while
// the uncle is red, then at most two rotations.
inline void rb_insert_color(rb_node *node, rb_root *root)
{
	using namespace rb_detail;
	rb_node *parent;

	while ((parent = node->parent) && parent->colour == RB_RED) {
		// A red parent is never the root, so the grandparent exists.
		rb_node *gparent = parent->parent;
		if (parent == gparent->left) {
			rb_node *uncle = gparent->right;
			if (is_red(uncle)) {
				uncle->colour = parent->colour = RB_BLACK;
				gparent->colour = RB_RED;
				node = gparent;
				continue;
			}
			if (node == parent->right) {
				rotate_left(parent, root);
				node = parent;
				parent = node->parent;
			}
			parent->colour = RB_BLACK;
			gparent->colour = RB_RED;
			rotate_right(gparent, root);
		} else {
			rb_node *uncle = gparent->left;
			if (is_red(uncle)) {
				uncle->colour = parent->colour = RB_BLACK;
				gparent->colour = RB_RED;
				node = gparent;
				continue;
			}
			if (node == parent->left) {
				rotate_right(parent, root);
				node = parent;
				parent = node->parent;
			}
			parent->colour = RB_BLACK;
			gparent->colour = RB_RED;
			rotate_left(gparent, root);
		}
	}
	root->node->colour = RB_BLACK;
}

// Unlinks `node` (which must be in this tree) and rebalances: at most three
// rotations. The node is left as it was; RB_CLEAR_NODE it to mark it out.
inline void rb_erase(rb_node *node, rb_root *root)
{
	using namespace rb_detail;
	rb_node *child, *parent;
	unsigned char colour;

	if (node->left && node->right) {
		// Two children: the successor (leftmost of the right subtree, which
		// has no left child) takes the node's place and colour; the
		// successor's old spot is where a node really leaves.
		rb_node *succ = node->right;
		while (succ->left)
			succ = succ->left;

		replace_child(node, succ, node->parent, root);
		child = succ->right;
		colour = succ->colour;
		if (succ->parent == node) {
			parent = succ;
		} else {
			parent = succ->parent;
			parent->left = child;
			if (child)
				child->parent = parent;
			succ->right = node->right;
			node->right->parent = succ;
		}
		succ->parent = node->parent;
		succ->colour = node->colour;
		succ->left = node->left;
		node->left->parent = succ;
	} else {
		child = node->left ? node->left : node->right;
		parent = node->parent;
		colour = node->colour;
		if (child)
			child->parent = parent;
		replace_child(node, child, parent, root);
	}
	if (colour == RB_BLACK)
		erase_fixup(child, parent, root);
}

// In-order ends and neighbours; nullptr past either end. rb_next and
// rb_prev climb or descend at most the tree's height.
inline rb_node *rb_first(const rb_root *root)
{
	rb_node *n = root->node;
	if (!n)
		return nullptr;
	while (n->left)
		n = n->left;
	return n;
}

inline rb_node *rb_last(const rb_root *root)
{
	rb_node *n = root->node;
	if (!n)
		return nullptr;
	while (n->right)
		n = n->right;
	return n;
}

inline rb_node *rb_next(const rb_node *node)
{
	if (node->right) {
		rb_node *n = node->right;
		while (n->left)
			n = n->left;
		return n;
	}
	// Up until we come from a left child.
	rb_node *parent;
	while ((parent = node->parent) && node == parent->right)
		node = parent;
	return parent;
}

inline rb_node *rb_prev(const rb_node *node)
{
	if (node->left) {
		rb_node *n = node->left;
		while (n->right)
			n = n->right;
		return n;
	}
	rb_node *parent;
	while ((parent = node->parent) && node == parent->left)
		node = parent;
	return parent;
}

// The cached variants: the caller says whether the node was linked as the
// new leftmost (it never went right on its way down).
inline void rb_insert_color_cached(rb_node *node, rb_root_cached *root, bool leftmost)
{
	if (leftmost)
		root->leftmost = node;
	rb_insert_color(node, &root->root);
}

inline void rb_erase_cached(rb_node *node, rb_root_cached *root)
{
	if (root->leftmost == node)
		root->leftmost = rb_next(node);
	rb_erase(node, &root->root);
}

inline rb_node *rb_first_cached(const rb_root_cached *root) { return root->leftmost; }

}  // namespace kernel
