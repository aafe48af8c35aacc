#include "sim/sweep/cell_key.h"

#include "sim/base/version.h"
#include "sim/sweep/digest.h"
#include "sim/sweep/run.h"

namespace timersim::sweep {

std::string cell_key::digest() const
{
	// Length-prefixed, so that no two different sets of parts join to
	// the same text.
	std::string text;
	for (const auto &[name, part] : {std::pair<const char *, const std::string &>{"program", program},
					 {"options", options},
					 {"trace", trace},
					 {"calibration", calibration}})
		text += std::string(name) + ":" + std::to_string(part.size()) + ":" + part + "\n";
	if (!cost_model.empty())
		text += "cost_model:" + std::to_string(cost_model.size()) + ":" + cost_model + "\n";
	return sha256_hex(text);
}

void cell_key::record(json_writer &w) const
{
	w.field("key", digest());
	w.key("key_of");
	w.begin_object();
	w.field("program", program);
	w.field("options", options);
	w.field("trace", trace);
	w.field("calibration", calibration);
	if (!cost_model.empty())
		w.field("cost_model", cost_model);
	w.end_object();
}

namespace {
std::string &program_file()
{
	static std::string path;
	return path;
}
}  // namespace

void set_program_file(const std::string &path)
{
	program_file() = path;
}

const std::string &program_identity()
{
	static const std::string id =
		program_file().empty()
			? "timersim " TIMERSIM_VERSION " exe-sha256:" + sha256_file("/proc/self/exe")
			: "timersim " TIMERSIM_VERSION " module-sha256:" + sha256_file(program_file());
	return id;
}

const std::string &key_maker::file_hash(const std::string &path)
{
	auto it = hashes_.find(path);
	if (it == hashes_.end())
		it = hashes_.emplace(path, sha256_input(path)).first;
	return it->second;
}

cell_key key_maker::of(const cell &c)
{
	cell_key k;
	k.program = program_identity();
	k.options = c.key;
	if (!c.generated)
		k.trace = file_hash(spec_.resolve(c.input));
	if (!spec_.calibration.empty())
		k.calibration = file_hash(spec_.calibration);
	if (!spec_.cost_model.empty())
		k.cost_model = file_hash(spec_.cost_model);
	return k;
}

std::string stale_reason(const cell_key &want, const nlohmann::json &recorded)
{
	if (!recorded.is_object() || !recorded.contains("key") || !recorded["key"].is_string())
		return "no key recorded (an older timersim)";
	if (recorded["key"].get<std::string>() == want.digest())
		return "";
	const nlohmann::json *of = recorded.contains("key_of") ? &recorded["key_of"] : nullptr;
	auto differs = [&](const char *part, const std::string &now) {
		return !of || !of->is_object() || !of->contains(part) || !(*of)[part].is_string() ||
		       (*of)[part].get<std::string>() != now;
	};
	std::string why;
	auto add = [&](const char *what) { why += (why.empty() ? "" : ", ") + std::string(what); };
	if (differs("program", want.program))
		add("the program changed");
	if (differs("options", want.options))
		add("the options changed");
	if (differs("trace", want.trace))
		add("the trace changed");
	if (differs("calibration", want.calibration))
		add("the calibration changed");
	bool had_model = of && of->is_object() && of->contains("cost_model");
	if ((had_model || !want.cost_model.empty()) && (!had_model || differs("cost_model", want.cost_model)))
		add("the cost model changed");
	return why.empty() ? "the key differs" : why;
}

}  // namespace timersim::sweep
