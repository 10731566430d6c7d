#include "readscope/generator.h"

#include "platform.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

namespace readscope {

namespace {

std::uint64_t splitmix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

} // namespace

void generatedBytes(std::uint64_t offset, std::span<std::byte> out) {
    // Every 8-byte word of the file is splitmix(word index), little-endian.
    std::size_t i = 0;
    while (i < out.size()) {
        const std::uint64_t pos = offset + i;
        const std::uint64_t word = splitmix(pos / 8);
        const auto shift = static_cast<unsigned>((pos % 8) * 8);
        out[i] = static_cast<std::byte>((word >> shift) & 0xFF);
        ++i;
        if ((offset + i) % 8 == 0) {
            while (out.size() - i >= 8) {
                const std::uint64_t w = splitmix((offset + i) / 8);
                for (unsigned b = 0; b < 8; ++b)
                    out[i + b] = static_cast<std::byte>((w >> (8 * b)) & 0xFF);
                i += 8;
            }
        }
    }
}

Status generateFile(const std::string& path, std::uint64_t size, bool overwrite,
                    const GenerateProgress& progress, std::stop_token stop) {
    if (size == 0)
        return Error{"test file size is zero: give a size such as 256M"};
    if (platform::statPath(path) && !overwrite)
        return Error{fmt::format("'{}' already exists: readscope does not overwrite files; "
                                 "choose another name or delete it first",
                                 path)};
    const std::string temp = path + ".readscope-partial";
    UniqueFd fd(platform::createForWriting(temp));
    if (!fd.valid())
        return Error{fmt::format("cannot create '{}': {} (does the folder exist and may you "
                                 "write there?)",
                                 temp, std::strerror(errno))};
    constexpr std::size_t kChunk = 1 << 20;
    auto buffer = std::make_unique_for_overwrite<std::byte[]>(kChunk);
    auto fail = [&](std::string message) -> Status {
        fd.reset();
        platform::removeFile(temp);
        return Error{std::move(message)};
    };
    for (std::uint64_t off = 0; off < size;) {
        if (stop.stop_requested())
            return fail(fmt::format("generating '{}' was stopped", path));
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, size - off));
        generatedBytes(off, {buffer.get(), n});
        if (!writeAll(fd.get(), buffer.get(), n))
            return fail(fmt::format("writing '{}' failed at {} bytes: {}", temp, off,
                                    std::strerror(errno)));
        off += n;
        if (progress)
            progress(off, size);
    }
    if (!platform::flushToDisk(fd.get()))
        return fail(fmt::format("flushing '{}' failed: {}", temp, std::strerror(errno)));
    fd.reset();
    if (!platform::replaceFile(temp, path))
        return fail(
            fmt::format("renaming '{}' to '{}' failed: {}", temp, path, std::strerror(errno)));
    return okStatus();
}

bool holdsGeneratedBytes(int fd, std::uint64_t size) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(size, 64 << 10));
    std::vector<std::byte> have(n), want(n);
    if (platform::readAt(fd, have.data(), n, 0) != static_cast<std::int64_t>(n))
        return false;
    generatedBytes(0, want);
    return have == want;
}

} // namespace readscope
