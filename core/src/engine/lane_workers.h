#pragma once
// A lane's worker threads, alive for the whole run: round after round, worker w reads on the
// same thread. Private to the engine.
//
// Why not a thread per round: a real program reads on a thread that lives on, and the reads
// that allocate (the whole-file and runtime strategies) depend on it. Measured here with
// Rust's own read_to_end, a fresh thread per read cost +7% at 8 MiB and +80% at 1 KiB (its
// heap cache starts empty). Why not the calling thread: its heap holds the engine's own
// bookkeeping, and there two in three of read_to_end's reallocs moved the buffer instead of
// growing it in place (Rust's own loop: one in six).
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace readscope {

class LaneWorkers {
public:
    LaneWorkers() = default;
    LaneWorkers(const LaneWorkers&) = delete;
    LaneWorkers& operator=(const LaneWorkers&) = delete;
    ~LaneWorkers(); // ends and joins the threads

    // Runs job(w) on worker w for every w below count, all released together (threads this
    // lane did not have yet are started first and waited for, untimed); returns once every
    // job has returned.
    void run(std::size_t count, const std::function<void(std::size_t)>& job);

private:
    void loop(std::size_t w, std::uint64_t seen);

    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::thread> threads_;
    const std::function<void(std::size_t)>* job_ = nullptr;
    std::size_t count_ = 0, done_ = 0;
    std::size_t waiting_ = 0;      // threads that have started and wait for work
    std::uint64_t generation_ = 0; // one more for every run()
    bool quit_ = false;
};

} // namespace readscope
