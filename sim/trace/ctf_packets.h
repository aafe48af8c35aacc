// One stream file of a CTF trace, read packet by packet, event by event.
//
// The file is mapped read-only (a zero page past its end, so that a read
// never leaves the mapping; the pages of packets read are given back, so
// that memory stays flat); each packet's header and context are checked
// before its events are read: the magic number, the trace UUID, a stream
// class the metadata declares and the same one throughout the file, the
// same CPU throughout, sizes that fit in the file (and match the index
// when there is one), headers inside the content. Every event must lie in
// its packet's content, take at least one byte, and keep its clock within
// the packet's [timestamp_begin, timestamp_end]. Event clocks are rebuilt
// the way babeltrace 1.x does: each packet starts at its timestamp_begin,
// and an N-bit timestamp field replaces the low N bits, carrying into the
// high bits when it is smaller than their previous value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/trace/ctf_decode.h"
#include "sim/trace/ctf_streams.h"
#include "sim/trace/ctf_tsdl.h"
#include "sim/trace/lost_events.h"

namespace timersim::ctf {

class packet_reader {
public:
	// Opens DIR/FILE.name and reads its first packet's header and context.
	packet_reader(const trace_model &model, const std::string &dir, const stream_file &file);
	~packet_reader();
	packet_reader(const packet_reader &) = delete;
	packet_reader &operator=(const packet_reader &) = delete;

	const stream_identity &identity() const { return id_; }

	// Reads the next event; false at the end of the file. Throws
	// input_error (file, byte offset) on damaged data.
	bool next();

	// Packets whose events_discarded says the tracer lost events since
	// the stream's previous packet (LTTng counts them per stream, running,
	// in the counter's width), as they are opened; the caller takes them.
	std::vector<lost_packet> lost;

	// The clock its timestamps map to ("" when the metadata names none:
	// 1 GHz from 0) and its offset from the Epoch, in ns, added to them.
	const std::string &clock_name() const { return clock_name_; }
	std::uint64_t clock_offset_ns() const { return offset_ns_; }

	// The event next() read.
	const event_class *event = nullptr;
	std::uint64_t ts_ns = 0;		// the clock's real time
	const std::uint64_t *payload = nullptr;	// event->fields' integers
	// Where each of event->fields begins, in bits from PACKET_BYTES (a
	// string field's bytes, checked to end in a NUL inside the packet's
	// content, are read from there).
	const std::uint64_t *payload_starts = nullptr;
	const std::uint8_t *packet_bytes = nullptr;

private:
	bool open_packet();
	void count_discarded(std::uint64_t v, unsigned bits, std::uint64_t off);
	[[noreturn]] void fail_at(std::uint64_t offset, const std::string &why) const;

	const trace_model &model_;
	std::string path_;
	stream_identity id_;
	const stream_class *class_ = nullptr;
	bool indexed_ = false;
	std::vector<index_entry> index_;	// the file's packets, by its index
	std::uint8_t *map_ = nullptr;
	std::size_t map_bytes_ = 0;
	std::size_t page_ = 4096;
	std::uint64_t released_ = 0;	// bytes of the mapping given back
	std::uint64_t size_ = 0;	// of the file
	std::uint64_t next_packet_ = 0;	// its offset
	std::uint64_t packets_ = 0;	// opened so far
	bit_cursor cur_;
	bool in_packet_ = false;
	std::uint64_t cycles_ = 0;	// the stream's clock
	std::uint64_t ts_begin_ = 0;	// of the packet
	std::uint64_t ts_end_ = 0;
	bool has_ts_end_ = false;
	const clock_class *clock_ = nullptr;
	std::uint64_t offset_ns_ = 0;	// the clock's offset
	std::string clock_name_;
	std::uint64_t discarded_ = 0;	// the stream's events_discarded so far
	std::vector<std::uint64_t> header_, context_, payload_, scratch_, starts_, payload_starts_;
	const type *planned_ = nullptr;	// the event header HEADER_PLAN_ is for
	header_plan header_plan_;
};

}  // namespace timersim::ctf
