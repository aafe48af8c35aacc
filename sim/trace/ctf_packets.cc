#include "sim/trace/ctf_packets.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/trace/reader.h"

namespace timersim::ctf {

namespace {

constexpr std::uint64_t packet_magic = 0xc1fc1fc1;
constexpr std::uint64_t ns_per_s = 1000000000;

// babeltrace 1.x's conversion: exact at 1 GHz, through a double otherwise.
std::uint64_t cycles_to_ns(const clock_class &c, std::uint64_t cycles)
{
	if (c.freq == ns_per_s)
		return cycles;
	return static_cast<std::uint64_t>(static_cast<double>(cycles) * 1e9 /
					  static_cast<double>(c.freq));
}

// The clock the event header's timestamp maps to ("" when none does).
std::string header_clock(const type *t, unsigned depth = 0)
{
	if (!t || depth > 8)
		return "";
	for (const field &f : t->fields) {
		if (f.role == field_role::timestamp && !f.t->clock.empty())
			return f.t->clock;
		if (f.t->kind == type_kind::structure || f.t->kind == type_kind::variant) {
			std::string c = header_clock(f.t.get(), depth + 1);
			if (!c.empty())
				return c;
		}
	}
	return "";
}

std::size_t widest(const type_ptr &t)
{
	return t ? t->fields.size() : 0;
}

// The 16 bytes of "f8aa50a2-6732-ba4e-be0d-a9eaa4b5c1d2"; empty if malformed.
std::string uuid_bytes(const std::string &text)
{
	std::string out;
	int hi = -1;
	for (char ch : text) {
		int v = ch >= '0' && ch <= '9'	 ? ch - '0'
			: ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
			: ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
						 : -1;
		if (v < 0)
			continue;
		if (hi < 0) {
			hi = v;
		} else {
			out += static_cast<char>(hi << 4 | v);
			hi = -1;
		}
	}
	return out.size() == 16 ? out : std::string();
}

}  // namespace

packet_reader::packet_reader(const trace_model &model, const std::string &dir,
			     const stream_file &file)
	: model_(model), path_(dir + "/" + file.name)
{
	id_.name = file.name;
	indexed_ = file.indexed;
	index_ = file.index;
	int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		int err = errno;
		if (fd >= 0)
			::close(fd);
		throw input_error(path_, 0, std::string("cannot open: ") + std::strerror(err));
	}
	size_ = st.st_size;
	// The file, then zero pages: reads a few bytes past the content (the
	// decoder loads 8 bytes at a time) never fault.
	const std::size_t page = page_ = sysconf(_SC_PAGESIZE);
	map_bytes_ = (size_ + page - 1) / page * page + page;
	void *area = mmap(nullptr, map_bytes_, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *data = area == MAP_FAILED || !size_
			     ? area
			     : mmap(area, size_, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0);
	int err = errno;
	::close(fd);
	if (area == MAP_FAILED || data == MAP_FAILED) {
		if (area != MAP_FAILED)
			munmap(area, map_bytes_);
		throw input_error(path_, 0, std::string("cannot map: ") + std::strerror(err));
	}
	map_ = static_cast<std::uint8_t *>(area);
	madvise(map_, map_bytes_, MADV_SEQUENTIAL);

	std::size_t n = widest(model.packet_header);
	for (const auto &[id, sc] : model.streams) {
		n = std::max({n, widest(sc.packet_context), widest(sc.event_header),
			      widest(sc.event_context)});
		for (const auto &[eid, ev] : sc.events)
			n = std::max({n, widest(ev.context), widest(ev.fields)});
	}
	header_.assign(n, 0);
	context_.assign(n, 0);
	payload_.assign(n, 0);
	scratch_.assign(n, 0);
	starts_.assign(n, 0);
	payload_starts_.assign(n, 0);
	cur_.file = &path_;

	try {
		open_packet();
	} catch (...) {
		munmap(map_, map_bytes_);
		throw;
	}
	std::string name = header_clock(class_->event_header.get());
	auto c = name.empty() && model.clocks.size() == 1 ? model.clocks.begin()
							  : model.clocks.find(name);
	static const clock_class nominal;	// 1 GHz, no offset
	clock_ = c == model.clocks.end() ? &nominal : &c->second;
	if (c != model.clocks.end())
		clock_name_ = c->first;
	offset_ns_ = static_cast<std::uint64_t>(clock_->offset_s) * ns_per_s +
		     cycles_to_ns(*clock_, clock_->offset);
}

packet_reader::~packet_reader()
{
	munmap(map_, map_bytes_);
}

void packet_reader::fail_at(std::uint64_t offset, const std::string &why) const
{
	throw input_error::at_offset(path_, offset, why);
}

// events_discarded is the stream's running count, in a field that may be
// 32 bits wide: the packet's share is the difference from the previous
// packet's, modulo that width (as babeltrace reports it).
void packet_reader::count_discarded(std::uint64_t v, unsigned bits, std::uint64_t off)
{
	const std::uint64_t mask = bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
	const std::uint64_t n = (v - discarded_) & mask;
	discarded_ = v;
	if (n)
		lost.push_back({id_.name, packets_, off, n});
}

// The next packet with events: header and context read and checked, the
// cursor at its first event. False at the end of the file.
bool packet_reader::open_packet()
{
	while (next_packet_ < size_) {
		const std::uint64_t off = next_packet_;
		// The packets before are read: their pages go back, so that
		// memory stays flat on a stream larger than memory.
		const std::uint64_t done = off / page_ * page_;
		if (done > released_) {
			madvise(map_ + released_, done - released_, MADV_DONTNEED);
			released_ = done;
		}
		cur_.base = map_ + off;
		cur_.file_offset = off;
		cur_.pos = 0;
		cur_.end = (size_ - off) * 8;

		std::uint64_t stream_id = 0;
		if (const type *ph = model_.packet_header.get()) {
			read_struct(*ph, cur_, header_.data(), starts_.data());
			for (std::size_t i = 0; i < ph->fields.size(); i++) {
				std::string_view name = display_name(ph->fields[i].name);
				const type &ft = *ph->fields[i].t;
				std::uint64_t at = off + starts_[i] / 8;
				if (name == "magic" && header_[i] != packet_magic)
					fail_at(at, "bad packet magic: not a CTF stream, or damaged");
				if (name == "stream_id")
					stream_id = header_[i];
				if (name == "uuid" && ft.kind == type_kind::array && ft.length == 16 &&
				    ft.element->size == 8 && starts_[i] % 8 == 0) {
					std::string want = uuid_bytes(model_.uuid);
					if (!want.empty() && std::memcmp(map_ + at, want.data(), 16) != 0)
						fail_at(at, "packet of another trace (its UUID is not the "
							    "metadata's), or damaged");
				}
			}
		}
		auto sc = model_.streams.find(stream_id);
		if (sc == model_.streams.end())
			fail_at(off, "packet of stream class " + std::to_string(stream_id) +
					     ", which the metadata does not declare: damaged?");
		if (!packets_) {
			class_ = &sc->second;
			id_.stream_id = stream_id;
		} else if (class_ != &sc->second) {
			fail_at(off, "packet of stream class " + std::to_string(stream_id) +
					     " in a stream of class " + std::to_string(id_.stream_id) +
					     ": damaged?");
		}

		std::uint64_t packet_bits = (size_ - off) * 8, content_bits = packet_bits;
		std::uint64_t begin = 0, end = 0, cpu = 0;
		bool has_end = false, has_cpu = false, has_content = false;
		if (const type *pc = class_->packet_context.get()) {
			read_struct(*pc, cur_, context_.data());
			for (std::size_t i = 0; i < pc->fields.size(); i++) {
				std::string_view name = display_name(pc->fields[i].name);
				std::uint64_t v = context_[i];
				if (name == "packet_size")
					packet_bits = v;
				else if (name == "content_size") {
					content_bits = v;
					has_content = true;
				}
				else if (name == "timestamp_begin")
					begin = v;
				else if (name == "timestamp_end") {
					end = v;
					has_end = v != 0;	// 0: not closed (live, crash)
				} else if (name == "cpu_id") {
					cpu = v;
					has_cpu = true;
				} else if (name == "events_discarded") {
					count_discarded(v, pc->fields[i].t->size, off);
				}
			}
			if (!has_content)
				content_bits = packet_bits;
		}
		if (!packet_bits || packet_bits % 8)
			fail_at(off, "bad packet size of " + std::to_string(packet_bits) + " bits");
		if (packet_bits / 8 > size_ - off)
			fail_at(off, "truncated: a packet of " + std::to_string(packet_bits / 8) +
					     " bytes at offset " + std::to_string(off) +
					     ", the file ends at " + std::to_string(size_));
		if (content_bits > packet_bits)
			fail_at(off, "packet content of " + std::to_string(content_bits) +
					     " bits is larger than the packet (" +
					     std::to_string(packet_bits) + " bits): damaged");
		if (cur_.pos > content_bits)
			fail_at(off, "packet header and context run past the packet's content");
		if (has_end && begin > end)
			fail_at(off, "packet ends (" + std::to_string(end) + ") before it begins (" +
					     std::to_string(begin) + "): damaged");
		if (indexed_) {
			if (packets_ >= index_.size())
				fail_at(off, "more packets than index/" + id_.name + ".idx lists (" +
						     std::to_string(index_.size()) + ")");
			const index_entry &e = index_[packets_];
			if (e.offset != off || e.packet_bits != packet_bits ||
			    e.content_bits != content_bits || e.stream_id != stream_id)
				fail_at(off, "packet " + std::to_string(packets_) +
						     " differs from its entry in index/" + id_.name +
						     ".idx: damaged stream or index");
		}
		if (!packets_) {
			id_.has_cpu = has_cpu;
			id_.cpu = cpu;
		} else if (has_cpu != id_.has_cpu || cpu != id_.cpu) {
			fail_at(off, "packet of CPU " + std::to_string(cpu) + " in a stream of CPU " +
					     std::to_string(id_.cpu) + ": damaged?");
		}
		cur_.end = content_bits;
		cycles_ = begin;
		ts_begin_ = begin;
		ts_end_ = end;
		has_ts_end_ = has_end;
		next_packet_ = off + packet_bits / 8;
		packets_++;
		if (cur_.pos < cur_.end) {
			in_packet_ = true;
			return true;
		}
	}
	if (indexed_ && packets_ != index_.size())
		fail_at(size_, "the file holds " + std::to_string(packets_) + " packets, index/" +
				       id_.name + ".idx lists " + std::to_string(index_.size()) +
				       ": cut short?");
	return false;
}

bool packet_reader::next()
{
	if (!in_packet_ || cur_.pos >= cur_.end) {
		in_packet_ = false;
		if (!open_packet())
			return false;
	}
	const std::uint64_t start = cur_.pos;
	header_fields h;
	if (const type *eh = class_->event_header.get()) {
		if (eh != planned_) {
			header_plan_ = plan_header(*eh);
			planned_ = eh;
		}
		if (header_plan_.t)
			read_header(header_plan_, cur_, header_.data(), h);
		else
			read_struct(*eh, cur_, header_.data(), nullptr, &h);
		if (h.has_ts) {
			if (h.ts_bits >= 64) {
				cycles_ = h.ts;
			} else {
				const std::uint64_t span = std::uint64_t(1) << h.ts_bits;
				std::uint64_t low = h.ts;
				if (low < (cycles_ & (span - 1)))
					low += span;
				cycles_ = (cycles_ & ~(span - 1)) + low;
			}
		}
	}
	if (const type *ec = class_->event_context.get())
		read_struct(*ec, cur_, scratch_.data());
	const event_class *ev = class_->find(h.id);
	if (!ev)
		cur_.fail("event id " + std::to_string(h.id) + " is not declared for stream class " +
			  std::to_string(id_.stream_id) + ": damaged data");
	if (const type *c = ev->context.get())
		read_struct(*c, cur_, scratch_.data());
	if (const type *f = ev->fields.get())
		read_struct(*f, cur_, payload_.data(), payload_starts_.data());
	if (cur_.pos == start)
		cur_.fail("an event of 0 bytes: damaged data or metadata");
	if (cycles_ < ts_begin_ || (has_ts_end_ && cycles_ > ts_end_))
		fail_at(cur_.file_offset + start / 8,
			"event clock " + std::to_string(cycles_) + " outside its packet's [" +
				std::to_string(ts_begin_) + ", " + std::to_string(ts_end_) +
				"]: damaged data");
	event = ev;
	payload = payload_.data();
	payload_starts = payload_starts_.data();
	packet_bytes = cur_.base;
	ts_ns = offset_ns_ + cycles_to_ns(*clock_, cycles_);
	return true;
}

}  // namespace timersim::ctf
