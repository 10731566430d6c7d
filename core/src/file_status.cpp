#include "readscope/file_status.h"

#include "platform.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace readscope {

Result<FileStatus> inspectFile(const std::string& path) {
    auto probe = probeFile(path);
    if (!probe)
        return probe.error();
    UniqueFd fd(platform::openForReading(path));
    if (!fd.valid())
        return Error{fmt::format("cannot open '{}' for reading: {}", path, std::strerror(errno))};
    FileStatus status{*probe, measureResidency(fd.get(), probe->size, probe->residencyVerifiable,
                                               probe->residencyReason)};
    return status;
}

} // namespace readscope
