/* The hand-written baseline: the fewest calls that do what each strategy does per range.
   Plain C on purpose, so nothing of the engine's C++ can hide in it. */
#pragma once
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct minimal_range {
    uint64_t offset;
    uint64_t length;
};

/* Each returns the bytes read (ranges are within the file), or -1 on error. The touched bytes
   are folded into *sink so the compiler cannot drop the reads. */
int64_t minimal_pread_zerofill(int fd, const struct minimal_range* r, size_t n, uint64_t* sink);
int64_t minimal_pread_uninit(int fd, const struct minimal_range* r, size_t n, uint64_t* sink);
int64_t minimal_seek_read(int fd, const struct minimal_range* r, size_t n, uint64_t* sink);
int64_t minimal_pread_reuse(int fd, unsigned char* buf, const struct minimal_range* r, size_t n,
                            uint64_t* sink);
int64_t minimal_pread_calloc(int fd, const struct minimal_range* r, size_t n, uint64_t* sink);
/* Map the whole file (size bytes), work through the ranges, unmap: one round. */
int64_t minimal_mmap_copy(int fd, uint64_t size, const struct minimal_range* r, size_t n,
                          uint64_t* sink);
int64_t minimal_mmap_touch(int fd, uint64_t size, const struct minimal_range* r, size_t n,
                           uint64_t* sink);
int64_t minimal_mmap_willneed(int fd, uint64_t size, const struct minimal_range* r, size_t n,
                              uint64_t* sink);
/* A mapping made once by the caller and kept across rounds. */
int64_t minimal_mapped_copy(const unsigned char* map, const struct minimal_range* r, size_t n,
                            uint64_t* sink);

#ifdef __cplusplus
}
#endif
