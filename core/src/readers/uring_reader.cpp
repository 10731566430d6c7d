#include "buffers.h"
#include "consumer.h"
#include "platform.h"
#include "reader_base.h"
#include "unique_fd.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <liburing.h>
#include <optional>
#include <vector>

namespace readscope {

namespace {

// Fresh, never-touched buffers make io_uring's non-blocking buffered read stop at the first
// page that faults and return a short read, one page per io_uring_enter: the batch would
// measure page faults, not batching. So each slot owns a buffer touched once up front, and the
// depth shrinks for large ranges to keep the pool within kUringPoolBytes (uringQueueDepth).

class UringReader final : public RangeReader {
public:
    // alignment: of the pool's buffers (direct I/O asks the device's, which can exceed a page).
    UringReader(const FileProbe& f, UniqueFd fd, std::size_t alignment)
        : f_(f), fd_(std::move(fd)), alignment_(alignment) {}

    Status prepare(std::uint64_t rangeBytes) override {
        const std::uint64_t bytes = std::min(rangeBytes, f_.size);
        const std::size_t offset = offset_.value_or(0);
        // The depth is the cell's own: a pool made for another range size is made again.
        const unsigned depth = effectiveQueueDepth(asked_, rangeBytes);
        if (!pool_.empty() && poolBytes_ >= bytes && pool_[0].offset() == offset && depth_ == depth)
            return okStatus();
        if (leaked_)
            return Error{"the io_uring ring failed earlier and still owns its buffers"};
        // A deeper queue than the ring was made for gets a ring of its size (untimed; nothing
        // is in flight between rounds).
        if (depth > ringEntries_) {
            io_uring_queue_exit(&ring_);
            initialised_ = false;
            if (auto st = init(depth); !st)
                return st;
        }
        pool_.clear();
        poolBytes_ = 0;
        depth_ = depth;
        try {
            // Page-aligned under auto placement (the engine's own allocation), else at the
            // pinned offset.
            for (unsigned i = 0; i < depth_; ++i)
                pool_.emplace_back(bytes, alignment_, offset);
        } catch (const std::bad_alloc&) {
            pool_.clear();
            return Error{
                fmt::format("cannot allocate {} io_uring buffers of {} bytes", depth_, bytes)};
        }
        poolBytes_ = bytes;
        return okStatus();
    }

    void release() override {
        if (leaked_ || poolBytes_ <= kKeepBufferLimit)
            return;
        pool_.clear();
        poolBytes_ = 0;
    }
    void placeBuffers(std::optional<std::uint32_t> offset, std::uint32_t) override {
        offset_ = offset;
    }
    void useQueueDepth(std::optional<unsigned> depth) override { asked_ = depth; }
    ~UringReader() override {
        if (initialised_)
            io_uring_queue_exit(&ring_);
        if (leaked_)
            for (auto& b : pool_)
                (void)b.release(); // never freed: see read()
    }

    // A ring with room for `entries` reads queued at once: twice the automatic depth, or the
    // depth a plan asked for (prepare() makes a larger one when asked). Kept small otherwise:
    // before Linux 5.12 its memory counts against RLIMIT_MEMLOCK, per reader.
    Status init(unsigned entries = kUringMaxDepth * 2) {
        const int rc = io_uring_queue_init(entries, &ring_, 0);
        if (rc < 0)
            return Error{fmt::format("io_uring setup failed: {}", std::strerror(-rc))};
        initialised_ = true;
        ringEntries_ = entries;
        return okStatus();
    }

    Result<ReadOutcome> read(std::span<const Range> ranges, ConsumeMode mode, bool recordLatencies,
                             std::stop_token stop) override {
        std::uint64_t longest = 0;
        for (const auto& r : ranges)
            longest = std::max(longest, r.length);
        if (pool_.empty() || poolBytes_ < std::min(longest, f_.size))
            if (auto st = prepare(longest); !st)
                return st.error();
        Batch b(ranges, Consumer(mode, f_.pageSize, false));
        for (unsigned i = 0; i < depth_; ++i) {
            b.slots.emplace_back().buffer = pool_[i].data();
            b.freeSlots.push_back(depth_ - 1 - i);
        }
        b.stride = latencyStride(recordLatencies, ranges.size());
        if (b.stride)
            b.out.latencies.reserve(ranges.size() / b.stride + 1);
        while (b.next < ranges.size() || b.inflight > 0) {
            const bool halt = b.failure || stop.stop_requested();
            if (halt && !b.failure)
                b.out.stopped = b.next < ranges.size();
            // Queue new reads only while running; in-flight ones are always drained, since
            // the kernel still owns their buffers.
            if (!halt)
                submit(b);
            if (b.inflight == 0) {
                if (halt)
                    break;
                continue;
            }
            if (!wait(b))
                break;
            reap(b);
        }
        if (b.failure)
            return *b.failure;
        b.out.value = b.consumer.value();
        b.out.bufferOffsets = b.tally.counts();
        b.out.queueDepth = b.peak; // reached, not asked: a short batch never fills the queue
        return std::move(b.out);
    }

private:
    struct Slot {
        std::byte* buffer = nullptr;
        std::uint64_t index = 0, offset = 0, want = 0, filled = 0;
        Clock::time_point start;
        bool timed = false;
    };

    // One read() call: its slots (free or in flight), the next range to queue, the first
    // failure, and what it has read so far.
    struct Batch {
        Batch(std::span<const Range> r, Consumer c) : ranges(r), consumer(c) {}
        std::span<const Range> ranges;
        Consumer consumer;
        std::vector<Slot> slots;
        std::vector<unsigned> freeSlots;
        std::size_t next = 0, stride = 0;
        unsigned inflight = 0, peak = 0;
        std::optional<Error> failure;
        OffsetTally tally;
        ReadOutcome out;
    };

    // Fills every free slot with the next ranges and queues their reads (not yet submitted).
    void submit(Batch& b) {
        while (b.inflight < depth_ && b.next < b.ranges.size() && !b.freeSlots.empty()) {
            const unsigned id = b.freeSlots.back();
            b.freeSlots.pop_back();
            Slot& s = b.slots[id];
            s.index = b.next;
            s.offset = b.ranges[b.next].offset;
            s.want = clippedLength(b.ranges[b.next], f_.size);
            s.filled = 0;
            s.timed = b.stride && b.next % b.stride == 0;
            s.start = s.timed ? Clock::now() : Clock::time_point{};
            ++b.next;
            if (s.want == 0) { // past end of file: nothing to read
                finish(s, b.consumer, b.out);
                b.freeSlots.push_back(id);
                continue;
            }
            b.tally.add(s.buffer, f_.pageSize);
            queue(id, s);
            ++b.inflight;
            b.peak = std::max(b.peak, b.inflight);
        }
    }

    // Submits what is queued and waits for at least one completion; after a failure only
    // waits, submitting nothing new. False when the ring itself is unusable.
    bool wait(Batch& b) {
        if (b.failure) {
            io_uring_cqe* cqe = nullptr;
            const int rc = io_uring_wait_cqe(&ring_, &cqe);
            ++b.out.syscalls;
            if (rc < 0 && rc != -EINTR) {
                // The ring is unusable: keep the pool alive for good rather than free memory
                // the kernel may still write to.
                leaked_ = true;
                return false;
            }
            return true;
        }
        const int rc = io_uring_submit_and_wait(&ring_, 1);
        ++b.out.syscalls;
        if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
            b.failure = Error{
                fmt::format("io_uring_enter on '{}' failed: {}", f_.path, std::strerror(-rc))};
            // Reads queued by this call may never have reached the kernel, so waiting for
            // them could wait forever; those that did may still be written: keep the pool for
            // good (as when waiting fails) and stop here.
            leaked_ = true;
            return false;
        }
        return true;
    }

    // Takes every completion there is: a finished range is consumed, a short read asks for
    // the rest, an error becomes the batch's failure (its slot is freed, nothing consumed).
    void reap(Batch& b) {
        io_uring_cqe* cqe = nullptr;
        while (io_uring_peek_cqe(&ring_, &cqe) == 0 && cqe) {
            const auto id = static_cast<unsigned>(io_uring_cqe_get_data64(cqe));
            const int res = cqe->res;
            io_uring_cqe_seen(&ring_, cqe);
            Slot& s = b.slots[id];
            if (res < 0) {
                if (!b.failure)
                    b.failure =
                        Error{fmt::format("io_uring read of '{}' at offset {} failed: {}", f_.path,
                                          s.offset + s.filled, std::strerror(-res))};
            } else {
                s.filled += static_cast<std::uint64_t>(res);
                if (res > 0 && s.filled < s.want && !b.failure) {
                    queue(id, s); // short read: ask for the rest
                    continue;
                }
                if (!b.failure)
                    finish(s, b.consumer, b.out);
            }
            b.freeSlots.push_back(id);
            --b.inflight;
        }
    }

    void queue(unsigned id, Slot& s) {
        io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
        if (!sqe) { // ring full of unsubmitted entries: flush them first
            io_uring_submit(&ring_);
            sqe = io_uring_get_sqe(&ring_);
        }
        const auto chunk = std::min<std::uint64_t>(s.want - s.filled, 1u << 30);
        io_uring_prep_read(sqe, fd_.get(), s.buffer + s.filled, static_cast<unsigned>(chunk),
                           s.offset + s.filled);
        io_uring_sqe_set_data64(sqe, id);
    }

    void finish(Slot& s, Consumer& consumer, ReadOutcome& out) {
        consumer.buffer({s.buffer, s.filled}, s.index);
        callRangeReadHook(s.index);
        out.bytes += s.filled;
        if (s.timed)
            out.latencies.push_back(secondsBetween(s.start, Clock::now()));
    }

    FileProbe f_;
    UniqueFd fd_;
    std::size_t alignment_;
    std::optional<std::uint32_t> offset_; // pinned page offset of the pool's buffers
    unsigned depth_ = 1;
    unsigned ringEntries_ = 0;
    std::optional<unsigned> asked_; // the plan's depth; none: uringQueueDepth per range size
    std::uint64_t poolBytes_ = 0;
    std::vector<AlignedBuffer> pool_;
    io_uring ring_{};
    bool initialised_ = false;
    bool leaked_ = false;
};

} // namespace

Result<std::unique_ptr<RangeReader>> openUringReader(const StrategyInfo& s, const FileProbe& f,
                                                     std::uint64_t maxRange) {
    UniqueFd fd(::open(f.path.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid())
        return Error{
            fmt::format("cannot open '{}' for {}: {}", f.path, s.id, std::strerror(errno))};
    auto reader = std::make_unique<UringReader>(f, std::move(fd), f.pageSize);
    if (auto st = reader->init(); !st)
        return st.error();
    if (std::min(maxRange, f.size) <= kKeepBufferLimit)
        if (auto st = reader->prepare(maxRange); !st)
            return st.error();
    return std::unique_ptr<RangeReader>(std::move(reader));
}

Result<std::unique_ptr<RangeReader>> openDirectUringReader(const FileProbe& f, unsigned depth) {
    if (!f.uringSupported)
        return Error{f.uringReason};
    if (!f.directSupported)
        return Error{f.directReason};
    UniqueFd fd(platform::openUncached(f.path));
    if (!fd.valid())
        return Error{
            fmt::format("cannot open '{}' for direct reads: {}", f.path, std::strerror(errno))};
    auto reader = std::make_unique<UringReader>(f, std::move(fd),
                                                std::max<std::size_t>(f.pageSize, f.directAlign));
    if (auto st = reader->init(std::max(depth, kUringMaxDepth * 2)); !st)
        return st.error();
    reader->useQueueDepth(depth);
    return std::unique_ptr<RangeReader>(std::move(reader));
}

} // namespace readscope
