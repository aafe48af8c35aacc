// The three renderings of a replay: the human report, the JSON report (the
// keys of ../shared/docs/replay-contract.md and more), and `compare`'s table.
#pragma once

#include <string>
#include <vector>

#include "sim/replay/replay_report.h"
#include "sim/base/json_writer.h"

namespace timersim {

struct text_report_options {
	unsigned top_functions = 10;
	bool timing = false;	// wall time: off by default, it is not reproducible
};

std::string text_report(const replay_report &r, const text_report_options &opt);
// The text report's head without its title: input, losses, machine,
// kernel, scheme and ticks.
std::string text_input_rows(const replay_report &r);

// One report as a JSON object, into an open writer (so that `compare` can
// nest several); json_report() is the whole document for one replay.
void write_json_report(json_writer &w, const replay_report &r, bool timing);
std::string json_report(const replay_report &r, bool timing);
std::string json_compare(const std::vector<replay_report> &reports, bool timing);
// compare's "schemes" key and array, into an open object (for documents
// that add keys beside it, such as compare --estimate's).
void write_json_schemes(json_writer &w, const std::vector<replay_report> &reports, bool timing);

// The `measured` section (the recording machine's own figures for the timer
// code: softirq runs, timer interrupts, callbacks), text and JSON.
std::string text_measured_section(const measured::cost_report &m, unsigned top);
void write_json_measured(json_writer &w, const measured::cost_report &m);
// The `modelled` section: the model's prediction for the scheme (which
// model, its interval and how it was got, the cross-validation and the
// verdict), beside the measured figure; "" / no key without a model.
std::string text_modelled_section(const replay_report &r);
void write_json_modelled(json_writer &w, const replay_report &r);
// The `time` section: the timer code's time per callback and per CPU, ns,
// measured and modelled cells (sim/replay/time_table.h); TOP rows of it.
// compare: OF_SCHEME names the scheme in its heading, and CPUS says
// whether the per-CPU table (measured: every scheme's the same) follows.
std::string text_time_section(const replay_report &r, unsigned top, bool of_scheme = false, bool cpus = true);
void write_json_time(json_writer &w, const replay_report &r);
// The `hrtimers` section: the hrtimer replay (sim/hrtimer/hr_replay.h);
// "" / null when the trace has no hrtimer events.
std::string text_hrtimer_section(const hrtimer_summary &h, unsigned top);
void write_json_hrtimers(json_writer &w, const hrtimer_summary &h);
// Its what-ifs and queue designs, when asked for; "" / no keys otherwise.
std::string text_hrtimer_what_ifs(const hrtimer_summary &h);
void write_json_hrtimer_what_ifs(json_writer &w, const hrtimer_summary &h);
// compare: per scheme the modelled softirq overhead, and the verdict.
std::string modelled_table(const std::vector<replay_report> &reports);

std::string compare_table(const std::vector<replay_report> &reports, bool timing);

}  // namespace timersim
