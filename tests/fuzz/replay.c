/* replay.c: main() for a fuzz target built without libFuzzer: each file
 * named is given to LLVMFuzzerTestOneInput once (the seeds, in CI where
 * clang's libFuzzer is absent).  Prints "replayed N inputs". */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int n = 0;
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			fprintf(stderr, "replay: cannot open '%s'\n", argv[i]);
			return 1;
		}
		size_t cap = 1 << 16, len = 0;
		unsigned char *buf = malloc(cap);
		size_t got;
		while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
			len += got;
			if (len == cap) {
				unsigned char *p = realloc(buf, cap *= 2);
				if (!p)
					free(buf);
				buf = p;
			}
		}
		fclose(f);
		if (!buf) {
			fprintf(stderr, "replay: out of memory reading '%s'\n", argv[i]);
			return 1;
		}
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		n++;
	}
	printf("replayed %d inputs\n", n);
	return 0;
}
