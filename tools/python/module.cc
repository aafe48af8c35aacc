// timersim._core: the C++ half of `import timersim` (tools/python/timersim/
// is the Python half). Two ways in, both the command line's own code:
//
//   run(args, capture)  `timersim ARGS...` in this process (tools/dispatch.cc):
//                       the same parser, the same commands, the same writers,
//                       so a report read from here is the CLI's, byte for byte.
//   Events(args)        the events a replay reads, from the reader the CLI's
//                       options open (open_input), for analyses the tool has not.
//
// The GIL is released while C++ runs. Commands run one at a time (a lock):
// with `capture`, standard output and error are swapped for memory streams
// while a command runs, which is process-wide. Errors come back as values
// (kind, message, file, line, reason) and the Python half raises them, so
// that the exception carries exactly the message the CLI prints after
// "timersim: ".
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "sim/base/errors.h"
#include "sim/output/output_file.h"
#include "sim/sweep/cell_key.h"
#include "sim/trace/reader.h"
#include "tools/commands.h"
#include "tools/trace_options.h"

namespace py = pybind11;
using namespace timersim;

namespace {

std::mutex command_lock;

// What went wrong, as the Python half raises it: kind "usage", "input",
// "output", "memory" or "internal" ("" when nothing did).
struct failure {
	std::string kind, message, file, reason;
	std::uint64_t line = 0;
};

// Runs `f`, turning the errors tools/main.cc turns into exit statuses into
// a failure (the same messages).
template <typename F>
failure catching(F &&f)
{
	failure out;
	try {
		f();
	} catch (const usage_error &e) {
		out = {"usage", e.what(), "", "", 0};
	} catch (const input_error &e) {
		out = {"input", e.what(), e.file(), e.reason(), e.line()};
	} catch (const output_error &e) {
		out = {"output", e.what(), "", "", 0};
	} catch (const std::bad_alloc &) {
		out = {"memory", "out of memory", "", "", 0};
	} catch (const std::exception &e) {
		out = {"internal", std::string("internal error: ") + e.what(), "", "", 0};
	}
	return out;
}

py::tuple failure_tuple(const failure &f)
{
	return py::make_tuple(f.kind, f.message, f.file, f.line, f.reason);
}

// Standard output and error into memory while it lives (glibc's stdout and
// stderr are assignable): what the command prints comes back to Python
// instead of going to a notebook server's terminal.
class captured_output {
public:
	captured_output()
	{
		std::fflush(stdout);
		std::fflush(stderr);
		out_ = open_memstream(&out_buf_, &out_len_);
		err_ = open_memstream(&err_buf_, &err_len_);
		if (!out_ || !err_)
			throw std::bad_alloc();
		saved_out_ = stdout;
		saved_err_ = stderr;
		stdout = out_;
		stderr = err_;
	}
	~captured_output()
	{
		restore();
		std::free(out_buf_);
		std::free(err_buf_);
	}
	captured_output(const captured_output &) = delete;
	captured_output &operator=(const captured_output &) = delete;

	// Puts the real streams back; the texts are then final.
	void restore()
	{
		if (!saved_out_)
			return;
		stdout = saved_out_;
		stderr = saved_err_;
		saved_out_ = saved_err_ = nullptr;
		std::fclose(out_);
		std::fclose(err_);
	}
	std::string out() const { return std::string(out_buf_, out_len_); }
	std::string err() const { return std::string(err_buf_, err_len_); }

private:
	std::FILE *out_ = nullptr, *err_ = nullptr;
	std::FILE *saved_out_ = nullptr, *saved_err_ = nullptr;
	char *out_buf_ = nullptr, *err_buf_ = nullptr;
	std::size_t out_len_ = 0, err_len_ = 0;
};

// `timersim ARGS...`: (status, stdout, stderr, failure). Without capture
// the command prints where the process prints (a sweep's progress).
py::tuple run(const std::vector<std::string> &args, bool capture)
{
	std::vector<std::string> words{"timersim"};
	words.insert(words.end(), args.begin(), args.end());
	std::vector<char *> argv;
	for (std::string &w : words)
		argv.push_back(w.data());
	argv.push_back(nullptr);

	int status = 0;
	std::string out, err;
	failure f;
	{
		py::gil_scoped_release unlocked;
		std::lock_guard<std::mutex> one_at_a_time(command_lock);
		std::unique_ptr<captured_output> cap;
		if (capture)
			cap = std::make_unique<captured_output>();
		f = catching([&] { status = cli::run(static_cast<int>(words.size()), argv.data()); });
		std::fflush(stdout);
		std::fflush(stderr);
		if (cap) {
			cap->restore();
			out = cap->out();
			err = cap->err();
		}
	}
	if (!f.kind.empty())
		status = f.kind == "usage" || f.kind == "input" ? 2 : 1;
	return py::make_tuple(status, py::bytes(out), py::bytes(err), failure_tuple(f));
}

const char *hrtimer_event_name(hrtimer_event h)
{
	switch (h) {
	case hrtimer_event::none:		return "";
	case hrtimer_event::init:		return "init";
	case hrtimer_event::start:		return "start";
	case hrtimer_event::cancel:		return "cancel";
	case hrtimer_event::expire_entry:	return "expire_entry";
	case hrtimer_event::expire_exit:	return "expire_exit";
	case hrtimer_event::rearm:		return "rearm";
	case hrtimer_event::start_expired:	return "start_expired";
	case hrtimer_event::other:		return "other";
	}
	return "other";
}

// One event with its names copied (a reader's views last until its next()).
struct held_event {
	trace_event ev;
	std::string name, function;
};

// The events of a trace in batches: read with the GIL released, handed to
// Python one dict at a time.
class event_iterator {
public:
	explicit event_iterator(const std::vector<std::string> &args)
	{
		py::gil_scoped_release unlocked;
		failure_ = catching([&] { open(args); });
		done_ = !failure_.kind.empty();
	}

	// The next event; at the end, or when reading failed (failure() says
	// what went wrong, which the Python half raises), StopIteration.
	py::object next()
	{
		if (pos_ == batch_.size()) {
			if (done_)
				throw py::stop_iteration();
			{
				py::gil_scoped_release unlocked;
				failure_ = catching([&] { fill(); });
			}
			if (!failure_.kind.empty())
				done_ = true;
			if (pos_ == batch_.size())
				throw py::stop_iteration();
		}
		return to_dict(batch_[pos_++]);
	}

	// (kind, message, file, line, reason) of what failed; None when nothing did.
	py::object failed() const
	{
		if (failure_.kind.empty())
			return py::none();
		return failure_tuple(failure_);
	}

	py::dict stats() const
	{
		py::dict d;
		if (!reader_)
			return d;
		const reader_stats &s = reader_->stats();
		d["lines"] = s.lines;
		d["events"] = s.events;
		d["skipped"] = s.skipped;
		d["malformed"] = s.malformed;
		d["format"] = trace_format_name(reader_->format());
		d["unit"] = reader_->unit();
		d["cpus"] = reader_->declared_cpus();
		return d;
	}

private:
	static constexpr std::size_t batch_size = 4096;

	void open(const std::vector<std::string> &args)
	{
		CLI::App app("timersim events", "timersim");
		CLI::App *sub = app.add_subcommand("events", "the events of a trace");
		cli::add_trace_options(sub, args_);
		std::vector<std::string> words{"timersim", "events"};
		words.insert(words.end(), args.begin(), args.end());
		std::vector<const char *> argv;
		for (const std::string &w : words)
			argv.push_back(w.c_str());
		try {
			app.parse(static_cast<int>(argv.size()), argv.data());
		} catch (const CLI::ParseError &e) {
			throw usage_error(e.what());
		}
		reader_ = cli::open_input(args_);
	}

	void fill()
	{
		batch_.clear();
		pos_ = 0;
		done_ = true;	// unless the batch fills
		held_event h;
		while (batch_.size() < batch_size && reader_->next(h.ev)) {
			// --own-expiries: the events are the trace without its expiries.
			if (h.ev.carries(EF_MEASURE_ONLY))
				continue;
			h.name.assign(h.ev.name);
			h.function.assign(h.ev.function);
			h.ev.name = {};
			h.ev.function = {};
			batch_.push_back(h);
		}
		done_ = batch_.size() < batch_size;
	}

	py::dict to_dict(const held_event &h)
	{
		const trace_event &e = h.ev;
		py::dict d;
		d["kind"] = event_kind_name(e.kind);
		d["name"] = h.name;
		d["cpu"] = e.cpu;
		d["ns"] = e.ts_ns;
		d["line"] = e.line;
		d["timer"] = e.timer;
		d["function"] = h.function;
		switch (e.kind) {
		case event_kind::timer_start:
			d["expires"] = e.expires;
			if (e.carries(EF_TIMEOUT))
				d["timeout"] = e.timeout;
			if (e.carries(EF_TARGET_CPU))
				d["target_cpu"] = e.target_cpu;
			if (e.carries(EF_IDX))
				d["idx"] = e.idx;
			if (e.carries(EF_BUCKET_EXPIRY))
				d["bucket_expiry"] = e.bucket_expiry;
			break;
		case event_kind::timer_expire_entry:
			d["now"] = e.now;
			if (e.carries(EF_BASECLK))
				d["baseclk"] = e.baseclk;
			break;
		case event_kind::timer_base_idle:
			d["is_idle"] = e.is_idle;
			d["target_cpu"] = e.target_cpu;
			break;
		case event_kind::hrtimer:
			d["hrtimer"] = hrtimer_event_name(e.hrtimer);
			if (e.hrtimer == hrtimer_event::start) {
				d["expires"] = e.expires;
				if (e.carries(EF_SOFTEXPIRES))
					d["softexpires"] = e.softexpires;
			} else if (e.hrtimer == hrtimer_event::expire_entry) {
				d["now"] = e.now;
			}
			if (e.carries(EF_CLOCKID))
				d["clockid"] = e.clockid;
			if (e.carries(EF_HRTIMER_MODE))
				d["mode"] = e.hrtimer_mode;
			if (e.carries(EF_WAS_ARMED))
				d["was_armed"] = e.was_armed;
			break;
		case event_kind::softirq_entry:
		case event_kind::softirq_exit:
		case event_kind::softirq_raise:
		case event_kind::irq_entry:
		case event_kind::irq_exit:
			if (e.carries(EF_VEC))
				d[e.carries(EF_IRQ) ? "irq" : "vec"] = e.vec;
			d["timer_interrupt"] = e.timer_interrupt;
			break;
		default:
			break;
		}
		if (e.carries(EF_FLAGS))
			d["flags"] = e.flags;
		if (e.carries(EF_AFTER_LOSS))
			d["after_loss"] = true;
		return d;
	}

	cli::trace_args args_;
	std::unique_ptr<trace_reader> reader_;
	std::vector<held_event> batch_;
	std::size_t pos_ = 0;
	bool done_ = false;
	failure failure_;
};

// This shared object's path: what a sweep cell's key names as the program.
std::string module_path()
{
	Dl_info info{};
	if (dladdr(reinterpret_cast<void *>(&module_path), &info) && info.dli_fname)
		return info.dli_fname;
	return "";
}

}  // namespace

PYBIND11_MODULE(_core, m)
{
	m.doc() = "timersim's C++ half: the command line's code run in-process (see timersim/__init__.py)";
	m.def("run", &run, py::arg("args"), py::arg("capture") = true,
	      "timersim ARGS... in this process: (status, stdout, stderr, (kind, message, file, line, reason))");
	py::class_<event_iterator>(m, "Events")
		.def(py::init<const std::vector<std::string> &>(), py::arg("args"))
		.def("__iter__", [](py::object self) { return self; })
		.def("__next__", &event_iterator::next)
		.def("stats", &event_iterator::stats)
		.def("failure", &event_iterator::failed);
	std::string self = module_path();
	if (!self.empty())
		sweep::set_program_file(self);
}
