#include "whole_file_copies.h"

#include "platform.h"
#include "readscope/runner.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <random>
#include <utility>

namespace readscope {

namespace {

constexpr std::string_view kFolderPrefix = ".readscope-copies-";
constexpr std::string_view kCopySuffix = ".bin";

// Plain string work, not std::filesystem: paths are UTF-8 on every platform here, and
// std::filesystem::path(std::string) reads the ANSI code page on Windows. '/' separates
// folders on Windows too.
std::string join(const std::string& folder, const std::string& name) {
    if (folder.empty())
        return name;
    const char last = folder.back();
    return last == '/' || last == '\\' ? folder + name : folder + "/" + name;
}

// The folder a path names a file in ("." for a bare name), and a path's last part.
std::string folderOf(const std::string& path) {
    const auto slash = path.find_last_of("/\\");
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? path.substr(0, 1) : path.substr(0, slash);
}

std::string lastPart(const std::string& path) {
    const auto slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A new private folder inside parent, with a random name: its path, or why none was made.
Result<std::string> makeFolderIn(const std::string& parent) {
    std::random_device random;
    for (int attempt = 0; attempt < 16; ++attempt) {
        const std::string path =
            join(parent, fmt::format("{}{:08x}", kFolderPrefix, std::uint32_t(random())));
        if (platform::makePrivateFolder(path))
            return path;
        if (errno != EEXIST)
            break;
    }
    return Error{std::strerror(errno)};
}

} // namespace

std::string copyFileName(std::uint64_t size) { return fmt::format("{}{}", size, kCopySuffix); }

Result<WholeFileCopies> WholeFileCopies::make(const FileProbe& target, int targetFd) {
    // Beside the file itself, not beside a symbolic link to it.
    const std::string beside = folderOf(platform::resolvedPath(target.path));
    auto folder = makeFolderIn(beside);
    if (folder)
        return WholeFileCopies(*folder, {}, targetFd);
    const std::string why =
        fmt::format("readscope cannot write in '{}' ({})", beside, folder.error().message);
    const std::string temp = platform::temporaryFolder();
    auto fallback = makeFolderIn(temp);
    if (!fallback)
        return Error{fmt::format("cannot make a folder for the whole-file copies: {}, nor in "
                                 "the temporary folder '{}' ({})",
                                 why, temp, fallback.error().message)};
    return WholeFileCopies(*fallback, why, targetFd);
}

WholeFileCopies::WholeFileCopies(WholeFileCopies&& other) noexcept
    : folder_(std::exchange(other.folder_, {})), elsewhere_(std::move(other.elsewhere_)),
      targetFd_(other.targetFd_), made_(std::move(other.made_)) {}

WholeFileCopies::~WholeFileCopies() {
    removeCopies();
    if (!folder_.empty())
        platform::removeEmptyFolder(folder_);
}

Result<std::string> WholeFileCopies::copy(std::uint64_t size, std::stop_token stop) {
    const std::string path = join(folder_, copyFileName(size));
    UniqueFd out(platform::createForWriting(path));
    if (!out.valid())
        return Error{
            fmt::format("cannot create the whole-file copy '{}': {}", path, std::strerror(errno))};
    made_.push_back(path);
    constexpr std::size_t kChunk = 1 << 20;
    auto buffer = std::make_unique_for_overwrite<std::byte[]>(kChunk);
    auto fail = [&](std::string message) -> Result<std::string> {
        out.reset();
        removeCopies();
        return Error{std::move(message)};
    };
    for (std::uint64_t off = 0; off < size;) {
        if (stop.stop_requested())
            return fail("stopped while copying");
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, size - off));
        const auto got = platform::readAt(targetFd_, buffer.get(), n, off);
        if (got <= 0)
            return fail(fmt::format("reading the target at {} for its whole-file copy failed: {}",
                                    off, got < 0 ? std::strerror(errno) : "it ended early"));
        if (!writeAll(out.get(), buffer.get(), static_cast<std::size_t>(got)))
            return fail(fmt::format("writing the whole-file copy '{}' failed: {}", path,
                                    std::strerror(errno)));
        off += static_cast<std::uint64_t>(got);
    }
    if (!platform::flushToDisk(out.get()))
        return fail(fmt::format("flushing the whole-file copy '{}' failed: {}", path,
                                std::strerror(errno)));
    return path;
}

void WholeFileCopies::removeCopies() {
    for (const auto& path : made_)
        platform::removeFile(path);
    made_.clear();
}

void removeLeftoverCopies(const ResultDocument& doc) {
    const std::string& folder = doc.copiesFolder;
    if (folder.empty() || !lastPart(folder).starts_with(kFolderPrefix))
        return;
    for (const auto size : doc.plan.fileSizes)
        platform::removeFile(join(folder, copyFileName(size)));
    platform::removeEmptyFolder(folder);
}

} // namespace readscope
