#define _GNU_SOURCE
#include "minimal_loops.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

enum buffer_init { UNINIT, MEMSET, CALLOC };

/* A fresh buffer per range (malloc, malloc + memset, or calloc), pread into it. */
static int64_t pread_fresh(int fd, const struct minimal_range* r, size_t n, enum buffer_init init,
                           uint64_t* sink) {
    int64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char* buf = init == CALLOC ? calloc(r[i].length, 1) : malloc(r[i].length);
        if (init == MEMSET)
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

int64_t minimal_pread_zerofill(int fd, const struct minimal_range* r, size_t n, uint64_t* sink) {
    return pread_fresh(fd, r, n, MEMSET, sink);
}

int64_t minimal_pread_uninit(int fd, const struct minimal_range* r, size_t n, uint64_t* sink) {
    return pread_fresh(fd, r, n, UNINIT, sink);
}

int64_t minimal_pread_calloc(int fd, const struct minimal_range* r, size_t n, uint64_t* sink) {
    return pread_fresh(fd, r, n, CALLOC, sink);
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

int64_t minimal_mapped_copy(const unsigned char* map, const struct minimal_range* r, size_t n,
                            uint64_t* sink) {
    int64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        unsigned char* buf = malloc(r[i].length);
        memcpy(buf, map + r[i].offset, r[i].length);
        *sink += buf[r[i].length / 2];
        free(buf);
        total += (int64_t)r[i].length;
    }
    return total;
}

int64_t minimal_mmap_copy(int fd, uint64_t size, const struct minimal_range* r, size_t n,
                          uint64_t* sink) {
    unsigned char* map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return -1;
    int64_t total = minimal_mapped_copy(map, r, n, sink);
    munmap(map, size);
    return total;
}

static int64_t touch_pages(const unsigned char* map, const struct minimal_range* r, size_t n,
                           int advise, uint64_t* sink) {
    const uintptr_t page = 4096;
    int64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
        const unsigned char* p = map + r[i].offset;
        const unsigned char* end = p + r[i].length;
        if (advise) {
            uintptr_t start = (uintptr_t)p / page * page;
            madvise((void*)start, (uintptr_t)end - start, MADV_WILLNEED);
        }
        while (p < end) {
            *sink += *p;
            p = (const unsigned char*)(((uintptr_t)p / page + 1) * page);
        }
        total += (int64_t)r[i].length;
    }
    return total;
}

static int64_t map_and_touch(int fd, uint64_t size, const struct minimal_range* r, size_t n,
                             int advise, uint64_t* sink) {
    unsigned char* map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
    if (map == MAP_FAILED)
        return -1;
    int64_t total = touch_pages(map, r, n, advise, sink);
    munmap(map, size);
    return total;
}

int64_t minimal_mmap_touch(int fd, uint64_t size, const struct minimal_range* r, size_t n,
                           uint64_t* sink) {
    return map_and_touch(fd, size, r, n, 0, sink);
}

int64_t minimal_mmap_willneed(int fd, uint64_t size, const struct minimal_range* r, size_t n,
                              uint64_t* sink) {
    return map_and_touch(fd, size, r, n, 1, sink);
}
