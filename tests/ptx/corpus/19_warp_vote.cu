// Feature group 6.19: warp vote and active mask.
__global__ void k_vote(const int *a, unsigned *o)
{
    int i = threadIdx.x; int v = a[i];
    unsigned full = 0xffffffffu;
    o[i] = __all_sync(full, v > 0) + 2 * __any_sync(full, v < 0) + 4 * __uni_sync(full, v == 3);
    o[i + 64] = __ballot_sync(full, v & 1);
    o[i + 128] = __activemask();
    unsigned m = __ballot_sync(full, i < 16);
    if (i < 16) o[i + 192] = __ballot_sync(m, v > 10) + __popc(__activemask());
}
