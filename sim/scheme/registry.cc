// The scheme registry: names to constructors, in `compare`'s default order.
#include <functional>

#include "sim/base/errors.h"
#include "sim/scheme/classic.h"
#include "sim/scheme/factories.h"
#include "sim/scheme/scheme.h"

namespace timersim {

namespace {
struct scheme_entry {
	const char *name;
	std::function<std::unique_ptr<reported_scheme>(const scheme_options &)> make;
};

const std::vector<scheme_entry> &registry()
{
	static const std::vector<scheme_entry> entries = {
		{"classic", make_classic_scheme},
		{"v48", make_v48_scheme},
		{"hashed", make_hashed_scheme},
		{"kafka", make_kafka_scheme},
		{"heap", make_heap_scheme},
		{"heap4", make_heap4_scheme},
		{"sorted-list", make_sorted_list_scheme},
		{"list", make_list_scheme},
		{"wheel-overflow", make_wheel_overflow_scheme},
	};
	return entries;
}
}  // namespace

std::unique_ptr<reported_scheme> make_scheme(const std::string &name, const scheme_options &opt)
{
	for (const auto &e : registry())
		if (name == e.name)
			return e.make(opt);
	std::string known;
	for (const auto &n : scheme_names())
		known += (known.empty() ? "" : ", ") + n;
	throw usage_error("unknown scheme '" + name + "' (known: " + known + ")");
}

const std::vector<std::string> &scheme_names()
{
	static const std::vector<std::string> names = [] {
		std::vector<std::string> v;
		for (const auto &e : registry())
			v.push_back(e.name);
		return v;
	}();
	return names;
}

}  // namespace timersim
