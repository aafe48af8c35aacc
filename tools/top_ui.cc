#include "tools/top_ui.h"

#include <algorithm>

#include <ncurses.h>

namespace timersim::cli {

top_ui::top_ui()
{
	initscr();
	cbreak();	// ^C still stops top by its signal
	noecho();
	nodelay(stdscr, TRUE);
	keypad(stdscr, TRUE);
	curs_set(0);
}

top_ui::~top_ui()
{
	endwin();
}

void top_ui::show(const std::string &title, const top_figures &window, const top_figures &run)
{
	if (paused_)
		return;
	title_ = title;
	window_ = window;
	run_ = run;
	shown_ = true;
	draw();
}

void top_ui::keys()
{
	bool changed = false;
	for (int ch; (ch = getch()) != ERR;) {
		switch (ch) {
		case 'q':
		case 'Q':
			quit_ = true;
			break;
		case 's':	// the next sort key
			view_.sort = top_sort((int(view_.sort) + 1) % 4);
			changed = true;
			break;
		case 'c':	// all CPUs, then each in turn
			view_.cpu = view_.cpu + 1 >= int(window_.cpus.size()) ? -1 : view_.cpu + 1;
			changed = true;
			break;
		case 'p':
		case ' ':
			paused_ = !paused_;
			changed = true;
			break;
		case KEY_RESIZE:
			changed = true;
			break;
		default:
			break;
		}
	}
	if (changed)
		draw();
}

void top_ui::draw()
{
	int rows, cols;
	getmaxyx(stdscr, rows, cols);
	erase();
	// Callbacks: as many as the rows left (the block above them is about
	// 10 rows, two per CPU shown (and all), one per what-if).
	view_.width = unsigned(cols);
	int fixed = 10 + 2 * (view_.cpu < 0 ? int(window_.cpus.size()) + 1 : 1) + int(window_.what_ifs.size());
	view_.callbacks = unsigned(std::max(1, rows - fixed - 1));
	std::string text = shown_ ? top_text_block(title_, window_, run_, view_) : "timersim top: waiting for the first interval...\n";
	int y = 0;
	std::size_t at = 0;
	while (y < rows - 1 && at < text.size()) {
		std::size_t nl = text.find('\n', at);
		std::string line = text.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
		at = nl == std::string::npos ? text.size() : nl + 1;
		if (y == 0)
			attron(A_REVERSE);
		mvaddnstr(y, 0, line.c_str(), cols);
		if (y == 0) {
			for (int x = int(line.size()); x < cols; x++)
				addch(' ');
			attroff(A_REVERSE);
		}
		y++;
	}
	std::string help = std::string("q quit  s sort: ") + top_sort_name(view_.sort) + "  c CPU: " +
			   (view_.cpu < 0 ? std::string("all") : std::to_string(view_.cpu)) + "  p pause" +
			   (paused_ ? "  [PAUSED]" : "");
	attron(A_BOLD);
	mvaddnstr(rows - 1, 0, help.c_str(), cols);
	attroff(A_BOLD);
	refresh();
}

}  // namespace timersim::cli
