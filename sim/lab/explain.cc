#include "sim/lab/explain.h"

#include <cstdio>

namespace timersim::lab {

std::string num(std::uint64_t v) { return std::to_string(v); }

namespace {

std::uint64_t word_mask(unsigned word_bits)
{
	return word_bits == 32 ? 0xffffffffull : ~std::uint64_t{0};
}

// The unsigned difference a - b in the word, and the same as a signed long.
std::uint64_t word_diff(std::uint64_t a, std::uint64_t b, unsigned word_bits)
{
	return (a - b) & word_mask(word_bits);
}

std::int64_t signed_diff(std::uint64_t a, std::uint64_t b, unsigned word_bits)
{
	std::uint64_t d = word_diff(a, b, word_bits);
	if (word_bits == 32)
		return static_cast<std::int32_t>(static_cast<std::uint32_t>(d));
	return static_cast<std::int64_t>(d);
}

// "p.q%" of part/whole, in integers so that every machine prints the same.
std::string percent(std::uint64_t part, std::uint64_t whole)
{
	if (!whole)
		return "-";
	std::uint64_t permille = (part * 1000 + whole / 2) / whole;
	return num(permille / 10) + "." + num(permille % 10) + "%";
}

std::string binary(std::uint64_t v)
{
	std::string digits;
	do {
		digits.insert(digits.begin(), static_cast<char>('0' + (v & 1)));
		v >>= 1;
	} while (v);
	std::string grouped;
	for (std::size_t i = 0; i < digits.size(); i++) {
		if (i && (digits.size() - i) % 4 == 0)
			grouped += '_';
		grouped += digits[i];
	}
	return "0b" + grouped;
}

std::string hex(std::uint64_t v)
{
	char buf[24];
	std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
	return buf;
}

// "(E >> s) & m = slot", with the bits shown when the shift is not zero.
std::string slot_bits(std::uint64_t expires, unsigned shift, unsigned slots, unsigned slot)
{
	std::string s = shift ? "(expires >> " + num(shift) + ") & " + num(slots - 1)
			      : "expires & " + num(slots - 1);
	s += " = ";
	if (shift)
		s += "(" + num(expires) + " >> " + num(shift) + ") & " + num(slots - 1) + " = " +
		     num(expires >> shift) + " & " + num(slots - 1) + " = ";
	else
		s += num(expires) + " & " + num(slots - 1) + " = ";
	s += num(slot) + "  [" + binary(slot) + ": bits " + num(shift) + ".." +
	     num(shift + static_cast<unsigned>(__builtin_ctz(slots)) - 1) + " of " + binary(expires) + "]";
	return s;
}

}  // namespace

std::string dec_hex_bin(std::uint64_t v)
{
	return num(v) + " = " + hex(v) + " = " + binary(v);
}

std::string word_hex(std::uint64_t v, unsigned word_bits)
{
	char buf[24];
	std::snprintf(buf, sizeof buf, "0x%0*llx", word_bits == 32 ? 8 : 16, static_cast<unsigned long long>(v));
	return buf;
}

std::string jiffies_count(std::uint64_t n)
{
	return num(n) + (n == 1 ? " jiffy" : " jiffies");
}

std::string power_of_two(unsigned k)
{
	return "2^" + num(k) + " = " + num(std::uint64_t{1} << k);
}

std::string classic_shape::describe() const
{
	return "tv1 " + num(slots[1]) + " slots, tv2..tv5 " + num(slots[2]) + " each, MAX_TVAL " +
	       num(max_tval) + ", " + num(word_bits) + "-bit jiffies";
}

std::string explain_classic_place(const classic_shape &g, std::uint64_t tj, std::uint64_t expires,
				  unsigned level, unsigned slot)
{
	const std::uint64_t idx = word_diff(expires, tj, g.word_bits);
	const std::int64_t sidx = signed_diff(expires, tj, g.word_bits);
	std::string s = "idx = expires - timer_jiffies = " + num(expires) + " - " + num(tj) + " = ";
	s += sidx < 0 ? hex(idx) + " unsigned, " + std::to_string(sidx) + " as a signed long\n" : dec_hex_bin(idx) + "\n";

	if (level == 1 && sidx < 0) {
		s += "idx < 0 as a signed long: the expiry has passed, so the timer goes to the tv1 slot processed next\n";
		s += "slot = timer_jiffies & " + num(g.slots[1] - 1) + " = " + num(tj) + " & " +
		     num(g.slots[1] - 1) + " = " + num(slot) + "; it runs at jiffy " + num(tj);
		return s;
	}
	if (level == 1) {
		s += "idx < " + power_of_two(g.shift[2]) + ": tv1, one slot per jiffy\n";
		s += "slot = " + slot_bits(expires, 0, g.slots[1], slot);
		return s;
	}
	if (level < 5) {
		s += power_of_two(g.shift[level]) + " <= idx < " + power_of_two(g.shift[level + 1]) +
		     ": tv" + num(level) + ", slots " + num(std::uint64_t{1} << g.shift[level]) +
		     " jiffies wide\n";
		s += "slot = " + slot_bits(expires, g.shift[level], g.slots[level], slot);
		return s;
	}
	if (idx > g.max_tval) {
		const std::uint64_t clamped = (tj + g.max_tval) & word_mask(g.word_bits);
		s += "idx > MAX_TVAL = " + num(g.max_tval) +
		     ": beyond the wheel; the slot is taken from timer_jiffies + MAX_TVAL = " + num(clamped) +
		     "\n";
		s += "slot = (" + num(clamped) + " >> " + num(g.shift[5]) + ") & " + num(g.slots[5] - 1) +
		     " = " + num(slot) + "; expires stays " + num(expires) +
		     ", so each cascade of this slot clamps it again until it comes in range";
		return s;
	}
	s += "idx >= " + power_of_two(g.shift[5]) + " (and <= MAX_TVAL = " + num(g.max_tval) +
	     "): tv5, slots " + num(std::uint64_t{1} << g.shift[5]) + " jiffies wide\n";
	s += "slot = " + slot_bits(expires, g.shift[5], g.slots[5], slot);
	return s;
}

std::string explain_cascade(const classic_shape &g, std::uint64_t jiffy, unsigned level, unsigned slot)
{
	std::string s = "jiffy " + num(jiffy) + ": the tv1 index " + num(jiffy) + " & " +
			num(g.slots[1] - 1) + " is 0, so tv2 slot (" + num(jiffy) + " >> " +
			num(g.shift[2]) + ") & " + num(g.slots[2] - 1) + " = " +
			num((jiffy >> g.shift[2]) & (g.slots[2] - 1)) + " cascades";
	for (unsigned l = 3; l <= level; l++)
		s += "; that index is 0, so tv" + num(l) + " slot (" + num(jiffy) + " >> " + num(g.shift[l]) +
		     ") & " + num(g.slots[l] - 1) + " = " + num((jiffy >> g.shift[l]) & (g.slots[l] - 1)) +
		     " cascades";
	s += "\nevery timer of tv" + num(level) + "[" + num(slot) +
	     "] is placed again, relative to timer_jiffies " + num(jiffy);
	return s;
}

std::string explain_slack(int slack, std::uint64_t requested, std::uint64_t jiffies, std::uint64_t result,
			  unsigned word_bits)
{
	std::uint64_t limit;
	std::string s;
	if (slack >= 0) {
		limit = (requested + static_cast<std::uint64_t>(slack)) & word_mask(word_bits);
		s = "slack " + num(static_cast<std::uint64_t>(slack)) + ": limit = " + num(requested) + " + " +
		    num(static_cast<std::uint64_t>(slack)) + " = " + num(limit) + "\n";
	} else {
		std::int64_t delta = signed_diff(requested, jiffies, word_bits);
		s = "default slack: delta = expires - jiffies = " + std::to_string(delta);
		if (delta < 256)
			return s + " < 256: no slack, expires stays " + num(result);
		limit = (requested + static_cast<std::uint64_t>(delta / 256)) & word_mask(word_bits);
		s += ", limit = expires + delta/256 = " + num(limit) + "\n";
	}
	std::uint64_t mask = requested ^ limit;
	if (!mask)
		return s + "limit = expires: expires stays " + num(result);
	unsigned bit = 63 - static_cast<unsigned>(__builtin_clzll(mask));
	s += "expires ^ limit = " + binary(requested) + " ^ " + binary(limit) + " = " + binary(mask) +
	     ", highest set bit " + num(bit) + "\n";
	s += "limit with bits 0.." + num(bit ? bit - 1 : 0) + " cleared: " + binary(limit) + " -> " +
	     binary(result) + " = " + num(result);
	if (!bit)
		s += " (bit 0 alone: nothing below it to clear)";
	return s;
}

std::string explain_round(bool up, std::uint64_t j, unsigned hz, std::uint64_t now, std::uint64_t result)
{
	const std::uint64_t rem = j % hz;
	std::string s = std::string(up ? "round_jiffies_up(" : "round_jiffies(") + num(j) + ") at HZ " +
			num(hz) + ": rem = " + num(j) + " % " + num(hz) + " = " + num(rem);
	const bool down = rem < hz / 4 && !up;
	if (down)
		s += " < HZ/4 = " + num(hz / 4) + ": round down to " + num(j - rem);
	else
		s += up ? ": round up to " + num(j - rem + hz)
			: " >= HZ/4 = " + num(hz / 4) + ": round up to " + num(j - rem + hz);
	if (result == j && (down ? j - rem : j - rem + hz) != j)
		s += ", which is not after now (" + num(now) + "): keep " + num(j);
	return s;
}

std::string explain_v48_place(const v48_shape &g, std::uint64_t clk, std::uint64_t expires, unsigned lvl,
			      unsigned bucket, std::uint64_t bucket_expiry)
{
	const std::uint64_t delta = word_diff(expires, clk, g.word_bits);
	const std::int64_t sdelta = signed_diff(expires, clk, g.word_bits);
	std::string s = "delta = expires - clk = " + num(expires) + " - " + num(clk) + " = " +
			std::to_string(sdelta) + "\n";

	if (sdelta < 0) {
		s += "delta < 0 as a signed long: already expired, so the bucket collected next: clk & 63 = " +
		     num(bucket) + ", bucket_expiry = clk = " + num(bucket_expiry);
		return s;
	}
	std::uint64_t e = expires;
	if (delta >= g.cutoff) {
		e = (clk + g.timeout_max) & word_mask(g.word_bits);
		s += "delta >= WHEEL_TIMEOUT_CUTOFF = " + num(g.cutoff) +
		     ": force-expired at the wheel's capacity, expires taken as clk + WHEEL_TIMEOUT_MAX = " +
		     num(e) + "\n";
	} else if (lvl == 0) {
		s += "delta < LVL_START(1) = " + num(g.start[1]) + ": LVL0, granularity 1 jiffy\n";
	} else {
		s += "LVL_START(" + num(lvl) + ") = " + num(g.start[lvl]) + " <= delta" +
		     (lvl + 1 < g.depth ? " < LVL_START(" + num(lvl + 1) + ") = " + num(g.start[lvl + 1]) : "") +
		     ": LVL" + num(lvl) + ", granularity 8^" + num(lvl) + " = " + num(g.gran[lvl]) + " jiffies\n";
	}
	const unsigned shift = 3 * lvl;
	const std::string of = e == expires ? "expires" : num(e);
	s += "bucket_expiry = ((" + of + " >> " + num(shift) + ") + 1) << " + num(shift) + " = " +
	     num(bucket_expiry) + ": rounded up to the granularity, never early\n";
	s += "bucket = ((" + of + " >> " + num(shift) + ") + 1) & 63 = " + num(bucket) + " (wheel index " +
	     num(lvl * 64 + bucket) + ")\n";
	if (e != expires)
		return s + "it runs at " + num(bucket_expiry) + ", " +
		       jiffies_count(word_diff(expires, bucket_expiry, g.word_bits)) + " before its expiry";
	const std::uint64_t late = word_diff(bucket_expiry, expires, g.word_bits);
	s += "it runs at " + num(bucket_expiry) + ", " + jiffies_count(late) + " after expires (" +
	     percent(late, delta) + " of the " + num(delta) + "-jiffy timeout)";
	return s;
}

}  // namespace timersim::lab
