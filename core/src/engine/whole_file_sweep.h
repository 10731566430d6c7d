#pragma once
// A whole-file sweep's points: each reads a copy of the target's first bytes made for it
// (untimed), every read opening, reading and closing the file, and the copy goes when its point
// ends. Private to the engine.
#include "cache_control.h"
#include "lanes.h"
#include "readscope/cell_conditions.h"
#include "readscope/probe.h"
#include "readscope/result_document.h"
#include "unique_fd.h"
#include "whole_file_copies.h"

#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace readscope {

class WholeFileSweep {
public:
    // The copies' private folder made, the target opened to copy from.
    Status start(const FileProbe& target);
    const std::string& folder() const { return copies_->folder(); }
    // Empty when the copies sit beside the target; else why not.
    const std::string& elsewhereBecause() const { return copies_->elsewhereBecause(); }

    // A point's copy of `size` bytes made, `cache` on it (warmed in a warm mode), and each
    // usable lane's first `threads` readers opened on it. A lane whose strategy cannot read the
    // copy where it is (tmpfs ...) has its cell unavailable; one whose reader cannot open it,
    // `fail`ed.
    using Fail = std::function<void(Cell&, std::string)>;
    Status use(std::uint64_t size, std::vector<Lane>& lanes, std::vector<Cell>& cells, int threads,
               CacheControl& cache, std::stop_token stop, const Fail& fail);
    // After the point: nothing open on its copy, and the copy gone.
    void drop(std::vector<Lane>& lanes, CacheControl& cache);

    // Where the current copy was, when not beside the target or not on its filesystem (the one
    // the document's system line names).
    std::optional<CellCondition> elsewhere(const FileProbe& target) const;

private:
    UniqueFd target_; // before the copies, which read through it
    std::optional<WholeFileCopies> copies_;
    FileProbe copy_;
};

} // namespace readscope
