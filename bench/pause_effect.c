// A benchmark, not a test: how much slower a copy and a fold run right after a pause, on this
// machine, outside readscope. An interleaved sweep runs each cell's round after the other
// cells' (0.6 s later in a default run); the time split prices copies past L2 after as long a
// pause (kernelCopyRates and mappedRates in a rhythm). This program shows why, and whether a
// machine needs it: per destination size and pause, the GB/s of
//   pread: pread of the size into one reused buffer, 64 MiB a round, each buffer then folded;
//   mmap:  a fresh mapping of 64 MiB a round, memcpy'd out range by range, then unmapped.
// A pause is a busy wait on this CPU (as the other cells keep it), between rounds.
//
//   readscope-pause-effect FILE [SIZE ...]   (sizes in KiB, 4 to 65536; FILE: 128 MiB or more,
//                                            cached: read it once first)
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { kRounds = 24, kSkipped = 3 };
static const size_t kRoundBytes = 64u << 20;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void pauseFor(double seconds) {
    const double end = now() + seconds;
    while (now() < end) {
    }
}

static uint64_t fold(const unsigned char* p, size_t n) {
    uint64_t v = 0;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        v ^= x * (i | 1);
    }
    return v;
}

static uint64_t gSink;

// pread rounds: GB/s of the reads and of the folds, after `pause` seconds before each round.
static int preadRounds(int fd, off_t fileSize, size_t size, double pause, double* copy,
                       double* folds) {
    unsigned char* buffer = malloc(size);
    if (!buffer)
        return -1;
    memset(buffer, 1, size);
    double readSeconds = 0, foldSeconds = 0, bytes = 0;
    off_t at = 0;
    for (int r = 0; r < kRounds; ++r) {
        pauseFor(pause);
        for (size_t k = 0; k < kRoundBytes / size; ++k) {
            if (at + (off_t)size > fileSize)
                at = 0;
            const double t0 = now();
            if (pread(fd, buffer, size, at) != (ssize_t)size) {
                free(buffer);
                return -1;
            }
            const double t1 = now();
            gSink ^= fold(buffer, size);
            const double t2 = now();
            if (r >= kSkipped) {
                readSeconds += t1 - t0;
                foldSeconds += t2 - t1;
                bytes += (double)size;
            }
            at += (off_t)size;
        }
    }
    free(buffer);
    *copy = bytes / readSeconds / 1e9;
    *folds = bytes / foldSeconds / 1e9;
    return 0;
}

// mmap rounds: GB/s of mapping, copying out and unmapping a round's bytes.
static int mmapRounds(int fd, off_t fileSize, size_t size, double pause, double* rate) {
    unsigned char* buffer = malloc(size);
    if (!buffer)
        return -1;
    memset(buffer, 1, size);
    double seconds = 0;
    off_t at = 0;
    for (int r = 0; r < kRounds; ++r) {
        pauseFor(pause);
        if (at + (off_t)kRoundBytes > fileSize)
            at = 0;
        const double t0 = now();
        unsigned char* map = mmap(NULL, kRoundBytes, PROT_READ, MAP_SHARED, fd, at);
        if (map == MAP_FAILED) {
            free(buffer);
            return -1;
        }
        for (size_t k = 0; k < kRoundBytes / size; ++k) { // whole ranges inside the mapping
            memcpy(buffer, map + k * size, size);
            gSink ^= buffer[size / 2];
        }
        munmap(map, kRoundBytes);
        if (r >= kSkipped)
            seconds += now() - t0;
        at += (off_t)kRoundBytes;
    }
    free(buffer);
    *rate = (double)(kRounds - kSkipped) * (double)(kRoundBytes / size * size) / seconds / 1e9;
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: readscope-pause-effect FILE [SIZE ...] (sizes in KiB)\n");
        return 2;
    }
    const int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < (off_t)(2 * kRoundBytes)) {
        fprintf(stderr, "pause-effect: %s: not a readable file of 128 MiB or more\n", argv[1]);
        return 2;
    }
    size_t sizes[16] = {64, 1024, 4096, 16384};
    int count = 4;
    if (argc > 2) {
        count = 0;
        for (int i = 2; i < argc && count < 16; ++i) {
            char* end = NULL;
            const unsigned long long kib = strtoull(argv[i], &end, 10);
            if (*end != '\0' || kib < 4 || kib > (kRoundBytes >> 10)) {
                fprintf(stderr, "pause-effect: a size is KiB from 4 to %zu, not '%s'\n",
                        kRoundBytes >> 10, argv[i]);
                return 2;
            }
            sizes[count++] = (size_t)kib;
        }
    }
    const double pauses[] = {0, 0.003, 0.015, 0.06};
    printf("%-10s %-8s %12s %12s %12s\n", "size", "pause", "pread GB/s", "fold GB/s",
           "mmap GB/s");
    for (int i = 0; i < count; ++i)
        for (size_t p = 0; p < sizeof pauses / sizeof *pauses; ++p) {
            const size_t size = sizes[i] << 10;
            double copy = 0, folds = 0, mapped = 0;
            if (preadRounds(fd, st.st_size, size, pauses[p], &copy, &folds) != 0 ||
                mmapRounds(fd, st.st_size, size, pauses[p], &mapped) != 0) {
                fprintf(stderr, "pause-effect: reading %s failed\n", argv[1]);
                return 1;
            }
            printf("%-10zu %-8.0f %12.2f %12.2f %12.2f\n", sizes[i], pauses[p] * 1e3, copy,
                   folds, mapped);
        }
    printf("(size in KiB, pause in ms; sink %llu)\n", (unsigned long long)(gSink & 1));
    return 0;
}
