// Private variants: `lab KIND --secret KEY --student ID` draws each
// question from a stream keyed by the instructor's KEY and the student's
// ID, so that students get questions of their own and only the key's
// holder can make (and answer) them. The stream is the first 8 bytes of
// HMAC-SHA256(KEY, "timersim-lab-variant" NUL KIND NUL SEED NUL ID), big
// endian: a keyed hash whose output cannot be told without the key, the
// same on every machine (no std::hash, whose values are the library's own).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace timersim::lab {

std::array<std::uint8_t, 32> sha256(std::string_view data);
std::array<std::uint8_t, 32> hmac_sha256(std::string_view key, std::string_view message);

std::uint64_t variant_stream(const std::string &secret, const std::string &student, const char *kind,
			     std::uint64_t seed);

}  // namespace timersim::lab
