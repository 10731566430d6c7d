// The core's behaviour that must hold on every platform, run natively and, cross-compiled,
// under Wine: every strategy of this platform returns exactly the file's bytes, the other
// platform's strategies say why they cannot run, and a whole run verifies, measures and
// leaves the file untouched.
#include "range_shapes.h"
#include <doctest/doctest.h>
#include <fmt/format.h>

#include "readscope/checksum.h"
#include "readscope/documents.h"
#include "readscope/generator.h"
#include "readscope/probe.h"
#include "readscope/reader.h"
#include "readscope/run_notes.h"
#include "readscope/runner.h"
#include "readscope/state_words.h"
#include "readscope/strategy.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <random>
#include <set>

using namespace readscope;
namespace fs = std::filesystem;

namespace {

// 8 MiB and an odd tail, so the last range ends off every alignment.
constexpr std::uint64_t kFileSize = (8ull << 20) + 12345;

class TempDir {
public:
    TempDir() {
        std::random_device rd;
        path_ = fs::temp_directory_path() / fmt::format("readscope-portable-{:x}", rd());
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

// The test file, generated once for all cases.
const std::string& testFile() {
    static TempDir dir;
    static const std::string path = [] {
        const std::string p = dir.file("target.bin");
        if (auto st = generateFile(p, kFileSize); !st)
            fmt::print("cannot generate the test file: {}\n", st.error().message);
        return p;
    }();
    return path;
}

// What the file's bytes must checksum to, from the generator's formula, not from any read.
std::uint64_t expectedChecksum(const std::vector<Range>& ranges) {
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const auto& r = ranges[i];
        const std::uint64_t n =
            r.offset >= kFileSize ? 0 : std::min(r.length, kFileSize - r.offset);
        std::vector<std::byte> bytes(n);
        generatedBytes(r.offset, bytes);
        total = combineRangeChecksum(total, i, checksum(bytes));
    }
    return total;
}

std::string fileFingerprint(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto bytes = std::as_bytes(std::span(all));
    return fmt::format("{} bytes, checksum {:x}, mtime {}", all.size(), checksum(bytes),
                       fs::last_write_time(path).time_since_epoch().count());
}

struct QuietSink : RunSink {
    std::vector<std::string> warnings;
    void onWarning(const RunWarning& m) override { warnings.push_back(warningText(m)); }
};

} // namespace

TEST_CASE("this platform has its strategies, each explained") {
    REQUIRE(!strategies().empty());
    for (const auto& s : strategies()) {
        CHECK_MESSAGE((s.platform == currentPlatform()), fmt::format("{}", s.id));
        CHECK_MESSAGE(strategyExplanation(s.id).size() > 100,
                      fmt::format("{} has no explanation", s.id));
        CHECK_MESSAGE(findStrategy(s.id) == &s, fmt::format("{}", s.id));
    }
    std::set<std::string_view> ids;
    for (const auto& s : allStrategies())
        CHECK_MESSAGE(ids.insert(s.id).second, fmt::format("{} is listed twice", s.id));
    const char* windowsIds[] = {
        "readfile-offset",      "setpointer-readfile", "readfile-reuse",    "readfile-sequential",
        "readfile-random",      "mapview-copy",        "mapview-touch",     "mapview-prefetch",
        "readfile-nobuffering", "readfile-calloc",     "mapview-copy-kept", "readfile-coalesce"};
    for (const char* id : windowsIds) {
        const auto* s = findStrategy(id);
        REQUIRE_MESSAGE(s != nullptr, fmt::format("{} missing", id));
        CHECK_MESSAGE((s->platform == Platform::Windows), fmt::format("{}", id));
        CHECK_MESSAGE(strategyExplanation(id).size() > 100,
                      fmt::format("{} has no explanation", id));
    }
}

TEST_CASE("every strategy of this platform returns exactly the file's bytes") {
    auto probe = probeFile(testFile());
    REQUIRE_MESSAGE(probe.ok(), fmt::format("{}", probe.ok() ? "" : probe.error().message));
    CHECK(probe->size == kFileSize);
    int checked = 0;
    for (const auto& s : strategies()) {
        if (auto a = availability(s, *probe); !a.available) {
            fmt::print("  {}: unavailable here: {}\n", s.id, a.reason);
            continue;
        }
        for (const auto& shape : testing::rangeShapes(kFileSize)) {
            std::uint64_t maxRange = 0, expectedBytes = 0;
            for (const auto& r : shape.ranges) {
                maxRange = std::max(maxRange, r.length);
                expectedBytes +=
                    r.offset >= kFileSize ? 0 : std::min(r.length, kFileSize - r.offset);
            }
            auto reader = openReader(s, *probe, maxRange);
            REQUIRE_MESSAGE(reader.ok(), fmt::format("{} {}: {}", s.id, shape.name,
                                                     reader.ok() ? "" : reader.error().message));
            auto out = (*reader)->read(shape.ranges, ConsumeMode::Verify, true, {});
            REQUIRE_MESSAGE(out.ok(), fmt::format("{} {}: {}", s.id, shape.name,
                                                  out.ok() ? "" : out.error().message));
            CHECK_MESSAGE(out->bytes == expectedBytes,
                          fmt::format("{} {}: {} bytes, want {}", s.id, shape.name, out->bytes,
                                      expectedBytes));
            CHECK_MESSAGE(out->value == expectedChecksum(shape.ranges),
                          fmt::format("{} {}: wrong bytes", s.id, shape.name));
            auto reference = referenceChecksum(*probe, shape.ranges);
            CHECK_MESSAGE((reference.ok() && *reference == out->value),
                          fmt::format("{} {}: reference differs", s.id, shape.name));
            CHECK_MESSAGE((!out->stopped && (out->syscalls > 0 || s.access == Access::MapInPlace ||
                                             s.access == Access::MapCopy)),
                          fmt::format("{} {}: no calls counted", s.id, shape.name));
            ++checked;
        }
    }
    fmt::print("  {} strategy x shape combinations matched the file\n", checked);
    CHECK_MESSAGE(checked >= 6 * 6, fmt::format("only {} combinations ran", checked));
}

TEST_CASE("the other platform's strategies say why they cannot run") {
    auto probe = probeFile(testFile());
    REQUIRE(probe.ok());
    int others = 0;
    for (const auto& s : allStrategies()) {
        if (s.platform == currentPlatform())
            continue;
        ++others;
        const auto a = availability(s, *probe);
        CHECK_MESSAGE(!a.available, fmt::format("{} claims to run here", s.id));
        CHECK_MESSAGE(a.reason.find(s.platform == Platform::Windows
                                        ? "Windows only"
                                        : "Windows does not have") != std::string::npos,
                      fmt::format("{}: '{}'", s.id, a.reason));
        auto reader = openReader(s, *probe, 4096);
        CHECK_MESSAGE((!reader.ok() && reader.error().message == a.reason),
                      fmt::format("{}", s.id));
    }
    CHECK_MESSAGE(others >= 9, fmt::format("{}", others));
}

TEST_CASE("a stop request ends every read before it starts") {
    auto probe = probeFile(testFile());
    REQUIRE(probe.ok());
    std::stop_source stop;
    stop.request_stop();
    for (const auto& s : strategies()) {
        if (!availability(s, *probe).available)
            continue;
        auto reader = openReader(s, *probe, 4096);
        REQUIRE_MESSAGE(reader.ok(), fmt::format("{}", s.id));
        const std::vector<Range> ranges{{0, 4096}, {4096, 4096}};
        auto out = (*reader)->read(ranges, ConsumeMode::Touch, false, stop.get_token());
        CHECK_MESSAGE((out.ok() && out->stopped && out->bytes == 0), fmt::format("{}", s.id));
    }
}

TEST_CASE("a whole run verifies every cell and leaves the file untouched") {
    const std::string before = fileFingerprint(testFile());
    auto probe = probeFile(testFile());
    REQUIRE(probe.ok());
    for (auto cache : {CacheMode::Warm, CacheMode::Cold, CacheMode::Direct}) {
        Plan plan;
        plan.file = testFile();
        plan.sizes = {4096, 64 << 10, 1 << 20};
        plan.rounds = 3;
        plan.warmup = 1;
        plan.cache = cache;
        plan.pattern = cache == CacheMode::Cold ? Pattern::Random : Pattern::Sequential;
        plan.threads = cache == CacheMode::Warm ? 2 : 1;
        for (const auto& s : strategies())
            plan.strategies.emplace_back(s.id);
        // And one of the other platform's, which says it is unavailable here.
        const auto other =
            std::find_if(allStrategies().begin(), allStrategies().end(),
                         [](const StrategyInfo& s) { return s.platform != currentPlatform(); });
        REQUIRE(other != allStrategies().end());
        plan.strategies.emplace_back(other->id);
        QuietSink sink;
        auto doc = runPlan(plan, sink);
        REQUIRE_MESSAGE(
            doc.ok(), fmt::format("{}: {}", toString(cache), doc.ok() ? "" : doc.error().message));
        CHECK(doc->complete);
        CHECK_MESSAGE(doc->cells.size() == plan.sizes.size() * plan.strategies.size(),
                      fmt::format("{}", doc->cells.size()));
        int measured = 0;
        for (const auto& c : doc->cells) {
            const auto* s = findStrategy(c.strategy);
            REQUIRE(s != nullptr);
            const bool runs = availability(*s, *probe).available &&
                              (cache != CacheMode::Direct || s->access == Access::Direct);
            if (!runs) {
                CHECK_MESSAGE((c.status == CellStatus::Unavailable && !c.message.empty()),
                              fmt::format("{} {}", c.strategy, c.message));
                continue;
            }
            ++measured;
            CHECK_MESSAGE((c.measured() && c.status != CellStatus::NotCold),
                          fmt::format("{} {}: {} {}", c.strategy, c.rangeBytes, toString(c.status),
                                      c.message));
            CHECK_MESSAGE(
                c.checksum == Checksum::Verified,
                fmt::format("{} {}: {}", c.strategy, c.rangeBytes, checksumText(c.checksum)));
            CHECK_MESSAGE(c.samples.size() == 3, fmt::format("{}", c.samples.size()));
            CHECK_MESSAGE(c.summary.median > 0, fmt::format("{} {}", c.strategy, c.rangeBytes));
            if (!probe->residencyVerifiable)
                CHECK_MESSAGE(
                    (c.residencyMethod.rfind("unverified", 0) == 0 || cache == CacheMode::Direct),
                    fmt::format("{}", c.residencyMethod));
        }
        CHECK_MESSAGE(measured > 0, fmt::format("{}: nothing measured", toString(cache)));
    }
    CHECK_MESSAGE(fileFingerprint(testFile()) == before, fmt::format("the target file changed"));
}

TEST_CASE("documents are written atomically over an older one and read back") {
    TempDir dir;
    const std::string path = dir.file("result.json");
    ResultDocument doc;
    doc.plan.file = testFile();
    doc.fileSize = kFileSize;
    Cell cell;
    cell.strategy = std::string(strategies().front().id);
    cell.rangeBytes = 65536;
    Sample sample;
    sample.round = 1;
    sample.bytes = 1 << 20;
    sample.seconds = 0.001;
    cell.samples.push_back(sample);
    cell.summarize();
    doc.cells.push_back(cell);
    REQUIRE(writeFileAtomically(path, "old").ok());
    auto written = writeFileAtomically(path, toJson(doc));
    REQUIRE_MESSAGE(written.ok(), fmt::format("{}", written.ok() ? "" : written.error().message));
    auto back = loadDocument(path);
    REQUIRE_MESSAGE(back.ok(), fmt::format("{}", back.ok() ? "" : back.error().message));
    REQUIRE(back->cells.size() == 1);
    CHECK(back->cells[0].strategy == cell.strategy);
    CHECK(back->cells[0].summary.median == cell.summary.median);
    CHECK(!fs::exists(path + ".readscope-tmp"));
}

TEST_CASE("bad targets give clear errors") {
    TempDir dir;
    auto missing = probeFile(dir.file("no-such-file"));
    CHECK_MESSAGE(
        (!missing.ok() && missing.error().message.find("does not exist") != std::string::npos),
        fmt::format("{}", missing.ok() ? "" : missing.error().message));
    fs::create_directories(dir.file("folder"));
    auto folder = probeFile(dir.file("folder"));
    CHECK_MESSAGE((!folder.ok() && folder.error().message.find("a directory") != std::string::npos),
                  fmt::format("{}", folder.ok() ? "" : folder.error().message));
    { std::ofstream(dir.file("empty")); }
    auto empty = probeFile(dir.file("empty"));
    CHECK((!empty.ok() && empty.error().message.find("empty") != std::string::npos));
    auto again = generateFile(testFile(), 4096);
    CHECK((!again.ok() && again.error().message.find("already exists") != std::string::npos));
}

TEST_CASE("checksums take empty and split input alike") {
    // An empty span may carry a null pointer (a range past the end of the file reads
    // nothing); under UBSan, handing that on to memcpy fails this case.
    const std::span<const std::byte> nothing;
    CHECK(checksum(nothing) == checksum(std::vector<std::byte>{}));
    std::vector<std::byte> bytes(1000);
    generatedBytes(12345, bytes);
    ChecksumStream stream;
    stream.update(nothing);
    stream.update(std::span(bytes).first(33));
    stream.update(nothing);
    stream.update(std::span(bytes).subspan(33));
    CHECK(stream.finish() == checksum(bytes));
}
