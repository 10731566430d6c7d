#pragma once
// The platform half of probeFile(): probe.cpp checks that the path names a non-empty readable
// regular file, then posix/probe.cpp or win/probe.cpp fills in the filesystem, page size,
// direct I/O, io_uring and residency facts. Private to the core.
#include "readscope/probe.h"

namespace readscope {

// fd is open for reading on p.path; p.path, size, inode and mtimeNs are filled already.
void fillPlatformFacts(FileProbe& p, int fd);

} // namespace readscope
