#pragma once
// A file's facts plus how much of it is cached right now: what a front end shows beside the
// chosen file, without doing any I/O itself.
#include "readscope/cell_conditions.h"
#include "readscope/probe.h"
#include "readscope/residency.h"
#include "readscope/result.h"

#include <optional>
#include <string>

namespace readscope {

struct FileStatus {
    FileProbe probe;
    Residency residency;
};

Result<FileStatus> inspectFile(const std::string& path);

// What differs between the file at file.path now and the file probed (none: nothing).
std::optional<FileChange> changeSince(const FileProbe& file);

} // namespace readscope
