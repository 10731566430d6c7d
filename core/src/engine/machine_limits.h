#pragma once
// What the machine itself allows, measured untimed before a sweep's cells: the memory-copy
// ceiling a buffered read cannot pass, and what one lseek costs (the cost model checks its
// fixed costs against it). Private to the engine.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace readscope {

// memcpy from a source as large as a round reads (at most kMaxSource) into a reused buffer of
// the range size, range by range: the shape of the copy a buffered read does from the page
// cache. The source is allocated and touched once; each gbps() call takes a few tens of ms.
class CopyLimit {
public:
    static constexpr std::uint64_t kMaxSource = 128ull << 20;
    // onWorkerStart runs on each copying thread as it starts, before the clock (tests make
    // a thread's start slow with it).
    explicit CopyLimit(std::uint64_t roundBytes, std::function<void()> onWorkerStart = {});
    // The best GB/s of a few passes over the source (after one untimed pass; a ceiling is
    // measured as one: noise only ever slows a copy down), copied by `workers` threads at once
    // (the run's --threads), each its own part into its own buffer, which starts at the page
    // offset the strategies' buffers are pinned at (none: where the allocator puts it). As a
    // round's workers are, the threads are started before the clock and released together; a
    // pass runs from the first one's start to the last one's end.
    double gbps(std::uint64_t rangeBytes, int workers,
                std::optional<std::uint32_t> pageOffset = std::nullopt, int passes = kPasses);
    // One more pass, between a point's rounds: its GB/s, which the point's limit takes when it
    // beats it (the machine's fast moments are spread over the run, as the rounds are).
    double onePass(std::uint64_t rangeBytes, int workers,
                   std::optional<std::uint32_t> pageOffset = std::nullopt) {
        return gbps(rangeBytes, workers, pageOffset, 1);
    }
    static constexpr int kPasses = 5;

private:
    std::vector<std::byte> source_;
    std::function<void()> onWorkerStart_;
};

// Median seconds of one lseek(fd, offset, SEEK_SET) (SetFilePointerEx on Windows), over a
// few thousand calls at changing offsets below fileSize; 0 if a seek fails.
double lseekSeconds(int fd, std::uint64_t fileSize);

// The unit costs a run records before its rounds: one lseek (doc.lseekSeconds) and the rest
// (doc.unitCosts), on the file open at fd.
struct ResultDocument;
void measureUnitCosts(ResultDocument& doc, int fd, std::uint64_t fileSize);

// What the kernel's read path costs per cached page beyond copying the page's bytes (the
// page-cache lookup, the page's reference and accessed mark, the copy's per-page start): a
// 64 KiB read of cached, CPU-cache-warm pages, less one null call and a 64 KiB memcpy of warm
// bytes, over its pages. None without a null-call cost or a file of 64 KiB.
std::optional<double> cachedPageSeconds(int fd, std::uint64_t fileSize,
                                        std::optional<double> nullSyscall);

// --consume all's fold alone on a cache-warm buffer of this range size, GB/s (median of a few
// tens of ms of folds; untimed for the sweep).
double foldGbps(std::uint64_t rangeBytes);
// memset to 0 alone, the same way: what zero-filling a buffer of this range size costs here
// when the buffer is cache-warm (a zero-filled fresh buffer's pages are: the allocator reuses
// them, or the kernel just zeroed them in its page faults).
double memsetGbps(std::uint64_t rangeBytes);

} // namespace readscope
