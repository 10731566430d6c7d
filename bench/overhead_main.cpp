// readscope-overhead: is the engine's timed loop as cheap as the plainest code doing the same
// calls? Interleaves, round by round, the engine's reader with a hand-written C loop (and
// optionally fio's psync engine) on a page-cache-resident file, and prints median GB/s.
#include "minimal_loops.h"
#include "readscope/probe.h"
#include "readscope/reader.h"
#include "readscope/residency.h"
#include "readscope/stats.h"
#include "readscope/units.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace readscope;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// fio's own figure for a sequential psync read with this block size, in GB/s.
double fioGbps(const std::string& file, std::uint64_t bs, std::uint64_t size) {
    const std::string cmd = fmt::format(
        "fio --name=rs --filename='{}' --rw=read --bs={} --ioengine=psync --size={} --loops=8 "
        "--invalidate=0 --output-format=json 2>/dev/null",
        file, bs, size);
    FILE* p = popen(cmd.c_str(), "r");
    if (!p)
        return 0;
    std::string out;
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, p))
        out.append(buf, n);
    pclose(p);
    const auto at = out.find("\"bw_bytes\"");
    if (at == std::string::npos)
        return 0;
    return std::strtod(out.c_str() + out.find(':', at) + 1, nullptr) / 1e9;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        fmt::print(stderr, "usage: readscope-overhead FILE [--rounds N] [--fio]\n");
        return 2;
    }
    const std::string path = argv[1];
    int rounds = 15;
    bool withFio = false;
    for (int i = 2; i < argc; ++i) {
        if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
            rounds = std::atoi(argv[++i]);
        else if (std::strcmp(argv[i], "--fio") == 0)
            withFio = true;
    }
    auto probe = probeFile(path);
    if (!probe) {
        fmt::print(stderr, "{}\n", probe.error().message);
        return 2;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (auto st = warmFile(fd, probe->size, path); !st)
        return 1;
    const std::uint64_t budget = std::min<std::uint64_t>(probe->size, 256ull << 20);
    const std::uint64_t sizes[] = {64 << 10, 256 << 10, 1 << 20, 8 << 20};
    const char* ids[] = {"pread-zerofill", "pread-uninit", "seek-read", "pread-reuse"};
    std::uint64_t sink = 0;
    auto* reuse = static_cast<unsigned char*>(std::aligned_alloc(4096, 8 << 20));
    std::memset(reuse, 0, 8 << 20);

    fmt::print("engine vs minimal C loop, {} interleaved rounds, {} per round, file {} ({})\n",
               rounds, formatSize(budget), path, formatSize(probe->size));
    fmt::print("{:<8} {:<15} {:>12} {:>12} {:>7}  {}\n", "range", "strategy", "engine GB/s",
               "minimal GB/s", "ratio", "target >= 0.97");
    std::vector<std::string> fioRows;
    for (auto size : sizes) {
        std::vector<minimal_range> plain;
        std::vector<Range> ranges;
        for (std::uint64_t off = 0; off + size <= budget; off += size) {
            ranges.push_back({off, size});
            plain.push_back({off, size});
        }
        for (const char* id : ids) {
            auto reader = openReader(*findStrategy(id), *probe, size);
            if (!reader) {
                fmt::print(stderr, "{}\n", reader.error().message);
                return 1;
            }
            if (auto st = (*reader)->prepare(size); !st)
                return 1;
            std::vector<double> engine, minimal, fio;
            for (int r = 0; r < rounds; ++r) {
                auto runEngine = [&] {
                    const auto t0 = Clock::now();
                    auto out = (*reader)->read(ranges, ConsumeMode::Touch, true, {});
                    engine.push_back(gigabytesPerSecond(out->bytes, since(t0)));
                    sink += out->value;
                };
                auto runMinimal = [&] {
                    const auto t0 = Clock::now();
                    std::int64_t got = 0;
                    const std::string_view s = id;
                    if (s == "pread-zerofill")
                        got = minimal_pread_zerofill(fd, plain.data(), plain.size(), &sink);
                    else if (s == "pread-uninit")
                        got = minimal_pread_uninit(fd, plain.data(), plain.size(), &sink);
                    else if (s == "seek-read")
                        got = minimal_seek_read(fd, plain.data(), plain.size(), &sink);
                    else
                        got = minimal_pread_reuse(fd, reuse, plain.data(), plain.size(), &sink);
                    minimal.push_back(gigabytesPerSecond(static_cast<std::uint64_t>(got), since(t0)));
                };
                // Alternate who goes first so that neither always inherits the other's caches.
                if (r % 2) { runEngine(); runMinimal(); } else { runMinimal(); runEngine(); }
                if (withFio && std::string_view(id) == "pread-reuse")
                    fio.push_back(fioGbps(path, size, budget));
            }
            const double e = median(engine), m = median(minimal);
            fmt::print("{:<8} {:<15} {:>12.2f} {:>12.2f} {:>7.3f}  {}\n", formatSize(size), id, e,
                       m, e / m, e / m >= 0.97 ? "met" : "MISSED");
            if (!fio.empty())
                fioRows.push_back(fmt::format("{:<8} {:>16.2f} {:>14.2f} {:>7.3f}  {}",
                                              formatSize(size), e, median(fio), e / median(fio),
                                              e / median(fio) >= 1.0 ? "met" : "MISSED"));
        }
    }
    if (!fioRows.empty()) {
        fmt::print("\npread-reuse vs fio --ioengine=psync --rw=read (same block size)\n");
        fmt::print("{:<8} {:>16} {:>14} {:>7}  {}\n", "range", "engine GB/s", "fio GB/s",
                   "ratio", "target >= 1.0");
        for (const auto& row : fioRows)
            fmt::print("{}\n", row);
    }
    std::free(reuse);
    ::close(fd);
    return sink == 42 ? 3 : 0; // uses sink; never 42 in practice
}
