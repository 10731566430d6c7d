#include "whole_file_sweep.h"

#include "platform.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace readscope {

Status WholeFileSweep::start(const FileProbe& target) {
    target_ = UniqueFd(platform::openForReading(target.path));
    if (!target_.valid())
        return Error{
            fmt::format("cannot open '{}' for reading: {}", target.path, std::strerror(errno))};
    auto copies = WholeFileCopies::make(target, target_.get());
    if (!copies)
        return copies.error();
    copies_.emplace(std::move(*copies));
    return okStatus();
}

Status WholeFileSweep::use(std::uint64_t size, std::vector<Lane>& lanes, std::vector<Cell>& cells,
                           int threads, CacheControl& cache, std::stop_token stop,
                           const Fail& fail) {
    auto path = copies_->copy(size, stop);
    if (!path)
        return path.error();
    auto probe = probeFile(*path);
    if (!probe)
        return probe.error();
    copy_ = std::move(*probe);
    if (auto st = cache.open(copy_); !st)
        return Error{"the whole-file copy: " + st.error().message};
    for (std::size_t i = 0; i < lanes.size(); ++i) {
        auto& lane = lanes[i];
        if (!lane.unavailable.empty())
            continue;
        lane.readers.clear();
        if (const auto a = availability(*lane.info, copy_); !a.available) {
            cells[i].status = CellStatus::Unavailable; // where the copies are (tmpfs ...)
            cells[i].message = a.reason;
            continue;
        }
        for (int w = 0; w < threads; ++w) {
            auto reader = openReader(*lane.info, copy_, size);
            if (!reader) {
                lane.readers.clear();
                fail(cells[i], reader.error().message);
                break;
            }
            (*reader)->openEachRead(true);
            lane.readers.push_back(std::move(*reader));
        }
    }
    if (cache.mode() == CacheMode::Warm)
        return cache.warm(stop);
    return okStatus();
}

void WholeFileSweep::drop(std::vector<Lane>& lanes, CacheControl& cache) {
    for (auto& lane : lanes)
        lane.readers.clear();
    cache.close();
    copies_->removeCopies();
}

std::optional<CellCondition> WholeFileSweep::elsewhere(const FileProbe& target) const {
    if (!copies_->elsewhereBecause().empty())
        return CellCondition{
            CopiesElsewhere{copy_.filesystem, copies_->folder(), copies_->elsewhereBecause(), {}}};
    if (copy_.filesystem != target.filesystem)
        return CellCondition{
            CopiesElsewhere{copy_.filesystem, copies_->folder(), {}, target.filesystem}};
    return std::nullopt;
}

} // namespace readscope
