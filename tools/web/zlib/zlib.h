// zlib's interface as the browser lab's build sees it (make web): the page
// hands the lab text it already holds (answers, questions files), never a
// file, so no gzip stream is opened and no zlib is linked. gzdopen fails,
// which sim/trace/line_source.cc reports as "cannot open gzip stream" --
// the same input_error a damaged file gets natively -- and the rest is
// never reached after it.
#pragma once

typedef struct timersim_web_gz *gzFile;
typedef long z_off_t;

#define Z_OK 0
#define Z_BUF_ERROR (-5)

inline gzFile gzdopen(int, const char *) { return nullptr; }
inline int gzbuffer(gzFile, unsigned) { return -1; }
inline int gzread(gzFile, void *, unsigned) { return -1; }
inline const char *gzerror(gzFile, int *err)
{
	*err = -1;
	return "no gzip in the browser lab";
}
inline z_off_t gzoffset(gzFile) { return 0; }
inline int gzclose(gzFile) { return 0; }
