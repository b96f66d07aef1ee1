/* batch.c: batches of memory operations on a stream: copies between pointers
 * (cuMemcpyBatchAsync) and between pointers and arrays (cuMemcpy3DBatchAsync), prefetches
 * and discards of managed memory (cuMemPrefetchBatchAsync, cuMemDiscardBatchAsync,
 * cuMemDiscardAndPrefetchBatchAsync), and the stream memory operations (cuStreamWriteValue,
 * cuStreamWaitValue, cuStreamBatchMemOp).  A batch is checked whole before any of it is
 * done, and returns what the H100's driver returns for each bad argument (app test
 * batch_mem); work runs when it is submitted, so a wait for a value is decided at once: a
 * value already there lets it pass, any other is an error that says the wait could never
 * end here (nothing else runs while the caller waits). */
#include <string.h>

#include "runtime/driver/drv.h"

/* The batch calls take any stream but the legacy default one (NULL or CU_STREAM_LEGACY in
 * the plain forms; NULL is the per-thread stream in the _ptsz forms). */
static CUresult batch_stream(CUstream s, bool ptsz)
{
    if ((!s && !ptsz) || s == CU_STREAM_LEGACY)
        return CUDA_ERROR_INVALID_VALUE;
    return drv_stream_check(s);
}

/* attrsIdxs / prefetchLocIdxs: idx[0] is 0 and each later one greater, all below count. */
static bool indices_ok(const size_t *idx, size_t n, size_t count)
{
    if (!idx || n == 0 || idx[0] != 0)
        return false;
    for (size_t i = 1; i < n; i++)
        if (idx[i] <= idx[i - 1] || idx[i] >= count)
            return false;
    return true;
}

static bool order_ok(int order) { return order >= CU_MEMCPY_SRC_ACCESS_ORDER_STREAM && order <= CU_MEMCPY_SRC_ACCESS_ORDER_ANY; }

/* One side of a linear copy: where an allocation holds its first byte, the bytes asked
 * for in it must hold them all (the H100's driver refuses a batch that goes one byte past
 * a 96-byte allocation); elsewhere it is the program's own (pageable) memory. */
static bool linear_side_ok(CUdeviceptr p, size_t n, bool *in_alloc)
{
    const drv_alloc_t *a = drv_alloc_find((uintptr_t)p, 1);
    *in_alloc = a != NULL;
    return !a || ((uintptr_t)p - a->base <= a->req && n <= a->req - ((uintptr_t)p - a->base));
}

static CUresult copy_batch(const char *fn, CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                           CUmemcpyAttributes *attrs, size_t *idx, size_t nattrs, size_t *fail, CUstream s,
                           bool ptsz)
{
    if (fail)
        *fail = ~(size_t)0;
    CUresult r = drv_enter(NULL);
    if (r || (r = batch_stream(s, ptsz)))
        return r;
    if (!dsts || !srcs || !sizes || count == 0 || !attrs || !indices_ok(idx, nattrs, count))
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t k = 0; k < nattrs; k++)
        if (!order_ok(attrs[k].srcAccessOrder) || (attrs[k].flags & ~(unsigned)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE))
            return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < count; i++) {
        bool d_in, s_in;
        if (!dsts[i] || !srcs[i] || sizes[i] == 0 || !linear_side_ok(dsts[i], sizes[i], &d_in) ||
            !linear_side_ok(srcs[i], sizes[i], &s_in)) {
            if (fail)
                *fail = i;
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    for (size_t i = 0; i < count; i++) {
        bool d_in, s_in;
        linear_side_ok(dsts[i], sizes[i], &d_in);
        linear_side_ok(srcs[i], sizes[i], &s_in);
        if ((r = drv_copy(fn, (void *)(uintptr_t)dsts[i], (const void *)(uintptr_t)srcs[i], sizes[i], d_in, s_in, s,
                          false))) {
            if (fail)
                *fail = i;
            return r;
        }
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemcpyBatchAsync_v2(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                       CUmemcpyAttributes *attrs, size_t *idx, size_t nattrs, CUstream s)
{
    return copy_batch("cuMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, idx, nattrs, NULL, s, false);
}
DRV_API CUresult cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                            CUmemcpyAttributes *attrs, size_t *idx, size_t nattrs, CUstream s)
{
    return copy_batch("cuMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, idx, nattrs, NULL, s, true);
}
/* CUDA 12.8's form, with the index of a failing copy. */
DRV_API CUresult cuMemcpyBatchAsync(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                    CUmemcpyAttributes *attrs, size_t *idx, size_t nattrs, size_t *fail, CUstream s)
{
    return copy_batch(__func__, dsts, srcs, sizes, count, attrs, idx, nattrs, fail, s, false);
}
DRV_API CUresult cuMemcpyBatchAsync_ptsz(CUdeviceptr *dsts, CUdeviceptr *srcs, size_t *sizes, size_t count,
                                         CUmemcpyAttributes *attrs, size_t *idx, size_t nattrs, size_t *fail, CUstream s)
{
    return copy_batch("cuMemcpyBatchAsync", dsts, srcs, sizes, count, attrs, idx, nattrs, fail, s, true);
}

/* One operand of a 3D batch copy as a side of a CUDA_MEMCPY3D; *elem learns an array's
 * element size (0 for a pointer). */
static CUresult operand(const char *fn, const CUmemcpy3DOperand *o, size_t w, size_t h, bool dst, CUDA_MEMCPY3D *c,
                        unsigned *elem)
{
    *elem = 0;
    if (o->type == CU_MEMCPY_OPERAND_TYPE_POINTER) {
        if (!o->op.ptr.ptr || (o->op.ptr.rowLength && o->op.ptr.rowLength < w) ||
            (o->op.ptr.layerHeight && o->op.ptr.layerHeight < h))
            return CUDA_ERROR_INVALID_VALUE;
        return CUDA_SUCCESS;
    }
    if (o->type != CU_MEMCPY_OPERAND_TYPE_ARRAY)
        return CUDA_ERROR_INVALID_VALUE;
    drv_array_span_t sp;
    CUresult r = drv_array_span(o->op.array.array, fn, &sp);
    if (r)
        return r == CUDA_ERROR_INVALID_HANDLE ? CUDA_ERROR_INVALID_VALUE : r;
    *elem = sp.elem;
    if (dst) {
        c->dstMemoryType = CU_MEMORYTYPE_ARRAY;
        c->dstArray = o->op.array.array;
    } else {
        c->srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c->srcArray = o->op.array.array;
    }
    return CUDA_SUCCESS;
}

/* A pointer operand's side: memory type, address and pitches, bytes per element e. */
static void pointer_side(const CUmemcpy3DOperand *o, size_t w, size_t h, unsigned e, bool dst, CUDA_MEMCPY3D *c)
{
    size_t pitch = (o->op.ptr.rowLength ? o->op.ptr.rowLength : w) * e;
    size_t height = o->op.ptr.layerHeight ? o->op.ptr.layerHeight : h;
    if (dst) {
        c->dstMemoryType = CU_MEMORYTYPE_UNIFIED;
        c->dstDevice = o->op.ptr.ptr;
        c->dstPitch = pitch;
        c->dstHeight = height;
    } else {
        c->srcMemoryType = CU_MEMORYTYPE_UNIFIED;
        c->srcDevice = o->op.ptr.ptr;
        c->srcPitch = pitch;
        c->srcHeight = height;
    }
}

/* The CUDA_MEMCPY3D of batch operation op (checked as the H100's driver checks it). */
static CUresult batch_op(const char *fn, const CUDA_MEMCPY3D_BATCH_OP *op, CUDA_MEMCPY3D *c)
{
    memset(c, 0, sizeof *c);
    size_t w = op->width, h = op->height, d = op->depth;
    if (!w || !h || !d || !order_ok(op->srcAccessOrder) ||
        (op->flags & ~(unsigned)CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE))
        return CUDA_ERROR_INVALID_VALUE;
    unsigned se, de;
    CUresult r;
    if ((r = operand(fn, &op->src, w, h, false, c, &se)) || (r = operand(fn, &op->dst, w, h, true, c, &de)))
        return r;
    if (se && de && se != de)
        return CUDA_ERROR_INVALID_VALUE;
    unsigned e = se ? se : de ? de : 1;   /* bytes per element: the arrays', else bytes */
    if (!se)
        pointer_side(&op->src, w, h, e, false, c);
    if (!de)
        pointer_side(&op->dst, w, h, e, true, c);
    if (se) {
        c->srcXInBytes = op->src.op.array.x * e;
        c->srcY = op->src.op.array.y;
        c->srcZ = op->src.op.array.z;
    }
    if (de) {
        c->dstXInBytes = op->dst.op.array.x * e;
        c->dstY = op->dst.op.array.y;
        c->dstZ = op->dst.op.array.z;
    }
    c->WidthInBytes = w * e;
    c->Height = h;
    c->Depth = d;
    /* every byte in bounds: a pointer side inside an allocation must stay inside it */
    for (int side = 0; side < 2; side++) {
        unsigned ae = side ? de : se;
        if (ae)
            continue;   /* arrays: drv_copy3d checks the box against the array */
        CUdeviceptr p = side ? c->dstDevice : c->srcDevice;
        size_t pitch = side ? c->dstPitch : c->srcPitch, height = side ? c->dstHeight : c->srcHeight;
        size_t ext = ((d - 1) * height + (h - 1)) * pitch + w * e;
        bool in;
        if (!linear_side_ok(p, ext, &in))
            return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

/* Whether the box of c fits the array side(s): the H100's driver refuses the batch. */
static bool array_box_ok(const CUDA_MEMCPY3D *c)
{
    for (int side = 0; side < 2; side++) {
        CUarray a = side ? c->dstArray : c->srcArray;
        if ((side ? c->dstMemoryType : c->srcMemoryType) != CU_MEMORYTYPE_ARRAY)
            continue;
        drv_array_span_t sp;
        if (drv_array_span(a, "cuMemcpy3DBatchAsync", &sp))
            return false;
        size_t x = side ? c->dstXInBytes : c->srcXInBytes, y = side ? c->dstY : c->srcY, z = side ? c->dstZ : c->srcZ;
        if (x > sp.row || c->WidthInBytes > sp.row - x || y > sp.rows || c->Height > sp.rows - y ||
            z > sp.slices || c->Depth > sp.slices - z)
            return false;
    }
    return true;
}

static CUresult copy3d_batch(const char *fn, size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, size_t *fail,
                             unsigned long long flags, CUstream s, bool ptsz)
{
    if (fail)
        *fail = ~(size_t)0;
    CUresult r = drv_enter(NULL);
    if (r || (r = batch_stream(s, ptsz)))
        return r;
    if (flags || n == 0 || !ops)
        return CUDA_ERROR_INVALID_VALUE;
    CUDA_MEMCPY3D c;
    for (size_t i = 0; i < n; i++)
        if ((r = batch_op(fn, &ops[i], &c)) || (r = array_box_ok(&c) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE)) {
            if (fail)
                *fail = i;
            return r;
        }
    for (size_t i = 0; i < n; i++) {
        batch_op(fn, &ops[i], &c);
        if ((r = drv_copy3d(&c, s, false))) {
            if (fail)
                *fail = i;
            return r;
        }
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemcpy3DBatchAsync_v2(size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, unsigned long long flags, CUstream s)
{
    return copy3d_batch("cuMemcpy3DBatchAsync", n, ops, NULL, flags, s, false);
}
DRV_API CUresult cuMemcpy3DBatchAsync_v2_ptsz(size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, unsigned long long flags, CUstream s)
{
    return copy3d_batch("cuMemcpy3DBatchAsync", n, ops, NULL, flags, s, true);
}
DRV_API CUresult cuMemcpy3DBatchAsync(size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, size_t *fail, unsigned long long flags,
                                      CUstream s)
{
    return copy3d_batch(__func__, n, ops, fail, flags, s, false);
}
DRV_API CUresult cuMemcpy3DBatchAsync_ptsz(size_t n, CUDA_MEMCPY3D_BATCH_OP *ops, size_t *fail, unsigned long long flags,
                                           CUstream s)
{
    return copy3d_batch("cuMemcpy3DBatchAsync", n, ops, fail, flags, s, true);
}

/*{=====================================================================
 * Prefetches and discards
 *====================================================================*/

/* Check a batch of managed ranges (and their prefetch locations when nlocs is not 0, or
 * when locs_needed); then prefetch each to its location.  Discarding needs no work: the
 * contents of a discarded range are undefined, and keeping them is one such content. */
static CUresult managed_batch(CUdeviceptr *ptrs, size_t *sizes, size_t count, CUmemLocation *locs, size_t *idx,
                              size_t nlocs, bool prefetch, unsigned long long flags, CUstream s, bool ptsz)
{
    CUresult r = drv_enter(NULL);
    if (r || (r = batch_stream(s, ptsz)))
        return r;
    if (flags || !ptrs || !sizes || count == 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (prefetch) {
        if (!locs || !indices_ok(idx, nlocs, count))
            return CUDA_ERROR_INVALID_VALUE;
        for (size_t k = 0; k < nlocs; k++)
            if (drv_check_location(locs[k]))
                return CUDA_ERROR_INVALID_VALUE;
    }
    for (size_t i = 0; i < count; i++)
        if (!sizes[i] || !drv_managed_holds(ptrs[i], sizes[i]))
            return CUDA_ERROR_INVALID_VALUE;
    if (prefetch)
        for (size_t i = 0, k = 0; i < count; i++) {
            while (k + 1 < nlocs && idx[k + 1] <= i)
                k++;
            if ((r = drv_prefetch(ptrs[i], sizes[i], locs[k], 0, ptsz && !s ? CU_STREAM_PER_THREAD : s)))
                return r;
        }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuMemPrefetchBatchAsync(CUdeviceptr *ptrs, size_t *sizes, size_t count, CUmemLocation *locs, size_t *idx,
                                         size_t nlocs, unsigned long long flags, CUstream s)
{
    return managed_batch(ptrs, sizes, count, locs, idx, nlocs, true, flags, s, false);
}
DRV_API CUresult cuMemPrefetchBatchAsync_ptsz(CUdeviceptr *ptrs, size_t *sizes, size_t count, CUmemLocation *locs,
                                              size_t *idx, size_t nlocs, unsigned long long flags, CUstream s)
{
    return managed_batch(ptrs, sizes, count, locs, idx, nlocs, true, flags, s, true);
}
DRV_API CUresult cuMemDiscardBatchAsync(CUdeviceptr *ptrs, size_t *sizes, size_t count, unsigned long long flags,
                                        CUstream s)
{
    return managed_batch(ptrs, sizes, count, NULL, NULL, 0, false, flags, s, false);
}
DRV_API CUresult cuMemDiscardBatchAsync_ptsz(CUdeviceptr *ptrs, size_t *sizes, size_t count, unsigned long long flags,
                                             CUstream s)
{
    return managed_batch(ptrs, sizes, count, NULL, NULL, 0, false, flags, s, true);
}
DRV_API CUresult cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *ptrs, size_t *sizes, size_t count, CUmemLocation *locs,
                                                   size_t *idx, size_t nlocs, unsigned long long flags, CUstream s)
{
    return managed_batch(ptrs, sizes, count, locs, idx, nlocs, true, flags, s, false);
}
DRV_API CUresult cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr *ptrs, size_t *sizes, size_t count,
                                                        CUmemLocation *locs, size_t *idx, size_t nlocs,
                                                        unsigned long long flags, CUstream s)
{
    return managed_batch(ptrs, sizes, count, locs, idx, nlocs, true, flags, s, true);
}

/*{=====================================================================
 * Stream memory operations
 *====================================================================*/

/* A 32- or 64-bit word the device can write at p: aligned, in an allocation (device,
 * managed, or host memory mapped for the device). */
static bool word_ok(CUdeviceptr p, unsigned size)
{
    return p && p % size == 0 && drv_alloc_find((uintptr_t)p, size) != NULL;
}

/* Check one memory operation (CUDA_ERROR_INVALID_VALUE, or CUDA_ERROR_NOT_SUPPORTED for a
 * flush of remote writes, which the H100 cannot do: CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES
 * is 0). */
static CUresult memop_check(const CUstreamBatchMemOpParams *p)
{
    switch (p->operation) {
    case CU_STREAM_MEM_OP_WRITE_VALUE_32:
    case CU_STREAM_MEM_OP_WRITE_VALUE_64:
        /* the H100 refuses CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER too (measured) */
        if (p->value.flags)
            return CUDA_ERROR_INVALID_VALUE;
        return word_ok(p->value.address, p->operation == CU_STREAM_MEM_OP_WRITE_VALUE_32 ? 4 : 8)
                   ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
    case CU_STREAM_MEM_OP_WAIT_VALUE_32:
    case CU_STREAM_MEM_OP_WAIT_VALUE_64:
        if (p->value.flags & ~(unsigned)(CU_STREAM_WAIT_VALUE_FLUSH | 3))
            return CUDA_ERROR_INVALID_VALUE;
        if (!word_ok(p->value.address, p->operation == CU_STREAM_MEM_OP_WAIT_VALUE_32 ? 4 : 8))
            return CUDA_ERROR_INVALID_VALUE;
        return p->value.flags & CU_STREAM_WAIT_VALUE_FLUSH ? CUDA_ERROR_NOT_SUPPORTED : CUDA_SUCCESS;
    case CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES:
        return CUDA_ERROR_NOT_SUPPORTED;
    case CU_STREAM_MEM_OP_BARRIER:
        return p->other.flags > 1 ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
}

/* Whether the wait's condition holds for the value v now at its address. */
static bool wait_holds(uint64_t v, uint64_t want, unsigned flags, bool wide)
{
    if (!wide) {
        v = (uint32_t)v;
        want = (uint32_t)want;
    }
    switch (flags & 3) {
    case CU_STREAM_WAIT_VALUE_GEQ: return wide ? (int64_t)(v - want) >= 0 : (int32_t)(uint32_t)(v - want) >= 0;
    case CU_STREAM_WAIT_VALUE_EQ: return v == want;
    case CU_STREAM_WAIT_VALUE_AND: return (v & want) != 0;
    default: return (wide ? ~(v | want) : (uint32_t)~(v | want)) != 0;
    }
}

static const char *wait_name(unsigned flags)
{
    static const char *const names[] = { "GEQ", "EQ", "AND", "NOR" };
    return names[flags & 3];
}

/* Do one checked operation. */
static CUresult memop_do(const char *fn, const CUstreamBatchMemOpParams *p)
{
    void *a = (void *)(uintptr_t)p->value.address;
    switch (p->operation) {
    case CU_STREAM_MEM_OP_WRITE_VALUE_32: {
        uint32_t v = (uint32_t)p->value.value;
        __atomic_store(( uint32_t *)a, &v, __ATOMIC_SEQ_CST);
        return CUDA_SUCCESS;
    }
    case CU_STREAM_MEM_OP_WRITE_VALUE_64: {
        uint64_t v = p->value.value;
        __atomic_store((uint64_t *)a, &v, __ATOMIC_SEQ_CST);
        return CUDA_SUCCESS;
    }
    case CU_STREAM_MEM_OP_WAIT_VALUE_32:
    case CU_STREAM_MEM_OP_WAIT_VALUE_64: {
        bool wide = p->operation == CU_STREAM_MEM_OP_WAIT_VALUE_64;
        uint64_t v = 0;
        if (wide) {
            v = __atomic_load_n((uint64_t *)a, __ATOMIC_SEQ_CST);
        } else {
            v = __atomic_load_n((uint32_t *)a, __ATOMIC_SEQ_CST);
        }
        if (wait_holds(v, p->value.value, p->value.flags, wide))
            return CUDA_SUCCESS;
        return drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "the wait for the %d-bit value at 0x%llx (%s 0x%llx; it holds "
                        "0x%llx) would never end: the emulator runs work when it is submitted, so nothing can change "
                        "the value while the stream waits", wide ? 64 : 32, (unsigned long long)p->value.address,
                        wait_name(p->value.flags),
                        (unsigned long long)(wide ? p->value.value : (uint32_t)p->value.value),
                        (unsigned long long)v);
    }
    default:
        return CUDA_SUCCESS;   /* a barrier: every earlier write is done */
    }
}

static CUresult memops(const char *fn, CUstream s, unsigned n, const CUstreamBatchMemOpParams *p, unsigned flags)
{
    CUresult r = drv_enter(NULL);
    if (r || (r = drv_stream_check(s)))
        return r;
    if (flags || (n && !p))
        return CUDA_ERROR_INVALID_VALUE;
    if ((r = drv_capture_refuse(s, fn, "stream memory operations (batch memory operation nodes)")))
        return r;
    for (unsigned i = 0; i < n; i++)
        if ((r = memop_check(&p[i])))
            return r;
    for (unsigned i = 0; i < n; i++)
        if ((r = memop_do(fn, &p[i])))
            return r;
    return CUDA_SUCCESS;
}

static CUresult memop(const char *fn, CUstream s, int op, CUdeviceptr addr, uint64_t value, unsigned flags)
{
    CUstreamBatchMemOpParams p;
    memset(&p, 0, sizeof p);
    p.value.operation = op;
    p.value.address = addr;
    p.value.value = value;
    p.value.flags = flags;
    return memops(fn, s, 1, &p, 0);
}

#define MEMOP_FORMS(name, op, type)                                                                        \
    DRV_API CUresult name(CUstream s, CUdeviceptr a, type v, unsigned flags) { return memop(#name, s, op, a, v, flags); } \
    DRV_API CUresult name##_ptsz(CUstream s, CUdeviceptr a, type v, unsigned flags) { return memop(#name, s, op, a, v, flags); } \
    DRV_API CUresult name##_v2(CUstream s, CUdeviceptr a, type v, unsigned flags) { return memop(#name, s, op, a, v, flags); } \
    DRV_API CUresult name##_v2_ptsz(CUstream s, CUdeviceptr a, type v, unsigned flags) { return memop(#name, s, op, a, v, flags); }
MEMOP_FORMS(cuStreamWaitValue32, CU_STREAM_MEM_OP_WAIT_VALUE_32, uint32_t)
MEMOP_FORMS(cuStreamWriteValue32, CU_STREAM_MEM_OP_WRITE_VALUE_32, uint32_t)
MEMOP_FORMS(cuStreamWaitValue64, CU_STREAM_MEM_OP_WAIT_VALUE_64, uint64_t)
MEMOP_FORMS(cuStreamWriteValue64, CU_STREAM_MEM_OP_WRITE_VALUE_64, uint64_t)

DRV_API CUresult cuStreamBatchMemOp(CUstream s, unsigned n, CUstreamBatchMemOpParams *p, unsigned flags)
{
    return memops(__func__, s, n, p, flags);
}
DRV_API CUresult cuStreamBatchMemOp_ptsz(CUstream s, unsigned n, CUstreamBatchMemOpParams *p, unsigned flags)
{
    return memops("cuStreamBatchMemOp", s, n, p, flags);
}
DRV_API CUresult cuStreamBatchMemOp_v2(CUstream s, unsigned n, CUstreamBatchMemOpParams *p, unsigned flags)
{
    return memops("cuStreamBatchMemOp", s, n, p, flags);
}
DRV_API CUresult cuStreamBatchMemOp_v2_ptsz(CUstream s, unsigned n, CUstreamBatchMemOpParams *p, unsigned flags)
{
    return memops("cuStreamBatchMemOp", s, n, p, flags);
}
