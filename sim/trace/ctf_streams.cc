#include "sim/trace/ctf_streams.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/trace/reader.h"

namespace timersim::ctf {

namespace {

constexpr std::uint32_t index_magic = 0xc1f1dcc1;
constexpr std::uint32_t index_header_bytes = 16;
constexpr std::uint32_t index_entry_min = 7 * 8;	// CTF index 1.0

std::vector<std::string> regular_files(const std::string &dir, const std::string &what)
{
	DIR *d = opendir(dir.c_str());
	if (!d)
		throw input_error(dir, 0, "cannot list the " + what + ": " + std::strerror(errno));
	std::vector<std::string> names;
	while (dirent *de = readdir(d)) {
		std::string name = de->d_name;
		if (name.empty() || name[0] == '.')
			continue;
		struct stat st;
		std::string path = dir + "/" + name;
		if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
			names.push_back(name);
	}
	closedir(d);
	std::sort(names.begin(), names.end());
	return names;
}

std::string slurp(const std::string &path)
{
	int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		throw input_error(path, 0, std::string("cannot open: ") + std::strerror(errno));
	std::string out;
	char buf[65536];
	for (;;) {
		ssize_t n = ::read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int err = errno;
			::close(fd);
			throw input_error(path, 0, std::string("read error: ") + std::strerror(err));
		}
		if (n == 0)
			break;
		out.append(buf, n);
	}
	::close(fd);
	return out;
}

std::uint64_t be(const std::string &b, std::size_t at, unsigned n)
{
	std::uint64_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v = v << 8 | static_cast<unsigned char>(b[at + i]);
	return v;
}

std::vector<index_entry> read_index(const std::string &path)
{
	std::string b = slurp(path);
	if (b.size() < index_header_bytes)
		throw input_error::at_offset(path, 0, "truncated CTF index header");
	if (be(b, 0, 4) != index_magic)
		throw input_error::at_offset(path, 0, "bad CTF index magic");
	if (be(b, 4, 4) != 1)
		throw input_error::at_offset(path, 4, "CTF index major version " +
							  std::to_string(be(b, 4, 4)) + " is not 1");
	std::uint64_t len = be(b, 12, 4);
	if (len < index_entry_min || len > 4096)
		throw input_error::at_offset(path, 12, "bad CTF index entry size " +
							   std::to_string(len));
	std::uint64_t body = b.size() - index_header_bytes;
	if (body % len)
		throw input_error::at_offset(path, b.size() - body % len,
					     "CTF index ends inside an entry: cut short?");
	std::vector<index_entry> out;
	for (std::uint64_t at = index_header_bytes; at < b.size(); at += len) {
		index_entry e;
		e.offset = be(b, at, 8);
		e.packet_bits = be(b, at + 8, 8);
		e.content_bits = be(b, at + 16, 8);
		e.stream_id = be(b, at + 48, 8);
		out.push_back(e);
	}
	return out;
}

// "channel0_3" for CPU 3 of the stream class that SIBLING ("channel0_0")
// belongs to: LTTng names its files <channel>_<cpu>.
std::string likely_name(const std::string &sibling, std::uint64_t cpu)
{
	std::size_t u = sibling.rfind('_');
	if (u == std::string::npos || u + 1 == sibling.size() ||
	    sibling.find_first_not_of("0123456789", u + 1) != std::string::npos)
		return "";
	return sibling.substr(0, u + 1) + std::to_string(cpu);
}

}  // namespace

std::vector<stream_file> list_stream_files(const std::string &dir)
{
	struct stat st;
	if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
		throw input_error(dir, 0, "not a CTF trace directory");
	std::string meta = dir + "/metadata";
	if (stat(meta.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
		throw input_error(dir, 0, "not a CTF trace: no metadata file");
	std::vector<stream_file> files;
	for (const std::string &name : regular_files(dir, "trace directory")) {
		if (name == "metadata")
			continue;
		stream_file f;
		f.name = name;
		std::string path = dir + "/" + name;
		if (stat(path.c_str(), &st) != 0)
			throw input_error(path, 0, "cannot read the stream file");
		// A tracer writes at least one packet per stream file.
		if (!st.st_size)
			throw input_error(dir, 0, "stream file " + name + " is empty (truncated?)");
		f.size = st.st_size;
		files.push_back(std::move(f));
	}
	std::string index_dir = dir + "/index";
	if (stat(index_dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
		if (files.empty())
			throw input_error(dir, 0, "CTF trace without stream files");
		return files;
	}
	const std::string ext = ".idx";
	std::set<std::string> indexed;
	for (const std::string &idx : regular_files(index_dir, "index directory")) {
		if (idx.size() <= ext.size() || idx.compare(idx.size() - ext.size(), ext.size(), ext))
			continue;
		std::string stream = idx.substr(0, idx.size() - ext.size());
		auto f = std::find_if(files.begin(), files.end(),
				      [&](const stream_file &s) { return s.name == stream; });
		if (f == files.end())
			throw input_error(dir, 0, "stream file " + stream + " is missing: index/" +
							  idx + " names it");
		f->indexed = true;
		f->index = read_index(index_dir + "/" + idx);
		indexed.insert(stream);
	}
	for (const stream_file &f : files)
		if (!indexed.count(f.name))
			throw input_error(dir, 0, "stream file " + f.name +
				" is not in the trace's index (index/" + f.name +
				".idx is absent): a copy, or a file from another trace?");
	if (files.empty())
		throw input_error(dir, 0, "CTF trace without stream files");
	return files;
}

void check_stream_set(const std::string &dir, const trace_model &model,
		      const std::vector<stream_identity> &streams)
{
	// (stream class, CPU) -> file
	std::map<std::pair<std::uint64_t, std::uint64_t>, std::string> seen;
	std::map<std::uint64_t, std::set<std::uint64_t>> cpus_of;	// by stream class
	std::map<std::uint64_t, std::string> sample;			// a file per class
	std::set<std::uint64_t> all_cpus, classes;
	for (const stream_identity &s : streams) {
		classes.insert(s.stream_id);
		sample.emplace(s.stream_id, s.name);
		if (!s.has_cpu)
			continue;
		auto [it, fresh] = seen.emplace(std::make_pair(s.stream_id, s.cpu), s.name);
		if (!fresh)
			throw input_error(dir, 0, "stream files " + it->second + " and " + s.name +
				" both hold CPU " + std::to_string(s.cpu) + " of stream class " +
				std::to_string(s.stream_id) + ": a duplicated stream file?");
		cpus_of[s.stream_id].insert(s.cpu);
		all_cpus.insert(s.cpu);
	}
	for (const auto &[id, sc] : model.streams)
		if (!sc.events.empty() && !classes.count(id))
			throw input_error(dir, 0, "the metadata declares stream class " +
				std::to_string(id) + " with " + std::to_string(sc.events.size()) +
				" event types, but no stream file holds it: stream files missing?");
	if (all_cpus.empty())
		return;
	std::uint64_t top = *all_cpus.rbegin();
	if (top >= (1u << 16))
		return;		// not a CPU number we can reason about
	for (const auto &[id, cpus] : cpus_of)
		for (std::uint64_t cpu = 0; cpu <= top; cpu++) {
			if (cpus.count(cpu))
				continue;
			std::string like = likely_name(sample[id], cpu);
			throw input_error(dir, 0, "no stream file holds CPU " + std::to_string(cpu) +
				" of stream class " + std::to_string(id) + " while the trace has " +
				"streams up to CPU " + std::to_string(top) + ": stream file " +
				(like.empty() ? std::string("missing") : like + " missing?"));
		}
}

}  // namespace timersim::ctf
