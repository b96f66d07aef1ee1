/* report.c: a launch's statistics as a table or as one JSON object. */
#include "exec/internal.h"

static void metric_value(FILE *out, unsigned k, double v)
{
    if (!strcmp(ex_metrics[k].unit, "pct"))
        fprintf(out, "%.2f", v);
    else
        fprintf(out, "%.0f", v);
}

void ex_stats_print(FILE *out, const ex_program_t *p, uint32_t entry, const ex_stats_t *st, bool json)
{
    const char *kernel = p->m->funcs[entry].name;
    const ex_launch_stats_t *d = st->detail;
    if (!d)
        return;
    double avg = st->warp_instrs ? (double)st->thread_instrs / (double)st->warp_instrs : 0;
    if (json) {
        fprintf(out, "{\"kernel\": \"");
        for (const char *c = kernel; *c; c++)
            fprintf(out, (*c == '"' || *c == '\\') ? "\\%c" : (unsigned char)*c < 0x20 ? "\\u%04x" : "%c", *c);
        fprintf(out, "\", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"shared_bytes\": %u, "
                     "\"wall_seconds\": %.6f, \"thread_instructions\": %llu, \"warp_instructions\": %llu, "
                     "\"average_active_lanes\": %.2f, \"branches\": %llu, \"divergent_branches\": %llu, "
                     "\"barriers\": %llu, \"families\": {",
                d->grid[0], d->grid[1], d->grid[2], d->block[0], d->block[1], d->block[2], d->shared_bytes,
                d->wall_seconds, (unsigned long long)st->thread_instrs, (unsigned long long)st->warp_instrs, avg,
                (unsigned long long)d->branches, (unsigned long long)d->divergent, (unsigned long long)d->barriers);
        bool first = true;
        for (unsigned k = 0; k < ISA_FAM__COUNT; k++)
            if (d->family[k]) {
                fprintf(out, "%s\"%s\": %llu", first ? "" : ", ", isa_families[k].file,
                        (unsigned long long)d->family[k]);
                first = false;
            }
        fprintf(out, "}, \"pmevents\": [");
        for (unsigned k = 0; k < 16; k++)
            fprintf(out, "%s%llu", k ? ", " : "", (unsigned long long)d->pmevents[k]);
        fprintf(out, "]");
        for (unsigned k = 0; k < EX_MET__COUNT; k++) {
            fprintf(out, ", \"%s\": ", ex_metrics[k].name);
            metric_value(out, k, d->metric[k]);
        }
        fprintf(out, "}\n");
        return;
    }
    fprintf(out, "== kernel %s: grid (%u,%u,%u), block (%u,%u,%u), %u bytes of dynamic shared memory, %.3f ms\n",
            kernel, d->grid[0], d->grid[1], d->grid[2], d->block[0], d->block[1], d->block[2], d->shared_bytes,
            d->wall_seconds * 1e3);
    fprintf(out, "  %-60s %llu\n", "thread instructions", (unsigned long long)st->thread_instrs);
    fprintf(out, "  %-60s %llu\n", "warp instructions", (unsigned long long)st->warp_instrs);
    fprintf(out, "  %-60s %.2f\n", "average active lanes", avg);
    for (unsigned k = 0; k < ISA_FAM__COUNT; k++)
        if (d->family[k]) {
            char name[80];
            snprintf(name, sizeof name, "warp instructions: %s", isa_families[k].legend);
            fprintf(out, "  %-60.60s %llu\n", name, (unsigned long long)d->family[k]);
        }
    fprintf(out, "  %-60s %llu\n", "branches", (unsigned long long)d->branches);
    fprintf(out, "  %-60s %llu\n", "divergent branches", (unsigned long long)d->divergent);
    fprintf(out, "  %-60s %llu\n", "barriers", (unsigned long long)d->barriers);
    for (unsigned k = 0; k < 16; k++)
        if (d->pmevents[k])
            fprintf(out, "  pmevent %-52u %llu\n", k, (unsigned long long)d->pmevents[k]);
    for (unsigned k = 0; k < EX_MET__COUNT; k++) {
        fprintf(out, "  %-60s ", ex_metrics[k].name);
        metric_value(out, k, d->metric[k]);
        fputc('\n', out);
    }
}
