// Running a sweep's cells, merging their results, and handing them to
// distributed engines.
//
// Each cell's result is one JSON line in OUT/cells/ID.json, written
// atomically (a temporary file renamed when complete), so a cell is done
// exactly when its file exists and records the key the cell has now
// (cell_key.h: the program, the options, the inputs' bytes): an interrupted
// sweep leaves no partial result and, run again, runs only the cells not
// done or done under another key (stale). `merge` turns the
// lines into one CSV, in cell order, with the same columns for every cell
// (result_columns()); a result holds nothing that varies from run to run,
// so an interrupted and resumed sweep merges to the same bytes as one run
// straight through.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/sweep/cell_key.h"
#include "sim/sweep/spec.h"

namespace timersim::sweep {

// The CSV columns, in order: what the cell is, then what it measured.
const std::vector<std::string> &result_columns();

// Replays one cell and returns its result line (JSON, no newline): the
// result columns, then with a key its "key" and "key_of".
std::string run_cell(const spec &s, const cell &c);
std::string run_cell(const spec &s, const cell &c, const cell_key &k);

enum class cell_state { missing, done, stale };
struct cell_status {
	cell_state state = cell_state::missing;
	std::string why;	// stale: the parts of the key that changed
};
// Whether the cell's result file is there and was made under key `k`. A
// result that is not a readable result line of this cell is stale.
cell_status check_cell(const spec &s, const cell &c, const cell_key &k);
// Runs the cell unless it is done under `k`; writes its result file.
// Returns false when it was done already.
bool run_and_write(const spec &s, const cell &c, const cell_key &k);

struct run_status {
	std::size_t total = 0, done_before = 0, stale = 0, ran = 0, failed = 0;
	std::map<std::string, std::size_t> stale_why;	// reason -> cells
};
// Runs every cell not done (missing or stale), `jobs` at a time (each in its own process);
// a failing cell is reported on stderr and the others go on.
run_status run_sweep(const spec &s, unsigned jobs, bool progress);

// Every cell's result as CSV (a header, then one row per cell in cell
// order). Throws input_error for a result file that is not the cell's (not
// a regular file, past 2 MiB, not JSON, a value nested or past a double), and
// - unless `partial`, which leaves them out - when cells are missing or
// stale, naming them and why.
std::string merge_csv(const spec &s, bool partial);
// The same rows as parsed result lines, in cell order.
std::vector<nlohmann::json> merge_rows(const spec &s, bool partial);

// Replicates: one row per group of results that differ only in their seed
// (the columns before "events" but id, index and seed), in the order of
// each group's first cell: those columns, n, the seeds, then for each
// measured column M: M_mean, M_sd (sample, n - 1), M_ci_lo and M_ci_hi (the
// 95% interval of the mean, Student's t with n - 1 degrees of freedom: the
// right one for a handful of seeds). sd and the interval are empty for
// n = 1, every statistic of a column with no value (no calibration).
// Then for each measured column M with M_lo and M_hi beside it (an
// estimate's interval: the cost model's 95%, or the calibration's range):
// M_combined_lo = mean(M_lo) - h and M_combined_hi = mean(M_hi) + h, h the
// half-width of M's interval over the seeds (0 for n = 1). The same model
// prices every seed, so its error does not shrink with more seeds: the
// combined interval is the model's, widened by the seeds' spread.
// A statistic past a double's range (results edited to 1e308) is no
// number to print: input_error at the replicate of the largest magnitude,
// its file CELLS_DIR/ID.json (the spec's cells_dir()).
std::string summary_csv(const std::vector<nlohmann::json> &rows, const std::string &cells_dir = "cells");
// t such that P(-t < T < t) = 0.95 for Student's T with `df` degrees of
// freedom (df >= 1): a table to 30, the Cornish-Fisher series beyond.
double student_t95(unsigned df);

// A job list for GNU parallel: one `timersim sweep SPEC --cell ID` per
// cell, with absolute paths (`parallel --joblog LOG --resume-failed <
// JOBS`; `--sshloginfile` for many hosts sharing the folder).
std::string emit_parallel(const spec &s, const std::string &timersim);
// A Slurm batch script: a job array 0..N-1, task K runs cell K
// (`timersim sweep SPEC --task $SLURM_ARRAY_TASK_ID`).
// Both quote every path; both throw usage_error for a path holding a
// control character (no quoting carries a newline through a job list),
// emit_slurm too for a results folder with a backslash (Slurm's --output).
std::string emit_slurm(const spec &s, const std::string &timersim);

// mkdir -p; throws output_error.
void make_dirs(const std::string &path);
// Absolute path of a file (it must exist), or of this program.
std::string absolute_path(const std::string &path);
std::string self_path();

}  // namespace timersim::sweep
