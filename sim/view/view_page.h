// `timersim view`: one self-contained HTML page (data, script and style
// inline; no network, no server) with the wheel animated over a window,
// the aggregated timeline of the whole replay and the report's tables.
//
// The page's data is one JSON document (view_data()), embedded as
// <script type="application/json" id="timersim-data">:
//
//   trace, scheme, hz, word_bits, cpus, levels: [names]
//   report:   the JSON report (sim/report/report_writers.h)
//   worst:    {cpu, jiffy, seconds, moves, expired}   the tick the view opens at
//   timeline: {first, width, seconds: [per bin], cpus: [{ticks, moves, max_moves,
//              expired, enqueued, canceled, cascades, misses: [per bin],
//              pending: [[all per bin], [level 1 per bin], ...]}]}
//   window:   {drawable, from, to, truncated, names: [callbacks],
//              timers: [[id, "0xaddr", name, placed_at, placed_clock, by_cascade]],
//              keyframe: [per CPU [per base {name, clock, levels: [{name, size,
//                width, low, high, slots: [[slot, [[id, expires, bucket_expiry,
//                deferrable], ...]], ...]}]}]],
//              events: [["F", cpu, jiffy, seconds, [base clocks]],
//                       ["P", id, cpu, base, level, slot, position, jiffy, expires,
//                        bucket_expiry, clock, rearm],
//                       ["M", id, cpu, base, level, slot, position, jiffy, clock],
//                       ["C", cpu, level, count, jiffy], ["X", id, cpu, jiffy],
//                       ["D", id, cpu, jiffy], ["Y", id, cpu, jiffy, verdict, simulated]]}
//   hrtimers: the hrtimer lane of the window (sim/view/view_hrlane.h), on pages
//             of a trace
//
// Levels are 1-based in events, as everywhere else; jiffies as the kernel
// prints them. Same input, same bytes.
#pragma once

#include <string>

#include "sim/replay/replay_report.h"
#include "sim/view/view_hrlane.h"
#include "sim/view/view_overview.h"
#include "sim/view/view_window.h"

namespace timersim {

std::string view_data(const replay_report &report, const view_overview &overview,
		      const view_window &window, const view_hrlane *lane = nullptr);
std::string view_html(const replay_report &report, const view_overview &overview,
		      const view_window &window, const view_hrlane *lane = nullptr);

// The page around a data document (view_data(), or a scenario's:
// sim/view/view_scenario.h), with the script and style inline, and
// `more_script` after the script (a trace's page: the hrtimer lane's).
std::string view_page_html(const std::string &title, const std::string &data,
			   const char *more_script = nullptr);

// The page's script and style (view_script.cc, view_style.cc), and the
// hrtimer lane's script (view_hrlane_script.cc).
extern const char view_script[];
extern const char view_style[];
extern const char view_hrlane_script[];

}  // namespace timersim
