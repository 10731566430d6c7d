#include "readscope/documents.h"

#include "posix_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace readscope {

Result<ResultDocument> loadDocument(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{fmt::format("cannot open '{}': {}", path, std::strerror(errno))};
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    const auto first = text.find_first_not_of(" \t\r\n");
    auto doc = (first != std::string::npos && text[first] == '{') ? fromJson(text)
                                                                   : fromSummaryCsv(text);
    if (!doc)
        return Error{fmt::format("'{}': {}", path, doc.error().message)};
    return doc;
}

Status writeFileAtomically(const std::string& path, std::string_view content) {
    const std::string temp = path + ".readscope-tmp";
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error{fmt::format("cannot write '{}': {} (does the folder exist and may you "
                                 "write there?)",
                                 path, std::strerror(errno))};
    if (!writeAll(fd, content.data(), content.size())) {
        const int err = errno;
        ::close(fd);
        ::unlink(temp.c_str());
        return Error{fmt::format("writing '{}' failed: {}; the previous file, if any, is "
                                 "unchanged",
                                 path, std::strerror(err))};
    }
    if (::fsync(fd) != 0 || ::close(fd) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        return Error{fmt::format("flushing '{}' failed: {}", path, std::strerror(err))};
    }
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(temp.c_str());
        return Error{fmt::format("replacing '{}' failed: {}", path, std::strerror(err))};
    }
    return okStatus();
}

} // namespace readscope
