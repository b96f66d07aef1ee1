/* fuzzvec.h: ptxfuzz's variants and vectors (tools/fuzzvec.c): what an instruction
 * variant's name means (its operands' kinds), its kernel, and its input vectors: the
 * special values (kept whole, S), the specials crossed (X) and the random chunks (R). */
#ifndef PTXEMU_TOOLS_FUZZVEC_H
#define PTXEMU_TOOLS_FUZZVEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "isa/isa.h"

#define CHUNK      4096u   /* vectors per digest */
#define NCHUNKS    25u     /* 102400 random vectors per variant */

/* Value kinds: how an operand's bits are generated and compared. */
typedef enum {
    K_F16, K_BF16, K_F32, K_F64, K_F16X2, K_BF16X2, K_E4M3X2, K_E5M2X2,
    K_F32X2,    /* two f32 in 64 bits (sm_100's .f32x2) */
    K_S8, K_S16, K_S32, K_S64, K_U8, K_U16, K_U32, K_U64,
    K_I16X2,    /* u16x2, s16x2: two 16-bit integers */
    K_PRED,     /* a predicate, or two (bit 0 p, bit 1 q): one byte, 0 or 1 as an input */
    K_CNT,      /* a 32-bit count, position or length (shifts, bfe, bfi, szext, bmsk, fns) */
    K_U128,     /* an output only: a 64-bit result and the carry flag after it */
    K__COUNT
} kind_t;
extern const unsigned fuzz_kind_bytes[K__COUNT];

/* Variants: an instruction as written, its operands' kinds. */
typedef struct {
    char     name[80];      /* as recorded: the instruction, then "+d.b0"-style operand
                               selectors or a "+0x96" immediate operand */
    char     text[80];      /* the instruction as written: "add.rz.ftz.f32" */
    isa_op_t op;
    unsigned nsrc;          /* 1..4 source arrays */
    kind_t   sk[4], dk;     /* kinds of the sources and the destination */
    bool     approx;        /* .approx, .full: compared by ulp distance when not bit-exact */
    bool     fma_c;         /* the third source may be drawn as -(a*b) (cancellation) */
    bool     fresh;         /* integer, comparison and video variants (their own specials) */
    unsigned npred;         /* the destination is 1 predicate, or 2 (p|q: bits 0 and 1) */
    int      carry_in;      /* the source (0 or 1) that sets the carry flag first; -1: none */
    bool     carry_out;     /* .cc: the carry flag afterwards is stored after the result */
    bool     borrow;        /* the flag is set and read by sub.cc / subc (a borrow) */
    char     sel[4][4];     /* the selectors of d, a, b, c ("b0".."h1"), "" for none */
    char     imm[12];       /* an immediate last operand (lop3's LUT), "" for none */
    bool     sm100;         /* needs sm_100: recorded on sm_90 through an equivalent kernel */
    bool     three;         /* min/max with three sources (name suffix "+3") */
    bool     oob;           /* fma .oob: sources also take the OOB-NaN 0x7ff7 (0xfff7), 0x7fff */
} variant_t;

/* Parse a variant's name; false when ptxfuzz cannot test it. */
bool fuzz_parse(const char *name, variant_t *v);
/* The variant's kernel (a static buffer): for the GPU (gpu true) an sm_100 variant's
 * sm_90 equivalent. */
char *fuzz_kernel(const variant_t *v, bool gpu);
/* The output bytes of one vector: the result, then the carry flag (.cc) of its width. */
unsigned fuzz_out_bytes(const variant_t *v);
/* Vector counts: S (kept whole), X (crossed specials), X's chunks; chunk c's vectors
 * (chunks numbered over X, then R). */
size_t fuzz_nspecial(const variant_t *v);
size_t fuzz_ncrossed(const variant_t *v);
unsigned fuzz_nxchunks(const variant_t *v);
void fuzz_chunk_range(const variant_t *v, unsigned c, size_t *first, size_t *n);
/* The sources of vectors [first, first + n) into in[0..nsrc) (each fuzz_kind_bytes wide). */
void fuzz_inputs(const variant_t *v, size_t first, size_t n, uint8_t *in[4]);

/* Helpers: FNV-1a 64, little-endian values of w bytes, hex (most significant first),
 * printf appended to a buffer. */
uint64_t fuzz_fnv1a(const void *p, size_t n, uint64_t h);
uint64_t fuzz_get_le(const uint8_t *p, unsigned w);
void fuzz_hex_print(FILE *f, const uint8_t *p, unsigned w);
void fuzz_hex_parse(uint8_t *p, unsigned w, const char *s);
void fuzz_cat(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
