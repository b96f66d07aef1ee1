/* devrt.c: device-runtime functions that programs call without a body, written here in PTX
 * and linked into a module that declares one.  CUDA's libcudadevrt.a defines them in SASS
 * only, which the emulator cannot run: the cooperative-group calls that Numba (and code
 * built with -rdc against old cooperative_groups) makes, over the grid workspace that a
 * cooperative launch passes in %envreg1 (high half) and %envreg2 (low half), used exactly
 * as nvcc's inline grid sync uses it (cooperative_groups/details/sync.h):
 *   cudaCGGetIntrinsicHandle(scope)       the workspace for cudaCGScopeGrid (1), else 0;
 *   cudaCGSynchronize(handle, flags)      every thread of the grid waits for the others: the
 *   cudaCGSynchronizeGrid(handle, flags)  barrier word at handle + 4, arrived at by each
 *                                         CTA's first thread (the first CTA adds
 *                                         0x80000000 - (CTAs - 1), the others 1) and polled
 *                                         until its top bit flips; a launch without a
 *                                         workspace (not cooperative) traps, as nvcc's does;
 *   cudaCGGetSize(&threads, &grids, h)    the grid's threads, 1 grid;
 *   cudaCGGetRank(&rank, &grid, h)        the thread's rank in the grid, grid 1 (both as
 *                                         the H100 gives them: app test cg_devrt).
 * Each returns cudaSuccess (0) where it returns a cudaError_t. */
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"

static const char *const devrt_names[] = {
    "cudaCGGetIntrinsicHandle", "cudaCGSynchronize", "cudaCGSynchronizeGrid", "cudaCGGetSize", "cudaCGGetRank", NULL,
};

const char *fe_devrt_name(unsigned i)
{
    return i < sizeof devrt_names / sizeof *devrt_names ? devrt_names[i] : NULL;
}

static const char devrt_body[] =
    ".visible .func (.param .b64 ret) cudaCGGetIntrinsicHandle(.param .b32 scope)\n"
    "{\n"
    "\t.reg .pred %p;\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.reg .b64 %rd1;\n"
    "\tld.param.b32 %r1, [scope];\n"
    "\tmov.u32 %r2, %envreg1;\n"
    "\tmov.u32 %r3, %envreg2;\n"
    "\tmov.b64 %rd1, {%r3, %r2};\n"
    "\tsetp.ne.b32 %p, %r1, 1;\n"
    "\t@%p mov.b64 %rd1, 0;\n"
    "\tst.param.b64 [ret], %rd1;\n"
    "\tret;\n"
    "}\n"
    ".visible .func (.param .b32 ret) cudaCGSynchronize(.param .b64 handle, .param .b32 flags)\n"
    "{\n"
    "\t.reg .pred %p<4>;\n"
    "\t.reg .b32 %r<16>;\n"
    "\t.reg .b64 %rd<3>;\n"
    "\tld.param.b64 %rd1, [handle];\n"
    "\tsetp.ne.b64 %p1, %rd1, 0;\n"
    "\t@%p1 bra $WORKSPACE;\n"
    "\ttrap;\n"
    "$WORKSPACE:\n"
    "\tadd.s64 %rd2, %rd1, 4;\n"
    "\tbar.sync 0;\n"
    "\tmov.u32 %r1, %tid.x;\n"
    "\tmov.u32 %r2, %tid.y;\n"
    "\tmov.u32 %r3, %tid.z;\n"
    "\tor.b32 %r4, %r1, %r2;\n"
    "\tor.b32 %r4, %r4, %r3;\n"
    "\tsetp.ne.b32 %p2, %r4, 0;\n"
    "\t@%p2 bra $RELEASED;\n"
    "\tmov.u32 %r5, %nctaid.x;\n"
    "\tmov.u32 %r6, %nctaid.y;\n"
    "\tmov.u32 %r7, %nctaid.z;\n"
    "\tmul.lo.u32 %r8, %r5, %r6;\n"
    "\tmul.lo.u32 %r8, %r8, %r7;\n"
    "\tmov.u32 %r9, %ctaid.x;\n"
    "\tmov.u32 %r10, %ctaid.y;\n"
    "\tmov.u32 %r11, %ctaid.z;\n"
    "\tor.b32 %r12, %r9, %r10;\n"
    "\tor.b32 %r12, %r12, %r11;\n"
    "\tsetp.eq.b32 %p3, %r12, 0;\n"
    "\tmov.u32 %r13, 1;\n"
    "\tsub.u32 %r14, -2147483647, %r8;\n"
    "\t@%p3 mov.u32 %r13, %r14;\n"
    "\tatom.add.release.gpu.u32 %r15, [%rd2], %r13;\n"
    "$POLL:\n"
    "\tld.acquire.gpu.u32 %r1, [%rd2];\n"
    "\txor.b32 %r1, %r1, %r15;\n"
    "\tand.b32 %r1, %r1, -2147483648;\n"
    "\tsetp.eq.b32 %p1, %r1, 0;\n"
    "\t@%p1 bra $POLL;\n"
    "$RELEASED:\n"
    "\tbar.sync 0;\n"
    "\tmov.u32 %r1, 0;\n"
    "\tst.param.b32 [ret], %r1;\n"
    "\tret;\n"
    "}\n"
    ".visible .func (.param .b32 ret) cudaCGSynchronizeGrid(.param .b64 handle, .param .b32 flags)\n"
    "{\n"
    "\t.reg .b32 %r1;\n"
    "\t.reg .b64 %rd1;\n"
    "\tld.param.b64 %rd1, [handle];\n"
    "\tld.param.b32 %r1, [flags];\n"
    "\t{\n"
    "\t.param .b64 h;\n"
    "\t.param .b32 f;\n"
    "\t.param .b32 r;\n"
    "\tst.param.b64 [h], %rd1;\n"
    "\tst.param.b32 [f], %r1;\n"
    "\tcall.uni (r), cudaCGSynchronize, (h, f);\n"
    "\tld.param.b32 %r1, [r];\n"
    "\t}\n"
    "\tst.param.b32 [ret], %r1;\n"
    "\tret;\n"
    "}\n"
    ".visible .func (.param .b32 ret) cudaCGGetSize(.param .b64 nthreads, .param .b64 ngrids, .param .b64 handle)\n"
    "{\n"
    "\t.reg .pred %p;\n"
    "\t.reg .b32 %r<4>;\n"
    "\t.reg .b64 %rd<3>;\n"
    "\tld.param.b64 %rd1, [nthreads];\n"
    "\tld.param.b64 %rd2, [ngrids];\n"
    "\tsetp.eq.b64 %p, %rd1, 0;\n"
    "\t@%p bra $GRIDS;\n"
    "\tmov.u32 %r1, %ntid.x;\n"
    "\tmov.u32 %r2, %ntid.y;\n"
    "\tmul.lo.u32 %r1, %r1, %r2;\n"
    "\tmov.u32 %r2, %ntid.z;\n"
    "\tmul.lo.u32 %r1, %r1, %r2;\n"
    "\tmov.u32 %r2, %nctaid.x;\n"
    "\tmul.lo.u32 %r1, %r1, %r2;\n"
    "\tmov.u32 %r2, %nctaid.y;\n"
    "\tmul.lo.u32 %r1, %r1, %r2;\n"
    "\tmov.u32 %r2, %nctaid.z;\n"
    "\tmul.lo.u32 %r1, %r1, %r2;\n"
    "\tst.u32 [%rd1], %r1;\n"
    "$GRIDS:\n"
    "\tsetp.eq.b64 %p, %rd2, 0;\n"
    "\tmov.u32 %r3, 1;\n"
    "\t@!%p st.u32 [%rd2], %r3;\n"
    "\tmov.u32 %r3, 0;\n"
    "\tst.param.b32 [ret], %r3;\n"
    "\tret;\n"
    "}\n"
    ".visible .func (.param .b32 ret) cudaCGGetRank(.param .b64 rank, .param .b64 grid, .param .b64 handle)\n"
    "{\n"
    "\t.reg .pred %p;\n"
    "\t.reg .b32 %r<8>;\n"
    "\t.reg .b64 %rd<3>;\n"
    "\tld.param.b64 %rd1, [rank];\n"
    "\tld.param.b64 %rd2, [grid];\n"
    "\tsetp.eq.b64 %p, %rd1, 0;\n"
    "\t@%p bra $GRID;\n"
    "\tmov.u32 %r1, %ctaid.z;\n"
    "\tmov.u32 %r2, %nctaid.y;\n"
    "\tmov.u32 %r3, %ctaid.y;\n"
    "\tmad.lo.u32 %r1, %r1, %r2, %r3;\n"
    "\tmov.u32 %r2, %nctaid.x;\n"
    "\tmov.u32 %r3, %ctaid.x;\n"
    "\tmad.lo.u32 %r1, %r1, %r2, %r3;\n"
    "\tmov.u32 %r4, %ntid.x;\n"
    "\tmov.u32 %r5, %ntid.y;\n"
    "\tmul.lo.u32 %r6, %r4, %r5;\n"
    "\tmov.u32 %r7, %ntid.z;\n"
    "\tmul.lo.u32 %r6, %r6, %r7;\n"
    "\tmov.u32 %r2, %tid.z;\n"
    "\tmov.u32 %r3, %tid.y;\n"
    "\tmad.lo.u32 %r2, %r2, %r5, %r3;\n"
    "\tmov.u32 %r3, %tid.x;\n"
    "\tmad.lo.u32 %r2, %r2, %r4, %r3;\n"
    "\tmad.lo.u32 %r1, %r1, %r6, %r2;\n"
    "\tst.u32 [%rd1], %r1;\n"
    "$GRID:\n"
    "\tsetp.eq.b64 %p, %rd2, 0;\n"
    "\tmov.u32 %r1, 1;\n"
    "\t@!%p st.u32 [%rd2], %r1;\n"
    "\tmov.u32 %r1, 0;\n"
    "\tst.param.b32 [ret], %r1;\n"
    "\tret;\n"
    "}\n";

isa_status_t fe_link_devrt(isa_module_t **m, const fe_options_t *opt)
{
    isa_module_t *mod = *m;
    bool needed = false;
    for (uint32_t i = 0; i < mod->nfunc && !needed; i++)
        if (!mod->funcs[i].has_body)
            for (size_t k = 0; devrt_names[k]; k++)
                needed |= strcmp(mod->funcs[i].name, devrt_names[k]) == 0;
    if (!needed || mod->address_size != 64)
        return ISA_ST_OK;
    /* the unit's header: the module's .target options, which linked units must share */
    size_t cap = sizeof devrt_body + 256;
    for (uint32_t i = 0; i < mod->ntarget; i++)
        cap += strlen(mod->targets[i]) + 2;
    char *text = malloc(cap);
    if (!text)
        return ISA_ST_NOMEM;
    size_t n = (size_t)snprintf(text, cap, ".version 7.0\n.target sm_70");
    for (uint32_t i = 0; i < mod->ntarget; i++)
        if (isa_sm_lookup(mod->targets[i], strlen(mod->targets[i])) <= 0)
            n += (size_t)snprintf(text + n, cap - n, ", %s", mod->targets[i]);
    n += (size_t)snprintf(text + n, cap - n, "\n.address_size 64\n%s", devrt_body);
    isa_module_t *unit[2] = { mod, NULL };
    isa_status_t st = fe_load_text("<ptxemu device runtime>", text, n, opt, &unit[1]);
    free(text);
    if (st != ISA_ST_OK)
        return st;
    /* the unit is optional (only what is called is linked), so its names must not count
     * as provided by the runtime */
    const char *prov[128];
    unsigned np = 0;
    for (unsigned i = 0; opt->provided && opt->provided[i] && np + 1 < sizeof prov / sizeof *prov; i++) {
        bool ours = false;
        for (size_t k = 0; devrt_names[k]; k++)
            ours |= strcmp(opt->provided[i], devrt_names[k]) == 0;
        if (!ours)
            prov[np++] = opt->provided[i];
    }
    prov[np] = NULL;
    fe_options_t o = *opt;
    o.provided = prov;
    static const bool optional[2] = { false, true };
    *m = NULL;
    return fe_link(unit, 2, optional, &o, m);
}
