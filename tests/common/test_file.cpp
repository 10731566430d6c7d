#include "test_file.h"

#include "readscope/checksum.h"
#include "readscope/generator.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <stdexcept>
#include <vector>

namespace readscope::testing {

TestFile::TestFile(std::uint64_t size, const char* name) : size_(size) {
    if (!dir_.isValid())
        throw std::runtime_error("no temporary folder");
    path_ = (dir_.path() + "/" + name).toStdString();
    if (auto st = generateFile(path_, size); !st)
        throw std::runtime_error(st.error().message);
}

FileProbe sparseFileProbe(const QTemporaryDir& dir, std::uint64_t size) {
    const QString path = dir.filePath("sparse.bin");
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !f.resize(qint64(size)))
        throw std::runtime_error("cannot make a sparse file");
    f.close();
    auto p = probeFile(path.toStdString());
    if (!p)
        throw std::runtime_error(p.error().message);
    return *p;
}

FileProbe TestFile::probe() const {
    auto p = probeFile(path_);
    if (!p)
        throw std::runtime_error(p.error().message);
    return *p;
}

std::uint64_t TestFile::expectedChecksum(std::span<const Range> ranges) const {
    std::uint64_t total = 0;
    std::vector<std::byte> bytes;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const auto& r = ranges[i];
        const std::uint64_t n = r.offset >= size_ ? 0 : std::min(r.length, size_ - r.offset);
        bytes.resize(n);
        generatedBytes(r.offset, bytes);
        total = combineRangeChecksum(total, i, checksum(bytes));
    }
    return total;
}

QByteArray fileFingerprint(const std::string& path) {
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&f);
    const auto mtime = QFileInfo(f).lastModified().toMSecsSinceEpoch();
    return hash.result().toHex() + ":" + QByteArray::number(mtime);
}

} // namespace readscope::testing
