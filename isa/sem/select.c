/* select.c: handler selection for the pure (register-only) instruction families: each
 * family's selector is asked in turn; none answering means no semantics yet. */
#include "isa/sem/lanes.h"

bool isa_sem_select(const isa_instr_t *in, isa_xinsn_t *out)
{
    out->desc = NULL;
    switch (isa_ops[in->op].family) {
    case ISA_FAM_INT:
        return isa_sem_int(in, out) || isa_sem_logic(in, out);
    case ISA_FAM_LOGIC:
        return isa_sem_logic(in, out);
    case ISA_FAM_FP:
    case ISA_FAM_HALF:
        return isa_sem_fp(in, out);
    case ISA_FAM_CMP:
        return isa_sem_cmp(in, out);
    case ISA_FAM_CVT:
        return isa_sem_cvt(in, out);
    case ISA_FAM_VIDEO:
        return isa_sem_video(in, out);
    default:
        return false;
    }
}
