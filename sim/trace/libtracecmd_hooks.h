// Hooks into libtraceevent and libtracecmd, through symbols they look up
// at run time: the executable exports these definitions (the Makefile's
// HOOK_EXPORTS), and they win over the libraries' own, which the hooks
// reach through libtraceevent_symbol() (libtracecmd_load.h).
//
// 1. tep_vprint, libtraceevent's documented override point: the libraries'
//    warnings and errors are kept for our input_errors instead of printed.
// 2. tep_parse_event and tep_parse_kallsyms, while a diversion is alive on
//    the calling thread: opening a trace.dat parses every event format of
//    the recording kernel (1,500+) and its whole kallsyms with sscanf, 80%
//    of a 120 ms open for a 1.4 MB file. We read fields of the "timer"
//    events alone, so only those (and "ftrace", which defines the common
//    fields) are parsed; other events are reduced to their name and id, and
//    the kallsyms text goes into our own symbol_table. Outside a diversion,
//    both calls go to the libraries unchanged.
// 3. kbuffer_load_subbuffer, while a page check is alive on the calling
//    thread: libtraceevent trusts the data size in a ring-buffer page's
//    header and walks past the page when it is garbage (a damaged
//    compressed page crashed it); libtracecmd checks the size only after
//    the walk. A page whose header claims more than a page holds is
//    replaced by a harmless one that fails that check, so libtracecmd
//    reports "bad page read" and the reader throws.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "sim/trace/symbols.h"

namespace timersim {

struct tracecmd_messages {
	std::uint64_t count = 0;	// messages so far (this thread)
	std::string last;		// "libtracecmd: ..."
};
tracecmd_messages &tracecmd_lib_messages();

class tracecmd_open_diversion {
public:
	tracecmd_open_diversion(std::unordered_map<int, std::string> &names, symbol_table &kallsyms,
				const std::string &origin);
	~tracecmd_open_diversion();
	tracecmd_open_diversion(const tracecmd_open_diversion &) = delete;
	tracecmd_open_diversion &operator=(const tracecmd_open_diversion &) = delete;

	std::unordered_map<int, std::string> &names;	// id -> name, formats left unparsed
	symbol_table &kallsyms;				// from the file's kallsyms
	std::string origin;				// names the file in errors
	std::string error;				// why the kallsyms did not load

private:
	tracecmd_open_diversion *outer_;
};

class tracecmd_page_check {
public:
	// PAGE_SIZE: the ring buffer's sub-buffer size; COMMIT_SIZE: the
	// size of the page header's commit word (the recording kernel's long).
	tracecmd_page_check(unsigned page_size, unsigned commit_size, bool big_endian);
	~tracecmd_page_check();
	tracecmd_page_check(const tracecmd_page_check &) = delete;
	tracecmd_page_check &operator=(const tracecmd_page_check &) = delete;

	// Installs the check on this thread while alive (calls into the
	// library are wrapped in one).
	class active {
	public:
		explicit active(tracecmd_page_check &c);
		~active();
		active(const active &) = delete;
		active &operator=(const active &) = delete;

	private:
		tracecmd_page_check *outer_;
	};

	const unsigned page_size, commit_size;
	const bool big_endian;
	std::uint64_t bad_pages = 0;
	void *poison();		// the replacement page

private:
	std::string poison_;
};

}  // namespace timersim
