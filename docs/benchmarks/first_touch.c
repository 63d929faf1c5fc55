/* What a first write to fresh anonymous memory costs on this machine, in 2 MiB pages
 * (transparent huge pages, as rigport's allocator asks for under large blocks) or 4 KiB
 * pages, by touching one byte a page or by MADV_POPULATE_WRITE.
 *
 *   cc -O2 -o first_touch docs/benchmarks/first_touch.c
 *   ./first_touch MEGABYTES huge(0|1) populate(0|1)
 *
 * Each of two rounds maps, touches and unmaps the block; the second round reuses the pages
 * the first gave back. BENCHMARKS.md ("Fresh memory") has the figures. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s MEGABYTES huge(0|1) populate(0|1)\n", argv[0]);
        return 2;
    }
    size_t n = (size_t)atoi(argv[1]) << 20;
    int huge = atoi(argv[2]), populate = atoi(argv[3]);
    for (int round = 0; round < 2; round++) {
        char *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return 1;
        madvise(p, n, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
        double start = now();
        if (populate) {
            madvise(p, n, MADV_POPULATE_WRITE);
        } else {
            for (size_t i = 0; i < n; i += 4096) p[i] = 1;
        }
        double ms = (now() - start) * 1e3;
        printf("%s pages, %s: %.1f ms (%.2f ms per MB)\n", huge ? "2 MiB" : "4 KiB",
               populate ? "populated" : "touched", ms, ms / (double)(n >> 20));
        munmap(p, n);
    }
    return 0;
}
