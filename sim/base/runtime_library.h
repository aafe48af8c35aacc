// A system library opened when first needed (dlopen), not linked: a linked
// library is loaded and relocated by every run of the binary, and a few of
// ours serve one command or one kind of file (libcrypto: sweeps;
// libtracecmd: the trace.dat files our own reader leaves to it).
#pragma once

#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace timersim {

// SONAME opened with its symbols bound now and kept to itself, or a
// std::runtime_error: "cannot load SONAME (WHAT; scripts/setup.sh installs
// it): the loader's reason". The handle is never closed: the process may
// need the library again.
inline void *open_runtime_library(const char *soname, const char *what)
{
	void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *why = dlerror();
		throw std::runtime_error(std::string("cannot load ") + soname + " (" + what +
					 "; scripts/setup.sh installs it)" +
					 (why ? std::string(": ") + why : std::string()));
	}
	return lib;
}

}  // namespace timersim
