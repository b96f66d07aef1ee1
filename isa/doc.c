/* doc.c: prints the ISA tables as Markdown (ptxrun --isa-table, docs/ptx-support.md).
 * Everything printed is read from the tables; nothing here lists an opcode.
 * isa_doc_table writes one table of every opcode (mnemonic, family, operands, types, modifier
 * groups, minimum target and PTX version), then one table of the modifier groups with
 * their tokens, so that a reader can expand the group names of the first table. */
#include "isa/isa.h"

#include <string.h>

/* One Markdown table cell: '|' would end the cell, so it is escaped. */
static void md_cell(FILE *out, const char *s)
{
    fputs(" ", out);
    for (; *s; s++) {
        if (*s == '|')
            fputs("\\|", out);
        else if (*s == '\n')
            fputc(' ', out);
        else
            fputc(*s, out);
    }
    fputs(" |", out);
}

/* The accepted types of an opcode, as ".f32 .f64 ..." in table order. */
static void md_types(FILE *out, const isa_op_info_t *o)
{
    fputs(" ", out);
    if (o->tmax == 0) {
        fputs("-", out);
    } else {
        if (o->tmin != 1 || o->tmax != 1)
            fprintf(out, "%u..%u of: ", o->tmin, o->tmax);
        bool first = true;
        for (int t = 0; t < ISA_T__COUNT; t++)
            if (o->types >> t & 1) {
                fprintf(out, "%s.%s", first ? "" : " ", isa_types[t].text);
                first = false;
            }
    }
    fputs(" |", out);
}

static void md_groups(FILE *out, uint64_t groups)
{
    fputs(" ", out);
    if (!groups)
        fputs("-", out);
    bool first = true;
    for (int g = 0; g < ISA_G__COUNT; g++)
        if (groups >> g & 1) {
            fprintf(out, "%s%s", first ? "" : " ", isa_groups[g].name);
            first = false;
        }
    fputs(" |", out);
}

/* "sm_90a / 8.0", with "any" for the lowest rows of targets.def. */
static void md_target(FILE *out, isa_sm_t sm, isa_ptxv_t ptx)
{
    fprintf(out, " %s |", sm == ISA_SM_ANY ? "any" : isa_sms[sm].text);
    if (ptx == ISA_PTX_ANY)
        fputs(" any |", out);
    else
        fprintf(out, " %u.%u |", isa_ptxvs[ptx].major, isa_ptxvs[ptx].minor);
}

void isa_doc_table(FILE *out)
{
    fprintf(out, "## Opcodes (%d)\n\n", (int)ISA_OP__COUNT);
    fputs("An instruction's opcode is the longest mnemonic below that its dotted name starts "
          "with; every other component is a type, a state space or a modifier of one of the "
          "listed groups. Minimum target and PTX version are those of the base opcode; some "
          "types and modifiers need more.\n\n", out);
    fputs("| mnemonic | family | operands | types | modifier groups | min target | min PTX |\n", out);
    fputs("| --- | --- | --- | --- | --- | --- | --- |\n", out);
    for (int i = 0; i < ISA_OP__COUNT; i++) {
        const isa_op_info_t *o = &isa_ops[i];
        fprintf(out, "| `%s` |", o->mnemonic);
        md_cell(out, isa_families[o->family].name);
        md_cell(out, o->shape == ISA_SH_NONE ? "-" : isa_shapes[o->shape].legend);
        md_types(out, o);
        md_groups(out, o->groups);
        md_target(out, o->sm, o->ptx);
        fputc('\n', out);
    }

    fprintf(out, "\n## Modifier groups (%d)\n\n", (int)ISA_G__COUNT);
    fputs("| group | at most | meaning | tokens |\n| --- | --- | --- | --- |\n", out);
    for (int g = 0; g < ISA_G__COUNT; g++) {
        fprintf(out, "| %s | %d |", isa_groups[g].name, (int)isa_groups[g].maxn);
        md_cell(out, isa_groups[g].legend);
        fputs(" ", out);
        int n = 0;
        if (g == ISA_G_SPACE)
            for (int s = 0; s < ISA_SP__COUNT; s++, n++)
                fprintf(out, "%s`.%s`", n ? " " : "", isa_spaces[s].text);
        for (int m = 0; m < ISA_M__COUNT; m++)
            if (isa_mods[m].groups >> g & 1) {
                fprintf(out, "%s`.%s`", n ? " " : "", isa_mods[m].text);
                n++;
            }
        fputs(" |\n", out);
    }

    fprintf(out, "\n## Types (%d)\n\n", (int)ISA_T__COUNT);
    fputs("| type | bits |\n| --- | --- |\n", out);
    for (int t = 0; t < ISA_T__COUNT; t++)
        fprintf(out, "| `.%s` | %u |\n", isa_types[t].text, (unsigned)isa_types[t].bits);

    fprintf(out, "\n## Special registers (%d)\n\n", (int)ISA_SR__COUNT);
    fputs("| register | type | form | min target | min PTX |\n| --- | --- | --- | --- | --- |\n", out);
    static const char *const forms[] = { "scalar", ".x .y .z", "index 0..31", "index 0..7" };
    for (int r = 0; r < ISA_SR__COUNT; r++) {
        const isa_sreg_info_t *s = &isa_sregs[r];
        fprintf(out, "| `%s` | .%s | %s |", s->text, isa_types[s->type].text, forms[s->form]);
        md_target(out, s->sm, s->ptx);
        fputc('\n', out);
    }
}
