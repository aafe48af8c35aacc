#include "sim/sweep/digest.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

#include <openssl/evp.h>
#include <openssl/opensslv.h>

#include "sim/base/runtime_library.h"
#include "sim/trace/reader.h"

namespace timersim::sweep {

namespace {

// libcrypto is opened the first time a digest is made, not linked: linked,
// every run loaded it (a replay of a small binary trace spent 3.6 ms and
// 123 of its page faults on that alone, relocating libcrypto's data), and
// only sweeps use it. Its SHA-256 stays (SHA-NI where the CPU has it: a
// sweep hashes traces of gigabytes).
#if OPENSSL_VERSION_MAJOR >= 3
#define TIMERSIM_STR2(x) #x
#define TIMERSIM_STR(x) TIMERSIM_STR2(x)
constexpr const char *libcrypto_soname = "libcrypto.so." TIMERSIM_STR(OPENSSL_VERSION_MAJOR);
#else
constexpr const char *libcrypto_soname = "libcrypto.so.1.1";
#endif

struct libcrypto {
	decltype(&EVP_MD_CTX_new) ctx_new;
	decltype(&EVP_MD_CTX_free) ctx_free;
	decltype(&EVP_sha256) sha256;
	decltype(&EVP_DigestInit_ex) init;
	decltype(&EVP_DigestUpdate) update;
	decltype(&EVP_DigestFinal_ex) final;
};

template <typename F>
void find(void *lib, const char *name, F &f)
{
	f = reinterpret_cast<F>(dlsym(lib, name));
	if (!f)
		throw std::runtime_error(std::string("SHA-256: ") + libcrypto_soname + " has no " + name);
}

libcrypto open_libcrypto()
{
	void *lib;
	try {
		lib = open_runtime_library(libcrypto_soname, "OpenSSL's libcrypto");
	} catch (const std::runtime_error &e) {
		throw std::runtime_error(std::string("SHA-256: ") + e.what());
	}
	libcrypto c;
	find(lib, "EVP_MD_CTX_new", c.ctx_new);
	find(lib, "EVP_MD_CTX_free", c.ctx_free);
	find(lib, "EVP_sha256", c.sha256);
	find(lib, "EVP_DigestInit_ex", c.init);
	find(lib, "EVP_DigestUpdate", c.update);
	find(lib, "EVP_DigestFinal_ex", c.final);
	return c;	// kept loaded: the process makes more digests
}

const libcrypto &crypto()
{
	static const libcrypto c = open_libcrypto();
	return c;
}

struct md_ctx {
	const libcrypto &api = crypto();
	EVP_MD_CTX *ctx = api.ctx_new();
	md_ctx()
	{
		if (!ctx || api.init(ctx, api.sha256(), nullptr) != 1)
			throw std::runtime_error("SHA-256: libcrypto cannot start a digest");
	}
	~md_ctx() { api.ctx_free(ctx); }
	md_ctx(const md_ctx &) = delete;
	md_ctx &operator=(const md_ctx &) = delete;

	void update(const void *p, std::size_t n)
	{
		if (api.update(ctx, p, n) != 1)
			throw std::runtime_error("SHA-256: libcrypto failed a digest update");
	}
	std::string hex()
	{
		unsigned char md[EVP_MAX_MD_SIZE];
		unsigned len = 0;
		if (api.final(ctx, md, &len) != 1)
			throw std::runtime_error("SHA-256: libcrypto failed to finish a digest");
		static const char digits[] = "0123456789abcdef";
		std::string out;
		for (unsigned i = 0; i < len; i++) {
			out += digits[md[i] >> 4];
			out += digits[md[i] & 15];
		}
		return out;
	}
};

}  // namespace

std::string sha256_hex(const std::string &bytes)
{
	md_ctx md;
	md.update(bytes.data(), bytes.size());
	return md.hex();
}

std::string sha256_file(const std::string &path)
{
	int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		throw input_error(path, 0, std::string("cannot open to hash its content: ") + std::strerror(errno));
	md_ctx md;
	std::vector<char> buf(std::size_t{1} << 20);
	for (;;) {
		ssize_t n = ::read(fd, buf.data(), buf.size());
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			::close(fd);
			throw input_error(path, 0, std::string("cannot read to hash its content: ") + std::strerror(e));
		}
		if (n == 0)
			break;
		md.update(buf.data(), static_cast<std::size_t>(n));
	}
	::close(fd);
	return md.hex();
}

std::string sha256_input(const std::string &path)
{
	std::error_code ec;
	if (!std::filesystem::is_directory(path, ec))
		return sha256_file(path);
	std::vector<std::string> files;
	for (std::filesystem::recursive_directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
		if (it->is_regular_file(ec))
			files.push_back(std::filesystem::relative(it->path(), path, ec).string());
	if (ec)
		throw input_error(path, 0, "cannot list the folder to hash its content: " + ec.message());
	std::sort(files.begin(), files.end());
	std::string text;
	for (const std::string &f : files)
		text += std::to_string(f.size()) + ":" + f + ":" + sha256_file(path + "/" + f) + "\n";
	return sha256_hex(text);
}

}  // namespace timersim::sweep
