// The release this program is, for --version and for the identity a sweep
// records with each cell's result (sim/sweep/cell_key.h).
#pragma once

#define TIMERSIM_VERSION "0.2.0"
