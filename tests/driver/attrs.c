/* attrs.c: query every CUdevice_attribute of device 0 (and its name, UUID, memory, compute
 * capability, driver version) and print them as runtime/h100_attrs.def rows. */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

static const struct { const char *name; int id; } attrs[] = {
#define A(x) {#x, x},
#include "attr_list.h"
#undef A
};

int main(void)
{
    CUdevice dev;
    int v, drv = 0;
    char name[256];
    size_t mem = 0;
    CUuuid u;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS) {
        fprintf(stderr, "attrs: no device\n");
        return 1;
    }
    cuDriverGetVersion(&drv);
    cuDeviceGetName(name, sizeof name, dev);
    cuDeviceTotalMem(&mem, dev);
    memset(&u, 0, sizeof u);
    cuDeviceGetUuid(&u, dev);
    printf("/* h100_attrs.def: every CUdevice_attribute of CUDA 13.0's cuda.h as device 0 reported\n"
           " * it (tests/driver/record.sh).  DEVINFO(key, value); ATTR(enum name, number, value, result):\n"
           " * result is the CUresult of cuDeviceGetAttribute (0 = success; otherwise value is 0). */\n");
    printf("DEVINFO(name, \"%s\")\n", name);
    printf("DEVINFO(driver_version, %d)\n", drv);
    printf("DEVINFO(total_mem, %zu)\n", mem);
    printf("DEVINFO(uuid, \"");
    for (int i = 0; i < 16; i++)
        printf("%02x%s", (unsigned char)u.bytes[i], i == 3 || i == 5 || i == 7 || i == 9 ? "-" : "");
    printf("\")\n");
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        v = 0;
        CUresult r = cuDeviceGetAttribute(&v, (CUdevice_attribute)attrs[i].id, dev);
        if (r != CUDA_SUCCESS)
            v = 0;
        printf("ATTR(%s, %d, %d, %d)\n", attrs[i].name, attrs[i].id, v, (int)r);
    }
    /* one past the last: what an unknown attribute gives */
    v = 0;
    CUresult r = cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX, dev);
    printf("/* CU_DEVICE_ATTRIBUTE_MAX (%d): result %d */\n", (int)CU_DEVICE_ATTRIBUTE_MAX, (int)r);
    return 0;
}
