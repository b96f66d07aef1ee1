/* isa.h: the public interface of libisa: enums and lookups generated from the ISA
 * tables (*.def), and the IR that the frontend produces and the interpreter consumes. */
#ifndef PTXEMU_ISA_H
#define PTXEMU_ISA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>

/*{=====================================================================
 * Tables
 *====================================================================*/

/* Status codes (status.def). */
typedef enum {
#define ISA_STATUS(id, msg) ISA_ST_##id,
#include "isa/status.def"
#undef ISA_STATUS
    ISA_ST__COUNT
} isa_status_t;
const char *isa_status_str(isa_status_t st);

/* Types (types.def) and their mask bits. */
typedef enum {
#define ISA_TYPE(id, text, bits, cls, ptx, decl) ISA_T_##id,
#include "isa/types.def"
#undef ISA_TYPE
    ISA_T__COUNT,
    ISA_T_NONE = 0xff
} isa_type_t;

/* The mask bit of type x (ISA_TM(F32)): 64-bit constants, not enumerators (ISO C's
 * enumerators are ints). */
#define ISA_TM(x) (1ull << ISA_T_##x)
#define ISA_TM_NONE 0ull

typedef enum { ISA_TC_BIT, ISA_TC_UINT, ISA_TC_SINT, ISA_TC_FLOAT, ISA_TC_PACKED, ISA_TC_PRED } isa_tclass_t;
/* Where a type may be declared (types.def's DECL column). */
typedef enum { ISA_TD_NONE, ISA_TD_REG, ISA_TD_NOPARAM, ISA_TD_ANY } isa_tdecl_t;

/* Named type sets used by ops.def. */
#define ISA_TS_B       (ISA_TM(B8) | ISA_TM(B16) | ISA_TM(B32) | ISA_TM(B64))
#define ISA_TS_U       (ISA_TM(U8) | ISA_TM(U16) | ISA_TM(U32) | ISA_TM(U64))
#define ISA_TS_S       (ISA_TM(S8) | ISA_TM(S16) | ISA_TM(S32) | ISA_TM(S64))
#define ISA_TS_INT     (ISA_TS_U | ISA_TS_S)
#define ISA_TS_INT16UP (ISA_TM(U16) | ISA_TM(U32) | ISA_TM(U64) | ISA_TM(S16) | ISA_TM(S32) | ISA_TM(S64))
#define ISA_TS_INT32UP (ISA_TM(U32) | ISA_TM(U64) | ISA_TM(S32) | ISA_TM(S64))
#define ISA_TS_US32    (ISA_TM(U32) | ISA_TM(S32))
#define ISA_TS_U32_64  (ISA_TM(U32) | ISA_TM(U64))
#define ISA_TS_B32_64  (ISA_TM(B32) | ISA_TM(B64))
#define ISA_TS_BITS    (ISA_TM(B16) | ISA_TM(B32) | ISA_TM(B64))
#define ISA_TS_LOGIC   (ISA_TM(PRED) | ISA_TS_BITS)
#define ISA_TS_SHR     (ISA_TS_BITS | ISA_TS_INT16UP)
#define ISA_TS_F       (ISA_TM(F32) | ISA_TM(F64))
#define ISA_TS_HALF    (ISA_TM(F16) | ISA_TM(F16X2) | ISA_TM(BF16) | ISA_TM(BF16X2))
#define ISA_TS_FLOATS  (ISA_TS_F | ISA_TS_HALF)
#define ISA_TS_MINMAX  (ISA_TS_INT16UP | ISA_TS_FLOATS | ISA_TM(U16X2) | ISA_TM(S16X2))
#define ISA_TS_ADD     (ISA_TS_MINMAX | ISA_TM(F32X2))
#define ISA_TS_FMA     (ISA_TS_FLOATS | ISA_TM(F32X2))
#define ISA_TS_ARITH   (ISA_TS_INT16UP | ISA_TS_FMA)
#define ISA_TS_SIGNED  (ISA_TM(S16) | ISA_TM(S32) | ISA_TM(S64) | ISA_TS_FLOATS)
#define ISA_TS_FAPPROX (ISA_TM(F32) | ISA_TS_HALF)
#define ISA_TS_CMP     (ISA_TS_B | ISA_TS_INT | ISA_TS_FLOATS)
#define ISA_TS_SELP    (ISA_TM(B16) | ISA_TM(B32) | ISA_TM(B64) | ISA_TS_INT16UP | ISA_TS_F)
#define ISA_TS_MOV     (ISA_TM(PRED) | ISA_TM(B16) | ISA_TM(B32) | ISA_TM(B64) | ISA_TM(B128) | ISA_TS_INT16UP | ISA_TS_F)
#define ISA_TS_FP8     (ISA_TM(E4M3) | ISA_TM(E5M2) | ISA_TM(E4M3X2) | ISA_TM(E5M2X2) | ISA_TM(E4M3X4) | ISA_TM(E5M2X4) | \
                    ISA_TM(UE8M0) | ISA_TM(UE8M0X2) | ISA_TM(UE4M3))
#define ISA_TS_FP6     (ISA_TM(E2M3) | ISA_TM(E3M2) | ISA_TM(E2M3X2) | ISA_TM(E3M2X2) | ISA_TM(E2M3X4) | ISA_TM(E3M2X4))
#define ISA_TS_FP4     (ISA_TM(E2M1) | ISA_TM(E2M1X2) | ISA_TM(E2M1X4))
#define ISA_TS_CVT     (ISA_TS_INT | ISA_TS_FLOATS | ISA_TM(TF32) | ISA_TS_FP8 | ISA_TS_FP6 | ISA_TS_FP4)
#define ISA_TS_CVTPACK (ISA_TM(U2) | ISA_TM(S2) | ISA_TM(U4) | ISA_TM(S4) | ISA_TM(U8) | ISA_TM(S8) | ISA_TM(U16) | ISA_TM(S16) | ISA_TM(S32) | ISA_TM(B32))
#define ISA_TS_LDST    (ISA_TS_B | ISA_TM(B128) | ISA_TS_INT | ISA_TS_F)   /* no .f16/.bf16 forms (ptxas) */
#define ISA_TS_ATOM    (ISA_TM(B16) | ISA_TS_B32_64 | ISA_TM(B128) | ISA_TS_INT32UP | ISA_TS_FLOATS)
#define ISA_TS_REDASYNC (ISA_TM(B32) | ISA_TS_INT32UP)
#define ISA_TS_MULTIMEM (ISA_TS_B32_64 | ISA_TS_INT32UP | ISA_TS_FLOATS | ISA_TM(E4M3) | ISA_TM(E5M2) | ISA_TM(E4M3X2) | \
                     ISA_TM(E5M2X2) | ISA_TM(E4M3X4) | ISA_TM(E5M2X4))
#define ISA_TS_REDUX   (ISA_TM(B32) | ISA_TS_US32 | ISA_TM(F32))
#define ISA_TS_MMA     (ISA_TS_F | ISA_TM(F16) | ISA_TM(BF16) | ISA_TM(TF32) | ISA_TM(E4M3) | ISA_TM(E5M2) | ISA_TM(E2M3) | ISA_TM(E3M2) | \
                    ISA_TM(E2M1) | ISA_TM(UE8M0) | ISA_TM(UE4M3) | ISA_TM(U8) | ISA_TM(S8) | ISA_TM(U4) | ISA_TM(S4) | ISA_TM(B1) | ISA_TM(S32))
#define ISA_TS_LDMATRIX (ISA_TM(B8) | ISA_TM(B16) | ISA_TM(B8X16) | ISA_TM(B6X16_P32) | ISA_TM(B4X16_P64))
#define ISA_TS_TMEMLD  (ISA_TM(B32) | ISA_TS_US32 | ISA_TM(F32))
#define ISA_TS_TEX     (ISA_TS_US32 | ISA_TM(F32) | ISA_TM(F16) | ISA_TM(F16X2))
#define ISA_TS_SURF    (ISA_TS_B | ISA_TS_INT32UP)
#define ISA_TS_TENSORMAP (ISA_TM(B1024) | ISA_TS_B32_64)
#define ISA_TS_F_X2    (ISA_TS_F | ISA_TM(F32X2))                     /* directed roundings of add, sub, mul, fma */
#define ISA_TS_FTZ     (ISA_TM(F32) | ISA_TM(F16) | ISA_TM(F16X2) | ISA_TM(F32X2))  /* .ftz of add, sub, mul, fma */
#define ISA_TS_FTZ1    (ISA_TM(F32) | ISA_TM(F16) | ISA_TM(F16X2))             /* .ftz of abs, neg, min, max */
#define ISA_TS_SAT     (ISA_TM(F32) | ISA_TM(F16) | ISA_TM(F16X2))             /* .sat of float add, sub, mul, fma */
#define ISA_TS_WIDE    (ISA_TM(U16) | ISA_TM(U32) | ISA_TM(S16) | ISA_TM(S32))     /* mul.wide, mad.wide */
#define ISA_TS_CVTF    (ISA_TM(F16) | ISA_TM(BF16) | ISA_TM(F32) | ISA_TM(F64))   /* cvt's scalar floats */
#define ISA_TS_F8X2    (ISA_TM(E4M3X2) | ISA_TM(E5M2X2))
#define ISA_TS_F6X2    (ISA_TM(E2M3X2) | ISA_TM(E3M2X2))
#define ISA_TS_X4      (ISA_TM(E4M3X4) | ISA_TM(E5M2X4) | ISA_TM(E2M3X4) | ISA_TM(E3M2X4) | ISA_TM(E2M1X4))
#define ISA_TS_ALL     (~0ull)   /* rules.def: any type, or no type at all (no condition) */

typedef struct {
    const char  *text;
    uint16_t     bits;
    isa_tclass_t cls;
    uint8_t      ptx;         /* isa_ptxv_t: the oldest .version that may name it */
    uint8_t      decl;        /* isa_tdecl_t: where a variable or register may have it */
} isa_type_info_t;
extern const isa_type_info_t isa_types[ISA_T__COUNT];

/* State spaces (spaces.def). */
typedef enum { ISA_SPA_NOADDR, ISA_SPA_ADDR32, ISA_SPA_ADDR64 } isa_addrbits_t;
typedef enum {
#define ISA_SPACE(id, text, bits, win) ISA_SP_##id,
#include "isa/spaces.def"
#undef ISA_SPACE
    ISA_SP__COUNT,
    ISA_SP_NONE = 0xff
} isa_space_t;
typedef struct {
    const char     *text;
    isa_addrbits_t  addr;
    isa_space_t     window;
} isa_space_info_t;
extern const isa_space_info_t isa_spaces[ISA_SP__COUNT];

/* Modifier groups (groups.def). */
typedef enum { ISA_GN_ONE = 1, ISA_GN_TWO = 2 } isa_gmax_t;
typedef enum {
#define ISA_GROUP(id, maxn, legend) ISA_G_##id,
#include "isa/groups.def"
#undef ISA_GROUP
    ISA_G__COUNT
} isa_group_t;
/* The mask bit of modifier group x (ISA_GM(ROUND)). */
#define ISA_GM(x) (1ull << ISA_G_##x)
#define ISA_GM_NONE 0ull
typedef struct {
    const char *name;
    isa_gmax_t  maxn;
    const char *legend;
} isa_group_info_t;
extern const isa_group_info_t isa_groups[ISA_G__COUNT];

/* Modifiers (mods.def). */
typedef enum {
#define ISA_MOD(id, text, groups) ISA_M_##id,
#include "isa/mods.def"
#undef ISA_MOD
    ISA_M__COUNT
} isa_mod_t;
typedef struct {
    const char *text;
    uint64_t    groups;
} isa_mod_info_t;
extern const isa_mod_info_t isa_mods[ISA_M__COUNT];

/* Targets and PTX versions (targets.def). */
typedef enum {
#define ISA_SM(id, text, num, ptx) ISA_##id,
#define ISA_PTXV(id, maj, min)
#include "isa/targets.def"
#undef ISA_SM
#undef ISA_PTXV
    ISA_SM__COUNT
} isa_sm_t;
typedef enum {
#define ISA_SM(id, text, num, ptx)
#define ISA_PTXV(id, maj, min) ISA_##id,
#include "isa/targets.def"
#undef ISA_SM
#undef ISA_PTXV
    ISA_PTXV__COUNT
} isa_ptxv_t;
#define ISA_SM_ORDER(x) isa_sms[x].num
/* ptx: the oldest PTX ISA version whose modules may name the target. */
typedef struct { const char *text; unsigned num; isa_ptxv_t ptx; } isa_sm_info_t;
typedef struct { unsigned major, minor; } isa_ptxv_info_t;
extern const isa_sm_info_t   isa_sms[ISA_SM__COUNT];
extern const isa_ptxv_info_t isa_ptxvs[ISA_PTXV__COUNT];

/* Operand shapes (shapes.def). */
typedef enum {
#define ISA_SHAPE(id, mn, mx, kinds, legend) ISA_SH_##id,
#include "isa/shapes.def"
#undef ISA_SHAPE
    ISA_SH__COUNT
} isa_shape_t;
typedef struct {
    const char *name;
    uint8_t     min, max;
    const char *kinds;
    const char *legend;
} isa_shape_info_t;
extern const isa_shape_info_t isa_shapes[ISA_SH__COUNT];
/* Kind letter of operand position i (the last letter repeats). */
char isa_shape_kind(isa_shape_t sh, unsigned i);

/* Semantic families (families.def). */
typedef enum {
#define ISA_FAMILY(id, file, legend) ISA_FAM_##id,
#include "isa/families.def"
#undef ISA_FAMILY
    ISA_FAM__COUNT
} isa_family_t;
typedef struct { const char *name, *file, *legend; } isa_family_info_t;
extern const isa_family_info_t isa_families[ISA_FAM__COUNT];

/* Opcodes (ops.def). */
enum {
    ISA_OF_NONE = 0, ISA_OF_BRANCH = 1 << 0, ISA_OF_CALL = 1 << 1, ISA_OF_RET = 1 << 2, ISA_OF_EXIT = 1 << 3,
    ISA_OF_BARRIER = 1 << 4, ISA_OF_WARPSYNC = 1 << 5, ISA_OF_LOAD = 1 << 6, ISA_OF_STORE = 1 << 7,
    ISA_OF_ATOMIC = 1 << 8, ISA_OF_SIDE = 1 << 9, ISA_OF_ASYNC = 1 << 10, ISA_OF_FENCE = 1 << 11,
    ISA_OF_DTYPE = 1 << 12,  /* the destination register has the (first) instruction type */
    ISA_OF_SINKD = 1 << 13,  /* the result (or the d of d|p) may be discarded with '_' */
    ISA_OF_PREDOUT = 1 << 14 /* d|p: p must be a predicate register, not '_' */
};
/* Type arity: minimum in the high nibble, maximum in the low one. */
enum {
    ISA_TA_0 = 0x00, ISA_TA_1 = 0x11, ISA_TA_2 = 0x22, ISA_TA_3 = 0x33, ISA_TA_4 = 0x44,
    ISA_TA_0_1 = 0x01, ISA_TA_0_2 = 0x02, ISA_TA_1_2 = 0x12, ISA_TA_2_3 = 0x23, ISA_TA_2_4 = 0x24, ISA_TA_1_4 = 0x14,
    ISA_TA_4_5 = 0x45
};
typedef enum {
#define ISA_OP(id, mn, fam, shape, ta, types, groups, flags, sm, ptx) ISA_OP_##id,
#include "isa/ops.def"
#undef ISA_OP
    ISA_OP__COUNT
} isa_op_t;
typedef struct {
    const char  *mnemonic;
    isa_family_t family;
    isa_shape_t  shape;
    uint8_t      tmin, tmax;
    uint64_t     types;
    uint64_t     groups;
    uint32_t     flags;
    isa_sm_t     sm;
    isa_ptxv_t   ptx;
} isa_op_info_t;
extern const isa_op_info_t isa_ops[ISA_OP__COUNT];

/* Special registers (sregs.def). */
typedef enum { ISA_SRF_SCALAR, ISA_SRF_XYZ, ISA_SRF_INDEX32, ISA_SRF_INDEX8 } isa_srform_t;
typedef enum {
#define ISA_SREG(id, text, type, form, sm, ptx) ISA_SR_##id,
#include "isa/sregs.def"
#undef ISA_SREG
    ISA_SR__COUNT
} isa_sreg_t;
typedef struct {
    const char  *text;
    isa_type_t   type;
    isa_srform_t form;
    isa_sm_t     sm;
    isa_ptxv_t   ptx;
} isa_sreg_info_t;
extern const isa_sreg_info_t isa_sregs[ISA_SR__COUNT];

/* Directives (directives.def). */
typedef enum {
    ISA_DC_VERSION, ISA_DC_TARGET, ISA_DC_ADDRSIZE, ISA_DC_FILE, ISA_DC_LOC, ISA_DC_SECTION, ISA_DC_ENTRY, ISA_DC_FUNC,
    ISA_DC_PROTO, ISA_DC_BRTARGETS, ISA_DC_CALLTARGETS, ISA_DC_PRAGMA, ISA_DC_ALIAS, ISA_DC_PERF, ISA_DC_WORD
} isa_dclass_t;
typedef enum {
#define ISA_DIR(id, text, cls) ISA_D_##id,
#include "isa/directives.def"
#undef ISA_DIR
    ISA_D__COUNT
} isa_dir_t;
typedef struct { const char *text; isa_dclass_t cls; } isa_dir_info_t;
extern const isa_dir_info_t isa_dirs[ISA_D__COUNT];

/* Lookups by text (len bytes, not NUL-terminated).  Each returns -1 when absent. */
int isa_type_lookup(const char *s, size_t len);
int isa_space_lookup(const char *s, size_t len);
int isa_mod_lookup(const char *s, size_t len);
int isa_dir_lookup(const char *s, size_t len);        /* text includes the dot */
int isa_sreg_lookup(const char *s, size_t len);       /* "%tid" (no component) */
int isa_sm_lookup(const char *s, size_t len);
/* Longest opcode mnemonic that a dotted name starts with, ending at a dot or the end;
 * *out_len receives the mnemonic's length. */
int isa_op_lookup(const char *s, size_t len, size_t *out_len);

/*}=====================================================================*/

/*{=====================================================================
 * IR: what the frontend produces.  Every array is owned by the module's
 * arena; indices (uint32_t) refer into the owning function's or module's
 * arrays.  ISA_NONE marks "no index".
 *====================================================================*/

#define ISA_NONE 0xffffffffu

/* A source location: file id plus byte offsets; line and column are computed
 * from the module's copy of the source only when they are printed. */
typedef struct {
    uint32_t file;   /* index into isa_module_t.srcs */
    uint32_t begin;  /* byte offset of the first character */
    uint32_t end;    /* byte offset one past the last character */
} isa_loc_t;

typedef struct {
    const char *name;  /* path as given */
    const char *text;  /* whole contents, NUL-terminated */
    size_t      len;
} isa_source_t;

/* A diagnostic at bytes [begin, end) of a source: "file:line:col: sev: message", the
 * source line, and a ^~~ underline (diag.c). */
#include <stdarg.h>
void isa_diag_vprint(FILE *out, const isa_source_t *src, uint32_t begin, uint32_t end,
                     const char *sev, const char *fmt, va_list ap);
void isa_diag_print(FILE *out, const isa_source_t *src, uint32_t begin, uint32_t end,
                    const char *sev, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Line (1-based) and column (1-based, in bytes) of a location's start. */
void isa_loc_linecol(const isa_source_t *src, uint32_t off, unsigned *out_line, unsigned *out_col);

/* Instruction suffixes are kept in source order, each tagged with its table. */
typedef enum { ISA_SFX_TYPE, ISA_SFX_SPACE, ISA_SFX_MOD, ISA_SFX_SHAPE_TEXT } isa_sfxkind_t;
typedef struct {
    uint8_t  kind;   /* isa_sfxkind_t */
    uint8_t  group;  /* isa_group_t it was assigned to (ISA_SFX_MOD, ISA_SFX_SPACE) */
    uint16_t id;     /* type, space or modifier id; for ISA_SFX_SHAPE_TEXT an index into
                        the module's string table (a token no table lists, e.g. m16n8k16,
                        accepted only where the opcode's family rule says so) */
} isa_sfx_t;

typedef enum {
    ISA_OPD_REG,      /* reg: register index */
    ISA_OPD_SINK,     /* _ */
    ISA_OPD_IMM,      /* imm: integer bits */
    ISA_OPD_F32,      /* imm: float bits from 0f... */
    ISA_OPD_F64,      /* imm: double bits from 0d... or a decimal literal */
    ISA_OPD_SREG,     /* sreg.id, sreg.comp (0..2 for .x/.y/.z, or the index) */
    ISA_OPD_SYM,      /* sym: variable index (module var when flags&ISA_OPDF_MODSYM), plus offset */
    ISA_OPD_FUNC,     /* func: function index */
    ISA_OPD_LABEL,    /* label: label index in the function */
    ISA_OPD_ADDR,     /* [base + offset]: base is one of REG, SYM, or none; or a list (tex) */
    ISA_OPD_VEC,      /* {a, b, ...}: elems = first/count into the function's operand pool */
    ISA_OPD_LIST,     /* (a, b, ...): call parameter list, same storage as VEC */
    ISA_OPD_PROTO,    /* proto: .callprototype index in the function */
    ISA_OPD_BRTARGETS,/* .branchtargets list index in the function */
    ISA_OPD_DUAL      /* d|p: elems = two operands in the pool */
} isa_opdkind_t;

enum {
    ISA_OPDF_NEG     = 1 << 0,  /* !p */
    ISA_OPDF_MODSYM  = 1 << 1,  /* sym refers to a module-scope variable */
    ISA_OPDF_UNSIGNED= 1 << 2,  /* immediate written with a U suffix */
    ISA_OPDF_ADDRLIST= 1 << 3,  /* address is a list [a, b, {c}] kept in the pool */
    ISA_OPDF_MINUS   = 1 << 4,  /* -a: a negated register source (vmad's {-}a, {-}b, {-}c) */
    ISA_OPDF_REGOFF  = 1 << 5   /* r+imm: a register source plus the immediate in imm (%r2+1),
                               the sum taken in the register's width */
};

/* Register component (".x" of a vector register) or video selector (".b2", ".h1").
 * ISA_SEL_HXY and ISA_SEL_BXY..ISA_SEL_BXYZW are the multi-field selectors of the SIMD video instructions,
 * with 2, 3 or 4 digits: source selectors (".h32", ".b7654") and destination masks
 * (".h10", ".b20", ".b3210").  Their digits are in the operand's fsel, one per nibble,
 * the last written in the lowest nibble, so that fsel reads as written in hexadecimal
 * (".b7654" is 0x7654) and nibble i is the digit of field i. */
typedef enum {
    ISA_SEL_NONE, ISA_SEL_X, ISA_SEL_Y, ISA_SEL_Z, ISA_SEL_W, ISA_SEL_R, ISA_SEL_G, ISA_SEL_B, ISA_SEL_A,
    ISA_SEL_B0, ISA_SEL_B1, ISA_SEL_B2, ISA_SEL_B3, ISA_SEL_H0, ISA_SEL_H1,
    ISA_SEL_HXY, ISA_SEL_BXY, ISA_SEL_BXYZ, ISA_SEL_BXYZW, ISA_SEL__COUNT
} isa_sel_t;
/* "", "x", ..., "h1", then the multi-field forms' legends "hxy", "bxy", "bxyz", "bxyzw". */
extern const char *const isa_sel_names[ISA_SEL__COUNT];
#define ISA_SEL_MULTI(sel) ((sel) >= ISA_SEL_HXY)
/* Digits of a multi-field selector: 2, 3 or 4. */
#define ISA_SEL_NDIGITS(sel) ((sel) == ISA_SEL_HXY ? 2u : (unsigned)((sel) - ISA_SEL_BXY + 2))
/* A selector as written after the dot ("b3", "h10", "b7654") into buf; returns buf. */
char *isa_sel_text(unsigned sel, unsigned fsel, char *buf, size_t size);

typedef struct isa_operand {
    uint8_t  kind;    /* isa_opdkind_t */
    uint8_t  flags;   /* OPDF_ bits */
    uint8_t  base;    /* for ISA_OPD_ADDR: ISA_OPD_REG, ISA_OPD_SYM, ISA_OPD_IMM (absolute) */
    uint8_t  sel;     /* ISA_OPD_REG: component or byte/half selector (isa_sel_t) */
    uint32_t count;   /* elements for VEC/LIST/DUAL/address lists */
    union {
        uint32_t reg;
        uint32_t first;           /* first pool index for VEC/LIST/DUAL/ADDRLIST */
        uint32_t label;
        uint32_t func;
        uint32_t proto;
        struct { uint16_t id; uint16_t comp; } sreg;
        uint32_t sym;
        uint32_t idx;             /* generic index (brtargets) */
    } u;
    uint16_t fsel;    /* ISA_OPD_REG with a multi-field selector: its digits (isa_sel_t) */
    int64_t  imm;     /* immediate bits, or address / symbol offset */
    isa_loc_t loc;
} isa_operand_t;

#define ISA_MAX_SFX 24
typedef struct isa_instr {
    uint16_t  op;           /* isa_op_t */
    uint8_t   nsfx;
    uint8_t   ntypes;
    isa_sfx_t sfx[ISA_MAX_SFX];
    uint8_t   types[5];     /* the type suffixes, in order (isa_type_t) */
    uint32_t  guard;        /* predicate register or ISA_NONE */
    uint8_t   guard_neg;
    uint8_t   nopd;
    uint32_t  opd;          /* first operand in the function's operand pool */
    uint32_t  dbg;          /* index into the function's .loc table, or ISA_NONE */
    isa_loc_t loc;          /* the whole instruction, mnemonic first */
    isa_loc_t mloc;         /* the dotted mnemonic alone */
} isa_instr_t;

/* Register declaration: ".reg .b32 %r<70>" is one declaration of 70 registers. */
typedef struct {
    const char *name;      /* "%r" for a range, the full name otherwise */
    isa_type_t  type;
    uint8_t     vec;       /* 1, 2, 4 (".reg .v4 .f32 v") */
    uint32_t    count;     /* 0: a single register; N: the range name<N> */
    uint32_t    first;     /* first register index */
    uint32_t    scope;
    isa_loc_t   loc;
} isa_regdecl_t;

typedef struct {
    const char *name;      /* "%r12" */
    isa_type_t  type;
    uint8_t     vec;
    uint32_t    decl;
} isa_reg_t;

/* Initializer element of a variable. */
/* ISA_INIT_FIELD_NAME / ISA_INIT_FIELD_INT: "field = name" / "field = 1" in a .samplerref or
 * .texref initializer; sym is the field's index in the module's strings, value the
 * name's string index or the integer. */
typedef enum {
    ISA_INIT_INT, ISA_INIT_F32, ISA_INIT_F64, ISA_INIT_SYM, ISA_INIT_GENERIC, ISA_INIT_MASK, ISA_INIT_FIELD_NAME, ISA_INIT_FIELD_INT
} isa_initkind_t;
typedef struct {
    uint8_t  kind;     /* isa_initkind_t */
    uint8_t  modsym;   /* sym is a module variable (1) or a function (0) */
    uint32_t sym;      /* ISA_INIT_SYM/ISA_INIT_GENERIC: variable or function index */
    int64_t  value;    /* integer or float bits; offset for symbols; mask for ISA_INIT_MASK */
} isa_init_t;

enum {
    ISA_LINK_NONE = 0, ISA_LINK_VISIBLE = 1 << 0, ISA_LINK_EXTERN = 1 << 1, ISA_LINK_WEAK = 1 << 2,
    ISA_LINK_COMMON = 1 << 3
};
/* ISA_VARF_FSCOPE: a .global or .const variable declared in a function body; it is kept
 * among the module's variables (its storage), found by no name lookup from outside. */
enum {
    ISA_VARF_MANAGED = 1 << 0, ISA_VARF_UNIFIED = 1 << 1, ISA_VARF_PTR = 1 << 2, ISA_VARF_UNSIZED = 1 << 3,
    ISA_VARF_FSCOPE = 1 << 4
};

/* A variable in any addressable space, a parameter, or an opaque handle. */
typedef struct {
    const char *name;
    isa_space_t space;
    isa_type_t  type;         /* element type; ISA_T_NONE for opaque types */
    uint8_t     opaque;       /* 0, or ISA_D_TEXREF / SAMPLERREF / SURFREF + 1 */
    uint8_t     vec;          /* 1, 2, 4, 8 */
    uint8_t     linkage;      /* LINK_ bits */
    uint8_t     flags;        /* VARF_ bits */
    uint32_t    align;        /* explicit .align, or 0 */
    uint8_t     ndims;
    uint32_t    dims[4];      /* 0 for an unsized dimension */
    uint64_t    size;         /* bytes, 0 when unsized */
    uint32_t    ptr_space;    /* .ptr.space, or ISA_SP_NONE */
    uint32_t    ptr_align;    /* .ptr.align N */
    uint32_t    ninit;
    isa_init_t *init;         /* flat list of elements */
    uint8_t     init_braced;  /* the initializer used braces */
    uint8_t     attr_written; /* .attribute(...) was written (printing) */
    uint32_t    scope;        /* scope in the function, ISA_NONE at module scope */
    isa_loc_t   loc;
} isa_var_t;

typedef struct {
    const char *name;
    uint32_t    instr;        /* index of the instruction it precedes */
    uint32_t    scope;
    isa_loc_t   loc;
} isa_label_t;

/* A block scope: "{ ... }" in a body; scope 0 is the body itself. */
typedef struct {
    uint32_t parent;          /* ISA_NONE for scope 0 */
    uint32_t begin, end;      /* instruction range [begin, end) */
} isa_scope_t;

/* A .loc directive, and a .pragma or .callprototype / .branchtargets statement.
 * A .loc's ", function_name $L, inlined_at f l c" is not kept: its label lies in a
 * .section .debug_str block, which the scanner skips, and ptxas takes no inlined_at
 * without the function_name. */
typedef struct {
    uint32_t    file, line, col;
} isa_dbgloc_t;

typedef struct {
    const char *name;         /* the label it is declared under */
    uint32_t    nret, nparam;
    isa_var_t  *rets;         /* .param declarations (names may be "_") */
    isa_var_t  *params;
    uint8_t     noreturn;
    uint32_t    instr, scope; /* where it was declared */
} isa_proto_t;

typedef struct {
    const char *name;
    uint8_t     calltargets;  /* .calltargets instead of .branchtargets */
    uint32_t    count;
    uint32_t   *targets;      /* label indices (or function indices for .calltargets) */
    uint32_t    instr, scope;
} isa_brtargets_t;

typedef struct {
    const char *text;         /* the pragma string(s) as written, quotes included */
    uint32_t    instr;        /* instruction it precedes; ISA_NONE in a function header */
    uint32_t    scope;
} isa_pragma_t;

/* The body's statements in source order, for printing: what each one is and its
 * index in the array of that kind. */
typedef enum {
    ISA_STMT_INSTR, ISA_STMT_LABEL, ISA_STMT_OPEN, ISA_STMT_CLOSE, ISA_STMT_REGDECL, ISA_STMT_VAR, ISA_STMT_DBG, ISA_STMT_PRAGMA,
    ISA_STMT_PROTO, ISA_STMT_BRT
} isa_stmtkind_t;
typedef struct { uint8_t kind; uint32_t idx; } isa_stmt_t;

/* Performance directives of a function header. */
typedef struct {
    isa_dir_t id;
    uint32_t  n;
    uint32_t  v[3];
} isa_perf_t;

typedef struct isa_func {
    const char    *name;
    uint8_t        is_entry;
    uint8_t        linkage;
    uint8_t        has_body;
    uint8_t        noreturn;
    uint32_t       nret, nparam;
    isa_var_t     *rets;
    isa_var_t     *params;
    uint32_t       nperf;
    isa_perf_t    *perf;
    /* body */
    uint32_t       ninstr;        isa_instr_t     *instrs;
    uint32_t       nopd;          isa_operand_t   *opds;
    uint32_t       nregdecl;      isa_regdecl_t   *regdecls;
    uint32_t       nreg;          isa_reg_t       *regs;
    uint32_t       nvar;          isa_var_t       *vars;     /* .local/.shared/.param/... in the body */
    uint32_t       nlabel;        isa_label_t     *labels;
    uint32_t       nscope;        isa_scope_t     *scopes;
    uint32_t       ndbg;          isa_dbgloc_t    *dbg;
    uint32_t       nproto;        isa_proto_t     *protos;
    uint32_t       nbrt;          isa_brtargets_t *brts;
    uint32_t       npragma;       isa_pragma_t    *pragmas;
    uint32_t       nstmt;         isa_stmt_t      *stmts;
    uint8_t        decl_linkage;  /* linkage written on a separate prototype */
    isa_loc_t      loc;
} isa_func_t;

typedef struct {
    uint32_t    index;
    const char *name;
    uint32_t    nextra;
    uint64_t    extra[2];     /* timestamp, size when given */
} isa_file_t;

/* Module items in source order, for printing. */
typedef enum { ISA_ITEM_VAR, ISA_ITEM_FUNC, ISA_ITEM_FUNCDECL, ISA_ITEM_FILE, ISA_ITEM_PRAGMA, ISA_ITEM_ALIAS } isa_itemkind_t;
typedef struct { uint8_t kind; uint32_t idx; } isa_item_t;

typedef struct {
    const char *alias, *target;
} isa_alias_t;

typedef struct isa_module {
    unsigned       ver_major, ver_minor;
    uint32_t       ntarget;
    const char   **targets;       /* ".target" words as written: sm_90, debug, ... */
    isa_sm_t       sm;            /* the architecture among them, or ISA_SM_ANY */
    unsigned       address_size;  /* 32 or 64 (64 when absent) */
    isa_loc_t      address_size_loc;  /* the .address_size directive (file 0, 0-0 when absent) */
    uint32_t       nfile;     isa_file_t   *files;
    uint32_t       nvar;      isa_var_t    *vars;
    uint32_t       nfunc;     isa_func_t   *funcs;
    uint32_t       nalias;    isa_alias_t  *aliases;
    uint32_t       npragma;   isa_pragma_t *pragmas;
    uint32_t       nitem;     isa_item_t   *items;
    uint32_t       nstr;      const char  **strs;     /* ISA_SFX_SHAPE_TEXT strings */
    uint32_t       nsrc;      isa_source_t *srcs;
    struct isa_arena *arena;
} isa_module_t;

/* Arena allocation: everything of a module lives in its arena. */
typedef struct isa_arena isa_arena_t;
isa_arena_t *isa_arena_new(void);
void        *isa_arena_alloc(isa_arena_t *a, size_t size);   /* zeroed, 16-aligned */
char        *isa_arena_strndup(isa_arena_t *a, const char *s, size_t n);
void         isa_arena_free(isa_arena_t *a);
/* Move everything src holds into dst (freed with dst from now on); src itself is freed.
 * The linker uses it to take over the memory of the modules it merges. */
void         isa_arena_adopt(isa_arena_t *dst, isa_arena_t *src);

isa_module_t *isa_module_new(void);
void          isa_module_free(isa_module_t *m);

/* Find an entry or function by name; ISA_NONE when absent. */
uint32_t isa_module_find_func(const isa_module_t *m, const char *name);

/* Suffix queries on an instruction. */
int  isa_instr_mod(const isa_instr_t *in, isa_group_t g);           /* first mod id of g, or -1 */
int  isa_instr_space(const isa_instr_t *in, unsigned nth);          /* nth space, or -1 */
bool isa_instr_has(const isa_instr_t *in, isa_mod_t m);
/* The instruction's full dotted name ("ld.global.v4.f32") into buf; returns buf. */
char *isa_instr_name(const isa_module_t *m, const isa_instr_t *in, char *buf, size_t size);

/* Size in bytes of a parameter or variable (elements x vec x element size). */
uint64_t isa_var_size(const isa_var_t *v);
/* Natural alignment: the explicit .align, else the element size. */
uint32_t isa_var_align(const isa_var_t *v);
/* The register of parameter v of a function (rets first, then params: 0 .. nret+nparam-1)
 * when it is a .reg parameter, else ISA_NONE.  In a body, the .reg parameters are the
 * function's first registers, in that order (their decl is ISA_NONE). */
uint32_t isa_param_reg(const isa_func_t *f, uint32_t v);

/* Printing (print.c): the module as PTX text that parses back to the same IR. */
void isa_print_module(FILE *out, const isa_module_t *m);
/* Dump (dump.c): the lowered IR in a readable, stable form (ptxrun --dump-ir). */
void isa_dump_module(FILE *out, const isa_module_t *m);

/* The table of supported PTX as Markdown (doc.c), for docs/ptx-support.md. */
void isa_doc_table(FILE *out);

/*}=====================================================================*/

#endif
