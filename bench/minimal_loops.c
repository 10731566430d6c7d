#define _GNU_SOURCE
#include "minimal_loops.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Same reason as the engine: a compiler may drop a memset whose bytes are overwritten. */
static void* (*volatile zero)(void*, int, size_t) = memset;

static int64_t fill(int fd, unsigned char* buf, uint64_t len, uint64_t off) {
    uint64_t got = 0;
    while (got < len) {
        ssize_t k = pread(fd, buf + got, len - got, (off_t)(off + got));
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        got += (uint64_t)k;
    }
    return (int64_t)got;
}

int64_t minimal_pread_zerofill(int fd, const struct minimal_range* r, size_t n, uint64_t* sink) {
    int64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char* buf = malloc(r[i].length);
        zero(buf, 0, r[i].length);
        int64_t got = fill(fd, buf, r[i].length, r[i].offset);
        if (got < 0)
            return -1;
        *sink += buf[got / 2];
        free(buf);
        total += got;
    }
    return total;
}

int64_t minimal_pread_uninit(int fd, const struct minimal_range* r, size_t n, uint64_t* sink) {
    int64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char* buf = malloc(r[i].length);
        int64_t got = fill(fd, buf, r[i].length, r[i].offset);
        if (got < 0)
            return -1;
        *sink += buf[got / 2];
        free(buf);
        total += got;
    }
    return total;
}

int64_t minimal_seek_read(int fd, const struct minimal_range* r, size_t n, uint64_t* sink) {
    int64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char* buf = malloc(r[i].length);
        if (lseek(fd, (off_t)r[i].offset, SEEK_SET) < 0)
            return -1;
        uint64_t got = 0;
        while (got < r[i].length) {
            ssize_t k = read(fd, buf + got, r[i].length - got);
            if (k < 0)
                return -1;
            if (k == 0)
                break;
            got += (uint64_t)k;
        }
        *sink += buf[got / 2];
        free(buf);
        total += (int64_t)got;
    }
    return total;
}

int64_t minimal_pread_reuse(int fd, unsigned char* buf, const struct minimal_range* r, size_t n,
                            uint64_t* sink) {
    int64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        int64_t got = fill(fd, buf, r[i].length, r[i].offset);
        if (got < 0)
            return -1;
        *sink += buf[got / 2];
        total += got;
    }
    return total;
}
