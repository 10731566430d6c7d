#pragma once
// A whole-file sweep reads files of several sizes whole. Each size's file is a copy of the
// target's first bytes, made (untimed) in a private folder beside the target, where it can
// write there (the same filesystem), else in the system's temporary folder. The target is
// only ever read. Copies are removed as soon as their size is measured, and the folder when
// the run ends or stops; a crash's leftovers are removed by removeLeftoverCopies() (the
// recovery file names the folder). Private to the engine.
#include "readscope/probe.h"
#include "readscope/result.h"

#include <cstdint>
#include <stop_token>
#include <string>
#include <vector>

namespace readscope {

class WholeFileCopies {
public:
    // The private folder, made now; targetFd reads the target's bytes.
    static Result<WholeFileCopies> make(const FileProbe& target, int targetFd);
    WholeFileCopies(WholeFileCopies&& other) noexcept;
    WholeFileCopies& operator=(WholeFileCopies&&) = delete;
    WholeFileCopies(const WholeFileCopies&) = delete;
    ~WholeFileCopies(); // removes what is left, then the folder

    const std::string& folder() const { return folder_; }
    // Empty when the copies sit beside the target; else why they do not (they are then on
    // the temporary folder's filesystem, which each cell says).
    const std::string& elsewhereBecause() const { return elsewhere_; }

    // A file of exactly size bytes, the target's first ones, flushed to the device (so that
    // cold rounds can evict it): its path. Stopping leaves nothing behind.
    Result<std::string> copy(std::uint64_t size, std::stop_token stop);
    void removeCopies(); // every copy made so far; the folder stays until destruction

private:
    WholeFileCopies(std::string folder, std::string elsewhere, int targetFd)
        : folder_(std::move(folder)), elsewhere_(std::move(elsewhere)), targetFd_(targetFd) {}

    std::string folder_;
    std::string elsewhere_;
    int targetFd_ = -1;
    std::vector<std::string> made_; // copies not yet removed
};

// The name of a size's copy inside the folder ("8192.bin"): removeLeftoverCopies() removes
// these names only.
std::string copyFileName(std::uint64_t size);

} // namespace readscope
