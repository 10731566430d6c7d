#include "lane_workers.h"

namespace readscope {

LaneWorkers::~LaneWorkers() {
    {
        std::lock_guard lock(mutex_);
        quit_ = true;
    }
    changed_.notify_all();
    for (auto& t : threads_)
        t.join();
}

void LaneWorkers::run(std::size_t count, const std::function<void(std::size_t)>& job) {
    std::unique_lock lock(mutex_);
    // New threads wait for the generation after this one, and it starts only once every one
    // of them is running and waiting: no worker's timed reads hold another's thread start.
    while (threads_.size() < count)
        threads_.emplace_back([this, w = threads_.size(), seen = generation_] { loop(w, seen); });
    changed_.wait(lock, [&] { return waiting_ == threads_.size(); });
    job_ = &job;
    count_ = count;
    done_ = 0;
    ++generation_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return done_ == count_; });
    job_ = nullptr;
}

void LaneWorkers::loop(std::size_t w, std::uint64_t seen) {
    std::unique_lock lock(mutex_);
    ++waiting_;
    changed_.notify_all();
    for (;;) {
        changed_.wait(lock, [&] { return quit_ || generation_ != seen; });
        if (quit_)
            return;
        seen = generation_;
        if (w >= count_)
            continue;
        const auto* job = job_;
        lock.unlock();
        (*job)(w);
        lock.lock();
        if (++done_ == count_)
            changed_.notify_all();
    }
}

} // namespace readscope
