/* sem.h: the executable form of an instruction and the lane semantics' interface.
 * A handler applies one instruction to the lanes of a warp named by a mask, over a
 * structure-of-arrays register frame: a register is a slot of 32 lanes at a byte
 * offset in the frame (predicates: one 32-bit lane mask).  exec/ fills these records
 * at pre-decode time and owns the warp; the pure ALU handlers live in isa/sem/. */
#ifndef PTXEMU_ISA_SEM_H
#define PTXEMU_ISA_SEM_H

#include <stdint.h>
#include <string.h>
#include "isa/isa.h"

#define ISA_LANES 32
#define ISA_FULL  0xffffffffu

typedef struct isa_xinsn isa_xinsn_t;

/* Handler result: ISA_X_NEXT continues with the next instruction; the others stop the
 * straight-line run and let the interpreter act (branch, barrier, fault...).  The block
 * statuses, from ISA_X_BARRIER to ISA_X_CLUSTER, go to the waiter (exec/sync/wait.c):
 * a CTA barrier, bar.warp.sync, a warp collective whose members are not all there, the
 * cluster barrier. */
enum { ISA_X_NEXT = 0, ISA_X_BRANCH, ISA_X_FAULT, ISA_X_EXIT, ISA_X_RET, ISA_X_CALL, ISA_X_TRAP,
       ISA_X_BARRIER, ISA_X_WARPSYNC, ISA_X_COLLECTIVE, ISA_X_CLUSTER, ISA_X_YIELD };
/* ISA_X_YIELD: the lanes go on to the next instruction, but the warp gives the other warps
 * their turn first (nanosleep). */
#define ISA_X_IS_WAIT(st) ((st) >= ISA_X_BARRIER && (st) <= ISA_X_CLUSTER)

typedef int (*isa_xfn_t)(void *warp, uint8_t *frame, const isa_xinsn_t *in, uint32_t mask);

/* ISA_HOT: a handler built for several host instruction sets, the best of them chosen when
 * the program is loaded (an ifunc: a handler's address in a table is already the chosen
 * build's).  On x86-64: the baseline (SSE2), x86-64-v3 (AVX2, FMA, F16C) and x86-64-v4
 * (AVX-512); the lane loops vectorise to the widest.  Elsewhere (AArch64's NEON is its
 * baseline) one build.  Floating-point contraction stays off in every build, so that the
 * builds compute the same bits. */
#if defined(__x86_64__) && defined(__has_attribute) && !defined(PTXEMU_ONE_ISA)
#if __has_attribute(target_clones)
#define ISA_HOT __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#define ISA_HOT_CLONES 1
#endif
#endif
#ifndef ISA_HOT
#define ISA_HOT
#endif

/* A handler and the width its operands' slots must have: bytes per lane, ISA_W_PRED for a
 * predicate mask, ISA_W_ANY when the handler adapts (pre-decoding checks the others). */
#define ISA_W_ANY  0
#define ISA_W_PRED 0xff
/* honours: the operand forms beyond plain registers, vector components and constants that
 * the handler implements: ISA_OPDF_NEG (!p), ISA_OPDF_MINUS (-a), ISA_HON_SINK (_, a discarded
 * result), ISA_HON_VSEL (a video selector, %r1.b2, %r1.h10) and ISA_HON_DUAL (d|p).  Pre-decoding refuses an instruction with an
 * operand form its handler does not list ("... is not supported yet"), so that no form is
 * ever ignored (tests/unit/exec/check_forms.c walks every opcode). */
#define ISA_HON_SINK 0x02
#define ISA_HON_VSEL 0x40
#define ISA_HON_DUAL 0x80
typedef struct { isa_xfn_t fn; uint8_t w[6]; uint8_t honours; } isa_xdesc_t;

struct isa_xinsn {
    isa_xfn_t          fn;
    const isa_xdesc_t *desc;        /* set by selection; fn is desc->fn */
    uint32_t           o[6];        /* operand slot offsets: d, a, b, c, ...; o[5] is the carry
                                       flag's slot for .cc, addc, subc and madc */
    uint32_t           guard;       /* predicate slot offset, or ISA_NONE */
    uint8_t            guard_neg;
    uint8_t            width;       /* access width in bytes (memory), vector count, ... */
    uint8_t            vec;
    uint8_t            flags;
    uint32_t           target;      /* branch target (instruction index) */
    int64_t            imm;         /* address offset or constant */
    uint64_t           aux;         /* handler-specific */
    const isa_instr_t *ir;          /* for diagnostics */
};

/* Apply F to every lane in mask; a full mask is a straight loop the compiler vectorises. */
#define ISA_LANE_LOOP(mask, BODY)                                   \
    do {                                                            \
        if ((mask) == ISA_FULL) {                                   \
            for (unsigned l = 0; l < ISA_LANES; l++) { BODY; }      \
        } else {                                                    \
            for (uint32_t m_ = (mask); m_; m_ &= m_ - 1) {          \
                unsigned l = (unsigned)__builtin_ctz(m_);           \
                BODY;                                               \
            }                                                       \
        }                                                           \
    } while (0)

/* The same from the highest lane down (stores: where lanes store to one place, the lowest
 * lane's value stays, as on the H100). */
#define ISA_LANE_LOOP_DOWN(mask, BODY)                              \
    do {                                                            \
        if ((mask) == ISA_FULL) {                                   \
            for (unsigned l = ISA_LANES; l-- > 0;) { BODY; }        \
        } else {                                                    \
            for (uint32_t m_ = (mask); m_;) {                       \
                unsigned l = 31u - (unsigned)__builtin_clz(m_);     \
                m_ &= ~(1u << l);                                   \
                BODY;                                               \
            }                                                       \
        }                                                           \
    } while (0)

#define ISA_SLOT(T, frame, off) ((T *)(void *)((frame) + (off)))

/* Selection: set out->desc (and aux) for an arithmetic, logic, comparison or conversion
 * instruction whose operands have their instruction types' widths.  Returns false when
 * the instruction has no semantics yet. */
bool isa_sem_select(const isa_instr_t *in, isa_xinsn_t *out);
#ifdef PTXEMU_TESTING
/* Unit tests: when set, selection takes the general handlers where a warp-wide form exists
 * (half.c), to compare the two. */
extern bool isa_sem_general_only;
#endif

/* cvt with a float operand in a register wider than its type (cvt.rn.f16.f32 %r1, %f1;
 * cvt.f64.f32 %fd1, %rd1): x, selected by isa_sem_select, becomes a handler that reads the
 * low bits of a wider source and zero-extends a float result into a wider destination
 * (the register widths in aux bits 0-7 as pre-decoding fills them).  False when x has no
 * such form. */
bool isa_sem_cvt_wide(isa_xinsn_t *x);

/* Video instructions' operand selectors (%r1.b2, %r3.h1): pre-decoding asks whether
 * operand i (0 d, 1 a, 2 b, 3 c) may carry selector sel (isa_sel_t), then stores it in
 * the handler's aux, 4 bits at ISA_AUX_SEL_SHIFT(i) (video.c). */
#define ISA_AUX_SEL_SHIFT(i) (48 + 4 * (i))
bool isa_sem_video_sel(const isa_instr_t *in, unsigned i, unsigned sel);
/* Every selector (one field or several: sel, its digits fsel) and negation (minus:
 * vmad's -a, -b, -c) of operand i of a video instruction already selected into x:
 * recorded in x's aux and imm for its handler, or false when they have no semantics. */
bool isa_sem_video_opd(const isa_instr_t *in, unsigned i, unsigned sel, unsigned fsel, bool minus,
                       isa_xinsn_t *x);

/* Atomic and reduction operations (atom.c).  An element function gives one memory
 * element's new value from its old value, the operand b and (cas) c, each in the low bits
 * of a 64-bit carrier (zero-extended); 128-bit elements (exch, cas) are exec's own.
 * isa_sem_atom gives the index in isa_atom_fns of operation op (its ATOMOP modifier,
 * ISA_M_ADD ...) on elements of type t (a vector's element type), 0 when there is none;
 * global selects the variant of global memory where it differs from shared memory's (f32
 * add flushes subnormal inputs and results there, f64 add picks NaNs in another order). */
typedef uint64_t (*isa_atom_fn_t)(uint64_t old, uint64_t b, uint64_t c);
extern const isa_atom_fn_t isa_atom_fns[];
unsigned isa_sem_atom(unsigned op, isa_type_t t, bool global);
/* The half arithmetic atom.c shares with half.c: a + b rounded to nearest, without .ftz,
 * and min (max false) or max; f16, or bf16 when bf. */
uint16_t isa_half_add(uint16_t a, uint16_t b, bool bf);
uint16_t isa_half_minmax(uint16_t a, uint16_t b, bool bf, bool max);

#endif
