#pragma once
// mincore(2) and cachestat(2) report a file's true page-cache state only to a caller who owns
// the file or may write it (or holds CAP_FOWNER, as root does); anyone else sees a made-up
// answer. The rule lives here, pure, so it can be tested without changing users.
#include <sys/types.h>

namespace readscope {

inline bool residencyVerifiable(uid_t owner, uid_t euid, bool writable) {
    return euid == 0 || owner == euid || writable;
}

} // namespace readscope
