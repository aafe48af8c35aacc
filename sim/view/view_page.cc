#include "sim/view/view_page.h"

#include "sim/output/json_string.h"
#include "sim/output/number_text.h"
#include "sim/view/packed_json.h"
#include "sim/report/report_writers.h"

namespace timersim {

namespace {

template <class F>
void bin_series(packed &p, const char *key, const std::vector<overview_bin> &bins, F &&field)
{
	p.key(key).open('[');
	for (const overview_bin &b : bins)
		p.num(field(b));
	p.close(']');
}

void write_timeline(packed &p, const view_overview &ov)
{
	p.key("timeline").open('{');
	p.key("first").num(ov.setup().narrow(ov.first()));
	p.key("width").num(ov.bin_width());
	p.key("seconds").open('[');
	for (double s : ov.bin_seconds())
		p.fixed(s, 6);
	p.close(']');
	p.key("cpus").open('[');
	for (unsigned cpu = 0; cpu < ov.setup().cpus; cpu++) {
		const std::vector<overview_bin> &bins = ov.bins(cpu);
		p.open('{');
		bin_series(p, "ticks", bins, [](const overview_bin &b) { return b.ticks; });
		bin_series(p, "moves", bins, [](const overview_bin &b) { return b.moves; });
		bin_series(p, "max_moves", bins, [](const overview_bin &b) { return b.max_moves; });
		bin_series(p, "expired", bins, [](const overview_bin &b) { return b.expired; });
		bin_series(p, "enqueued", bins, [](const overview_bin &b) { return b.enqueued; });
		bin_series(p, "canceled", bins, [](const overview_bin &b) { return b.canceled; });
		bin_series(p, "cascades", bins, [](const overview_bin &b) { return b.cascades; });
		bin_series(p, "misses", bins, [](const overview_bin &b) { return b.misses; });
		p.key("pending").open('[');
		for (unsigned l = 0; l <= ov.levels(); l++) {
			p.open('[');
			for (const overview_bin &b : bins)
				p.num(l < b.pending.size() ? b.pending[l] : 0);
			p.close(']');
		}
		p.close(']');
		p.close('}');
	}
	p.close(']');
	p.close('}');
}

void write_keyframe(packed &p, const view_window &w)
{
	p.key("keyframe").open('[');
	for (const std::vector<wheel_base_state> &cpu : w.keyframe()) {
		p.open('[');
		for (const wheel_base_state &b : cpu) {
			p.open('{');
			p.key("name").str(b.name);
			p.key("clock").num(b.clock);
			p.key("levels").open('[');
			for (const wheel_level_state &l : b.levels) {
				p.open('{');
				p.key("name").str(l.name);
				p.key("size").num(l.size);
				p.key("width").num(l.width);
				p.key("low").num(l.low);
				p.key("high").num(l.high);
				p.key("slots").open('[');
				for (const wheel_slot_state &s : l.slots) {
					p.open('[').num(s.slot).open('[');
					for (const wheel_timer_state &t : s.timers)
						p.open('[').num(t.id).num(t.expires).num(t.bucket_expiry)
							.num(t.deferrable).close(']');
					p.close(']').close(']');
				}
				p.close(']');
				p.close('}');
			}
			p.close(']');
			p.close('}');
		}
		p.close(']');
	}
	p.close(']');
}

void write_events(packed &p, const view_window &w, const view_overview &ov)
{
	const replay_setup &setup = ov.setup();
	p.key("events").open('[');
	for (const window_event &e : w.events()) {
		p.nl().open('[');
		switch (e.kind) {
		case window_kind::frame:
			p.str("F").num(e.cpu).num(setup.narrow(e.jiffy)).fixed(ov.seconds(e.jiffy), 6).open('[');
			for (std::uint64_t c : e.clocks)
				p.num(c);
			p.close(']');
			break;
		case window_kind::placed:
			p.str("P").num(e.timer).num(e.cpu).num(e.base).num(e.level).num(e.slot)
				.num(e.position).num(setup.narrow(e.jiffy)).num(e.expires)
				.num(e.bucket_expiry).num(e.clock).num(e.rearm);
			break;
		case window_kind::moved:
			p.str("M").num(e.timer).num(e.cpu).num(e.base).num(e.level).num(e.slot)
				.num(e.position).num(setup.narrow(e.jiffy)).num(e.clock);
			break;
		case window_kind::cascaded:
			p.str("C").num(e.cpu).num(e.level).num(e.count).num(setup.narrow(e.jiffy));
			break;
		case window_kind::expired:
			p.str("X").num(e.timer).num(e.cpu).num(setup.narrow(e.jiffy));
			break;
		case window_kind::deleted:
			p.str("D").num(e.timer).num(e.cpu).num(setup.narrow(e.jiffy));
			break;
		case window_kind::miss:
			p.str("Y").num(e.timer).num(e.cpu).num(setup.narrow(e.jiffy)).str(verdict_name(e.v))
				.num(setup.narrow(e.clock));
			break;
		}
		p.close(']');
	}
	p.close(']');
}

void write_window(packed &p, const view_window &w, const view_overview &ov)
{
	const replay_setup &setup = ov.setup();
	p.key("window").open('{');
	p.key("drawable").raw(w.drawable() && w.started_recording() ? "true" : "false");
	p.key("from").num(setup.narrow(w.from()));
	p.key("to").num(setup.narrow(w.to()));
	p.key("from_seconds").fixed(ov.seconds(w.from()), 6);
	p.key("to_seconds").fixed(ov.seconds(w.to()), 6);
	p.key("truncated").raw(w.truncated() ? "true" : "false");
	p.key("names").open('[');
	for (std::size_t i = 0; i < w.names().size(); i++)
		p.str(w.names().name(static_cast<std::uint32_t>(i)));
	p.close(']');
	p.key("timers").open('[');
	for (std::size_t id = 0; id < w.timers().size(); id++) {
		const window_timer &t = w.timers()[id];
		if (!t.shown)
			continue;
		std::string addr;
		append_hex(addr, t.ptr);
		p.open('[').num(id).str(addr).num(t.name).num(setup.narrow(t.placed_at))
			.num(t.placed_clock).num(t.by_cascade).close(']');
	}
	p.close(']');
	write_keyframe(p, w);
	write_events(p, w, ov);
	p.close('}');
}

// Inside <script>, "</script" or "<!--" must not appear: every '<' of the
// JSON (only ever inside strings) becomes \u003c.
std::string script_safe(const std::string &json)
{
	std::string out;
	out.reserve(json.size());
	for (char c : json) {
		if (c == '<')
			out += "\\u003c";
		else
			out += c;
	}
	return out;
}

std::string html_text(std::string_view s)
{
	std::string out;
	for (char c : s) {
		switch (c) {
		case '<': out += "&lt;"; break;
		case '>': out += "&gt;"; break;
		case '&': out += "&amp;"; break;
		case '"': out += "&quot;"; break;
		default: out += c;
		}
	}
	return out;
}

}  // namespace

std::string view_data(const replay_report &report, const view_overview &overview,
		      const view_window &window, const view_hrlane *lane)
{
	const replay_setup &setup = overview.setup();
	std::string out;
	packed p(out);
	p.open('{');
	p.key("trace").str(report.input.path);
	p.key("scheme").str(report.scheme);
	p.key("hz").num(setup.hz);
	p.key("word_bits").num(setup.word_bits);
	p.key("cpus").num(setup.cpus);
	p.key("levels").open('[');
	for (const std::string &l : setup.level_names)
		p.str(l);
	p.close(']');
	const worst_tick &w = overview.worst();
	p.key("worst").open('{');
	p.key("cpu").num(w.cpu);
	p.key("jiffy").num(setup.narrow(w.jiffy));
	p.key("seconds").fixed(overview.seconds(w.jiffy), 6);
	p.key("units").num(w.units);
	p.key("moves").num(w.moves);
	p.key("expired").num(w.expired);
	p.close('}');
	p.nl();
	write_timeline(p, overview);
	p.nl();
	write_window(p, window, overview);
	p.nl();
	if (lane) {
		p.key("hrtimers");
		lane->write(p);
		p.nl();
	}
	p.key("report").raw(json_report(report, false));
	p.close('}');
	return out;
}

std::string view_html(const replay_report &report, const view_overview &overview,
		      const view_window &window, const view_hrlane *lane)
{
	return view_page_html("timersim view: " + report.input.path + " (" + report.scheme + ")",
			      view_data(report, overview, window, lane), lane ? view_hrlane_script : nullptr);
}

std::string view_page_html(const std::string &title, const std::string &data, const char *more_script)
{
	std::string out;
	out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>";
	out += html_text(title);
	out += "</title>\n<style>\n";
	out += view_style;
	out += "</style>\n</head>\n<body>\n<header><h1>";
	out += html_text(title);
	out += "</h1><div id=\"controls\"></div></header>\n"
	       "<main><section id=\"left\"><div id=\"frame-info\"></div><div id=\"numbering\" class=\"note\"></div><div id=\"wheel\"></div>"
	       "<div id=\"changes\"></div><div id=\"timeline\"></div></section>"
	       "<aside id=\"right\"><div id=\"slot-panel\"></div><div id=\"report\"></div></aside></main>\n"
	       "<section id=\"time\"></section>\n"
	       "<noscript>This page draws the wheel with JavaScript.</noscript>\n"
	       "<script type=\"application/json\" id=\"timersim-data\">";
	out += script_safe(data);
	out += "</script>\n<script>\n";
	out += view_script;
	if (more_script) {
		out += "</script>\n<script>\n";
		out += more_script;
	}
	out += "</script>\n</body>\n</html>\n";
	return out;
}

}  // namespace timersim
