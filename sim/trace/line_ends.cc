#include "sim/trace/line_ends.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace timersim {

namespace {

constexpr std::size_t window = lf_line_index::window;

// Writes the offsets of MASK's set bits at OUT, bit 0 standing for offset
// AT; returns the end of them.
[[gnu::always_inline]] inline std::uint32_t *put_offsets(std::uint32_t *out, std::uint64_t mask,
							 std::size_t at)
{
	for (; mask; mask &= mask - 1)
		*out++ = std::uint32_t(at + std::size_t(__builtin_ctzll(mask)));
	return out;
}

// The whole windows of [BEGIN, BEGIN + FULL) (FULL a multiple of window):
// their '\n' offsets at OUT, their end returned; CR set when a '\r' is
// among them.
#if defined(__x86_64__)
__attribute__((target("avx2"))) std::uint32_t *windows_avx2(const char *begin, std::size_t &full,
							     std::uint32_t *out, const std::uint32_t *last,
							     bool &cr)
{
	const __m256i lf = _mm256_set1_epi8('\n'), ret = _mm256_set1_epi8('\r');
	__m256i crs = _mm256_setzero_si256();
	std::size_t at = 0;
	for (; at < full && out <= last; at += window) {
		__m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(begin + at));
		__m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(begin + at + 32));
		std::uint64_t lfs = std::uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, lf))) |
				    std::uint64_t(std::uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, lf)))) << 32;
		crs = _mm256_or_si256(crs, _mm256_or_si256(_mm256_cmpeq_epi8(lo, ret), _mm256_cmpeq_epi8(hi, ret)));
		out = put_offsets(out, lfs, at);
	}
	cr = !_mm256_testz_si256(crs, crs);
	full = at;
	return out;
}

// The same, 64 bytes a compare into a mask (AVX-512BW).
__attribute__((target("avx512bw"))) std::uint32_t *windows_avx512(const char *begin, std::size_t &full,
								   std::uint32_t *out,
								   const std::uint32_t *last, bool &cr)
{
	const __m512i lf = _mm512_set1_epi8('\n'), ret = _mm512_set1_epi8('\r');
	std::uint64_t crs = 0;
	std::size_t at = 0;
	for (; at < full && out <= last; at += window) {
		__m512i v = _mm512_loadu_si512(begin + at);
		crs |= _mm512_cmpeq_epi8_mask(v, ret);
		out = put_offsets(out, _mm512_cmpeq_epi8_mask(v, lf), at);
	}
	cr = crs != 0;
	full = at;
	return out;
}
#endif

std::uint32_t *windows_sse2(const char *begin, std::size_t &full, std::uint32_t *out,
			    const std::uint32_t *last, bool &cr)
{
#if defined(__SSE2__)
	const __m128i lf = _mm_set1_epi8('\n'), ret = _mm_set1_epi8('\r');
	__m128i crs = _mm_setzero_si128();
	std::size_t at = 0;
	for (; at < full && out <= last; at += window) {
		std::uint64_t lfs = 0;
		for (int i = 0; i < 4; i++) {
			__m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(begin + at + 16 * i));
			lfs |= std::uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf)))) << (16 * i);
			crs = _mm_or_si128(crs, _mm_cmpeq_epi8(v, ret));
		}
		out = put_offsets(out, lfs, at);
	}
	cr = _mm_movemask_epi8(crs) != 0;
#else
	std::size_t at = 0;
	for (; at < full && out <= last; at += window)
		for (std::size_t i = at; i < at + window; i++) {
			if (begin[i] == '\n')
				*out++ = std::uint32_t(i);
			cr = cr || begin[i] == '\r';
		}
#endif
	full = at;
	return out;
}

// The widest compare the CPU has.
int cpu_width()
{
#if defined(__x86_64__)
	if (__builtin_cpu_supports("avx512bw"))
		return lf_line_index::avx512;
	if (__builtin_cpu_supports("avx2"))
		return lf_line_index::avx2;
#endif
	return lf_line_index::sse2;
}

}  // namespace

std::size_t lf_line_index::index(const char *begin, const char *end, int widest)
{
	static const int width = cpu_width();
	const std::size_t size = std::size_t(end - begin);
	// Whole windows while a window's worth of line ends still fits.
	std::size_t done = size - size % window;
	std::uint32_t *out = ends_.get();
	const std::uint32_t *last = out + room - window;
	bool cr = false;
	const int use = width < widest ? width : widest;
#if defined(__x86_64__)
	if (use == lf_line_index::avx512)
		out = windows_avx512(begin, done, out, last, cr);
	else if (use == lf_line_index::avx2)
		out = windows_avx2(begin, done, out, last, cr);
	else
#else
	(void)use;
#endif
		out = windows_sse2(begin, done, out, last, cr);
	if (done == size - size % window && out <= last) {	// the last bytes, short of a window
		for (; done < size; done++) {
			if (begin[done] == '\n')
				*out++ = std::uint32_t(done);
			cr = cr || begin[done] == '\r';
		}
	}
	count_ = std::size_t(out - ends_.get());
	stray_cr_ = cr;
	if (cr) {
		done = std::size_t(static_cast<const char *>(std::memchr(begin, '\r', done)) - begin);
		while (count_ && ends_[count_ - 1] > done)
			count_--;
	}
	return done;
}

}  // namespace timersim
