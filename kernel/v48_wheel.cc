// The non-cascading wheel's code for each depth and width of jiffies,
// compiled once here so that the freestanding check
// (scripts/check-freestanding.sh) sees every instruction the templates
// produce.
#include "kernel/v48_check.h"
#include "kernel/v48_wheel.h"

namespace kernel::v48 {

#define V48_WHEEL_INSTANCE(Config)                                                              \
	template void init_cpu_bases<Config>(cpu_bases<Config> &, unsigned, Config::word);      \
	template int mod_timer<Config>(cpu_bases<Config> &, timer_list<Config> *, Config::word,  \
				       Config::word);                                            \
	template int mod_timer_pending<Config>(cpu_bases<Config> &, timer_list<Config> *,       \
					       Config::word, Config::word);                      \
	template void add_timer<Config>(cpu_bases<Config> &, timer_list<Config> *, Config::word); \
	template void add_timer_on<Config>(cpu_bases<Config> &, timer_list<Config> *,           \
					   Config::word);                                        \
	template int del_timer<Config>(timer_list<Config> *);                                  \
	template Config::word next_timer_interrupt<Config>(timer_base<Config> &);              \
	template void run_timers<Config>(cpu_bases<Config> &, Config::word);                   \
	template wheel_check_result<Config> wheel_check<Config>(const timer_base<Config> &);   \
	template Config::word brute_next_expiry<Config>(const timer_base<Config> &);

using v48_depth9_64 = wheel_config<geometry_hz_gt_100, std::uint64_t>;
using v48_depth9_32 = wheel_config<geometry_hz_gt_100, std::uint32_t>;
using v48_depth8_64 = wheel_config<geometry_hz_le_100, std::uint64_t>;
using v48_depth8_32 = wheel_config<geometry_hz_le_100, std::uint32_t>;

V48_WHEEL_INSTANCE(v48_depth9_64)
V48_WHEEL_INSTANCE(v48_depth9_32)
V48_WHEEL_INSTANCE(v48_depth8_64)
V48_WHEEL_INSTANCE(v48_depth8_32)

}  // namespace kernel::v48
