/* fatbin.c: the fatbins nvcc embeds in programs: find them in an ELF file (libelf), walk
 * their containers and entries with every field bounds-checked, decompress a payload. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <lz4.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "runtime/fatbin.h"

/* Layout facts (docs/driver-abi.md, checked on nvcc 13 builds).  Container header:
 * u32 magic, u16 version, u16 header size, u64 size of the entries that follow.
 * Entry header (at least 0x40 bytes): */
enum {
    CONT_HDR        = 16,
    ENT_KIND        = 0x00,   /* u16 */
    ENT_HDR_SIZE    = 0x04,   /* u32: payload starts at entry + this */
    ENT_PAYLOAD     = 0x08,   /* u64: payload bytes (padded) */
    ENT_COMP_SIZE   = 0x10,   /* u32: bytes of the compressed stream */
    ENT_OPT_OFF     = 0x14,   /* u32: options descriptor {u32 offset, u32 length}, 0 = none */
    ENT_MINOR       = 0x18,   /* u16 */
    ENT_MAJOR       = 0x1a,   /* u16 */
    ENT_ARCH        = 0x1c,   /* u32 */
    ENT_IDENT_OFF   = 0x20,   /* u32 */
    ENT_IDENT_LEN   = 0x24,   /* u32 */
    ENT_FLAGS       = 0x28,   /* u64 */
    ENT_RAW_SIZE    = 0x38,   /* u64: size after decompression, 0 when plain */
    ENT_MIN_HDR     = 0x40
};
/* The largest payload we decompress: a guard against sizes a hostile header invents. */
#define MAX_RAW ((uint64_t)1 << 31)
/* The most prelinked fatbins a version-2 wrapper may list. */
#define MAX_PRELINKED 4096

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static isa_status_t fail(rt_fatbin_t *fb, isa_status_t st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fb->msg, sizeof fb->msg, fmt, ap);
    va_end(ap);
    return st;
}

void rt_fatbin_free(rt_fatbin_t *fb)
{
    free(fb->bytes);
    free(fb->entries);
    fb->bytes = NULL;
    fb->entries = NULL;
    fb->size = 0;
    fb->nentry = fb->ncontainer = 0;
}

const char *rt_fatbin_kind_name(uint32_t kind, char buf[16])
{
    if (kind == RT_FB_PTX)
        return "PTX";
    if (kind == RT_FB_ELF)
        return "ELF";
    snprintf(buf, 16, "kind %u", kind);
    return buf;
}

const char *rt_fatbin_comp_name(rt_fb_comp_t c)
{
    return c == RT_FB_ZSTD ? "zstd" : c == RT_FB_LZ4 ? "lz4" : "none";
}

/*{=====================================================================
 * Containers and entries
 *====================================================================*/

static isa_status_t add_entry(rt_fatbin_t *fb, const rt_fb_entry_t *e, uint32_t *cap)
{
    if (fb->nentry == *cap) {
        uint32_t n = *cap ? 2 * *cap : 8;
        rt_fb_entry_t *p = realloc(fb->entries, n * sizeof *p);
        if (!p)
            return fail(fb, ISA_ST_NOMEM, "out of memory");
        fb->entries = p;
        *cap = n;
    }
    fb->entries[fb->nentry++] = *e;
    return ISA_ST_OK;
}

/* One entry at p (avail bytes up to its container's end); *out_len: its whole length. */
static isa_status_t parse_entry(rt_fatbin_t *fb, const uint8_t *p, uint64_t avail, const char *sec,
                                uint64_t off, uint32_t cont, rt_fb_entry_t *e, uint64_t *out_len)
{
    if (avail < ENT_MIN_HDR)
        return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: truncated fatbin entry header (%llu of %d bytes)", sec,
                    (unsigned long long)off, (unsigned long long)avail, ENT_MIN_HDR);
    uint32_t hsize = rd32(p + ENT_HDR_SIZE);
    uint64_t psize = rd64(p + ENT_PAYLOAD);
    if (hsize < ENT_MIN_HDR || hsize > avail)
        return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: fatbin entry header size %u outside 0x40..%llu", sec,
                    (unsigned long long)off, hsize, (unsigned long long)avail);
    if (psize > avail - hsize)
        return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: fatbin entry payload of %llu bytes runs past its container (%llu left)",
                    sec, (unsigned long long)off, (unsigned long long)psize, (unsigned long long)(avail - hsize));
    memset(e, 0, sizeof *e);
    e->kind = rd16(p + ENT_KIND);
    e->container = cont;
    e->section = sec;
    e->offset = off;
    e->minor = rd16(p + ENT_MINOR);
    e->major = rd16(p + ENT_MAJOR);
    e->arch = rd32(p + ENT_ARCH);
    e->flags = rd64(p + ENT_FLAGS);
    e->data = p + hsize;
    bool lz4 = e->flags & RT_FB_FLAG_LZ4, zstd = e->flags & RT_FB_FLAG_ZSTD;
    if (lz4 && zstd)
        return fail(fb, ISA_ST_UNSUPPORTED, "%s+0x%llx: fatbin entry flags 0x%llx name both LZ4 and zstd compression",
                    sec, (unsigned long long)off, (unsigned long long)e->flags);
    e->comp = lz4 ? RT_FB_LZ4 : zstd ? RT_FB_ZSTD : RT_FB_PLAIN;
    if (e->comp == RT_FB_PLAIN) {
        e->data_size = psize;
        e->raw_size = psize;
    } else {
        e->data_size = rd32(p + ENT_COMP_SIZE);
        e->raw_size = rd64(p + ENT_RAW_SIZE);
        if (e->data_size == 0 || e->data_size > psize)
            return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: compressed size %llu outside 1..%llu (the payload)", sec,
                        (unsigned long long)off, (unsigned long long)e->data_size, (unsigned long long)psize);
        if (e->raw_size > MAX_RAW)
            return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: uncompressed size %llu is too large", sec,
                        (unsigned long long)off, (unsigned long long)e->raw_size);
    }
    /* identifier string and options: both inside the header */
    uint32_t ioff = rd32(p + ENT_IDENT_OFF), ilen = rd32(p + ENT_IDENT_LEN);
    if (ioff || ilen) {
        if (ioff < ENT_MIN_HDR || ioff > hsize || ilen > hsize - ioff)
            return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: identifier string (offset %u, %u bytes) outside the entry header",
                        sec, (unsigned long long)off, ioff, ilen);
        e->ident = (const char *)p + ioff;
        e->ident_len = (uint32_t)strnlen(e->ident, ilen);
    }
    uint32_t ooff = rd32(p + ENT_OPT_OFF);
    if (ooff) {
        if (ooff < ENT_MIN_HDR || ooff > hsize || hsize - ooff < 8)
            return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: options descriptor at %u outside the entry header", sec,
                        (unsigned long long)off, ooff);
        uint32_t soff = rd32(p + ooff), slen = rd32(p + ooff + 4);
        if (slen && (soff > hsize || slen > hsize - soff))
            return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: options string (offset %u, %u bytes) outside the entry header",
                        sec, (unsigned long long)off, soff, slen);
        if (slen) {
            e->options = (const char *)p + soff;
            e->options_len = (uint32_t)strnlen(e->options, slen);
        }
    }
    *out_len = hsize + psize;
    return ISA_ST_OK;
}

/* Containers back to back in bytes [base, base+size) of fb->bytes, from section sec;
 * zero padding between and after them is skipped. */
static isa_status_t parse_containers(rt_fatbin_t *fb, size_t base, size_t size, const char *sec, uint32_t *cap)
{
    uint64_t off = 0;
    while (off < size) {
        const uint8_t *p = fb->bytes + base + off;
        uint64_t left = size - off;
        if (rd32(p) == 0 && left >= 4) {   /* padding: skip zeros up to the next 8-byte boundary */
            off += 4;
            continue;
        }
        if (left < CONT_HDR)
            return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: truncated fatbin container header (%llu of %d bytes)", sec,
                        (unsigned long long)off, (unsigned long long)left, CONT_HDR);
        if (rd32(p) != RT_FATBIN_MAGIC)
            return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: not a fatbin container (magic 0x%08x, expected 0x%08x)", sec,
                        (unsigned long long)off, rd32(p), RT_FATBIN_MAGIC);
        uint16_t ver = rd16(p + 4), hsize = rd16(p + 6);
        uint64_t esize = rd64(p + 8);
        if (ver != 1)
            return fail(fb, ISA_ST_UNSUPPORTED, "%s+0x%llx: fatbin container version %u (only 1 is known)", sec,
                        (unsigned long long)off, ver);
        if (hsize < CONT_HDR || hsize > left)
            return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: fatbin container header size %u outside 16..%llu", sec,
                        (unsigned long long)off, hsize, (unsigned long long)left);
        if (esize > left - hsize)
            return fail(fb, ISA_ST_SYNTAX, "%s+0x%llx: fatbin container of %llu bytes truncated (%llu left)", sec,
                        (unsigned long long)off, (unsigned long long)esize, (unsigned long long)(left - hsize));
        uint32_t cont = fb->ncontainer++;
        uint64_t e = 0;
        while (e < esize) {
            rt_fb_entry_t ent;
            uint64_t len = 0;
            isa_status_t st = parse_entry(fb, p + hsize + e, esize - e, sec, off + hsize + e, cont, &ent, &len);
            if (st != ISA_ST_OK)
                return st;
            if ((st = add_entry(fb, &ent, cap)) != ISA_ST_OK)
                return st;
            e += len;
        }
        off += hsize + esize;
    }
    return ISA_ST_OK;
}
/*}=====================================================================*/

/*{=====================================================================
 * Opening: ELF files, raw fatbins, registered wrappers
 *====================================================================*/

/* Append n bytes to fb->bytes; returns their offset there. */
static isa_status_t append(rt_fatbin_t *fb, const void *src, size_t n, size_t *out_base)
{
    uint8_t *b = realloc(fb->bytes, fb->size + n + 1);
    if (!b)
        return fail(fb, ISA_ST_NOMEM, "out of memory");
    fb->bytes = b;
    memcpy(b + fb->size, src, n);
    *out_base = fb->size;
    fb->size += n;
    return ISA_ST_OK;
}

/* The fatbin sections of an ELF image: copied first (entries point into fb->bytes, which
 * may move while it grows), parsed afterwards. */
static isa_status_t open_elf(rt_fatbin_t *fb, const void *data, size_t size, uint32_t *cap)
{
    static const char *const secs[] = {".nv_fatbin", "__nv_relfatbin"};
    size_t base[2] = {0, 0}, len[2] = {0, 0};
    bool found[2] = {false, false};
    isa_status_t st = ISA_ST_OK;
    elf_version(EV_CURRENT);
    Elf *elf = elf_memory((char *)data, size);
    size_t shstrndx;
    if (!elf || elf_kind(elf) != ELF_K_ELF) {
        st = fail(fb, ISA_ST_SYNTAX, "not an ELF file%s%s", elf ? "" : ": ", elf ? "" : elf_errmsg(-1));
        goto done;
    }
    if (elf_getshdrstrndx(elf, &shstrndx) != 0) {
        st = fail(fb, ISA_ST_SYNTAX, "corrupt ELF file: %s", elf_errmsg(-1));
        goto done;
    }
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
        for (int s = 0; s < 2; s++) {
            if (!name || strcmp(name, secs[s]) != 0 || found[s])
                continue;
            if (sh.sh_type == SHT_NOBITS) {
                st = fail(fb, ISA_ST_SYNTAX, "ELF section %s has no contents", secs[s]);
                goto done;
            }
            /* elf_rawdata checks the section lies inside the image */
            Elf_Data *d = elf_rawdata(scn, NULL);
            if (!d && sh.sh_size) {
                st = fail(fb, ISA_ST_SYNTAX, "ELF section %s unreadable: %s", secs[s], elf_errmsg(-1));
                goto done;
            }
            if (d && d->d_size && (st = append(fb, d->d_buf, d->d_size, &base[s])) != ISA_ST_OK)
                goto done;
            len[s] = d ? d->d_size : 0;
            found[s] = true;
        }
    }
    if (!found[0] && !found[1]) {
        st = fail(fb, ISA_ST_SYNTAX, "no fatbin in this ELF file (no section .nv_fatbin or __nv_relfatbin)");
        goto done;
    }
    for (int s = 0; s < 2 && st == ISA_ST_OK; s++)
        if (found[s])
            st = parse_containers(fb, base[s], len[s], secs[s], cap);
done:
    if (elf)
        elf_end(elf);
    return st;
}

static isa_status_t finish(rt_fatbin_t *fb, isa_status_t st)
{
    if (st != ISA_ST_OK) {
        char msg[sizeof fb->msg];
        memcpy(msg, fb->msg, sizeof msg);
        rt_fatbin_free(fb);
        memcpy(fb->msg, msg, sizeof msg);
    }
    return st;
}

isa_status_t rt_fatbin_open_bytes(const void *data, size_t size, rt_fatbin_t *out)
{
    uint32_t cap = 0;
    memset(out, 0, sizeof *out);
    const uint8_t *p = data;
    if (size >= 4 && p[0] == 0x7f && p[1] == 'E' && p[2] == 'L' && p[3] == 'F')
        return finish(out, open_elf(out, data, size, &cap));
    if (size < 4 || rd32(p) != RT_FATBIN_MAGIC)
        return finish(out, fail(out, ISA_ST_SYNTAX, "neither an ELF file nor a fatbin"));
    size_t base;
    isa_status_t st = append(out, data, size, &base);
    if (st == ISA_ST_OK)
        st = parse_containers(out, base, size, "fatbin", &cap);
    return finish(out, st);
}

isa_status_t rt_fatbin_open_file(const char *path, rt_fatbin_t *out)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(out, ISA_ST_IO, "%s: cannot open: %s", path, strerror(errno));
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            uint8_t *b = realloc(buf, cap);
            if (!b) {
                free(buf);
                fclose(f);
                return fail(out, ISA_ST_NOMEM, "%s: out of memory", path);
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    bool err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return fail(out, ISA_ST_IO, "%s: read error", path);
    }
    isa_status_t st = rt_fatbin_open_bytes(buf, n, out);
    free(buf);
    if (st != ISA_ST_OK) {
        char msg[sizeof out->msg];
        memcpy(msg, out->msg, sizeof msg);
        int k = snprintf(out->msg, sizeof out->msg, "%.*s: ", 120, path);
        snprintf(out->msg + k, sizeof out->msg - (size_t)k, "%.*s", (int)(sizeof out->msg) - k - 1, msg);
    }
    return st;
}

isa_status_t rt_fatbin_open_wrapper(const void *w, rt_fatbin_t *out)
{
    uint32_t cap = 0;
    memset(out, 0, sizeof *out);
    if (!w)
        return fail(out, ISA_ST_SYNTAX, "fatbin wrapper: NULL");
    const uint8_t *h = w;
    uint32_t magic = rd32(h), ver = rd32(h + 4);
    const void *data, *extra;
    memcpy(&data, h + 8, sizeof data);
    memcpy(&extra, h + 16, sizeof extra);
    if (magic != RT_FATBINC_MAGIC)
        return fail(out, ISA_ST_SYNTAX, "fatbin wrapper: magic 0x%08x, expected 0x%08x", magic, RT_FATBINC_MAGIC);
    if (ver != 1 && ver != 2)
        return fail(out, ISA_ST_UNSUPPORTED, "fatbin wrapper: version %u (1 and 2 are known)", ver);
    /* Every container is copied before any is parsed (entries point into out->bytes). */
    const void *conts[1 + MAX_PRELINKED];
    uint32_t n = 0;
    conts[n++] = data;
    if (ver == 2 && extra)
        for (const void *const *pre = extra; *pre; pre++) {
            if (n == 1 + MAX_PRELINKED)
                return fail(out, ISA_ST_SYNTAX, "fatbin wrapper: more than %d prelinked fatbins", MAX_PRELINKED);
            conts[n++] = *pre;
        }
    isa_status_t st = ISA_ST_OK;
    size_t *base = calloc(n, sizeof *base), *len = calloc(n, sizeof *len);
    if (!base || !len)
        st = fail(out, ISA_ST_NOMEM, "out of memory");
    for (uint32_t i = 0; i < n && st == ISA_ST_OK; i++) {
        const uint8_t *c = conts[i];
        if (!c || rd32(c) != RT_FATBIN_MAGIC)
            st = fail(out, ISA_ST_SYNTAX, "fatbin %u of the wrapper at %p: not a fatbin container", i, (void *)c);
        else if (rd16(c + 6) < CONT_HDR || rd64(c + 8) > MAX_RAW)
            st = fail(out, ISA_ST_SYNTAX, "fatbin %u of the wrapper: implausible container size", i);
        else {
            len[i] = rd16(c + 6) + rd64(c + 8);
            st = append(out, c, len[i], &base[i]);
        }
    }
    for (uint32_t i = 0; i < n && st == ISA_ST_OK; i++)
        st = parse_containers(out, base[i], len[i], "memory", &cap);
    free(base);
    free(len);
    return finish(out, st);
}
/*}=====================================================================*/

/*{=====================================================================
 * Payloads
 *====================================================================*/

isa_status_t rt_fatbin_payload(rt_fatbin_t *fb, uint32_t i, char **out, size_t *out_size)
{
    *out = NULL;
    *out_size = 0;
    if (i >= fb->nentry)
        return fail(fb, ISA_ST_USAGE, "no fatbin entry %u (there are %u)", i, fb->nentry);
    const rt_fb_entry_t *e = &fb->entries[i];
    char *buf = malloc(e->raw_size + 1);
    if (!buf)
        return fail(fb, ISA_ST_NOMEM, "out of memory");
    size_t n;
    if (e->comp == RT_FB_PLAIN) {
        memcpy(buf, e->data, e->raw_size);
        n = e->raw_size;
    } else if (e->comp == RT_FB_ZSTD) {
        size_t r = ZSTD_decompress(buf, e->raw_size, e->data, e->data_size);
        if (ZSTD_isError(r)) {
            free(buf);
            return fail(fb, ISA_ST_SYNTAX, "fatbin entry %u: corrupt zstd stream: %s", i, ZSTD_getErrorName(r));
        }
        n = r;
    } else {
        if (e->data_size > INT32_MAX || e->raw_size > INT32_MAX) {
            free(buf);
            return fail(fb, ISA_ST_SYNTAX, "fatbin entry %u: LZ4 block too large", i);
        }
        int r = LZ4_decompress_safe((const char *)e->data, buf, (int)e->data_size, (int)e->raw_size);
        if (r < 0) {
            free(buf);
            return fail(fb, ISA_ST_SYNTAX, "fatbin entry %u: corrupt LZ4 block", i);
        }
        n = (size_t)r;
    }
    if (n != e->raw_size) {
        free(buf);
        return fail(fb, ISA_ST_SYNTAX, "fatbin entry %u: decompressed to %zu bytes, the header says %llu", i, n,
                    (unsigned long long)e->raw_size);
    }
    if (e->kind == RT_FB_PTX)
        while (n && buf[n - 1] == 0)
            n--;
    buf[n] = 0;
    *out = buf;
    *out_size = n;
    return ISA_ST_OK;
}

/* The best PTX entry of container c, or of all when c is UINT32_MAX. */
static int pick_ptx(const rt_fatbin_t *fb, uint32_t c, uint32_t max_arch)
{
    int best = -1;
    for (uint32_t i = 0; i < fb->nentry; i++) {
        const rt_fb_entry_t *e = &fb->entries[i];
        if (e->kind != RT_FB_PTX || (max_arch && e->arch > max_arch) || (c != UINT32_MAX && e->container != c))
            continue;
        if (best < 0 || e->arch > fb->entries[best].arch)
            best = (int)i;
    }
    return best;
}

int rt_fatbin_pick_ptx(const rt_fatbin_t *fb, uint32_t max_arch) { return pick_ptx(fb, UINT32_MAX, max_arch); }

int rt_fatbin_pick_ptx_in(const rt_fatbin_t *fb, uint32_t container, uint32_t max_arch)
{
    return pick_ptx(fb, container, max_arch);
}

static isa_status_t push_name(char ***v, uint32_t *n, const char *s, size_t len)
{
    char **p = realloc(*v, (*n + 1) * sizeof *p);
    if (!p)
        return ISA_ST_NOMEM;
    *v = p;
    if (!(p[*n] = strndup(s, len)))
        return ISA_ST_NOMEM;
    (*n)++;
    return ISA_ST_OK;
}

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

isa_status_t rt_fatbin_kernels(const rt_fb_entry_t *e, const char *payload, size_t size, char ***out,
                               uint32_t *out_n)
{
    char **v = NULL;
    uint32_t n = 0;
    isa_status_t st = ISA_ST_OK;
    *out = NULL;
    *out_n = 0;
    if (e->kind == RT_FB_PTX) {
        /* ".entry NAME" at a word boundary; comments are already stripped from fatbin PTX */
        for (size_t i = 0; i + 7 <= size && st == ISA_ST_OK; i++) {
            if (memcmp(payload + i, ".entry", 6) != 0 || (i && ident_char(payload[i - 1])) ||
                (payload[i + 6] != ' ' && payload[i + 6] != '\t' && payload[i + 6] != '\n'))
                continue;
            size_t a = i + 6;
            while (a < size && (payload[a] == ' ' || payload[a] == '\t' || payload[a] == '\n'))
                a++;
            size_t b = a;
            while (b < size && ident_char(payload[b]))
                b++;
            if (b > a)
                st = push_name(&v, &n, payload + a, b - a);
            i = b ? b - 1 : i;
        }
    } else if (e->kind == RT_FB_ELF) {
        elf_version(EV_CURRENT);
        Elf *elf = elf_memory((char *)payload, size);
        size_t shstrndx;
        if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) != 0)
            st = ISA_ST_SYNTAX;
        for (Elf_Scn *scn = NULL; st == ISA_ST_OK && (scn = elf_nextscn(elf, scn));) {
            GElf_Shdr sh;
            const char *name;
            if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
                strncmp(name, ".text.", 6) == 0 && name[6])
                st = push_name(&v, &n, name + 6, strlen(name + 6));
        }
        if (elf)
            elf_end(elf);
    }
    if (st != ISA_ST_OK) {
        for (uint32_t i = 0; i < n; i++)
            free(v[i]);
        free(v);
        return st;
    }
    *out = v;
    *out_n = n;
    return ISA_ST_OK;
}
/*}=====================================================================*/

/*{=====================================================================
 * What ptxas allocated for each kernel of a cubin
 *====================================================================*/
/* .nv.info attribute records: a format byte, an attribute byte, then for EIFMT_SVAL a
 * 16-bit size and that many bytes, else a 16-bit value.  EIATTR_REGCOUNT and
 * EIATTR_FRAME_SIZE hold a symbol index and a 32-bit value (measured: ptxas 13's cubins,
 * against what the H100's driver reports for them, tests/apps/func_regs.cu). */
enum { EIFMT_SVAL = 4, EIATTR_FRAME_SIZE = 0x11, EIATTR_REGCOUNT = 0x2f };

isa_status_t rt_cubin_resources(const void *image, size_t size, rt_kres_t **out, uint32_t *out_n)
{
    *out = NULL;
    *out_n = 0;
    elf_version(EV_CURRENT);
    Elf *elf = elf_memory((char *)image, size);
    size_t shstrndx;
    if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) != 0) {
        if (elf)
            elf_end(elf);
        return ISA_ST_SYNTAX;
    }
    Elf_Data *info = NULL, *syms = NULL;
    size_t symstr = 0, nsyms = 0;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        const char *name;
        if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
            continue;
        if (strcmp(name, ".nv.info") == 0)
            info = elf_getdata(scn, NULL);
        else if (sh.sh_type == SHT_SYMTAB && sh.sh_entsize) {
            syms = elf_getdata(scn, NULL);
            symstr = sh.sh_link;
            nsyms = sh.sh_size / sh.sh_entsize;
        }
    }
    rt_kres_t *v = NULL;
    uint32_t n = 0, cap = 0;
    isa_status_t st = ISA_ST_OK;
    const uint8_t *b = info ? info->d_buf : NULL;
    size_t len = info && info->d_buf ? info->d_size : 0;
    for (size_t i = 0; syms && i + 4 <= len && st == ISA_ST_OK;) {
        unsigned fmt = b[i], attr = b[i + 1], sz = rd16(b + i + 2);
        size_t next = fmt == EIFMT_SVAL ? i + 4 + sz : i + 4;
        if (fmt == EIFMT_SVAL && sz == 8 && next <= len && (attr == EIATTR_REGCOUNT || attr == EIATTR_FRAME_SIZE)) {
            uint32_t si = rd32(b + i + 4), val = rd32(b + i + 8);
            GElf_Sym sym;
            const char *sname;
            if (si < nsyms && gelf_getsym(syms, (int)si, &sym) && (sname = elf_strptr(elf, symstr, sym.st_name))) {
                uint32_t k = 0;
                while (k < n && strcmp(v[k].name, sname) != 0)
                    k++;
                if (k == n) {
                    if (n == cap) {
                        cap = cap * 2 + 8;
                        rt_kres_t *nv = realloc(v, cap * sizeof *nv);
                        if (!nv) {
                            st = ISA_ST_NOMEM;
                            break;
                        }
                        v = nv;
                    }
                    v[n] = (rt_kres_t){ .name = strdup(sname) };
                    if (!v[n].name) {
                        st = ISA_ST_NOMEM;
                        break;
                    }
                    n++;
                }
                if (attr == EIATTR_REGCOUNT)
                    v[k].regs = val;
                else
                    v[k].frame = val;
            }
        }
        i = next;
    }
    elf_end(elf);
    if (st != ISA_ST_OK) {
        rt_kres_free(v, n);
        return st;
    }
    *out = v;
    *out_n = n;
    return ISA_ST_OK;
}

void rt_kres_free(rt_kres_t *v, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        free(v[i].name);
    free(v);
}
/*}=====================================================================*/
