// peer: peer access on a machine with one device.  A device is no peer of itself, there is
// no other, and copies between "peers" on the one device are plain copies.  The results of
// the runtime's and the driver's peer calls are printed as they return them.
// link: -lcuda
#include "apps.h"
#include <cuda.h>

int main()
{
    int n = 0, can = -1, v = -1;
    CK(cudaGetDeviceCount(&n));
    printf("devices: %d\n", n);
    SAY(cudaDeviceCanAccessPeer(&can, 0, 0));
    printf("device 0 can access device 0 as a peer: %d\n", can);
    SAY(cudaDeviceCanAccessPeer(&can, 0, 1));
    SAY(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0));
    SAY(cudaDeviceEnablePeerAccess(0, 0));
    SAY(cudaDeviceEnablePeerAccess(1, 0));
    SAY(cudaDeviceDisablePeerAccess(0));
    SAY(cudaDeviceDisablePeerAccess(1));
    (void)cudaGetLastError();

    CUcontext mine, other;
    DK(cuCtxGetCurrent(&mine));
    DK(cuCtxEnablePeerAccess(mine, 0));
    DK(cuCtxDisablePeerAccess(mine));
    CUctxCreateParams params = {};
    DK(cuCtxCreate(&other, &params, 0, 0));
    DK(cuCtxSetCurrent(mine));
    DK(cuCtxEnablePeerAccess(other, 0));
    DK(cuCtxEnablePeerAccess(other, 1));
    DK(cuCtxDisablePeerAccess(other));
    DK(cuCtxDestroy(other));

    int *a, *b, h[4] = { 1, 2, 3, 4 }, g[4] = {};
    CK(cudaMalloc(&a, sizeof h));
    CK(cudaMalloc(&b, sizeof h));
    CK(cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice));
    SAY(cudaMemcpyPeer(b, 0, a, 0, sizeof h));
    CK(cudaMemcpy(g, b, sizeof g, cudaMemcpyDeviceToHost));
    printf("copied between peers: %d %d %d %d\n", g[0], g[1], g[2], g[3]);
    SAY(cudaMemcpyPeer(b, 1, a, 0, sizeof h));
    return 0;
}
