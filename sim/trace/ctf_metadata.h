// The metadata file of a CTF trace, checked before libbabeltrace parses it.
//
// libbabeltrace 1.x loops forever on a metadata file cut inside a packet,
// so its structure is checked here first: packetised metadata (LTTng's
// binary framing, magic 0x75D11D57) must be whole packets that fill the
// file exactly, and the TSDL text, packetised or plain, must close every
// brace, string and comment it opens.
#pragma once

#include <string>

namespace timersim {

// The metadata's TSDL text. Throws input_error (with the byte offset for a
// bad packet) when the file is damaged or cut short.
std::string read_ctf_metadata(const std::string &path);

}  // namespace timersim
