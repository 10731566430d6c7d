// Without readscope: does a munmap elsewhere in the process slow the next pass over a file
// mapping that was made once and kept? Each pass copies the whole mapping, 64 KiB at a time,
// into fresh malloc'd buffers (what mmap-copy-kept does); between passes, MODE does:
//   0  nothing (the control)
//   1  pread the whole file through the descriptor
//   2  map the file again, touch every page, unmap it (mmap-copy's per-round mapping)
//   3  map 64 MiB of anonymous memory, write every page, unmap it (a large freed buffer)
// Build: gcc -O2 -o kept kept_mapping_after_munmap.c    Run: ./kept FILE MODE
// On the development VM (Linux 6.18 under Firecracker), modes 2 and 3 made most passes run at
// 1-1.5 GB/s instead of 20-27 GB/s, in user time and with no page fault counted.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static double seconds(struct timeval a, struct timeval b) {
    return (b.tv_sec - a.tv_sec) + (b.tv_usec - a.tv_usec) * 1e-6;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s FILE MODE (0-3)\n", argv[0]);
        return 2;
    }
    const int fd = open(argv[1], O_RDONLY);
    const int mode = atoi(argv[2]);
    if (fd < 0) {
        perror(argv[1]);
        return 2;
    }
    const size_t n = (size_t)lseek(fd, 0, SEEK_END) & ~(size_t)65535;
    const size_t anon = 64u << 20;
    unsigned char* kept = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
    char* big = malloc(1 << 20);
    if (kept == MAP_FAILED || !big || n == 0) {
        fprintf(stderr, "cannot map %s (it needs at least 64 KiB)\n", argv[1]);
        return 2;
    }
    unsigned long sink = 0;
    for (int pass = 0; pass < 8; pass++) {
        struct rusage a, b;
        getrusage(RUSAGE_THREAD, &a);
        const double t0 = now();
        for (size_t off = 0; off < n; off += 65536) {
            char* buf = malloc(65536);
            memcpy(buf, kept + off, 65536);
            sink += (unsigned char)buf[100];
            free(buf);
        }
        const double t1 = now();
        getrusage(RUSAGE_THREAD, &b);
        printf("pass %d: %.2f GB/s, %ld minor faults, user %.3f s, system %.3f s\n", pass,
               n / (t1 - t0) / 1e9, b.ru_minflt - a.ru_minflt, seconds(a.ru_utime, b.ru_utime),
               seconds(a.ru_stime, b.ru_stime));
        if (mode == 1)
            for (size_t off = 0; off < n; off += 1 << 20)
                sink += (unsigned long)pread(fd, big, 1 << 20, (off_t)off);
        if (mode == 2) {
            unsigned char* again = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
            for (size_t off = 0; off < n; off += 4096)
                sink += again[off];
            munmap(again, n);
        }
        if (mode == 3) {
            unsigned char* mem =
                mmap(NULL, anon, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            for (size_t off = 0; off < anon; off += 4096)
                mem[off] = 1;
            munmap(mem, anon);
        }
    }
    printf("(%lu)\n", sink & 1);
    return 0;
}
