// Constructors of the schemes beside `classic` (sim/scheme/classic.h), one
// per file of sim/scheme/. Each reads its own parameters from
// scheme_options::params and throws usage_error for an unknown one.
#pragma once

#include <memory>

#include "sim/scheme/scheme.h"

namespace timersim {

std::unique_ptr<reported_scheme> make_v48_scheme(const scheme_options &opt);		// v48.cc
std::unique_ptr<reported_scheme> make_hashed_scheme(const scheme_options &opt);		// hashed.cc
std::unique_ptr<reported_scheme> make_kafka_scheme(const scheme_options &opt);		// kafka.cc
std::unique_ptr<reported_scheme> make_heap_scheme(const scheme_options &opt);		// heap.cc
std::unique_ptr<reported_scheme> make_heap4_scheme(const scheme_options &opt);		// heap.cc
std::unique_ptr<reported_scheme> make_sorted_list_scheme(const scheme_options &opt);	// lists.cc
std::unique_ptr<reported_scheme> make_list_scheme(const scheme_options &opt);		// lists.cc
std::unique_ptr<reported_scheme> make_wheel_overflow_scheme(const scheme_options &opt);	// wheel_overflow.cc

}  // namespace timersim
