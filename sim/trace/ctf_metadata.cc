#include "sim/trace/ctf_metadata.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "sim/trace/reader.h"

namespace timersim {

namespace {

constexpr std::uint32_t packet_magic = 0x75d11d57;
constexpr std::size_t packet_header = 37;	// magic, uuid, checksum, sizes, 5 bytes
// Above this the file's size is not taken as the buffer's (it grows as the
// reading finds more instead): a size is not memory to commit up front.
constexpr std::uintmax_t max_metadata_guess = std::uintmax_t{64} << 20;

std::uint32_t u32(const std::string &b, std::size_t at, bool big)
{
	std::uint32_t v = 0;
	for (unsigned i = 0; i < 4; i++)
		v |= std::uint32_t(static_cast<unsigned char>(b[at + (big ? 3 - i : i)]))
		     << (8 * i);
	return v;
}

// Whole packets, back to back: header, content_size bits of content (text
// after the header), padding up to packet_size bits. The text is gathered
// in place, to the front of RAW: it only ever moves down, never past the
// packet being read (a second buffer would be fresh pages to fault in).
void unpack(const std::string &path, std::string &raw, bool big)
{
	std::size_t at = 0, text = 0;
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
		const std::size_t n = content / 8 - packet_header;
		std::memmove(raw.data() + text, raw.data() + at + packet_header, n);
		text += n;
		at += packet / 8;
	}
	raw.resize(text);
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
	// In blocks, not a character at a time (istreambuf_iterator costs
	// some 30 instructions a byte), straight into the text, sized to the
	// file: a block on the stack and a copy would be fresh pages to fault
	// in, of some microseconds each on a VM.
	std::error_code size_unknown;
	const std::uintmax_t size = std::filesystem::file_size(path, size_unknown);
	std::string text(size_unknown || size >= max_metadata_guess ? std::size_t{65536} : std::size_t(size) + 1, '\0');
	std::size_t have = 0;
	for (;;) {
		in.read(text.data() + have, static_cast<std::streamsize>(text.size() - have));
		have += static_cast<std::size_t>(in.gcount());
		if (have < text.size())
			break;		// the end, or an error
		text.resize(text.size() * 2);
	}
	text.resize(have);
	if (in.bad())
		throw input_error(path, 0, "read error");
	if (text.empty())
		throw input_error(path, 0, "empty CTF metadata");
	if (text.size() >= 4 && u32(text, 0, false) == packet_magic)
		unpack(path, text, false);
	else if (text.size() >= 4 && u32(text, 0, true) == packet_magic)
		unpack(path, text, true);
	check_closed(path, text);
	return text;
}

}  // namespace timersim
