// The replay of tools/l2_partition_replay.py, request by request, for the grids of real GEMMs
// (the Python reference takes about 25 s for one 4096² case, this about 20 ms). Same model,
// same answer: tests/models/test_l2_partition_replay.py checks the Python reference, and the
// tool checks this one against it (--check).
//
// Build:  g++ -O2 -o l2_partition_replay tools/l2_partition_replay.cpp
// Input (stdin): "ROWS COLS K P CAPACITY FILL N", then N lines "i j side": the output tiles in
// order, each with the partition (0 or 1) of the SM that ran it; CAPACITY in tiles per
// partition; FILL 0 = a DRAM read fills the home partition and the near one, 1 = the near one.
// Output: "DRAM_TILES FAR_HITS": tiles read from DRAM (halves ÷ 2) and halves served by the
// other partition.

#include <cstdio>
#include <vector>

struct Lru {  // an LRU over ids 0 … n − 1: a doubly linked list in arrays, most recent first
    int cap, size = 0, head = -1, tail = -1;
    std::vector<int> prev, next;
    std::vector<char> in;
    Lru(int n, int capacity) : cap(capacity), prev(n, -1), next(n, -1), in(n, 0) {}
    void unlink(int a) {
        if (prev[a] >= 0) next[prev[a]] = next[a]; else head = next[a];
        if (next[a] >= 0) prev[next[a]] = prev[a]; else tail = prev[a];
    }
    void front(int a) {
        prev[a] = -1;
        next[a] = head;
        if (head >= 0) prev[head] = a;
        head = a;
        if (tail < 0) tail = a;
    }
    bool hit(int a) {
        if (!in[a]) return false;
        unlink(a);
        front(a);
        return true;
    }
    void put(int a) {
        if (in[a]) {
            unlink(a);
            front(a);
            return;
        }
        in[a] = 1;
        front(a);
        if (++size > cap) {
            const int t = tail;
            unlink(t);
            in[t] = 0;
            --size;
        }
    }
};

int main() {
    int rows, cols, k, p, cap, fill, n;
    if (std::scanf("%d %d %d %d %d %d %d", &rows, &cols, &k, &p, &cap, &fill, &n) != 7) return 2;
    std::vector<int> ti(n), tj(n), side(n);
    for (int t = 0; t < n; ++t)
        if (std::scanf("%d %d %d", &ti[t], &tj[t], &side[t]) != 3) return 2;
    const int ids = 2 * (rows + cols) * k;  // (panel · K + kk) · 2 + half
    Lru part0(ids, 2 * cap), part1(ids, 2 * cap);
    Lru* part[2] = {&part0, &part1};
    long long dram = 0, far = 0;
    for (int first = 0; first < n; first += p) {
        const int end = first + p < n ? first + p : n;
        for (int kk = 0; kk < k; ++kk)
            for (int t = first; t < end; ++t) {
                Lru& near = *part[side[t]];
                const int panels[2] = {ti[t], rows + tj[t]};
                for (int q = 0; q < 2; ++q)
                    for (int half = 0; half < 2; ++half) {
                        const int a = ((panels[q] * k + kk) << 1) | half;
                        if (near.hit(a)) continue;
                        if (half == side[t]) {  // homed here: DRAM
                            ++dram;
                            near.put(a);
                            continue;
                        }
                        Lru& home = *part[half];
                        if (home.hit(a)) {
                            ++far;
                        } else {
                            ++dram;
                            if (fill == 0) home.put(a);
                        }
                        near.put(a);
                    }
            }
    }
    std::printf("%.1f %lld\n", dram / 2.0, far);
    return 0;
}
