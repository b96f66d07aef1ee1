/* stubs.c: every function the real driver exports (exports.def) is exported here too.  The
 * ones the emulator implements are defined in the other files; the rest are these weak
 * definitions, which say once on stderr that the function is not supported and return
 * CUDA_ERROR_NOT_SUPPORTED: never a crash, never a silent success.  Also the table of all
 * of them by name, for cuGetProcAddress.  (This file sees no prototypes: a stub takes no
 * arguments and returns a CUresult, which is right whatever the caller passes.) */
#include <stddef.h>

int drv_unsupported(const char *fn);

#define EXPORT(s) __attribute__((weak, visibility("default"))) int s(void) { return drv_unsupported(#s); }
#include "runtime/driver/exports.def"
#undef EXPORT

typedef void (*drv_fn_t)(void);
typedef struct { const char *name; drv_fn_t fn; } drv_sym_t;
const drv_sym_t drv_syms[] = {
#define EXPORT(s) { #s, (drv_fn_t)s },
#include "runtime/driver/exports.def"
#undef EXPORT
};
const size_t drv_nsyms = sizeof drv_syms / sizeof *drv_syms;
