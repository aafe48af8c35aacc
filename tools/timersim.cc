// timersim command line (placeholder until the replay lands).
#include <cstdio>

int main()
{
	std::fprintf(stderr, "usage: timersim replay|compare [options] TRACE\n");
	return 2;
}
