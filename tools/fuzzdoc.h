/* fuzzdoc.h: ptxfuzz doc (tools/fuzzdoc.c): the verification status page,
 * docs/verification.md, from the ISA tables and the committed test data. */
#ifndef PTXEMU_TOOLS_FUZZDOC_H
#define PTXEMU_TOOLS_FUZZDOC_H

#include <stdbool.h>
#include <stdio.h>

/* Write the page to out; run from the source root (it reads tests/golden, tests/ptx,
 * examples, tools/bench), fuzzdir holding the .fz files; via_sm90 tells the variants
 * recorded through an sm_90 equivalent (or NULL).  Returns 0, or 2 on errors. */
int fuzz_doc_write(FILE *out, const char *fuzzdir, bool (*via_sm90)(const char *name));

#endif
