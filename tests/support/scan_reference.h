// What the block scanners of sim/trace/text_scan.h must find, found by
// byte loops: the unit test and the fuzzer check the scanners against it.
// Header-only: the fuzzer links no test support objects.
#pragma once

#include "sim/trace/text_scan.h"

namespace timersim::test {

// Whether find_blank, skip_blank and scan_token from P agree with byte
// loops over [P, END), both without reading past END and reading up to
// LIMIT (>= END).
inline bool scanners_agree(const char *p, const char *end, const char *limit)
{
	const char *blank = p, *nonblank = p, *eq = nullptr;
	while (blank < end && !is_blank(*blank))
		blank++;
	while (nonblank < end && is_blank(*nonblank))
		nonblank++;
	for (const char *q = p; q < blank && !eq; q++)
		if (*q == '=')
			eq = q;
	for (char c : {'=', '[', '\t'}) {
		const char *at = p;
		while (at < end && *at != c)
			at++;
		if (find_byte(p, end, c) != at)
			return false;
	}
	for (const char *lim : {static_cast<const char *>(nullptr), limit}) {
		token_scan t = scan_token(p, end, lim);
		if (find_blank(p, end, lim) != blank || skip_blank(p, end, lim) != nonblank ||
		    t.end != blank || t.eq != eq)
			return false;
	}
	return true;
}

}  // namespace timersim::test
