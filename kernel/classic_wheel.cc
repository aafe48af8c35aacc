// The classic wheel's code for each geometry and width of jiffies, compiled
// once here so that the freestanding check (scripts/check-freestanding.sh)
// sees every instruction the templates produce.
#include "kernel/classic_check.h"
#include "kernel/classic_idle.h"
#include "kernel/classic_wheel.h"

namespace kernel {

#define CLASSIC_WHEEL_INSTANCE(Config)                                                          \
	template void init_timer_base<Config>(tvec_base<Config> &, const Config::word *,       \
					      unsigned, Config::word);                         \
	template int mod_timer<Config>(tvec_base<Config> &, timer_list<Config> *, Config::word); \
	template int mod_timer_pending<Config>(tvec_base<Config> &, timer_list<Config> *,      \
					       Config::word);                                  \
	template void add_timer<Config>(tvec_base<Config> &, timer_list<Config> *);            \
	template void add_timer_on<Config>(tvec_base<Config> &, timer_list<Config> *);         \
	template int del_timer<Config>(timer_list<Config> *);                                  \
	template int try_to_del_timer_sync<Config>(timer_list<Config> *);                      \
	template void run_timers<Config>(tvec_base<Config> &, Config::word);                   \
	template Config::word get_next_timer_interrupt<Config>(tvec_base<Config> &, Config::word); \
	template std::uint64_t idle_jiffies<Config>(const tvec_base<Config> &);                \
	template idle_cascades forward_idle<Config>(tvec_base<Config> &, std::uint64_t);       \
	template wheel_check_result<Config> wheel_check<Config>(const tvec_base<Config> &);

using classic_normal_64 = wheel_config<geometry_normal, std::uint64_t>;
using classic_normal_32 = wheel_config<geometry_normal, std::uint32_t>;
using classic_small_64 = wheel_config<geometry_small, std::uint64_t>;
using classic_small_32 = wheel_config<geometry_small, std::uint32_t>;
using classic_normal_64_lifo = wheel_config<geometry_normal, std::uint64_t, slot_order::lifo>;

CLASSIC_WHEEL_INSTANCE(classic_normal_64)
CLASSIC_WHEEL_INSTANCE(classic_normal_32)
CLASSIC_WHEEL_INSTANCE(classic_small_64)
CLASSIC_WHEEL_INSTANCE(classic_small_32)
CLASSIC_WHEEL_INSTANCE(classic_normal_64_lifo)

}  // namespace kernel
