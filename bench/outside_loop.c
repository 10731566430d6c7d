/* readscope-outside-loop: the plainest program that reads a file the way one readscope strategy
   does, in a process of its own, with nothing of the engine in it: no calibration, no probes,
   no counters, no other strategy between its rounds. scripts/outside-loop.sh runs it beside
   readscope-cli on the same file and prints engine / loop per cell.

     readscope-outside-loop FILE STRATEGY RANGE_BYTES ROUNDS [BYTES_PER_ROUND]

   Each round reads BYTES_PER_ROUND (default: the whole file) from the file's start in
   sequential ranges of RANGE_BYTES, as STRATEGY does per range (minimal_loops.c), and is
   timed alone; one warm-up round first. Prints each round's GB/s (10^9 bytes/s) and then the
   median on the last line: "median GB/s". */
#define _GNU_SOURCE
#include "minimal_loops.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int by_value(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

struct job {
    int argc;
    char** argv;
    int status;
};
static int run(int argc, char** argv);
static void* run_job(void* arg) {
    struct job* j = arg;
    j->status = run(j->argc, j->argv);
    return NULL;
}

/* READSCOPE_LOOP_THREAD=1: the rounds run on a thread of their own, as the engine's lane
   workers read (malloc then serves them from a thread arena, not the main one). */
int main(int argc, char** argv) {
    const char* on = getenv("READSCOPE_LOOP_THREAD");
    if (!on || strcmp(on, "1") != 0)
        return run(argc, argv);
    struct job j = {argc, argv, 1};
    pthread_t t;
    if (pthread_create(&t, NULL, run_job, &j) != 0)
        return 1;
    pthread_join(t, NULL);
    return j.status;
}

static int run(int argc, char** argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: readscope-outside-loop FILE STRATEGY RANGE_BYTES ROUNDS "
                        "[BYTES_PER_ROUND]\n"
                        "STRATEGY: pread-zerofill, pread-uninit, seek-read or mmap-copy\n");
        return 2;
    }
    const char* strategy = argv[2];
    const uint64_t size = strtoull(argv[3], NULL, 10);
    const int rounds = atoi(argv[4]);
    const int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || size == 0 || rounds < 1) {
        perror(argv[1]);
        return 2;
    }
    const uint64_t file = (uint64_t)st.st_size;
    uint64_t span = argc > 5 ? strtoull(argv[5], NULL, 10) : file;
    if (span == 0 || span > file)
        span = file;
    const size_t n = (size_t)(span / size);
    if (n == 0) {
        fprintf(stderr, "the range size is larger than the bytes a round reads\n");
        return 2;
    }
    struct minimal_range* ranges = malloc(n * sizeof *ranges);
    for (size_t i = 0; i < n; ++i) {
        ranges[i].offset = (uint64_t)i * size;
        ranges[i].length = size;
    }
    double* gbps = malloc((size_t)rounds * sizeof *gbps);
    uint64_t sink = 0;
    for (int r = -1; r < rounds; ++r) {
        const double t0 = now();
        int64_t got;
        if (strcmp(strategy, "pread-zerofill") == 0)
            got = minimal_pread_zerofill(fd, ranges, n, &sink);
        else if (strcmp(strategy, "pread-uninit") == 0)
            got = minimal_pread_uninit(fd, ranges, n, &sink);
        else if (strcmp(strategy, "seek-read") == 0)
            got = minimal_seek_read(fd, ranges, n, &sink);
        else if (strcmp(strategy, "mmap-copy") == 0)
            got = minimal_mmap_copy(fd, file, ranges, n, &sink);
        else {
            fprintf(stderr, "unknown strategy '%s'\n", strategy);
            return 2;
        }
        const double seconds = now() - t0;
        if (got < 0) {
            perror("read");
            return 1;
        }
        if (r >= 0) {
            gbps[r] = (double)got / seconds / 1e9;
            printf("round %d: %.3f GB/s\n", r + 1, gbps[r]);
        }
    }
    qsort(gbps, (size_t)rounds, sizeof *gbps, by_value);
    const double median = rounds % 2 ? gbps[rounds / 2]
                                     : (gbps[rounds / 2 - 1] + gbps[rounds / 2]) / 2;
    printf("median %.3f GB/s (sink %llu)\n", median, (unsigned long long)(sink & 1));
    return 0;
}
