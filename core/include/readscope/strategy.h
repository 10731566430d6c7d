#pragma once
// The strategy registry: one table row per way of reading a range. A row composes three
// orthogonal knobs (how bytes are obtained, what the buffer is, which hint is given); the
// engine's read loops dispatch on those knobs, not on the id.
#include "readscope/result.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace readscope {

// Coalesce: ranges merged with their neighbours into larger positioned reads (object_store's
// get_ranges), each range sliced out of its merged read.
enum class Access {
    Pread,
    SeekRead,
    ReadToEnd,
    MapCopy,
    MapInPlace,
    Direct,
    UringBatch,
    Coalesce,
    AsRuntime // a whole file, as a language runtime's own call reads it (Runtime says which)
};
// The runtime call an AsRuntime strategy makes, system call for system call: Rust 1.95's
// read_to_end with no size hint and std::fs::read, CPython 3.11's open(p, 'rb').read(),
// Node 20's fs.readFileSync, OpenJDK 17's Files.readAllBytes, Go 1.19's os.ReadFile, and
// libstdc++ 12's std::ifstream read through istreambuf_iterator or by seekg/tellg + read.
enum class Runtime {
    None,
    RustReadToEnd,
    RustFsRead,
    Python,
    Node,
    Java,
    Go,
    CppIterator,
    CppSeekRead
};
// FreshCalloc: zeroed by the allocator (calloc), which skips the memset for memory fresh from
// the kernel and memsets reused heap memory, as Rust's vec![0; n] and alloc_zeroed do.
enum class BufferKind {
    FreshZeroed,
    FreshUninit,
    Reused,
    Grown,
    Preallocated,
    InPlace,
    FreshCalloc
};
// WillNeed is madvise(MADV_WILLNEED) on POSIX and PrefetchVirtualMemory on Windows;
// SequentialScan and RandomAccess steer read-ahead: Windows open flags
// (FILE_FLAG_SEQUENTIAL_SCAN, FILE_FLAG_RANDOM_ACCESS), posix_fadvise(POSIX_FADV_SEQUENTIAL,
// POSIX_FADV_RANDOM) on a POSIX descriptor, madvise(MADV_SEQUENTIAL, MADV_RANDOM) on a POSIX
// mapping (no hint: NORMAL, the default read-ahead). DontCache is
// preadv2's RWF_DONTCACHE (Linux 6.14+): read through the page cache, which drops the pages
// this read brought in once their bytes are copied (pages cached before stay).
enum class Hint { None, WillNeed, Populate, Prefetch, SequentialScan, RandomAccess, DontCache };
// Where a strategy's system calls exist. Every row is listed everywhere (so that documents
// from the other platform can be read), but runs only where its calls exist.
enum class Platform { Posix, Windows };
// How long a mapping lives: mapped and unmapped inside every round, or mapped once when the
// reader opens and kept across rounds (as a program that maps a file once and serves many
// reads), so that mapping and first-touch page-table work leave the timed rounds.
enum class MapLifetime { PerRound, Kept };

struct StrategyInfo {
    std::string_view id;      // stable, used in files and on the command line
    std::string_view name;    // for people
    std::string_view family;  // grouping in lists and the app
    std::string_view summary; // one line
    Access access;
    BufferKind buffer;
    Hint hint;
    Platform platform = Platform::Posix;
    MapLifetime mapping = MapLifetime::PerRound; // for mapping strategies
    Runtime runtime = Runtime::None;             // for AsRuntime strategies
    // Reads through a mapping of the file (copied out of it, or in place).
    bool mapsFile() const { return access == Access::MapCopy || access == Access::MapInPlace; }
};

// This platform's strategies, the default set to run and to offer.
std::span<const StrategyInfo> strategies();
// The whole-file reads as language runtimes make them (Access::AsRuntime, "Read a whole file,
// as a runtime does"): offered beside strategies() for the whole pattern only, and not in
// "all", which reads ranges.
std::span<const StrategyInfo> runtimeStrategies();
// What the app's list and 'readscope-cli strategies' offer: strategies(), then this
// platform's runtimeStrategies().
std::vector<const StrategyInfo*> offeredStrategies();
// The system calls an AsRuntime strategy makes to read a regular file of `size` bytes whole,
// in strace's words ("read 129 = 128"), from the code that makes them; empty for the others.
std::vector<std::string> runtimeCalls(const StrategyInfo& strategy, std::uint64_t size);
// Reads path whole as an AsRuntime strategy does and returns the calls it made, in the same
// words (Linux only; an error elsewhere, or for another strategy).
Result<std::vector<std::string>> traceRuntimeRead(const StrategyInfo& strategy,
                                                  const std::string& path);
// Every row, the other platform's too (those report themselves unavailable here).
std::span<const StrategyInfo> allStrategies();
// The platform this build runs on.
Platform currentPlatform();
std::string_view toString(Platform p);
const StrategyInfo* findStrategy(std::string_view id);
// The longer teaching text (what it does per range, what that costs), from resources/.
std::string_view strategyExplanation(std::string_view id);

struct FileProbe; // platform/file facts, see probe.h

struct Availability {
    bool available = true;
    std::string reason; // why not, naming the file or the platform
};
Availability availability(const StrategyInfo& strategy, const FileProbe& probe);

} // namespace readscope
