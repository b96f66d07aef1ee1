/* fatbin_cmd.c: ptxrun --fatbin-list and --extract-ptx: the entries of the fatbins embedded
 * in a program, and the PTX text of one entry or of all (runtime/fatbin.c reads them). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "runtime/fatbin.h"
#include "runtime/rt.h"

enum { CMD_OK = 0, CMD_USAGE = 2 };

static void print_entry(rt_fatbin_t *fb, uint32_t i, FILE *out)
{
    const rt_fb_entry_t *e = &fb->entries[i];
    char kb[16];
    fprintf(out, "entry %u: %s %s_%u", i, rt_fatbin_kind_name(e->kind, kb),
            e->kind == RT_FB_PTX ? "compute" : "sm", e->arch);
    if (e->kind == RT_FB_PTX)
        fprintf(out, " ptx %u.%u", e->major, e->minor);
    fprintf(out, " flags 0x%llx %s", (unsigned long long)e->flags, rt_fatbin_comp_name(e->comp));
    if (e->comp != RT_FB_PLAIN)
        fprintf(out, " %llu -> %llu bytes", (unsigned long long)e->data_size, (unsigned long long)e->raw_size);
    else
        fprintf(out, " %llu bytes", (unsigned long long)e->raw_size);
    fprintf(out, " (%s+0x%llx, container %u)", e->section, (unsigned long long)e->offset, e->container);
    if (e->flags & RT_FB_FLAG_DEBUG)
        fprintf(out, " debug");
    if (e->ident_len)
        fprintf(out, " ident \"%.*s\"", (int)e->ident_len, e->ident);
    if (e->options_len)
        fprintf(out, " options \"%.*s\"", (int)e->options_len, e->options);
    fputc('\n', out);
    /* the kernels, where the payload can be read */
    if (e->kind != RT_FB_PTX && e->kind != RT_FB_ELF)
        return;
    char *p;
    size_t n;
    if (rt_fatbin_payload(fb, i, &p, &n) != ISA_ST_OK) {
        fprintf(out, "  unreadable: %s\n", fb->msg);
        return;
    }
    char **names;
    uint32_t nk;
    if (rt_fatbin_kernels(e, p, n, &names, &nk) == ISA_ST_OK) {
        fprintf(out, "  kernels:%s", nk ? "" : " none");
        for (uint32_t k = 0; k < nk; k++) {
            fprintf(out, " %s", names[k]);
            free(names[k]);
        }
        fputc('\n', out);
        free(names);
    }
    free(p);
}

/* Write entry i's PTX to path (or out when path is NULL). */
static int write_ptx(rt_fatbin_t *fb, uint32_t i, const char *path, FILE *out, FILE *diag)
{
    char *p;
    size_t n;
    if (rt_fatbin_payload(fb, i, &p, &n) != ISA_ST_OK) {
        fprintf(diag, "ptxrun: error: %s\n", fb->msg);
        return CMD_USAGE;
    }
    FILE *f = path ? fopen(path, "w") : out;
    int rc = CMD_OK;
    if (!f || fwrite(p, 1, n, f) != n || (n && p[n - 1] != '\n' && fputc('\n', f) == EOF))
        rc = CMD_USAGE;
    if (path && f && fclose(f) != 0)
        rc = CMD_USAGE;
    if (rc != CMD_OK)
        fprintf(diag, "ptxrun: error: cannot write '%s'\n", path ? path : "standard output");
    free(p);
    return rc;
}

int rt_fatbin_cmd(int argc, char **argv, FILE *out, FILE *diag)
{
    const char *mode = argv[0], *prog = NULL, *dir = NULL;
    long sel = -1;
    for (int i = 1; i < argc; i++) {
        const char *w = argv[i];
        if ((strcmp(w, "-o") == 0 || strcmp(w, "--output") == 0) && i + 1 < argc) {
            dir = argv[++i];
        } else if (strcmp(w, "--entry") == 0 && i + 1 < argc) {
            char *end;
            sel = strtol(argv[++i], &end, 10);
            if (*end || end == argv[i] || sel < 0) {
                fprintf(diag, "ptxrun: error: --entry '%s': expected an entry number (see --fatbin-list)\n", argv[i]);
                return CMD_USAGE;
            }
        } else if (w[0] == '-' || prog) {
            fprintf(diag, "ptxrun: error: %s: unexpected '%s'\n"
                          "usage: ptxrun --fatbin-list PROGRAM\n"
                          "       ptxrun --extract-ptx PROGRAM [--entry N] [-o DIR]\n", mode, w);
            return CMD_USAGE;
        } else {
            prog = w;
        }
    }
    if (!prog) {
        fprintf(diag, "ptxrun: error: %s: no PROGRAM given\n", mode);
        return CMD_USAGE;
    }
    rt_fatbin_t fb;
    if (rt_fatbin_open_file(prog, &fb) != ISA_ST_OK) {
        fprintf(diag, "ptxrun: error: %s\n", fb.msg);
        rt_fatbin_free(&fb);
        return CMD_USAGE;
    }
    int rc = CMD_OK;
    if (sel >= (long)fb.nentry) {
        fprintf(diag, "ptxrun: error: %s has no fatbin entry %ld (entries 0..%u)\n", prog, sel, fb.nentry - 1);
        rc = CMD_USAGE;
    } else if (strcmp(mode, "--fatbin-list") == 0) {
        fprintf(out, "%s: %u fatbin container%s, %u entr%s\n", prog, fb.ncontainer, fb.ncontainer == 1 ? "" : "s",
                fb.nentry, fb.nentry == 1 ? "y" : "ies");
        for (uint32_t i = 0; i < fb.nentry; i++)
            if (sel < 0 || (uint32_t)sel == i)
                print_entry(&fb, i, out);
    } else if (sel >= 0 && fb.entries[sel].kind != RT_FB_PTX) {
        fprintf(diag, "ptxrun: error: %s: fatbin entry %ld is not PTX\n", prog, sel);
        rc = CMD_USAGE;
    } else if (rt_fatbin_pick_ptx(&fb, 0) < 0) {
        fprintf(diag, "ptxrun: error: %s embeds no PTX (SASS only); rebuild it with PTX, e.g. nvcc "
                      "-gencode arch=compute_90,code=compute_90\n", prog);
        rc = CMD_USAGE;
    } else if (!dir) {
        uint32_t i = sel >= 0 ? (uint32_t)sel : (uint32_t)rt_fatbin_pick_ptx(&fb, 0);
        uint32_t nptx = 0;
        for (uint32_t k = 0; k < fb.nentry; k++)
            nptx += fb.entries[k].kind == RT_FB_PTX;
        if (sel < 0 && nptx > 1)
            fprintf(diag, "ptxrun: note: %s has %u PTX entries; this is entry %u (compute_%u), the newest; "
                          "choose another with --entry N\n", prog, nptx, i, fb.entries[i].arch);
        rc = write_ptx(&fb, i, NULL, out, diag);
    } else {
        /* every PTX entry (or the one chosen) as DIR/PROGRAM.N.compute_XX.ptx */
        const char *base = strrchr(prog, '/') ? strrchr(prog, '/') + 1 : prog;
        mkdir(dir, 0777);
        for (uint32_t i = 0; i < fb.nentry && rc == CMD_OK; i++) {
            if (fb.entries[i].kind != RT_FB_PTX || (sel >= 0 && (uint32_t)sel != i))
                continue;
            size_t len = strlen(dir) + strlen(base) + 48;
            char *path = malloc(len);
            if (!path) {
                rc = CMD_USAGE;
                break;
            }
            snprintf(path, len, "%s/%s.%u.compute_%u.ptx", dir, base, i, fb.entries[i].arch);
            rc = write_ptx(&fb, i, path, out, diag);
            if (rc == CMD_OK)
                fprintf(out, "%s\n", path);
            free(path);
        }
    }
    rt_fatbin_free(&fb);
    return rc;
}
