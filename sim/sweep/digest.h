// SHA-256 (OpenSSL's libcrypto) of bytes and of files: what a sweep cell's
// key is made of, so that a result is reused only for the same program,
// inputs and options (sim/sweep/cell_key.h).
#pragma once

#include <string>

namespace timersim::sweep {

// 64 lowercase hex digits.
std::string sha256_hex(const std::string &bytes);
// Of a file's bytes, read in blocks (a trace may be gigabytes). Throws
// input_error naming the file when it cannot be read.
std::string sha256_file(const std::string &path);
// A sweep's input: a file's sha256_file, or for a folder (a CTF trace) the
// SHA-256 of its regular files' relative paths and hashes, in path order,
// subfolders included.
std::string sha256_input(const std::string &path);

}  // namespace timersim::sweep
