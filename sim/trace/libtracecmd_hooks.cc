#include "sim/trace/libtracecmd_hooks.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <exception>

#include "sim/trace/libtracecmd.h"

namespace timersim {

namespace {

thread_local tracecmd_open_diversion *diversion = nullptr;

// "name: timer_start\nID: 466\nformat:..." -> name, id.
bool format_name_id(const char *buf, unsigned long size, std::string &name, int &id)
{
	std::string_view s(buf, size);
	if (!s.starts_with("name: "))
		return false;
	std::size_t eol = s.find('\n');
	if (eol == std::string_view::npos || !s.substr(eol + 1).starts_with("ID: "))
		return false;
	name = s.substr(6, eol - 6);
	std::string idtext(s.substr(eol + 5, 12));
	char *end;
	long v = std::strtol(idtext.c_str(), &end, 10);
	if (end == idtext.c_str() || v < 0 || v > 0xffff || name.empty())
		return false;
	id = static_cast<int>(v);
	return true;
}

template <typename F> F next_definition(const char *name)
{
	return reinterpret_cast<F>(dlsym(RTLD_NEXT, name));
}

}  // namespace

tracecmd_messages &tracecmd_lib_messages()
{
	static thread_local tracecmd_messages m;
	return m;
}

tracecmd_open_diversion::tracecmd_open_diversion(std::unordered_map<int, std::string> &n,
						 symbol_table &k, const std::string &o)
	: names(n), kallsyms(k), origin(o), outer_(diversion)
{
	diversion = this;
}

tracecmd_open_diversion::~tracecmd_open_diversion()
{
	diversion = outer_;
}

}  // namespace timersim

extern "C" int tep_vprint(const char *name, enum tep_loglevel, bool, const char *fmt, va_list ap)
{
	char buf[512];
	int n = std::vsnprintf(buf, sizeof(buf), fmt, ap);
	std::size_t len = std::strlen(buf);
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = 0;
	auto &m = timersim::tracecmd_lib_messages();
	m.count++;
	m.last = std::string(name ? name : "libtraceevent") + ": " + buf;
	return n;
}

extern "C" enum tep_errno tep_parse_event(struct tep_handle *tep, const char *buf,
					  unsigned long size, const char *sys)
{
	using parse_fn = enum tep_errno (*)(struct tep_handle *, const char *, unsigned long,
					    const char *);
	static const parse_fn real = timersim::next_definition<parse_fn>("tep_parse_event");
	auto *d = timersim::diversion;
	if (d && sys && std::strcmp(sys, "timer") != 0 && std::strcmp(sys, "ftrace") != 0) {
		std::string name;
		int id;
		if (timersim::format_name_id(buf, size, name, id)) {
			d->names[id] = std::move(name);
			return TEP_ERRNO__SUCCESS;
		}
	}
	return real ? real(tep, buf, size, sys) : TEP_ERRNO__MEM_ALLOC_FAILED;
}

extern "C" int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	using parse_fn = int (*)(struct tep_handle *, const char *);
	static const parse_fn real = timersim::next_definition<parse_fn>("tep_parse_kallsyms");
	if (auto *d = timersim::diversion) {
		// No exception may cross the library's C frames.
		try {
			d->kallsyms.load_text(kallsyms ? kallsyms : "", d->origin);
		} catch (const std::exception &e) {
			d->error = e.what();
		}
		return 0;
	}
	return real ? real(tep, kallsyms) : -1;
}

#if defined(__SANITIZE_ADDRESS__)
// libtracecmd sizes buffers from the file; a damaged size field asks malloc
// for petabytes and the library handles the NULL it gets. AddressSanitizer
// would abort there instead, so sanitizer runs let malloc fail as usual.
extern "C" const char *__asan_default_options()
{
	return "allocator_may_return_null=1";
}
#endif
