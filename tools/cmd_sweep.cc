// timersim sweep SPEC / timersim merge SPEC: a sweep's cells run locally, on
// GNU parallel or on Slurm, and their results merged into CSV (sim/sweep).
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "sim/base/errors.h"
#include "sim/output/csv.h"
#include "sim/output/output_file.h"
#include "sim/sweep/run.h"
#include "tools/commands.h"
#include "tools/numbers.h"

namespace timersim::cli {

namespace {

struct sweep_args {
	std::string spec;
	unsigned jobs = 0;
	std::string cell;
	bool cell_given = false;
	std::string task;
	bool task_given = false;
	std::string emit;
	std::string output = "-";
	bool list = false;
};

int run_sweep_cmd(const sweep_args &a)
{
	sweep::spec s = sweep::load_spec(a.spec);
	int modes = a.cell_given + a.task_given + !a.emit.empty() + a.list;
	if (modes > 1)
		throw usage_error("sweep: --cell, --task, --emit and --list exclude each other");

	// An empty --cell or --task is a job whose id did not reach it (an
	// unset variable): one cell was asked for, never the whole sweep.
	if (a.cell_given || a.task_given) {
		std::string which = a.task_given ? a.task : a.cell;
		if (which.empty())
			throw usage_error(a.task_given ? "--task: empty (is SLURM_ARRAY_TASK_ID set?)"
						       : "--cell: empty (give a cell's id or index)");
		const sweep::cell &c = sweep::find_cell(s, which);
		bool ran = sweep::run_and_write(s, c, sweep::key_maker(s).of(c));
		std::fprintf(stderr, "timersim sweep: cell %zu (%s) %s\n", c.index, c.id.c_str(),
			     ran ? "done" : "already done");
		return 0;
	}
	if (a.emit == "parallel" || a.emit == "slurm") {
		std::string self = sweep::self_path();
		write_output(a.output, a.emit == "parallel" ? sweep::emit_parallel(s, self)
							    : sweep::emit_slurm(s, self));
		return 0;
	}
	if (!a.emit.empty())
		throw usage_error("--emit: 'parallel' or 'slurm', not '" + a.emit + "'");
	if (a.list) {
		std::string out = "index,id,done,cell,key\n";
		sweep::key_maker make_key(s);
		for (const sweep::cell &c : s.cells) {
			sweep::cell_key k = make_key.of(c);
			sweep::cell_status cs = sweep::check_cell(s, c, k);
			out += std::to_string(c.index) + "," + c.id + ",";
			append_csv_field(out, cs.state == sweep::cell_state::done	 ? std::string("yes")
					      : cs.state == sweep::cell_state::missing ? std::string("no")
										 : "stale: " + cs.why);
			out += ',';
			append_csv_field(out, c.key);
			out += ',';
			out += k.digest();
			out += '\n';
		}
		write_output(a.output, out);
		return 0;
	}

	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned jobs = a.jobs ? a.jobs : static_cast<unsigned>(ncpu > 0 ? ncpu : 1);
	sweep::run_status st = sweep::run_sweep(s, jobs, isatty(STDERR_FILENO));
	// Why results on disk were not reused: each reason once, with its count.
	for (const auto &[why, n] : st.stale_why)
		std::printf("sweep %s: %zu stale: %s\n", a.spec.c_str(), n, why.c_str());
	std::printf("sweep %s: %zu cells, %zu done before, %zu stale, %zu run now, %zu failed; results in %s\n",
		    a.spec.c_str(), st.total, st.done_before, st.stale, st.ran, st.failed, s.cells_dir().c_str());
	if (!st.failed)
		std::printf("merge them: timersim merge %s -o results.csv\n", a.spec.c_str());
	if (std::fflush(stdout) != 0)
		throw output_error("stdout: write failed");
	return st.failed ? 2 : 0;
}

struct merge_args {
	std::string spec;
	std::string output = "-";
	bool partial = false;
	bool summary = false;
};

int run_merge(const merge_args &a)
{
	sweep::spec s = sweep::load_spec(a.spec);
	check_output_paths({a.spec}, {{"--output", a.output}});
	write_output(a.output, a.summary ? sweep::summary_csv(sweep::merge_rows(s, a.partial), s.cells_dir())
					 : sweep::merge_csv(s, a.partial));
	return 0;
}

}  // namespace

void add_sweep(CLI::App &app, command_list &commands)
{
	auto a = std::make_shared<sweep_args>();
	CLI::App *sub = app.add_subcommand("sweep", "run every cell of a sweep SPEC (its inputs x schemes x "
						    "parameters x HZ x geometry x CPUs x seeds), resumably");
	sub->add_option("SPEC", a->spec, "the sweep spec (see docs/sweeps.md)")->required()->check(CLI::ExistingFile);
	sub->add_option("--jobs,-j", a->jobs, "cells run at once (default: the CPUs)")
		->type_name("N")
		->check(number_check(a->jobs));
	sub->add_option_function<std::string>(
		   "--cell",
		   [a](const std::string &v) {
			   a->cell = v;
			   a->cell_given = true;
		   },
		   "run only this cell (its id or index): what GNU parallel calls")
		->type_name("ID");
	sub->add_option_function<std::string>(
		   "--task",
		   [a](const std::string &v) {
			   a->task = v;
			   a->task_given = true;
		   },
		   "run only cell number K: what a Slurm array task calls with $SLURM_ARRAY_TASK_ID")
		->type_name("K");
	sub->add_option("--emit", a->emit,
			"write a job list for GNU parallel, or a Slurm job-array script, instead of running")
		->type_name("parallel|slurm")
		->check(non_empty());
	sub->add_option("--output,-o", a->output, "where --emit and --list write ('-': stdout)")
		->type_name("FILE")
		->check(non_empty("path"));
	sub->add_flag("--list", a->list, "list the cells (index, id, done, what) as CSV");
	sub->footer("The SPEC format, every key with an example: docs/sweeps.md, section Sweeps.\n"
		    "examples:\n"
		    "  timersim sweep study.spec -j 8 && timersim merge study.spec -o study.csv\n"
		    "  timersim merge study.spec --summary -o by-seed.csv   # mean, sd, n, 95% interval\n"
		    "  timersim sweep study.spec --emit parallel -o jobs.txt\n"
		    "  parallel --joblog study.log --resume-failed --sshloginfile hosts < jobs.txt\n"
		    "  timersim sweep study.spec --emit slurm -o study.sbatch && sbatch study.sbatch");
	commands.push_back({sub, [a] { return run_sweep_cmd(*a); }});

	auto m = std::make_shared<merge_args>();
	CLI::App *msub = app.add_subcommand("merge", "merge a sweep's cell results into one CSV, in cell order");
	msub->add_option("SPEC", m->spec, "the sweep spec")->required()->check(CLI::ExistingFile);
	msub->add_option("--output,-o", m->output, "the CSV ('-': stdout, the default)")
		->type_name("FILE")
		->check(non_empty("path"));
	msub->add_flag("--partial", m->partial, "merge the cells that have results, leave out the others");
	msub->add_flag("--summary", m->summary,
		       "one row per group of cells differing only in seed: n, and per measure its mean, sd and "
		       "95% interval (Student t)");
	commands.push_back({msub, [m] { return run_merge(*m); }});
}

}  // namespace timersim::cli
