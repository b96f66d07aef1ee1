/* replay.c: runs a fuzz harness without libFuzzer: LLVMFuzzerTestOneInput once for each
 * file named on the command line (the regression inputs under regress/<harness>/). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "replay: cannot read %s\n", argv[i]);
            return 1;
        }
        size_t cap = 4096, n = 0, got;
        uint8_t *buf = malloc(cap);
        while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
            n += got;
            if (n == cap)
                buf = realloc(buf, cap *= 2);
        }
        fclose(f);
        if (!buf) {
            fprintf(stderr, "replay: out of memory\n");
            return 1;
        }
        LLVMFuzzerTestOneInput(buf, n);
        free(buf);
    }
    printf("replay: %d input%s ok\n", argc - 1, argc == 2 ? "" : "s");
    return 0;
}
