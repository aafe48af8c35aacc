#include "sim/sweep/digest.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include <openssl/evp.h>

#include "sim/trace/reader.h"

namespace timersim::sweep {

namespace {

struct md_ctx {
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	md_ctx()
	{
		if (!ctx || EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr) != 1)
			throw std::runtime_error("SHA-256: libcrypto cannot start a digest");
	}
	~md_ctx() { EVP_MD_CTX_free(ctx); }
	md_ctx(const md_ctx &) = delete;
	md_ctx &operator=(const md_ctx &) = delete;

	void update(const void *p, std::size_t n)
	{
		if (EVP_DigestUpdate(ctx, p, n) != 1)
			throw std::runtime_error("SHA-256: libcrypto failed a digest update");
	}
	std::string hex()
	{
		unsigned char md[EVP_MAX_MD_SIZE];
		unsigned len = 0;
		if (EVP_DigestFinal_ex(ctx, md, &len) != 1)
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

}  // namespace timersim::sweep
