#include "sim/measured/durations.h"

#include <algorithm>
#include <array>
#include <bit>

namespace timersim::measured {

namespace {

// Nearest rank: the index of the smallest sample with at least p% of the
// samples at or below it, in N samples in order.
std::uint64_t nearest_rank(std::uint64_t n, unsigned percent)
{
	std::uint64_t r = (n * percent + 99) / 100;
	return r ? r - 1 : 0;
}

// Fewer samples than this in one set are selected in place: the counting
// below zeroes 16 KB of counts a pass, more than a small selection costs.
// They are all in its first block.
constexpr std::uint64_t select_in_place_below = 4096;
static_assert(select_in_place_below <= duration_samples::block_values);

// The K-th smallest (from 0) of V's first END values, all of whose values
// below it lie in that prefix (END is V's size, or a rank selected before).
template <class T>
std::uint64_t select_in_place(std::vector<T> &v, std::uint64_t k, std::uint64_t end)
{
	std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.begin() + std::ptrdiff_t(end));
	return v[k];
}

// Counting selection, for large sets and across several: the range
// [lo, hi] that holds rank k is cut into 2^11 buckets, the values in it
// counted by bucket, and the bucket the rank falls in is the next range.
// Each pass reads every value once and keeps at most every 11th bit of the
// range (three for 32-bit values, fewer for the range the samples span);
// ranks in the same range share a pass: a few linear passes, where
// nth_element moves the values about for each rank.
constexpr unsigned bucket_bits = 11;
constexpr std::size_t buckets = std::size_t(1) << bucket_bits;
using bucket_counts = std::array<std::uint64_t, buckets + 1>;	// the last: values outside

template <class T>
struct rank_search {
	std::uint64_t k;	// the rank among the values in [lo, hi]
	T lo, hi;
	bool found() const { return lo == hi; }
};

template <class T>
unsigned bucket_shift(T lo, T hi)
{
	const unsigned width_bits = unsigned(std::bit_width(T(hi - lo)));
	return width_bits > bucket_bits ? width_bits - bucket_bits : 0;
}

template <class T>
void count_buckets(const std::vector<std::span<const T>> &lists, T lo, T hi, unsigned shift, bucket_counts &count)
{
	count.fill(0);
	const T width = T(hi - lo);
	for (std::span<const T> l : lists)
		for (T v : l) {
			// No branch on the range: a value outside counts in the
			// spare slot (a mispredicted branch a value had doubled
			// the time of a pass).
			const T off = T(v - lo);
			count[off <= width ? std::size_t(off >> shift) : buckets]++;
		}
}

template <class T>
void narrow(rank_search<T> &r, unsigned shift, const bucket_counts &count)
{
	std::size_t b = 0;
	while (r.k >= count[b])
		r.k -= count[b++];
	const T from = T(r.lo + (T(b) << shift));
	const T last = T((T(1) << shift) - 1);	// the bucket's width less one
	r.hi = T(r.hi - from) > last ? T(from + last) : r.hi;
	r.lo = from;
}

template <class T>
void select_by_counting(const std::vector<std::span<const T>> &lists, std::span<rank_search<T>> ranks)
{
	bucket_counts count;
	for (;;) {
		auto open = std::find_if(ranks.begin(), ranks.end(), [](const rank_search<T> &r) { return !r.found(); });
		if (open == ranks.end())
			return;
		const T lo = open->lo, hi = open->hi;
		const unsigned shift = bucket_shift(lo, hi);
		count_buckets(lists, lo, hi, shift, count);
		for (rank_search<T> &r : ranks)
			if (r.lo == lo && r.hi == hi)
				narrow(r, shift, count);
	}
}

}  // namespace

void duration_samples::new_block()
{
	// The first block grows by doubling (most sets are small); the
	// others are made whole.
	short_.emplace_back();
	if (short_.size() > 1)
		short_.back().reserve(block_values);
}

void duration_samples::add_binned(std::uint64_t ns)
{
	if (bins_.empty())
		bins_.assign(bins, 0);
	bins_[bin_of(ns)]++;
	binned_++;
}

std::uint64_t duration_samples::bytes() const
{
	std::uint64_t n = short_.capacity() * sizeof(short_[0]) + long_.capacity() * sizeof(long_[0]) +
			  bins_.capacity() * sizeof(bins_[0]);
	for (const std::vector<std::uint32_t> &b : short_)
		n += b.capacity() * sizeof(b[0]);
	return n;
}

void bin_into(std::vector<std::uint64_t> &bins, const duration_samples &d)
{
	for (std::size_t b = 0; b < d.bins_.size(); b++)
		bins[b] += d.bins_[b];
	for (const std::vector<std::uint32_t> &block : d.short_)
		for (std::uint32_t v : block)
			bins[duration_samples::bin_of(v)]++;
	for (std::uint64_t v : d.long_)
		bins[duration_samples::bin_of(v)]++;
}

namespace {

// The order statistics of sets of which one at least is bounded: from
// their histograms together (exact sets binned too).
void summarise_binned(std::span<duration_samples *const> sets, std::uint64_t min, duration_stats &s)
{
	std::vector<std::uint64_t> bins(duration_samples::bins, 0);
	for (const duration_samples *d : sets)
		bin_into(bins, *d);
	auto at_rank = [&](std::uint64_t k) {
		std::size_t b = 0;
		while (k >= bins[b])
			k -= bins[b++];
		return std::min(std::max(duration_samples::bin_low(b), min), s.max_ns);
	};
	s.p99_ns = at_rank(nearest_rank(s.count, 99));
	s.p50_ns = at_rank(nearest_rank(s.count, 50));
}

}  // namespace

duration_stats summarise(std::span<duration_samples *const> sets)
{
	duration_stats s;
	bool binned = false;
	std::uint64_t shorts = 0, min = UINT64_MAX;
	std::vector<std::span<const std::uint32_t>> short_lists;
	std::vector<std::span<const std::uint64_t>> long_lists;
	duration_samples *holder = nullptr;	// the set holding samples, if one does
	std::size_t holders = 0;
	for (duration_samples *d : sets) {
		if (d->empty())
			continue;
		s.count += d->size();
		s.total_ns += d->total_;
		min = std::min(min, d->min_);
		s.max_ns = std::max(s.max_ns, d->max_);
		shorts += d->shorts_;
		for (const std::vector<std::uint32_t> &b : d->short_)
			short_lists.emplace_back(b);
		long_lists.emplace_back(d->long_);
		holder = d;
		holders++;
		binned = binned || d->bounded_;
	}
	if (!s.count)
		return s;
	if (binned) {
		summarise_binned(sets, min, s);
		return s;
	}
	// p99 first: p50, when in the same list, is then among the values
	// before it. The short values are all below the long ones: a rank is
	// the short list's, or the long list's less the short ones.
	const std::uint64_t p99 = nearest_rank(s.count, 99), p50 = nearest_rank(s.count, 50);
	if (holders == 1 && s.count < select_in_place_below) {
		auto at_rank = [&](std::uint64_t k, std::uint64_t end) {
			return k < shorts ? select_in_place(holder->short_.front(), k, std::min(end, shorts))
					  : select_in_place(holder->long_, k - shorts, end - shorts);
		};
		s.p99_ns = at_rank(p99, s.count);
		s.p50_ns = at_rank(p50, std::max(p99, p50 + 1));
		return s;
	}
	// Each rank searched in its list's range; two in one list share passes.
	const std::uint64_t ranks[] = {p99, p50};
	std::uint64_t *const values[] = {&s.p99_ns, &s.p50_ns};
	const std::uint32_t short_hi = std::uint32_t(std::min<std::uint64_t>(s.max_ns, UINT32_MAX));
	const std::uint64_t long_lo = std::max<std::uint64_t>(min, std::uint64_t{UINT32_MAX} + 1);
	std::array<rank_search<std::uint32_t>, 2> short_ranks;
	std::array<rank_search<std::uint64_t>, 2> long_ranks;
	std::size_t short_n = 0, long_n = 0;
	for (std::uint64_t k : ranks) {
		if (k < shorts)
			short_ranks[short_n++] = {k, std::uint32_t(min), short_hi};
		else
			long_ranks[long_n++] = {k - shorts, long_lo, s.max_ns};
	}
	select_by_counting(short_lists, std::span(short_ranks.data(), short_n));
	select_by_counting(long_lists, std::span(long_ranks.data(), long_n));
	short_n = long_n = 0;
	for (std::size_t i = 0; i < 2; i++)
		*values[i] = ranks[i] < shorts ? short_ranks[short_n++].lo : long_ranks[long_n++].lo;
	return s;
}

duration_stats summarise(duration_samples &samples)
{
	duration_samples *one[] = {&samples};
	return summarise(one);
}

}  // namespace timersim::measured
