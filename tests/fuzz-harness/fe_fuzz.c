/* fe_fuzz.c: fuzz harness for the frontend.  The input is PTX text; it is loaded from
 * memory (parse, lower, validate).  A module that loads is printed, the printed text is
 * loaded again, and the IR dumps of both must be equal: any difference, or printed PTX
 * that does not load, aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend/fe.h"

static FILE *null_out(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    return f;
}

static char *render(const isa_module_t *m, void (*fn)(FILE *, const isa_module_t *))
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        abort();
    fn(f, m);
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fe_options_t o = { 0 };
    o.diag = null_out();
    isa_module_t *m = NULL;
    if (fe_load_text("fuzz.ptx", (const char *)data, size, &o, &m) != ISA_ST_OK || !m)
        return 0;
    char *printed = render(m, isa_print_module);
    char *dump1 = render(m, isa_dump_module);
    isa_module_t *m2 = NULL;
    o.diag = stderr;
    if (fe_load_text("printed.ptx", printed, strlen(printed), &o, &m2) != ISA_ST_OK || !m2) {
        fprintf(stderr, "fe_fuzz: the printed PTX does not load:\n%s\n", printed);
        abort();
    }
    char *dump2 = render(m2, isa_dump_module);
    if (strcmp(dump1, dump2) != 0) {
        size_t i = 0;
        while (dump1[i] && dump1[i] == dump2[i])
            i++;
        while (i > 0 && dump1[i - 1] != '\n')
            i--;
        fprintf(stderr, "fe_fuzz: IR differs after print+parse near:\n%.300s\n--- vs ---\n%.300s\n",
                dump1 + i, dump2 + i);
        abort();
    }
    free(printed);
    free(dump1);
    free(dump2);
    isa_module_free(m);
    isa_module_free(m2);
    return 0;
}
