// The reasoning behind each thing a wheel does, in words and numbers, for
// `step --explain` and the worked answers of `lab -c`.
//
// These functions never decide anything: the wheel in kernel/ already chose
// the level and slot, and they are handed the outcome. They show the
// arithmetic that leads there (the index in decimal, hex and binary, the
// range it falls in, the slot bits), so a student can follow it by hand.
#pragma once

#include <cstdint>
#include <string>

#include "kernel/classic_wheel.h"
#include "kernel/v48_wheel.h"
#include "sim/lab/lab_wheel.h"

namespace timersim::lab {

// 300 -> "300 = 0x12c = 0b1_0010_1100" (binary grouped by fours).
std::string dec_hex_bin(std::uint64_t v);
// Hex with the word's digits: 0x0000012c for a 32-bit word.
std::string word_hex(std::uint64_t v, unsigned word_bits);
// "1 jiffy", "3 jiffies".
std::string jiffies_count(std::uint64_t n);
// 2^k as "2^k = N".
std::string power_of_two(unsigned k);

// The numbers of a classic geometry, read off kernel/classic_wheel.h.
struct classic_shape {
	unsigned word_bits = 64;
	std::uint64_t max_tval = 0;
	unsigned shift[6] = {};		// [level]: bit position of the slot index in expires
	unsigned slots[6] = {};		// [level]: slots in the level
	std::string describe() const;	// "tv1 256 slots, tv2..tv5 64 each"
};

template <class Geometry>
classic_shape classic_shape_of(unsigned word_bits)
{
	using base_t = kernel::tvec_base<kernel::wheel_config<Geometry, std::uint64_t>>;
	classic_shape s;
	s.word_bits = word_bits;
	s.max_tval = Geometry::MAX_TVAL;
	for (unsigned level = 1; level <= Geometry::LEVELS; level++) {
		s.shift[level] = base_t::shift_of(level);
		s.slots[level] = base_t::slots_of(level);
	}
	return s;
}

// Why a timer with `expires`, placed against timer_jiffies `tj`, landed in
// tv`level`[slot] (as the wheel decided).
std::string explain_classic_place(const classic_shape &g, std::uint64_t tj, std::uint64_t expires,
				  unsigned level, unsigned slot);

// Why jiffy `jiffy` cascades tv`level`[slot] (the chain of index wraps).
std::string explain_cascade(const classic_shape &g, std::uint64_t jiffy, unsigned level, unsigned slot);

// apply_slack(): how `requested` became `result` (slack -1: the default 0.4%).
std::string explain_slack(int slack, std::uint64_t requested, std::uint64_t jiffies,
			  std::uint64_t result, unsigned word_bits);

// round_jiffies() / round_jiffies_up() of `j` at `hz` on CPU 0.
std::string explain_round(bool up, std::uint64_t j, unsigned hz, std::uint64_t now, std::uint64_t result);

// EXPIRES through round_jiffies() (or round_jiffies_up()) at jiffy NOW, as
// a statement's `round` (`round-up`) asks, in the wheel's word; WHY gets
// explain_round()'s line. Unchanged, and WHY untouched, without either.
// (kernel/jiffies.h decides; this only hands it the statement.)
template <class Word>
Word rounded_expires(rounding round, Word expires, unsigned hz, Word now, std::string &why)
{
	if (round == rounding::none)
		return expires;
	bool up = round == rounding::round_up;
	Word r = up ? kernel::round_jiffies_up<Word>(expires, hz, now) : kernel::round_jiffies<Word>(expires, hz, now);
	why = explain_round(up, expires, hz, now, r) + "\n";
	return r;
}

// The numbers of a v48 geometry, read off kernel/v48_wheel.h.
struct v48_shape {
	unsigned depth = 9;		// LVL_DEPTH
	unsigned word_bits = 64;
	std::uint64_t start[10] = {};	// [n]: LVL_START(n), n >= 1
	std::uint64_t gran[10] = {};	// [n]: LVL_GRAN(n)
	std::uint64_t cutoff = 0;	// WHEEL_TIMEOUT_CUTOFF
	std::uint64_t timeout_max = 0;	// WHEEL_TIMEOUT_MAX
};

template <class Geometry>
v48_shape v48_shape_of(unsigned word_bits)
{
	v48_shape s;
	s.depth = Geometry::LVL_DEPTH;
	s.word_bits = word_bits;
	for (unsigned n = 0; n <= Geometry::LVL_DEPTH; n++) {
		s.start[n] = n ? Geometry::LVL_START(n) : 0;
		s.gran[n] = Geometry::LVL_GRAN(n);
	}
	s.cutoff = Geometry::WHEEL_TIMEOUT_CUTOFF;
	s.timeout_max = Geometry::WHEEL_TIMEOUT_MAX;
	return s;
}

// Why a timer with `expires`, placed against clk, went to LVL`lvl`, bucket
// `bucket` of that level, running at `bucket_expiry`.
std::string explain_v48_place(const v48_shape &g, std::uint64_t clk, std::uint64_t expires, unsigned lvl,
			      unsigned bucket, std::uint64_t bucket_expiry);

// A number in the lab's text: decimal.
std::string num(std::uint64_t v);

}  // namespace timersim::lab
