#include "lanes.h"

#include <algorithm>

namespace readscope {

std::vector<Lane> openLanes(const Plan& plan, const FileProbe& file,
                            std::span<const SweepPoint> points, bool wholeFile) {
    std::uint64_t maxRange = 0;
    int workers = 1;
    for (const auto& p : points) {
        maxRange = std::max(maxRange, p.rangeBytes);
        workers = std::max(workers, threadsAt(plan, p));
    }
    std::vector<Lane> lanes;
    for (const auto& id : plan.strategies) {
        Lane lane;
        lane.info = findStrategy(id);
        const auto a = availability(*lane.info, file);
        if (!a.available)
            lane.unavailable = a.reason;
        else if (plan.cache == CacheMode::Direct && lane.info->access != Access::Direct)
            lane.unavailable = "cache mode 'direct' runs direct-I/O strategies only";
        else if (wholeFile)
            lane.unavailable = wholeFileReadExclusion(*lane.info);
        else if (sweepAxis(plan) == SweepAxis::BufferOffset)
            lane.unavailable = offsetSweepExclusion(*lane.info);
        else if (sweepAxis(plan) == SweepAxis::QueueDepth)
            lane.unavailable = queueDepthSweepExclusion(lane.info->id);
        // Enough readers for the point with the most threads; a point uses its first N.
        for (int w = 0; lane.unavailable.empty() && w < workers; ++w) {
            auto reader = openReader(*lane.info, file, maxRange);
            if (!reader)
                lane.unavailable = reader.error().message;
            else
                lane.readers.push_back(std::move(reader.value()));
        }
        if (!lane.unavailable.empty())
            lane.readers.clear();
        lanes.push_back(std::move(lane));
    }
    return lanes;
}

bool usable(const Lane& lane, const Cell& cell) {
    return lane.unavailable.empty() && cell.status != CellStatus::Failed &&
           cell.status != CellStatus::Unavailable;
}

void usePoint(std::vector<Lane>& lanes, const Plan& plan, const SweepPoint& point) {
    const std::uint32_t largestOffset =
        plan.bufferOffsets.empty()
            ? 0
            : *std::max_element(plan.bufferOffsets.begin(), plan.bufferOffsets.end());
    const auto depth = queueDepthAt(plan, point);
    for (auto& lane : lanes)
        for (auto& reader : lane.readers) {
            reader->placeBuffers(point.bufferOffset, largestOffset);
            reader->useQueueDepth(depth);
        }
}

std::string offsetSweepExclusion(const StrategyInfo& s) {
    if (s.access == Access::MapInPlace)
        return "it reads the mapping in place: there is no destination buffer to place";
    if (s.access == Access::Direct)
        return "direct I/O keeps its buffer at the device's alignment: the buffer offset does "
               "not apply";
    return {};
}

} // namespace readscope
