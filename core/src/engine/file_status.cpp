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
    // Not by RWF_NOWAIT probes: on a miss they read ahead, and looking at a file must not
    // change its cache state.
    const std::string whyNot =
        probe->residencyByNowait
            ? "you neither own nor may write the file; runs sample the pages of each round with "
              "RWF_NOWAIT reads, which a status display cannot do without reading ahead"
            : probe->residencyReason;
    FileStatus status{*probe,
                      measureResidency(fd.get(), probe->size, probe->residencyVerifiable, whyNot)};
    return status;
}

std::optional<FileChange> changeSince(const FileProbe& file) {
    const auto now = platform::statPath(file.path);
    if (!now)
        return FileChange{FileChange::How::Gone, 0, 0, std::strerror(errno)};
    if (now->id != file.inode)
        return FileChange{FileChange::How::Replaced, 0, 0, {}};
    if (now->size != file.size)
        return FileChange{FileChange::How::Resized, file.size, now->size, {}};
    if (now->mtimeNs != file.mtimeNs)
        return FileChange{FileChange::How::Modified, 0, 0, {}};
    return std::nullopt;
}

} // namespace readscope
