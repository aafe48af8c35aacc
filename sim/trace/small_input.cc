#include "sim/trace/small_input.h"

#include <memory>

#include "sim/trace/line_source.h"
#include "sim/trace/reader.h"

namespace timersim {

namespace {

std::string size_text(std::size_t bytes)
{
	return bytes >= (std::size_t{1} << 20) ? std::to_string(bytes >> 20) + " MiB"
					       : std::to_string(bytes >> 10) + " KiB";
}

// nlohmann::json::parse's own DOM builder, but an error is kept with where
// it was found instead of thrown without it.
class located_parser : public nlohmann::detail::json_sax_dom_parser<nlohmann::json> {
public:
	using json_sax_dom_parser::json_sax_dom_parser;

	template <class Exception>
	bool parse_error(std::size_t position, const std::string &, const Exception &e)
	{
		at = position;
		// Not e.what(): it repeats the whole token, a number of any length.
		why = e.id == 406 ? "a number past the range of a double" : e.what();
		if (why.size() > 240)	// "last read: '...'" may quote a whole line
			why = why.substr(0, 240) + "...";
		return false;
	}
	std::size_t at = 0;
	std::string why;
};

}  // namespace

std::string read_small_text(const std::string &path, std::size_t max_bytes, std::size_t max_line,
			    const char *what)
{
	std::unique_ptr<line_source> in = line_source::open_file(path, max_line + 1, what);
	std::string text;
	std::string_view line;
	while (in->next(line)) {
		if (in->overlong() || line.size() > max_line)
			throw input_error(path, in->line_no(),
					  "a line longer than " + size_text(max_line) + ": not a " + what);
		if (in->bytes() > max_bytes)
			throw input_error(path, in->line_no(),
					  "goes on past " + size_text(max_bytes) + ": not a " + what);
		text.append(line);
		text += '\n';
	}
	return text;
}

nlohmann::json parse_json_input(std::string_view text, const std::string &name)
{
	nlohmann::json j;
	located_parser sax(j, false);
	if (!nlohmann::json::sax_parse(text, &sax) || !sax.why.empty())
		throw input_error::at_offset(name, sax.at, "not JSON: " + sax.why);
	return j;
}

}  // namespace timersim
