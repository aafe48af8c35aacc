// Read-only views of a non-cascading (4.8+) wheel's base, for pictures and
// lessons: each level's clock position and every timer in bucket order.
// Nothing here changes the base; the wheel's rules stay in
// kernel/v48_wheel.h.
#pragma once

#include "kernel/v48_wheel.h"

namespace kernel::v48 {

// The bucket of `lvl` (0-based) that the base's clk points at: the level's
// bits of clk.
template <class Config>
unsigned level_index(const timer_base<Config> &base, unsigned lvl)
{
	using G = typename Config::geometry;
	return static_cast<unsigned>(base.clk >> G::LVL_SHIFT(lvl)) & G::LVL_MASK;
}

// fn(lvl, bucket, timer) for every pending timer of the base, level by
// level, bucket by bucket, each bucket from its head (the order it expires in).
template <class Config, class Fn>
void for_each_timer(const timer_base<Config> &base, Fn &&fn)
{
	using G = typename Config::geometry;
	for (unsigned idx = 0; idx < G::WHEEL_SIZE; idx++)
		for (const hlist_node *n = base.vectors[idx].first; n; n = n->next)
			fn(idx / G::LVL_SIZE, idx % G::LVL_SIZE,
			   *timer_of<Config>(const_cast<hlist_node *>(n)));
}

}  // namespace kernel::v48
