#include "sim/trace/ctf_metadata.h"

#include <cstdint>
#include <fstream>

#include "sim/trace/reader.h"

namespace timersim {

namespace {

constexpr std::uint32_t packet_magic = 0x75d11d57;
constexpr std::size_t packet_header = 37;	// magic, uuid, checksum, sizes, 5 bytes

std::uint32_t u32(const std::string &b, std::size_t at, bool big)
{
	std::uint32_t v = 0;
	for (unsigned i = 0; i < 4; i++)
		v |= std::uint32_t(static_cast<unsigned char>(b[at + (big ? 3 - i : i)]))
		     << (8 * i);
	return v;
}

// Whole packets, back to back: header, content_size bits of content (text
// after the header), padding up to packet_size bits.
std::string unpack(const std::string &path, const std::string &raw, bool big)
{
	std::string text;
	text.reserve(raw.size());	// the packets' content is less
	std::size_t at = 0;
	while (at < raw.size()) {
		if (raw.size() - at < packet_header)
			throw input_error::at_offset(path, at, "truncated metadata packet header");
		if (u32(raw, at, big) != packet_magic)
			throw input_error::at_offset(path, at, "bad metadata packet magic");
		std::uint64_t content = u32(raw, at + 24, big);
		std::uint64_t packet = u32(raw, at + 28, big);
		if (content % 8 || packet % 8 || content > packet || content < packet_header * 8)
			throw input_error::at_offset(path, at, "bad metadata packet sizes");
		if (packet / 8 > raw.size() - at)
			throw input_error::at_offset(path, at, "truncated metadata packet: " +
				std::to_string(packet / 8) + " bytes promised, " +
				std::to_string(raw.size() - at) + " left in the file");
		if (raw[at + 32] || raw[at + 33])
			throw input_error::at_offset(path, at, "compressed or encrypted metadata");
		text.append(raw, at + packet_header, content / 8 - packet_header);
		at += packet / 8;
	}
	return text;
}

// Every brace closed, no string or comment left open: a cut shows.
void check_closed(const std::string &path, const std::string &t)
{
	long depth = 0;
	for (std::size_t i = 0; i < t.size(); i++) {
		char c = t[i];
		if (c == '"') {
			for (i++; i < t.size() && t[i] != '"'; i++)
				if (t[i] == '\\')
					i++;
			if (i >= t.size())
				throw input_error(path, 0, "metadata ends inside a string");
		} else if (c == '/' && i + 1 < t.size() && t[i + 1] == '*') {
			std::size_t end = t.find("*/", i + 2);
			if (end == std::string::npos)
				throw input_error(path, 0, "metadata ends inside a comment");
			i = end + 1;
		} else if (c == '/' && i + 1 < t.size() && t[i + 1] == '/') {
			i = t.find('\n', i);
			if (i == std::string::npos)
				break;
		} else if (c == '{') {
			depth++;
		} else if (c == '}' && --depth < 0) {
			throw input_error(path, 0, "metadata closes a brace it never opened");
		}
	}
	if (depth)
		throw input_error(path, 0, "metadata ends with " + std::to_string(depth) +
					   " unclosed brace(s): cut short?");
}

}  // namespace

std::string read_ctf_metadata(const std::string &path)
{
	std::ifstream in(path, std::ios::binary);
	if (!in)
		throw input_error(path, 0, "cannot open the CTF metadata");
	// In blocks, not a character at a time (istreambuf_iterator was a
	// million instructions for the 3.6 recording's 36 KB), and the text
	// copied only when it is packetized.
	std::string raw;
	char block[65536];
	while (in.read(block, sizeof block) || in.gcount())
		raw.append(block, static_cast<std::size_t>(in.gcount()));
	if (in.bad())
		throw input_error(path, 0, "read error");
	if (raw.empty())
		throw input_error(path, 0, "empty CTF metadata");
	std::string text;
	if (raw.size() >= 4 && u32(raw, 0, false) == packet_magic)
		text = unpack(path, raw, false);
	else if (raw.size() >= 4 && u32(raw, 0, true) == packet_magic)
		text = unpack(path, raw, true);
	else
		text = std::move(raw);
	check_closed(path, text);
	return text;
}

}  // namespace timersim
