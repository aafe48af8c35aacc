#include "sim/trace/libtracecmd_hooks.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "sim/trace/libtracecmd.h"
#include "sim/trace/libtracecmd_load.h"

namespace timersim {

namespace {

thread_local tracecmd_open_diversion *diversion = nullptr;
thread_local tracecmd_page_check *page_check = nullptr;

constexpr std::uint64_t commit_mask = (1u << 27) - 1;	// kbuffer's COMMIT_MASK
constexpr std::uint64_t missing_stored = 1u << 30;	// lost-event count after the data
constexpr unsigned page_timestamp = 8;			// bytes before the commit word

std::uint64_t read_number(const unsigned char *p, unsigned n, bool big_endian)
{
	std::uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= std::uint64_t(p[big_endian ? n - 1 - i : i]) << (8 * i);
	return v;
}

// Does the page header promise no more than the page holds?
bool page_header_sane(const tracecmd_page_check &c, const void *page)
{
	const unsigned header = page_timestamp + c.commit_size;
	const auto *bytes = static_cast<const unsigned char *>(page);
	std::uint64_t commit = read_number(bytes + page_timestamp, c.commit_size, c.big_endian);
	std::uint64_t room = c.page_size > header ? c.page_size - header : 0;
	if (commit & missing_stored)
		room = room > c.commit_size ? room - c.commit_size : 0;
	return (commit & commit_mask) <= room;
}

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

// libtraceevent's own NAME, which the hook stands in for. The library is
// loaded at run time (libtracecmd_load.h), past the reach of RTLD_NEXT.
template <typename F> F next_definition(const char *name)
{
	return reinterpret_cast<F>(libtraceevent_symbol(name));
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

tracecmd_page_check::tracecmd_page_check(unsigned ps, unsigned cs, bool be)
	: page_size(ps), commit_size(cs == 4 ? 4 : 8), big_endian(be)
{
}

tracecmd_page_check::~tracecmd_page_check() = default;

// All zeros but a data size one past the page: libtraceevent walks it
// without leaving the buffer, libtracecmd then finds the size too big.
void *tracecmd_page_check::poison()
{
	if (poison_.empty()) {
		poison_.assign(2 * std::size_t(page_size) + 64, '\0');
		std::uint64_t size = std::uint64_t(page_size) + 1;
		for (unsigned i = 0; i < commit_size; i++)
			poison_[page_timestamp + (big_endian ? commit_size - 1 - i : i)] =
				static_cast<char>(size >> (8 * i));
	}
	return poison_.data();
}

tracecmd_page_check::active::active(tracecmd_page_check &c) : outer_(page_check)
{
	page_check = &c;
}

tracecmd_page_check::active::~active()
{
	page_check = outer_;
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
	if (d && sys && std::strcmp(sys, "timer") != 0 && std::strcmp(sys, "ftrace") != 0 &&
	    std::strcmp(sys, "irq") != 0 && std::strcmp(sys, "irq_vectors") != 0) {
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

extern "C" int kbuffer_load_subbuffer(struct kbuffer *kbuf, void *subbuffer)
{
	using load_fn = int (*)(struct kbuffer *, void *);
	static const load_fn real = timersim::next_definition<load_fn>("kbuffer_load_subbuffer");
	if (!real)
		return -1;
	auto *c = timersim::page_check;
	if (c && subbuffer && !timersim::page_header_sane(*c, subbuffer)) {
		c->bad_pages++;
		return real(kbuf, c->poison());
	}
	return real(kbuf, subbuffer);
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
