#pragma once
// Small generated files in a temporary folder, and the checksums they must read back as.
#include "readscope/probe.h"
#include "readscope/ranges.h"

#include <QTemporaryDir>

#include <cstdint>
#include <span>
#include <string>

namespace readscope::testing {

class TestFile {
public:
    explicit TestFile(std::uint64_t size, const char* name = "data.bin");
    const std::string& path() const { return path_; }
    std::uint64_t size() const { return size_; }
    FileProbe probe() const; // QFAILs through the caller's checks if probing fails
    // What the file's bytes for these ranges checksum to, computed from the generator alone.
    std::uint64_t expectedChecksum(std::span<const Range> ranges) const;
    QString dir() const { return dir_.path(); }

private:
    QTemporaryDir dir_;
    std::string path_;
    std::uint64_t size_;
};

// A sparse file of `size` bytes in dir (no data written: for checks where only the size
// matters, or zeros are fine), probed; its path is the probe's.
FileProbe sparseFileProbe(const QTemporaryDir& dir, std::uint64_t size);

// SHA-256 of a file plus its mtime: what "the target file was never written" is checked by.
QByteArray fileFingerprint(const std::string& path);

} // namespace readscope::testing

// QCOMPARE on the core's enums prints their names (the core's own toString returns a
// string_view, which QTest cannot print).
#include "readscope/result_document.h"
namespace readscope::testing {
template <class E> QString name(E e) {
    const std::string_view s = toString(e);
    return QString::fromLatin1(s.data(), qsizetype(s.size()));
}
} // namespace readscope::testing
