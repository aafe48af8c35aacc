#include "sim/trace/libtracecmd_load.h"

#include <dlfcn.h>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sim/base/runtime_library.h"

namespace timersim {

namespace {

// The libraries' ABI versions (their sonames), as Debian's libtracecmd1 and
// libtraceevent1 install them.
constexpr const char *libtracecmd_soname = "libtracecmd.so.1";
constexpr const char *libtraceevent_soname = "libtraceevent.so.1";

// The definitions the libraries must reach in the executable
// (libtracecmd_hooks.cc), each with the address it has there.
struct hook {
	const char *name;
	void *ours;
};

void *traceevent_handle = nullptr;	// set once, before libtracecmd() returns

libtracecmd_api load()
{
	void *tracecmd = open_runtime_library(libtracecmd_soname, "trace-cmd's library");
	void *traceevent = open_runtime_library(libtraceevent_soname, "trace-cmd's event parser");
	libtracecmd_api api;
	auto find = [tracecmd](const char *name, auto &f) {
		f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(tracecmd, name));
		if (!f)
			throw std::runtime_error(std::string(libtracecmd_soname) + " has no " + name);
	};
#define TIMERSIM_API_FIND(name) find(#name, api.name);
	TIMERSIM_LIBTRACECMD_FUNCTIONS(TIMERSIM_API_FIND)
#undef TIMERSIM_API_FIND
	// A hook the executable does not export is never called: the library
	// would then print its messages and trust every page header.
	const hook hooks[] = {
		{"tep_vprint", reinterpret_cast<void *>(&tep_vprint)},
		{"tep_parse_event", reinterpret_cast<void *>(&tep_parse_event)},
		{"tep_parse_kallsyms", reinterpret_cast<void *>(&tep_parse_kallsyms)},
		{"kbuffer_load_subbuffer", reinterpret_cast<void *>(&kbuffer_load_subbuffer)},
	};
	for (const hook &h : hooks)
		if (dlsym(RTLD_DEFAULT, h.name) != h.ours)
			throw std::runtime_error(std::string("this binary does not export ") + h.name +
						 " (linked without the Makefile's HOOK_EXPORTS)");
	traceevent_handle = traceevent;
	return api;	// kept loaded: the process may read more files
}

}  // namespace

const libtracecmd_api &libtracecmd()
{
	static const libtracecmd_api api = load();
	return api;
}

void *libtraceevent_symbol(const char *name)
{
	return traceevent_handle ? dlsym(traceevent_handle, name) : nullptr;
}

}  // namespace timersim
