#include "readscope/documents.h"

#include "platform.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace readscope {

Result<ResultDocument> loadDocument(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error{fmt::format("cannot open '{}': {}", path, std::strerror(errno))};
    std::ostringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    const auto first = text.find_first_not_of(" \t\r\n");
    auto doc =
        (first != std::string::npos && text[first] == '{') ? fromJson(text) : fromSummaryCsv(text);
    if (!doc)
        return Error{fmt::format("'{}': {}", path, doc.error().message)};
    return doc;
}

Status writeFileAtomically(const std::string& path, std::string_view content) {
    const std::string temp = path + ".readscope-tmp";
    UniqueFd fd(platform::createForWriting(temp));
    if (!fd.valid())
        return Error{fmt::format("cannot write '{}': {} (does the folder exist and may you "
                                 "write there?)",
                                 path, std::strerror(errno))};
    if (!writeAll(fd.get(), content.data(), content.size())) {
        const int err = errno;
        fd.reset();
        platform::removeFile(temp);
        return Error{fmt::format("writing '{}' failed: {}; the previous file, if any, is "
                                 "unchanged",
                                 path, std::strerror(err))};
    }
    if (!platform::flushToDisk(fd.get()) || platform::closeFile(fd.release()) != 0) {
        const int err = errno;
        platform::removeFile(temp);
        return Error{fmt::format("flushing '{}' failed: {}", path, std::strerror(err))};
    }
    if (!platform::replaceFile(temp, path)) {
        const int err = errno;
        platform::removeFile(temp);
        return Error{fmt::format("replacing '{}' failed: {}", path, std::strerror(err))};
    }
    return okStatus();
}

} // namespace readscope
