// Errors the command line turns into exit status 2.
#pragma once

#include <stdexcept>
#include <string>

namespace timersim {

// A bad option, scheme name or parameter: the user's words are off.
class usage_error : public std::runtime_error {
public:
	explicit usage_error(const std::string &msg) : std::runtime_error(msg) {}
};

}  // namespace timersim
