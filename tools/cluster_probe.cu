// Cluster residency probe: how many thread-block clusters an H100/H200 holds at once, against
// cudaOccupancyMaxActiveClusters, and which SMs the hardware groups together (its GPCs).
//
// For each cluster size 1..16 (non-portable sizes allowed) and each dynamic shared-memory size
// (one, two, four blocks of 128 threads per SM, and none), the probe asks the occupancy API, then
// launches three times as many clusters as it answers. Thread 0 of every block records its SM,
// its cluster and the global timer before and after spinning 4 ms; the host sweeps the clusters'
// intervals and reports the most that were resident at one time, and the sets of SMs that shared
// a cluster (CTAs of one cluster run on SMs of one GPC: CUDA C++ Programming Guide, "Thread Block
// Clusters"). The union of those sets over every launch is the GPC partition the probe saw.
//
// Build:  nvcc -arch=sm_90a -O3 -o cluster_probe tools/cluster_probe.cu
// Run:    ./cluster_probe > clusters.json
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <set>
#include <utility>
#include <vector>

#define CHECK(call)                                                                         \
    do {                                                                                    \
        cudaError_t err_ = (call);                                                          \
        if (err_ != cudaSuccess) {                                                          \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,              \
                         cudaGetErrorString(err_));                                         \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

__device__ __forceinline__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__global__ void resident(unsigned long long spin_ns, int touch, unsigned long long* out) {
    extern __shared__ int smem[];
    if (threadIdx.x == 0) {
        unsigned smid, cid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
        if (touch) smem[0] = (int)smid;  // touch the shared memory the launch asked for
        const unsigned long long t0 = global_ns();
        while (global_ns() - t0 < spin_ns) {
        }
        const unsigned long long t1 = global_ns();
        out[4 * blockIdx.x] = smid;
        out[4 * blockIdx.x + 1] = cid;
        out[4 * blockIdx.x + 2] = t0;
        out[4 * blockIdx.x + 3] = t1;
    }
}

struct Dsu {
    std::vector<int> p;
    explicit Dsu(int n) : p(n) { std::iota(p.begin(), p.end(), 0); }
    int find(int x) { return p[x] == x ? x : p[x] = find(p[x]); }
    void join(int a, int b) { p[find(a)] = find(b); }
};

int main() {
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    const int sms = prop.multiProcessorCount;
    CHECK(cudaFuncSetAttribute(resident, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    CHECK(cudaFuncSetAttribute(resident, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024));
    const int threads = 128;
    const int shared[] = {227 * 1024, 100 * 1024, 48 * 1024, 0};
    const unsigned long long spin_ns = 4000000;
    Dsu gpc(sms);
    std::printf("{\"device\": \"%s\", \"sms\": %d, \"threads_per_block\": %d, \"spin_ns\": %llu,\n"
                "\"cases\": [\n", prop.name, sms, threads, spin_ns);
    bool first = true;
    for (int s : shared)
        for (int cs = 1; cs <= 16; ++cs) {
            cudaLaunchConfig_t cfg = {};
            cudaLaunchAttribute a[1];
            a[0].id = cudaLaunchAttributeClusterDimension;
            a[0].val.clusterDim.x = cs;
            a[0].val.clusterDim.y = 1;
            a[0].val.clusterDim.z = 1;
            cfg.attrs = a;
            cfg.numAttrs = 1;
            cfg.blockDim = dim3(threads);
            cfg.dynamicSmemBytes = s;
            cfg.gridDim = dim3(cs);
            int api = -1;
            cudaError_t e = cudaOccupancyMaxActiveClusters(&api, (void*)resident, &cfg);
            if (e != cudaSuccess) { api = -1; cudaGetLastError(); }
            int blocks_per_sm = -1;
            CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, resident, threads, s));
            const int clusters = std::max(3 * api, 3);
            const int grid = clusters * cs;
            cfg.gridDim = dim3(grid);
            unsigned long long* dout;
            CHECK(cudaMalloc(&dout, sizeof(unsigned long long) * 4 * grid));
            CHECK(cudaMemset(dout, 0, sizeof(unsigned long long) * 4 * grid));
            cudaError_t le = cudaLaunchKernelEx(&cfg, resident, spin_ns, int(s > 0), dout);
            if (le == cudaSuccess) le = cudaDeviceSynchronize();
            std::vector<unsigned long long> h(4 * grid, 0);
            if (le == cudaSuccess)
                CHECK(cudaMemcpy(h.data(), dout, h.size() * 8, cudaMemcpyDeviceToHost));
            else
                cudaGetLastError();
            CHECK(cudaFree(dout));
            // each cluster's interval and SMs
            std::vector<unsigned long long> c0(clusters, ~0ull), c1(clusters, 0);
            std::vector<std::set<int>> on(clusters);
            std::vector<int> per_sm_blocks_max(sms, 0);
            for (int b = 0; b < grid && le == cudaSuccess; ++b) {
                const int c = b / cs;  // 1-D clusters: consecutive blocks form a cluster
                c0[c] = std::min(c0[c], h[4 * b + 2]);
                c1[c] = std::max(c1[c], h[4 * b + 3]);
                on[c].insert(int(h[4 * b]));
            }
            for (int c = 0; c < clusters && le == cudaSuccess; ++c) {
                const int r = *on[c].begin();
                for (int sm : on[c]) gpc.join(r, sm);
            }
            // the most clusters resident at one time, and the most blocks on one SM at one time
            std::vector<std::pair<unsigned long long, int>> ev;
            for (int c = 0; c < clusters && le == cudaSuccess; ++c) {
                ev.push_back({c0[c], 1});
                ev.push_back({c1[c], -1});
            }
            std::sort(ev.begin(), ev.end(), [](auto x, auto y) {
                return x.first != y.first ? x.first < y.first : x.second < y.second;
            });
            int now = 0, most = 0;
            for (auto& x : ev) most = std::max(most, now += x.second);
            std::vector<std::vector<std::pair<unsigned long long, int>>> sm_ev(sms);
            for (int b = 0; b < grid && le == cudaSuccess; ++b) {
                const int sm = int(h[4 * b]);
                if (sm < sms) {
                    sm_ev[sm].push_back({h[4 * b + 2], 1});
                    sm_ev[sm].push_back({h[4 * b + 3], -1});
                }
            }
            int most_on_sm = 0, fewest_on_sm = 1 << 30;
            for (auto& v : sm_ev) {
                std::sort(v.begin(), v.end(), [](auto x, auto y) {
                    return x.first != y.first ? x.first < y.first : x.second < y.second;
                });
                int n = 0, m = 0;
                for (auto& x : v) m = std::max(m, n += x.second);
                most_on_sm = std::max(most_on_sm, m);
                fewest_on_sm = std::min(fewest_on_sm, m);
            }
            // clusters that started in the first wave (before the first one ended)
            unsigned long long first_end = ~0ull;
            for (int c = 0; c < clusters && le == cudaSuccess; ++c) first_end = std::min(first_end, c1[c]);
            int first_wave = 0;
            for (int c = 0; c < clusters && le == cudaSuccess; ++c) first_wave += c0[c] < first_end;
            std::printf("%s{\"shared\": %d, \"cluster\": %d, \"blocks_per_sm_api\": %d, "
                        "\"max_active_clusters_api\": %d, \"api_error\": \"%s\", \"launched\": %d, "
                        "\"launch_error\": \"%s\", \"most_resident\": %d, \"first_wave\": %d, "
                        "\"most_blocks_on_an_sm\": %d, \"fewest_blocks_on_an_sm\": %d}",
                        first ? "" : ",\n", s, cs, blocks_per_sm, api,
                        e == cudaSuccess ? "" : cudaGetErrorName(e), clusters,
                        le == cudaSuccess ? "" : cudaGetErrorName(le), most, first_wave, most_on_sm,
                        fewest_on_sm);
            first = false;
        }
    std::printf("\n],\n\"gpcs\": [");
    std::vector<std::vector<int>> groups(sms);
    for (int sm = 0; sm < sms; ++sm) groups[gpc.find(sm)].push_back(sm);
    std::sort(groups.begin(), groups.end(), [](auto& x, auto& y) { return x.size() > y.size(); });
    bool f = true;
    for (auto& g : groups) {
        if (g.empty()) continue;
        std::printf("%s[", f ? "" : ", ");
        for (size_t i = 0; i < g.size(); ++i) std::printf("%s%d", i ? "," : "", g[i]);
        std::printf("]");
        f = false;
    }
    std::printf("]\n}\n");
    return 0;
}
