/* tensormap.c: tensor maps for the Tensor Memory Accelerator (cuTensorMapEncodeTiled,
 * cuTensorMapReplaceAddress): checked as the driver checks them and encoded in the
 * emulator's layout (ex_tensormap_t, exec/exec.h), which cp.async.bulk.tensor reads.
 * Tile and im2col modes without interleaving. */
#include <string.h>

#include "runtime/driver/drv.h"

static bool dtype_float(int t) { return t >= 6 && t <= 12; }

/* What both encoders check (dtype, interleave, swizzle, address, L2, OOB fill, the
 * dimensions, strides and element strides) and the fields they share, into t; a driver
 * error, or CUDA_SUCCESS. */
static CUresult encode_common(const char *fn, ex_tensormap_t *t, int dtype, uint32_t rank, void *addr,
                              const uint64_t *dims, const uint64_t *strides, const uint32_t *estr, int interleave,
                              int swizzle, int l2, int oob)
{
    if (dtype < 0 || ex_tmap_esize((unsigned)dtype) == 0)
        return dtype <= 15 ? drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "packed sub-byte data types are not emulated")
                           : CUDA_ERROR_INVALID_VALUE;
    if (interleave != 0)
        return interleave <= 2 ? drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "interleaved tensor maps are not emulated")
                               : CUDA_ERROR_INVALID_VALUE;
    if (swizzle < 0 || swizzle > 3)
        return swizzle <= 6 ? drv_fail(CUDA_ERROR_NOT_SUPPORTED, fn, "swizzle mode %d is not emulated", swizzle)
                            : CUDA_ERROR_INVALID_VALUE;
    if ((uintptr_t)addr % 16 || l2 < 0 || l2 > 3 || oob < 0 || oob > 1 || (oob == 1 && !dtype_float(dtype)))
        return CUDA_ERROR_INVALID_VALUE;
    for (uint32_t i = 0; i < rank; i++) {
        if (dims[i] == 0 || dims[i] > (1ull << 32) || estr[i] == 0 || estr[i] > 8)
            return CUDA_ERROR_INVALID_VALUE;
        if (i + 1 < rank && (strides[i] % 16 || strides[i] >= (1ull << 40)))
            return CUDA_ERROR_INVALID_VALUE;
    }
    memset(t, 0, sizeof *t);
    t->magic = EX_TMAP_MAGIC;
    t->dtype = (uint8_t)dtype;
    t->rank = (uint8_t)rank;
    t->esize = (uint8_t)ex_tmap_esize((unsigned)dtype);
    t->tf32 = dtype == 11 || dtype == 12;
    t->swizzle = (uint8_t)swizzle;
    t->oob_nan = (uint8_t)oob;
    t->l2 = (uint8_t)l2;
    t->addr = (uint64_t)(uintptr_t)addr;
    for (uint32_t i = 0; i < rank; i++) {
        t->dims[i] = dims[i];
        t->estr[i] = (uint8_t)estr[i];
        if (i + 1 < rank)
            t->strides[i] = strides[i];
    }
    return CUDA_SUCCESS;
}

DRV_API CUresult cuTensorMapEncodeTiled(void *map, int dtype, uint32_t rank, void *addr, const uint64_t *dims,
                                        const uint64_t *strides, const uint32_t *box, const uint32_t *estr,
                                        int interleave, int swizzle, int l2, int oob)
{
    if (!map || (uintptr_t)map % 64 || !dims || !box || !estr || (rank > 1 && !strides) || rank < 1 || rank > 5)
        return CUDA_ERROR_INVALID_VALUE;
    ex_tensormap_t t;
    CUresult r = encode_common(__func__, &t, dtype, rank, addr, dims, strides, estr, interleave, swizzle, l2, oob);
    if (r)
        return r;
    for (uint32_t i = 0; i < rank; i++) {
        if (box[i] == 0 || box[i] > 256)
            return CUDA_ERROR_INVALID_VALUE;
        t.box[i] = (uint16_t)box[i];
    }
    if ((box[0] * t.esize) % 16 || (swizzle && box[0] * t.esize > (16u << swizzle)))
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(map, &t, sizeof t);
    return CUDA_SUCCESS;
}

DRV_API CUresult cuTensorMapReplaceAddress(void *map, void *addr)
{
    ex_tensormap_t t;
    if (!map || (uintptr_t)map % 64 || (uintptr_t)addr % 16)
        return CUDA_ERROR_INVALID_VALUE;
    memcpy(&t, map, sizeof t);
    if (t.magic != EX_TMAP_MAGIC)
        return CUDA_ERROR_INVALID_VALUE;
    t.addr = (uint64_t)(uintptr_t)addr;
    memcpy(map, &t, sizeof t);
    return CUDA_SUCCESS;
}

/* An im2col map (rank 3 to 5: channels, 1 to 3 spatial dimensions, images), checked as the
 * H100's driver checks one (app test tma_im2col): the corners' range narrows with the rank
 * (16, 8 and 5 bits), at most 256 channels of a multiple of 16 bytes, 1024 pixels, a
 * bounding box that is not empty in any spatial dimension. */
DRV_API CUresult cuTensorMapEncodeIm2col(void *map, int dtype, uint32_t rank, void *addr, const uint64_t *dims,
                                         const uint64_t *strides, const int *lower, const int *upper,
                                         uint32_t channels, uint32_t pixels, const uint32_t *estr, int interleave,
                                         int swizzle, int l2, int oob)
{
    if (!map || (uintptr_t)map % 64 || !dims || !strides || !lower || !upper || !estr || rank < 3 || rank > 5)
        return CUDA_ERROR_INVALID_VALUE;
    ex_tensormap_t t;
    CUresult r = encode_common(__func__, &t, dtype, rank, addr, dims, strides, estr, interleave, swizzle, l2, oob);
    if (r)
        return r;
    if (channels == 0 || channels > 256 || (channels * t.esize) % 16 || pixels == 0 || pixels > 1024 ||
        (swizzle && channels * t.esize > (16u << swizzle)))
        return CUDA_ERROR_INVALID_VALUE;
    int range = rank == 3 ? 1 << 15 : rank == 4 ? 1 << 7 : 1 << 4;
    for (uint32_t i = 0; i < rank - 2; i++) {
        if (lower[i] < -range || lower[i] >= range || upper[i] < -range || upper[i] >= range)
            return CUDA_ERROR_INVALID_VALUE;
        /* an empty bounding box (lower past dims - 1 + upper) is refused (measured) */
        if ((int64_t)lower[i] > (int64_t)dims[1 + i] - 1 + upper[i])
            return CUDA_ERROR_INVALID_VALUE;
        t.lower[i] = (int16_t)lower[i];
        t.upper[i] = (int16_t)upper[i];
    }
    t.im2col = 1;
    t.channels = (uint16_t)channels;
    t.pixels = (uint16_t)pixels;
    memcpy(map, &t, sizeof t);
    return CUDA_SUCCESS;
}
