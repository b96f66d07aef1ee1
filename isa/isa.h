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

enum {
#define ISA_TYPE(id, text, bits, cls, ptx, decl) TM_##id = 1ull << ISA_T_##id,
#include "isa/types.def"
#undef ISA_TYPE
};
#define TM_NONE 0ull

typedef enum { TC_BIT, TC_UINT, TC_SINT, TC_FLOAT, TC_PACKED, TC_PRED } isa_tclass_t;
/* Where a type may be declared (types.def's DECL column). */
typedef enum { TD_NONE, TD_REG, TD_NOPARAM, TD_ANY } isa_tdecl_t;

/* Named type sets used by ops.def. */
#define TS_B       (TM_B8 | TM_B16 | TM_B32 | TM_B64)
#define TS_U       (TM_U8 | TM_U16 | TM_U32 | TM_U64)
#define TS_S       (TM_S8 | TM_S16 | TM_S32 | TM_S64)
#define TS_INT     (TS_U | TS_S)
#define TS_INT16UP (TM_U16 | TM_U32 | TM_U64 | TM_S16 | TM_S32 | TM_S64)
#define TS_INT32UP (TM_U32 | TM_U64 | TM_S32 | TM_S64)
#define TS_US32    (TM_U32 | TM_S32)
#define TS_U32_64  (TM_U32 | TM_U64)
#define TS_B32_64  (TM_B32 | TM_B64)
#define TS_BITS    (TM_B16 | TM_B32 | TM_B64)
#define TS_LOGIC   (TM_PRED | TS_BITS)
#define TS_SHR     (TS_BITS | TS_INT16UP)
#define TS_F       (TM_F32 | TM_F64)
#define TS_HALF    (TM_F16 | TM_F16X2 | TM_BF16 | TM_BF16X2)
#define TS_FLOATS  (TS_F | TS_HALF)
#define TS_MINMAX  (TS_INT16UP | TS_FLOATS | TM_U16X2 | TM_S16X2)
#define TS_ADD     (TS_MINMAX | TM_F32X2)
#define TS_FMA     (TS_FLOATS | TM_F32X2)
#define TS_ARITH   (TS_INT16UP | TS_FMA)
#define TS_SIGNED  (TM_S16 | TM_S32 | TM_S64 | TS_FLOATS)
#define TS_FAPPROX (TM_F32 | TS_HALF)
#define TS_CMP     (TS_B | TS_INT | TS_FLOATS)
#define TS_SELP    (TM_B16 | TM_B32 | TM_B64 | TS_INT16UP | TS_F)
#define TS_MOV     (TM_PRED | TM_B16 | TM_B32 | TM_B64 | TM_B128 | TS_INT16UP | TS_F)
#define TS_FP8     (TM_E4M3 | TM_E5M2 | TM_E4M3X2 | TM_E5M2X2 | TM_E4M3X4 | TM_E5M2X4 | \
                    TM_UE8M0 | TM_UE8M0X2 | TM_UE4M3)
#define TS_FP6     (TM_E2M3 | TM_E3M2 | TM_E2M3X2 | TM_E3M2X2 | TM_E2M3X4 | TM_E3M2X4)
#define TS_FP4     (TM_E2M1 | TM_E2M1X2 | TM_E2M1X4)
#define TS_CVT     (TS_INT | TS_FLOATS | TM_TF32 | TS_FP8 | TS_FP6 | TS_FP4)
#define TS_CVTPACK (TM_U2 | TM_S2 | TM_U4 | TM_S4 | TM_U8 | TM_S8 | TM_U16 | TM_S16 | TM_S32 | TM_B32)
#define TS_LDST    (TS_B | TM_B128 | TS_INT | TS_F | TS_HALF)
#define TS_ATOM    (TM_B16 | TS_B32_64 | TM_B128 | TS_INT32UP | TS_FLOATS)
#define TS_REDASYNC (TM_B32 | TS_INT32UP)
#define TS_MULTIMEM (TS_B32_64 | TS_INT32UP | TS_FLOATS | TM_E4M3 | TM_E5M2 | TM_E4M3X2 | \
                     TM_E5M2X2 | TM_E4M3X4 | TM_E5M2X4)
#define TS_REDUX   (TM_B32 | TS_US32 | TM_F32)
#define TS_MMA     (TS_F | TM_F16 | TM_BF16 | TM_TF32 | TM_E4M3 | TM_E5M2 | TM_E2M3 | TM_E3M2 | \
                    TM_E2M1 | TM_UE8M0 | TM_UE4M3 | TM_U8 | TM_S8 | TM_U4 | TM_S4 | TM_B1 | TM_S32)
#define TS_LDMATRIX (TM_B8 | TM_B16 | TM_B8X16 | TM_B6X16_P32 | TM_B4X16_P64)
#define TS_TMEMLD  (TM_B32 | TS_US32 | TM_F32)
#define TS_TEX     (TS_US32 | TM_F32 | TM_F16 | TM_F16X2)
#define TS_SURF    (TS_B | TS_INT32UP)
#define TS_TENSORMAP (TM_B1024 | TS_B32_64)
#define TS_F_X2    (TS_F | TM_F32X2)                     /* directed roundings of add, sub, mul, fma */
#define TS_FTZ     (TM_F32 | TM_F16 | TM_F16X2 | TM_F32X2)  /* .ftz of add, sub, mul, fma */
#define TS_FTZ1    (TM_F32 | TM_F16 | TM_F16X2)             /* .ftz of abs, neg, min, max */
#define TS_SAT     (TM_F32 | TM_F16 | TM_F16X2)             /* .sat of float add, sub, mul, fma */
#define TS_WIDE    (TM_U16 | TM_U32 | TM_S16 | TM_S32)     /* mul.wide, mad.wide */
#define TS_CVTF    (TM_F16 | TM_BF16 | TM_F32 | TM_F64)   /* cvt's scalar floats */
#define TS_F8X2    (TM_E4M3X2 | TM_E5M2X2)
#define TS_F6X2    (TM_E2M3X2 | TM_E3M2X2)
#define TS_X4      (TM_E4M3X4 | TM_E5M2X4 | TM_E2M3X4 | TM_E3M2X4 | TM_E2M1X4)
#define TS_ALL     (~0ull)   /* rules.def: any type, or no type at all (no condition) */

typedef struct {
    const char  *text;
    uint16_t     bits;
    isa_tclass_t cls;
    uint8_t      ptx;         /* isa_ptxv_t: the oldest .version that may name it */
    uint8_t      decl;        /* isa_tdecl_t: where a variable or register may have it */
} isa_type_info_t;
extern const isa_type_info_t isa_types[ISA_T__COUNT];

/* State spaces (spaces.def). */
typedef enum { SP_NOADDR, SP_ADDR32, SP_ADDR64 } isa_addrbits_t;
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
typedef enum { GN_ONE = 1, GN_TWO = 2 } isa_gmax_t;
typedef enum {
#define ISA_GROUP(id, maxn, legend) ISA_G_##id,
#include "isa/groups.def"
#undef ISA_GROUP
    ISA_G__COUNT
} isa_group_t;
enum {
#define ISA_GROUP(id, maxn, legend) G_##id = 1ull << ISA_G_##id,
#include "isa/groups.def"
#undef ISA_GROUP
};
#define G_NONE 0ull
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
    OF_NONE = 0, OF_BRANCH = 1 << 0, OF_CALL = 1 << 1, OF_RET = 1 << 2, OF_EXIT = 1 << 3,
    OF_BARRIER = 1 << 4, OF_WARPSYNC = 1 << 5, OF_LOAD = 1 << 6, OF_STORE = 1 << 7,
    OF_ATOMIC = 1 << 8, OF_SIDE = 1 << 9, OF_ASYNC = 1 << 10, OF_FENCE = 1 << 11,
    OF_DTYPE = 1 << 12,  /* the destination register has the (first) instruction type */
    OF_SINKD = 1 << 13,  /* the result (or the d of d|p) may be discarded with '_' */
    OF_PREDOUT = 1 << 14 /* d|p: p must be a predicate register, not '_' */
};
/* Type arity: minimum in the high nibble, maximum in the low one. */
enum {
    TA_0 = 0x00, TA_1 = 0x11, TA_2 = 0x22, TA_3 = 0x33, TA_4 = 0x44,
    TA_0_1 = 0x01, TA_0_2 = 0x02, TA_1_2 = 0x12, TA_2_3 = 0x23, TA_2_4 = 0x24, TA_1_4 = 0x14,
    TA_4_5 = 0x45
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
typedef enum { SR_SCALAR, SR_XYZ, SR_INDEX32, SR_INDEX8 } isa_srform_t;
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
    DC_VERSION, DC_TARGET, DC_ADDRSIZE, DC_FILE, DC_LOC, DC_SECTION, DC_ENTRY, DC_FUNC,
    DC_PROTO, DC_BRTARGETS, DC_CALLTARGETS, DC_PRAGMA, DC_ALIAS, DC_PERF, DC_WORD
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
typedef enum { SFX_TYPE, SFX_SPACE, SFX_MOD, SFX_SHAPE_TEXT } isa_sfxkind_t;
typedef struct {
    uint8_t  kind;   /* isa_sfxkind_t */
    uint8_t  group;  /* isa_group_t it was assigned to (SFX_MOD, SFX_SPACE) */
    uint16_t id;     /* type, space or modifier id; for SFX_SHAPE_TEXT an index into
                        the module's string table (a token no table lists, e.g. m16n8k16,
                        accepted only where the opcode's family rule says so) */
} isa_sfx_t;

typedef enum {
    OPD_REG,      /* reg: register index */
    OPD_SINK,     /* _ */
    OPD_IMM,      /* imm: integer bits */
    OPD_F32,      /* imm: float bits from 0f... */
    OPD_F64,      /* imm: double bits from 0d... or a decimal literal */
    OPD_SREG,     /* sreg.id, sreg.comp (0..2 for .x/.y/.z, or the index) */
    OPD_SYM,      /* sym: variable index (module var when flags&OPDF_MODSYM), plus offset */
    OPD_FUNC,     /* func: function index */
    OPD_LABEL,    /* label: label index in the function */
    OPD_ADDR,     /* [base + offset]: base is one of REG, SYM, or none; or a list (tex) */
    OPD_VEC,      /* {a, b, ...}: elems = first/count into the function's operand pool */
    OPD_LIST,     /* (a, b, ...): call parameter list, same storage as VEC */
    OPD_PROTO,    /* proto: .callprototype index in the function */
    OPD_BRTARGETS,/* .branchtargets list index in the function */
    OPD_DUAL      /* d|p: elems = two operands in the pool */
} isa_opdkind_t;

enum {
    OPDF_NEG     = 1 << 0,  /* !p */
    OPDF_MODSYM  = 1 << 1,  /* sym refers to a module-scope variable */
    OPDF_UNSIGNED= 1 << 2,  /* immediate written with a U suffix */
    OPDF_ADDRLIST= 1 << 3,  /* address is a list [a, b, {c}] kept in the pool */
    OPDF_MINUS   = 1 << 4,  /* -a: a negated register source (vmad's {-}a, {-}b, {-}c) */
    OPDF_REGOFF  = 1 << 5   /* r+imm: a register source plus the immediate in imm (%r2+1),
                               the sum taken in the register's width */
};

/* Register component (".x" of a vector register) or video selector (".b2", ".h1").
 * SEL_HXY and SEL_BXY..SEL_BXYZW are the multi-field selectors of the SIMD video instructions,
 * with 2, 3 or 4 digits: source selectors (".h32", ".b7654") and destination masks
 * (".h10", ".b20", ".b3210").  Their digits are in the operand's fsel, one per nibble,
 * the last written in the lowest nibble, so that fsel reads as written in hexadecimal
 * (".b7654" is 0x7654) and nibble i is the digit of field i. */
typedef enum {
    SEL_NONE, SEL_X, SEL_Y, SEL_Z, SEL_W, SEL_R, SEL_G, SEL_B, SEL_A,
    SEL_B0, SEL_B1, SEL_B2, SEL_B3, SEL_H0, SEL_H1,
    SEL_HXY, SEL_BXY, SEL_BXYZ, SEL_BXYZW, SEL__COUNT
} isa_sel_t;
/* "", "x", ..., "h1", then the multi-field forms' legends "hxy", "bxy", "bxyz", "bxyzw". */
extern const char *const isa_sel_names[SEL__COUNT];
#define ISA_SEL_MULTI(sel) ((sel) >= SEL_HXY)
/* Digits of a multi-field selector: 2, 3 or 4. */
#define ISA_SEL_NDIGITS(sel) ((sel) == SEL_HXY ? 2u : (unsigned)((sel) - SEL_BXY + 2))
/* A selector as written after the dot ("b3", "h10", "b7654") into buf; returns buf. */
char *isa_sel_text(unsigned sel, unsigned fsel, char *buf, size_t size);

typedef struct isa_operand {
    uint8_t  kind;    /* isa_opdkind_t */
    uint8_t  flags;   /* OPDF_ bits */
    uint8_t  base;    /* for OPD_ADDR: OPD_REG, OPD_SYM, OPD_IMM (absolute) */
    uint8_t  sel;     /* OPD_REG: component or byte/half selector (isa_sel_t) */
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
    uint16_t fsel;    /* OPD_REG with a multi-field selector: its digits (isa_sel_t) */
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
/* INIT_FIELD_NAME / INIT_FIELD_INT: "field = name" / "field = 1" in a .samplerref or
 * .texref initializer; sym is the field's index in the module's strings, value the
 * name's string index or the integer. */
typedef enum {
    INIT_INT, INIT_F32, INIT_F64, INIT_SYM, INIT_GENERIC, INIT_MASK, INIT_FIELD_NAME, INIT_FIELD_INT
} isa_initkind_t;
typedef struct {
    uint8_t  kind;     /* isa_initkind_t */
    uint8_t  modsym;   /* sym is a module variable (1) or a function (0) */
    uint32_t sym;      /* INIT_SYM/INIT_GENERIC: variable or function index */
    int64_t  value;    /* integer or float bits; offset for symbols; mask for INIT_MASK */
} isa_init_t;

enum {
    LINK_NONE = 0, LINK_VISIBLE = 1 << 0, LINK_EXTERN = 1 << 1, LINK_WEAK = 1 << 2,
    LINK_COMMON = 1 << 3
};
enum { VARF_MANAGED = 1 << 0, VARF_UNIFIED = 1 << 1, VARF_PTR = 1 << 2, VARF_UNSIZED = 1 << 3 };

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
    ST_INSTR, ST_LABEL, ST_OPEN, ST_CLOSE, ST_REGDECL, ST_VAR, ST_DBG, ST_PRAGMA,
    ST_PROTO, ST_BRT
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
typedef enum { ITEM_VAR, ITEM_FUNC, ITEM_FUNCDECL, ITEM_FILE, ITEM_PRAGMA, ITEM_ALIAS } isa_itemkind_t;
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
    uint32_t       nfile;     isa_file_t   *files;
    uint32_t       nvar;      isa_var_t    *vars;
    uint32_t       nfunc;     isa_func_t   *funcs;
    uint32_t       nalias;    isa_alias_t  *aliases;
    uint32_t       npragma;   isa_pragma_t *pragmas;
    uint32_t       nitem;     isa_item_t   *items;
    uint32_t       nstr;      const char  **strs;     /* SFX_SHAPE_TEXT strings */
    uint32_t       nsrc;      isa_source_t *srcs;
    struct isa_arena *arena;
} isa_module_t;

/* Arena allocation: everything of a module lives in its arena. */
typedef struct isa_arena isa_arena_t;
isa_arena_t *isa_arena_new(void);
void        *isa_arena_alloc(isa_arena_t *a, size_t size);   /* zeroed, 16-aligned */
char        *isa_arena_strndup(isa_arena_t *a, const char *s, size_t n);
void         isa_arena_free(isa_arena_t *a);

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
