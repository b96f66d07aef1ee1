/* fatbin.h: reading the fatbins that nvcc embeds in programs (ELF section .nv_fatbin and,
 * for -rdc, __nv_relfatbin): their entries, and the PTX text of an entry, decompressed. */
#ifndef PTXEMU_FATBIN_H
#define PTXEMU_FATBIN_H

#include <stddef.h>
#include <stdint.h>
#include "isa/isa.h"

#define RT_FATBIN_MAGIC  0xBA55ED50u   /* container header: magic */
#define RT_FATBINC_MAGIC 0x466243B1u   /* __fatBinC_Wrapper_t: magic */

typedef enum { RT_FB_PTX = 1, RT_FB_ELF = 2 } rt_fb_kind_t;   /* other values: listed, not read */
typedef enum { RT_FB_PLAIN, RT_FB_LZ4, RT_FB_ZSTD } rt_fb_comp_t;

/* Entry flags (u64 at offset 0x28 of an entry header), as observed with nvcc 13. */
#define RT_FB_FLAG_DEBUG 0x2u      /* -G */
#define RT_FB_FLAG_LZ4   0x2000u   /* payload is one LZ4 block */
#define RT_FB_FLAG_ZSTD  0x8000u   /* payload is a Zstandard frame */

/* One entry (a PTX or ELF image).  Pointers point into the owning rt_fatbin_t. */
typedef struct {
    uint32_t       kind;        /* rt_fb_kind_t, or what the header says */
    uint32_t       container;   /* index of its container (0 = first) */
    const char    *section;     /* ".nv_fatbin", "__nv_relfatbin", or "memory" */
    uint64_t       offset;      /* of the entry header in its section */
    uint32_t       arch;        /* sm number: 90 = sm_90 / compute_90 */
    uint16_t       major, minor;/* PTX: the ISA version (9.0); ELF: what the header holds */
    uint64_t       flags;
    rt_fb_comp_t   comp;
    const uint8_t *data;        /* the stored payload bytes (compressed or not) */
    uint64_t       data_size;   /* used bytes (compressed size when compressed) */
    uint64_t       raw_size;    /* size after decompression (the payload size when plain) */
    const char    *options;     /* ptxas options the entry carries, or NULL */
    uint32_t       options_len;
    const char    *ident;       /* identifier string (source file name with -G), or NULL */
    uint32_t       ident_len;
} rt_fb_entry_t;

typedef struct {
    uint8_t       *bytes;       /* owned copies of the fatbin sections, back to back */
    size_t         size;
    uint32_t       ncontainer;
    uint32_t       nentry;
    rt_fb_entry_t *entries;
    char           msg[320];    /* the last error's message */
} rt_fatbin_t;

/* Read the fatbins of PATH: an ELF file (executable, shared library, object: the sections
 * .nv_fatbin and __nv_relfatbin) or a raw fatbin file (nvcc -fatbin).  On error the status
 * is ISA_ST_IO (unreadable), ISA_ST_SYNTAX (not an ELF or fatbin, no fatbin section, a
 * truncated or corrupt container or entry) or ISA_ST_NOMEM, and out->msg says what and
 * where; out is then empty but must still be freed. */
isa_status_t rt_fatbin_open_file(const char *path, rt_fatbin_t *out);

/* The same for bytes in memory (ELF image or raw containers back to back); they are copied. */
isa_status_t rt_fatbin_open_bytes(const void *data, size_t size, rt_fatbin_t *out);

/* The fatbin a program registers: w is its __fatBinC_Wrapper_t {magic, version, data,
 * filename_or_fatbins}.  Version 1: the container at data.  Version 2 (device-linked, -rdc):
 * also each fatbin of the NULL-terminated array filename_or_fatbins.  Memory of the calling
 * process: the sizes come from the container headers. */
isa_status_t rt_fatbin_open_wrapper(const void *w, rt_fatbin_t *out);

void rt_fatbin_free(rt_fatbin_t *fb);

/* Entry i's payload, decompressed, in a malloc'd buffer (*out_size bytes, plus a NUL that
 * is not counted).  PTX text loses the NULs nvcc pads it with.  ISA_ST_UNSUPPORTED for an
 * unknown compression, ISA_ST_SYNTAX for a corrupt stream; fb->msg says which. */
isa_status_t rt_fatbin_payload(rt_fatbin_t *fb, uint32_t i, char **out, size_t *out_size);

/* The PTX entry with the highest arch not above max_arch (0: any); ties: the first.
 * Returns its index, or -1 when there is none. */
int rt_fatbin_pick_ptx(const rt_fatbin_t *fb, uint32_t max_arch);
/* The same among the entries of one container (the wrapper's data fatbin is container 0,
 * the prelinked fatbins of an -rdc program follow). */
int rt_fatbin_pick_ptx_in(const rt_fatbin_t *fb, uint32_t container, uint32_t max_arch);

/* What ptxas allocated for a kernel (or a function) of a cubin: registers per thread and
 * bytes of stack frame per thread (what the driver reports as its local memory). */
typedef struct {
    char    *name;
    uint32_t regs, frame;
} rt_kres_t;
/* The functions of a cubin ELF image with what its .nv.info says of them, as a malloc'd
 * array (rt_kres_free).  ISA_ST_SYNTAX when the image is not an ELF file. */
isa_status_t rt_cubin_resources(const void *image, size_t size, rt_kres_t **out, uint32_t *out_n);
void         rt_kres_free(rt_kres_t *v, uint32_t n);
/* The same for PTX text, from ptxas -arch=sm_90 (sm_90a) -v (with -maxrregcount=maxrreg
 * unless 0) where the CUDA toolkit is installed (PTXEMU_PTXAS, CUDA_HOME, CUDA_PATH, /usr/local/cuda, the PATH): ISA_ST_OK;
 * ISA_ST_UNSUPPORTED without ptxas, ISA_ST_SYNTAX when it refused the text, ISA_ST_IO
 * when no temporary file could be made (ptxas.c). */
isa_status_t rt_ptxas_resources(const char *text, bool sm90a, unsigned maxrreg, rt_kres_t **out,
                                 uint32_t *out_n);
/* The path of that ptxas (in buf, or PTXEMU_PTXAS itself), NULL when there is none. */
const char  *rt_find_ptxas(char *buf, size_t size);

/* The kernels (.entry names) of PTX text, or of a cubin ELF image (its .text.NAME
 * sections), as a malloc'd array of malloc'd strings; *out_n of them.  Returns ISA_ST_OK,
 * or ISA_ST_SYNTAX / ISA_ST_NOMEM (then nothing is allocated). */
isa_status_t rt_fatbin_kernels(const rt_fb_entry_t *e, const char *payload, size_t size, char ***out,
                               uint32_t *out_n);

/* "PTX", "ELF", or "kind N" (into buf); "none", "lz4", "zstd". */
const char *rt_fatbin_kind_name(uint32_t kind, char buf[16]);
const char *rt_fatbin_comp_name(rt_fb_comp_t c);

#endif
