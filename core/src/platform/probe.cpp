#include "readscope/probe.h"

#include "platform.h"
#include "probe_platform.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace readscope {

Result<FileProbe> probeFile(const std::string& path) {
    if (path.empty())
        return Error{"no file given: name a file to read, or generate one"};
    const auto st = platform::statPath(path);
    if (!st) {
        if (errno == ENOENT)
            return Error{
                fmt::format("'{}' does not exist: check the path, or {}", path, kGenerateAdvice)};
        return Error{fmt::format("cannot inspect '{}': {}", path, std::strerror(errno))};
    }
    if (!st->regular)
        return Error{fmt::format("'{}' is {}: readscope reads regular files only", path, st->kind)};
    UniqueFd fd(platform::openForReading(path));
    if (!fd.valid())
        return Error{fmt::format("cannot open '{}' for reading: {} (check its permissions)", path,
                                 std::strerror(errno))};
    if (st->size == 0)
        return Error{
            fmt::format("'{}' is empty: there is nothing to read; {}", path, kGenerateAdvice)};

    FileProbe p;
    p.path = path;
    p.size = st->size;
    p.inode = st->id;
    p.mtimeNs = st->mtimeNs;
    p.pageSize = platform::pageSize();
    fillPlatformFacts(p, fd.get());
    return p;
}

} // namespace readscope
