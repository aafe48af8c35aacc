#!/usr/bin/env bash
# Installs the Debian packages timersim needs, when any is missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
# One list for everything `make run`, `make test`, `make bench` and
# `make fuzz` use, so a fresh machine is complete after one call.
# --lab: only what `make lab` needs (a compiler, make, and the headers and
# libraries of the lab's sources) -- no trace-cmd, babeltrace, clang or
# chromium.
set -euo pipefail

PACKAGES=(
  g++ make pkg-config           # the build
  check                         # unit and conformance tests
  libbenchmark-dev              # make bench
  zlib1g-dev                    # gzip-compressed traces
  libcli11-dev libfmt-dev       # the command line and the text report
  libzstd-dev                   # trace.dat v7 sections and CPU data (zstd)
  # trace-cmd trace.dat reader; libtracecmd.pc requires libtracefs, which
  # the Debian -dev package does not pull in
  libtracecmd-dev libtraceevent-dev libtracefs-dev
  libncurses-dev tmux           # timersim top's terminal UI, and its tests (tmux)
  # LTTng CTF reader (babeltrace 1.x); babeltrace-ctf.pc requires uuid, popt
  libbabeltrace-dev uuid-dev libpopt-dev
  clang libclang-rt-dev         # make fuzz (libFuzzer)
  trace-cmd                     # make bench: trace-cmd report as the yardstick
  babeltrace                    # make bench: babeltrace (1.x) printing a CTF trace, likewise
  chromium                      # make test: the view page in a headless browser
  # timersim plot, plots of sweeps, make calibrate; tests check JSON with python3
  python3 python3-matplotlib
  nlohmann-json3-dev            # sweep results and calibration files (JSON)
  libssl-dev                    # SHA-256 (libcrypto) of the program and inputs in sweep cell keys
  parallel                      # sweeps on GNU parallel (tested)
  # make test-engines: a real single-node Slurm, and parallel over ssh to
  # this machine (daemons started from a temporary folder, never as services)
  munge slurmctld slurmd slurm-client openssh-server openssh-client
  # make python: `import timersim` (pybind11, Debian python3's headers)
  pybind11-dev python3-pybind11 python3-dev
  # docs/timersim-pandas.ipynb, executed by make test
  python3-pandas jupyter-nbconvert python3-nbformat python3-ipykernel jupyter-client
  groff-base man-db             # make install's man page, rendered by the tests
)

# The pkg-config modules the Makefile asks for: checked after installing, so
# that a broken set-up stops here with pkg-config's own words instead of as
# link errors.
PC_MODULES="zlib libzstd libtracecmd libtraceevent babeltrace babeltrace-ctf fmt libcrypto check benchmark"

# --web: only what `make web` needs: Debian's emscripten (its clang, lld
# and binaryen; the page's C++ libraries are header-only or the lab's own)
# and nodejs, which emscripten and `make check-web` run.
if [ "${1:-}" = --web ]; then
  PACKAGES=(make emscripten nodejs node-acorn)
  PC_MODULES=""
fi

if [ "${1:-}" = --lab ]; then
  PACKAGES=(
    g++ make pkg-config
    libcli11-dev libfmt-dev       # the command line and the text report
    zlib1g-dev                    # gzip-compressed traces
    nlohmann-json3-dev            # JSON of small inputs, model and calibration files
  )
  PC_MODULES="zlib fmt"           # the Makefile's LAB_PKGS
fi

verify() {
  [ -z "$PC_MODULES" ] && return 0
  pkg-config --exists $PC_MODULES && return 0
  echo "timersim: pkg-config cannot resolve the libraries:" >&2
  pkg-config --print-errors --exists $PC_MODULES >&2 || true
  return 1
}

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then verify; exit $?; fi

cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "timersim: missing Debian packages: ${missing[*]}" >&2
  echo "timersim: run as root:  apt-get update && $cmd" >&2
  exit 1
fi
echo "timersim: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$cmd -qq >/dev/null
verify
