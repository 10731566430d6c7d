#pragma once
// Threads that must start working together, with their creation untimed: a round's workers,
// the memcpy limit's copiers. Private to the engine.
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace readscope {

// Holds the workers until every one of them has started, then lets them all go. A mutex and
// condition variables rather than std::latch: with mingw-w64's GCC 12, std::latch (atomic
// wait without a futex) lost a wake-up under Wine and left a worker asleep forever.
class StartGate {
public:
    explicit StartGate(std::size_t workers) : expected_(workers) {}
    // A worker: "I have started"; returns once every worker has.
    void arriveAndWait() {
        std::unique_lock lock(mutex_);
        ++arrived_;
        changed_.notify_all();
        changed_.wait(lock, [this] { return open_; });
    }
    // The round: waits for every worker, then releases them together.
    void openWhenAllArrived() {
        {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [this] { return arrived_ == expected_; });
            open_ = true;
        }
        changed_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable changed_;
    const std::size_t expected_;
    std::size_t arrived_ = 0;
    bool open_ = false;
};

} // namespace readscope
