/* cu.h: the CUDA driver ABI (CUDA 13.0) as far as the emulator's libcuda.so.1 implements
 * it: handles, result codes, the enumerations and the structures its functions take.
 * Values and layouts are the driver's (cuda.h of CUDA 13.0); the declarations are ours, so
 * that the driver builds where no CUDA toolkit is installed. */
#ifndef PTXEMU_CU_H
#define PTXEMU_CU_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
#define CU_ERR(name, value, text) name = value,
#include "runtime/driver/errors.def"
#undef CU_ERR
} CUresult;

typedef int                     CUdevice;
typedef unsigned long long      CUdeviceptr;
typedef struct drv_ctx         *CUcontext;
typedef struct drv_module      *CUmodule;
typedef struct drv_module      *CUlibrary;
typedef struct drv_func        *CUfunction;
typedef struct drv_func        *CUkernel;
typedef struct drv_stream      *CUstream;
typedef struct drv_event       *CUevent;
typedef struct drv_link        *CUlinkState;
typedef struct drv_array       *CUarray;
typedef struct drv_mipmap      *CUmipmappedArray;
typedef unsigned long long      CUtexObject;
typedef unsigned long long      CUsurfObject;
typedef struct { char bytes[16]; } CUuuid;
typedef struct { int type; int id; } CUmemLocation;   /* CUmemLocation: CUmemLocationType and its id */

/* Memory types (CUmemorytype). */
enum { CU_MEMORYTYPE_HOST = 1, CU_MEMORYTYPE_DEVICE = 2, CU_MEMORYTYPE_ARRAY = 3, CU_MEMORYTYPE_UNIFIED = 4 };

/* Limits (CUlimit). */
enum {
    CU_LIMIT_STACK_SIZE = 0, CU_LIMIT_PRINTF_FIFO_SIZE = 1, CU_LIMIT_MALLOC_HEAP_SIZE = 2,
    CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH = 3, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 4,
    CU_LIMIT_MAX_L2_FETCH_GRANULARITY = 5, CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 6,
    CU_LIMIT_SHMEM_SIZE = 7, CU_LIMIT_CIG_ENABLED = 8, CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED = 9
};

/* Function attributes (CUfunction_attribute). */
enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4, CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
    CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
    CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET = 10, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH = 11,
    CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT = 12, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH = 13,
    CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
    CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15, CU_FUNC_ATTRIBUTE_MAX = 16
};

/* Pointer attributes (CUpointer_attribute). */
enum {
    CU_POINTER_ATTRIBUTE_CONTEXT = 1, CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3, CU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
    CU_POINTER_ATTRIBUTE_P2P_TOKENS = 5, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS = 6,
    CU_POINTER_ATTRIBUTE_BUFFER_ID = 7, CU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE = 10,
    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11, CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
    CU_POINTER_ATTRIBUTE_MAPPED = 13, CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES = 14,
    CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE = 15, CU_POINTER_ATTRIBUTE_ACCESS_FLAGS = 16,
    CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE = 17, CU_POINTER_ATTRIBUTE_MAPPING_SIZE = 18,
    CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR = 19, CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID = 20,
    CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE = 21
};

/* Launch attributes (CUlaunchAttributeID) and their 64-byte value. */
enum {
    CU_LAUNCH_ATTRIBUTE_IGNORE = 0, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW = 1,
    CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2, CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY = 3,
    CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4, CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5,
    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6, CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT = 7,
    CU_LAUNCH_ATTRIBUTE_PRIORITY = 8, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP = 9,
    CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN = 10, CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION = 11,
    CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT = 12, CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE = 13,
    CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 14,
    CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING = 16
};
typedef union {
    char     pad[64];
    int      cooperative;
    unsigned priority;
    struct { unsigned x, y, z; } clusterDim;
    struct { CUevent event; int flags, triggerAtBlockStart; } programmaticEvent;
    struct { unsigned x, y, z; } preferredClusterDim;
    struct { CUevent event; int flags; } launchCompletionEvent;
    unsigned nvlinkUtilCentricScheduling;
} CUlaunchAttributeValue;
typedef struct {
    int                    id;
    char                   pad[8 - sizeof(int)];
    CUlaunchAttributeValue value;
} CUlaunchAttribute;
typedef struct {
    unsigned int       gridDimX, gridDimY, gridDimZ;
    unsigned int       blockDimX, blockDimY, blockDimZ;
    unsigned int       sharedMemBytes;
    CUstream           hStream;
    CUlaunchAttribute *attrs;
    unsigned int       numAttrs;
} CUlaunchConfig;

/* The extra argument of cuLaunchKernel. */
#define CU_LAUNCH_PARAM_END            ((void *)0x00)
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define CU_LAUNCH_PARAM_BUFFER_SIZE    ((void *)0x02)

/* Copies. */
typedef struct {
    size_t       srcXInBytes, srcY;
    int          srcMemoryType;
    const void  *srcHost;
    CUdeviceptr  srcDevice;
    CUarray      srcArray;
    size_t       srcPitch;
    size_t       dstXInBytes, dstY;
    int          dstMemoryType;
    void        *dstHost;
    CUdeviceptr  dstDevice;
    CUarray      dstArray;
    size_t       dstPitch;
    size_t       WidthInBytes, Height;
} CUDA_MEMCPY2D;
typedef struct {
    size_t       srcXInBytes, srcY, srcZ, srcLOD;
    int          srcMemoryType;
    const void  *srcHost;
    CUdeviceptr  srcDevice;
    CUarray      srcArray;
    void        *reserved0;
    size_t       srcPitch, srcHeight;
    size_t       dstXInBytes, dstY, dstZ, dstLOD;
    int          dstMemoryType;
    void        *dstHost;
    CUdeviceptr  dstDevice;
    CUarray      dstArray;
    void        *reserved1;
    size_t       dstPitch, dstHeight;
    size_t       WidthInBytes, Height, Depth;
} CUDA_MEMCPY3D;

typedef struct {
    size_t       srcXInBytes, srcY, srcZ, srcLOD;
    int          srcMemoryType;
    const void  *srcHost;
    CUdeviceptr  srcDevice;
    CUarray      srcArray;
    CUcontext    srcContext;
    size_t       srcPitch, srcHeight;
    size_t       dstXInBytes, dstY, dstZ, dstLOD;
    int          dstMemoryType;
    void        *dstHost;
    CUdeviceptr  dstDevice;
    CUarray      dstArray;
    CUcontext    dstContext;
    size_t       dstPitch, dstHeight;
    size_t       WidthInBytes, Height, Depth;
} CUDA_MEMCPY3D_PEER;

/* Batches of copies (CUDA 12.8): CUmemcpyAttributes, CUmemcpy3DOperand, CUDA_MEMCPY3D_BATCH_OP. */
enum { CU_MEMCPY_SRC_ACCESS_ORDER_STREAM = 1, CU_MEMCPY_SRC_ACCESS_ORDER_DURING_API_CALL = 2,
       CU_MEMCPY_SRC_ACCESS_ORDER_ANY = 3 };
enum { CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE = 1 };
enum { CU_MEMCPY_OPERAND_TYPE_POINTER = 1, CU_MEMCPY_OPERAND_TYPE_ARRAY = 2 };
typedef struct {
    int           srcAccessOrder;
    CUmemLocation srcLocHint, dstLocHint;
    unsigned int  flags;
} CUmemcpyAttributes;
typedef struct {
    int type;
    union {
        struct { CUdeviceptr ptr; size_t rowLength, layerHeight; CUmemLocation locHint; } ptr;
        struct { CUarray array; size_t x, y, z; } array;
    } op;
} CUmemcpy3DOperand;
typedef struct {
    CUmemcpy3DOperand src, dst;
    size_t            width, height, depth;    /* CUextent3D */
    int               srcAccessOrder;
    unsigned int      flags;
} CUDA_MEMCPY3D_BATCH_OP;

/* Stream memory operations: CUstreamBatchMemOpParams (48 bytes) and their flags. */
enum { CU_STREAM_MEM_OP_WAIT_VALUE_32 = 1, CU_STREAM_MEM_OP_WRITE_VALUE_32 = 2,
       CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES = 3, CU_STREAM_MEM_OP_WAIT_VALUE_64 = 4,
       CU_STREAM_MEM_OP_WRITE_VALUE_64 = 5, CU_STREAM_MEM_OP_BARRIER = 6 };
enum { CU_STREAM_WAIT_VALUE_GEQ = 0, CU_STREAM_WAIT_VALUE_EQ = 1, CU_STREAM_WAIT_VALUE_AND = 2,
       CU_STREAM_WAIT_VALUE_NOR = 3, CU_STREAM_WAIT_VALUE_FLUSH = 1 << 30 };
typedef union {
    int operation;
    struct { int operation; CUdeviceptr address; uint64_t value; unsigned int flags; CUdeviceptr alias; } value;
    struct { int operation; unsigned int flags; } other;   /* flushRemoteWrites, memoryBarrier */
    uint64_t pad[6];
} CUstreamBatchMemOpParams;

/* CUDA arrays: element formats (CUarray_format; the ones with a channel type), the flags
 * of CUDA_ARRAY3D_DESCRIPTOR, the descriptors. */
enum {
    CU_AD_FORMAT_UNSIGNED_INT8 = 0x01, CU_AD_FORMAT_UNSIGNED_INT16 = 0x02, CU_AD_FORMAT_UNSIGNED_INT32 = 0x03,
    CU_AD_FORMAT_SIGNED_INT8 = 0x08, CU_AD_FORMAT_SIGNED_INT16 = 0x09, CU_AD_FORMAT_SIGNED_INT32 = 0x0a,
    CU_AD_FORMAT_HALF = 0x10, CU_AD_FORMAT_FLOAT = 0x20
};
#define CUDA_ARRAY3D_LAYERED             0x01
#define CUDA_ARRAY3D_SURFACE_LDST        0x02
#define CUDA_ARRAY3D_CUBEMAP             0x04
#define CUDA_ARRAY3D_TEXTURE_GATHER      0x08
#define CUDA_ARRAY3D_DEPTH_TEXTURE       0x10
#define CUDA_ARRAY3D_COLOR_ATTACHMENT    0x20
#define CUDA_ARRAY3D_SPARSE              0x40
#define CUDA_ARRAY3D_DEFERRED_MAPPING    0x80
#define CUDA_ARRAY3D_VIDEO_ENCODE_DECODE 0x100
typedef struct {
    size_t       Width, Height;
    int          Format;          /* CUarray_format */
    unsigned int NumChannels;
} CUDA_ARRAY_DESCRIPTOR;
typedef struct {
    size_t       Width, Height, Depth;
    int          Format;          /* CUarray_format */
    unsigned int NumChannels;
    unsigned int Flags;
} CUDA_ARRAY3D_DESCRIPTOR;
typedef struct {
    struct { unsigned int width, height, depth; } tileExtent;
    unsigned int       miptailFirstLevel;
    unsigned long long miptailSize;
    unsigned int       flags;
    unsigned int       reserved[4];
} CUDA_ARRAY_SPARSE_PROPERTIES;
typedef struct {
    size_t       size, alignment;
    unsigned int reserved[4];
} CUDA_ARRAY_MEMORY_REQUIREMENTS;

/* Texture and surface objects: resources (CUresourcetype), samplers (CUaddress_mode,
 * CUfilter_mode, the CU_TRSF_* flags), resource views. */
enum { CU_RESOURCE_TYPE_ARRAY = 0, CU_RESOURCE_TYPE_MIPMAPPED_ARRAY = 1, CU_RESOURCE_TYPE_LINEAR = 2,
       CU_RESOURCE_TYPE_PITCH2D = 3 };
enum { CU_TR_ADDRESS_MODE_WRAP = 0, CU_TR_ADDRESS_MODE_CLAMP = 1, CU_TR_ADDRESS_MODE_MIRROR = 2,
       CU_TR_ADDRESS_MODE_BORDER = 3 };
enum { CU_TR_FILTER_MODE_POINT = 0, CU_TR_FILTER_MODE_LINEAR = 1 };
#define CU_TRSF_READ_AS_INTEGER                0x01
#define CU_TRSF_NORMALIZED_COORDINATES         0x02
#define CU_TRSF_SRGB                           0x10
#define CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION 0x20
#define CU_TRSF_SEAMLESS_CUBEMAP               0x40
typedef struct {
    int resType;                  /* CUresourcetype */
    union {
        struct { CUarray hArray; } array;
        struct { CUmipmappedArray hMipmappedArray; } mipmap;
        struct { CUdeviceptr devPtr; int format; unsigned int numChannels; size_t sizeInBytes; } linear;
        struct {
            CUdeviceptr devPtr; int format; unsigned int numChannels;
            size_t width, height, pitchInBytes;
        } pitch2D;
        struct { int reserved[32]; } reserved;
    } res;
    unsigned int flags;
} CUDA_RESOURCE_DESC;
typedef struct {
    int          addressMode[3];  /* CUaddress_mode */
    int          filterMode;      /* CUfilter_mode */
    unsigned int flags;           /* CU_TRSF_* */
    unsigned int maxAnisotropy;
    int          mipmapFilterMode;
    float        mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    float        borderColor[4];
    int          reserved[12];
} CUDA_TEXTURE_DESC;
typedef struct {
    int          format;          /* CUresourceViewFormat; 0: the resource's own */
    size_t       width, height, depth;
    unsigned int firstMipmapLevel, lastMipmapLevel;
    unsigned int firstLayer, lastLayer;
    unsigned int reserved[16];
} CUDA_RESOURCE_VIEW_DESC;

/* Flags. */
#define CU_MEMHOSTALLOC_PORTABLE      0x01
#define CU_MEMHOSTALLOC_DEVICEMAP     0x02
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04
#define CU_MEMHOSTREGISTER_PORTABLE   0x01
#define CU_MEMHOSTREGISTER_DEVICEMAP  0x02
#define CU_MEMHOSTREGISTER_IOMEMORY   0x04
#define CU_MEMHOSTREGISTER_READ_ONLY  0x08
#define CU_MEM_ATTACH_GLOBAL 0x1
#define CU_MEM_ATTACH_HOST   0x2
#define CU_MEM_ATTACH_SINGLE 0x4
#define CU_STREAM_DEFAULT      0x0
#define CU_STREAM_NON_BLOCKING 0x1
#define CU_EVENT_DEFAULT         0x0
#define CU_EVENT_BLOCKING_SYNC   0x1
#define CU_EVENT_DISABLE_TIMING  0x2
#define CU_EVENT_INTERPROCESS    0x4
#define CU_STREAM_LEGACY     ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)

/* cuGetProcAddress flags and symbol status. */
#define CU_GET_PROC_ADDRESS_DEFAULT                    0
#define CU_GET_PROC_ADDRESS_LEGACY_STREAM              1
#define CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM  2
enum { CU_GET_PROC_ADDRESS_SUCCESS = 0, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
       CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2 };

/* Library and JIT options, JIT input types. */
enum { CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE = 0, CU_LIBRARY_BINARY_IS_PRESERVED = 1 };
enum { CU_JIT_INPUT_CUBIN = 0, CU_JIT_INPUT_PTX = 1, CU_JIT_INPUT_FATBINARY = 2, CU_JIT_INPUT_OBJECT = 3,
       CU_JIT_INPUT_LIBRARY = 4, CU_JIT_INPUT_NVVM = 5 };
enum { CU_JIT_MAX_REGISTERS = 0, CU_JIT_WALL_TIME = 2, CU_JIT_INFO_LOG_BUFFER = 3, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4, CU_JIT_ERROR_LOG_BUFFER = 5,
       CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6 };

/* Module loading mode. */
enum { CU_MODULE_EAGER_LOADING = 1, CU_MODULE_LAZY_LOADING = 2 };

/* Host functions and stream callbacks. */
typedef void (*CUhostFn)(void *userData);
typedef void (*CUstreamCallback)(CUstream hStream, CUresult status, void *userData);

/* Occupancy. */
typedef size_t (*CUoccupancyB2DSize)(int blockSize);

/* Stream capture status. */
enum { CU_STREAM_CAPTURE_STATUS_NONE = 0, CU_STREAM_CAPTURE_STATUS_ACTIVE = 1,
       CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2 };

#endif
