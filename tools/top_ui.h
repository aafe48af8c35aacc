// The terminal UI of `timersim top` (ncurses): the block top --batch prints,
// laid out for the terminal's size, and keys to sort, pick a CPU, pause and
// quit. The figures come in whole; this only draws them.
#pragma once

#include <string>

#include "sim/output/top_figures.h"

namespace timersim::cli {

class top_ui {
public:
	top_ui();	// takes the terminal
	~top_ui();	// gives it back
	top_ui(const top_ui &) = delete;
	top_ui &operator=(const top_ui &) = delete;

	// A new interval (not drawn while paused: the figures keep coming).
	void show(const std::string &title, const top_figures &window, const top_figures &run);
	// Reads the keys pressed since the last call, redrawing on a change.
	void keys();
	bool quit_asked() const { return quit_; }

private:
	void draw();
	std::string title_;
	top_figures window_, run_;
	top_block_options view_;
	bool paused_ = false, quit_ = false, shown_ = false;
};

}  // namespace timersim::cli
