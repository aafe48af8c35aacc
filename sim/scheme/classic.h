// `classic`: the Linux 2.6..4.7 tv1..tv5 cascading wheel of kernel/.
// Parameters: order=fifo|lifo (3.x FIFO slots, 4.2+ LIFO), geometry=
// normal|base_small; scheme_options gives hz, word_bits and base_small.
#pragma once

#include <memory>

#include "sim/scheme/scheme.h"

namespace timersim {

std::unique_ptr<reported_scheme> make_classic_scheme(const scheme_options &opt);

}  // namespace timersim
