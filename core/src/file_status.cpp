#include "readscope/file_status.h"

#include "posix_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>

namespace readscope {

Result<FileStatus> inspectFile(const std::string& path) {
    auto probe = probeFile(path);
    if (!probe)
        return probe.error();
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (!fd.valid())
        return Error{fmt::format("cannot open '{}' for reading: {}", path, std::strerror(errno))};
    FileStatus status{*probe, measureResidency(fd.get(), probe->size, probe->residencyVerifiable,
                                               probe->residencyReason)};
    return status;
}

} // namespace readscope
