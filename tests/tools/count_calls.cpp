// One read of a strategy between two marker system calls, for tst_syscall_counts to trace:
//   readscope_count_calls STRATEGY FILE RANGE_BYTES COUNT [whole]
// reads COUNT ranges of RANGE_BYTES one after another from offset 0 (whole: COUNT reads of the
// whole file, each opening it, as a whole-file sweep's rounds do), once untimed and once
// between two getppid() calls, and prints the system calls the engine counted in that read.
#include "readscope/probe.h"
#include "readscope/reader.h"
#include "readscope/strategy.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

using namespace readscope;

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: %s STRATEGY FILE RANGE_BYTES COUNT [whole]\n", argv[0]);
        return 2;
    }
    const StrategyInfo* info = findStrategy(argv[1]);
    auto probe = probeFile(argv[2]);
    if (!info || !probe) {
        std::fprintf(stderr, "no such strategy or file\n");
        return 2;
    }
    const bool whole = argc > 5 && std::string(argv[5]) == "whole";
    const std::uint64_t size = whole ? probe->size : std::strtoull(argv[3], nullptr, 10);
    const std::size_t count = std::strtoull(argv[4], nullptr, 10);
    auto reader = openReader(*info, *probe, size);
    if (!reader) {
        std::fprintf(stderr, "%s\n", reader.error().message.c_str());
        return 3;
    }
    std::vector<Range> ranges;
    for (std::size_t i = 0; i < count; ++i)
        ranges.push_back(Range{whole ? 0 : i * size, size});
    (*reader)->openEachRead(whole);
    if (auto st = (*reader)->prepare(size); !st)
        return 3;
    if (!(*reader)->read(ranges, ConsumeMode::All, false, {}))
        return 3; // untimed: first-use costs (a kept mapping, a pool) are not what is compared
    ::syscall(SYS_getppid);
    auto got = (*reader)->read(ranges, ConsumeMode::All, false, {});
    ::syscall(SYS_getppid);
    if (!got) {
        std::fprintf(stderr, "%s\n", got.error().message.c_str());
        return 3;
    }
    std::printf("%llu\n", static_cast<unsigned long long>(got->syscalls));
    return 0;
}
