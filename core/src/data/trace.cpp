#include "readscope/trace.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <set>
#include <span>

namespace readscope {

std::uint64_t Trace::bytes() const {
    std::uint64_t sum = 0;
    for (const auto& r : reads)
        sum += r.length;
    return sum;
}

std::uint64_t Trace::largest() const {
    std::uint64_t most = 0;
    for (const auto& r : reads)
        most = std::max(most, r.length);
    return most;
}

std::uint64_t Trace::end() const {
    std::uint64_t last = 0;
    for (const auto& r : reads)
        last = std::max(last, r.offset + r.length);
    return last;
}

std::vector<Range> Trace::ranges() const {
    std::vector<Range> out;
    out.reserve(reads.size());
    for (const auto& r : reads)
        out.push_back({r.offset, r.length});
    return out;
}

std::size_t Trace::windowReads(std::uint64_t budget) const {
    if (budget == 0)
        return reads.size();
    std::size_t n = 0;
    std::uint64_t bytes = 0;
    while (n < reads.size() && (n == 0 || bytes + reads[n].length <= budget))
        bytes += reads[n++].length;
    return n;
}

std::uint64_t Trace::windowBytes(std::uint64_t budget) const {
    std::uint64_t sum = 0;
    for (std::size_t i = 0, n = windowReads(budget); i < n; ++i)
        sum += reads[i].length;
    return sum;
}

std::uint64_t Trace::byteMedianRead(std::uint64_t budget) const {
    std::vector<std::uint64_t> lengths;
    std::uint64_t bytes = 0;
    for (std::size_t i = 0, n = windowReads(budget); i < n; ++i) {
        lengths.push_back(reads[i].length);
        bytes += reads[i].length;
    }
    std::sort(lengths.begin(), lengths.end());
    const std::uint64_t half = (bytes + 1) / 2;
    std::uint64_t sum = 0;
    for (const auto length : lengths)
        if ((sum += length) >= half)
            return length;
    return 0; // no reads
}

std::uint32_t Trace::threadCount() const {
    std::uint32_t most = 0;
    for (const auto& r : reads)
        most = std::max(most, r.thread + 1);
    return std::max<std::uint32_t>(most, 1);
}

std::vector<std::uint32_t> Trace::threadsFor(int workers) const {
    if (workers < 2 || std::uint32_t(workers) != threadCount())
        return {};
    std::vector<std::uint32_t> out;
    out.reserve(reads.size());
    for (const auto& r : reads)
        out.push_back(r.thread);
    return out;
}

void numberThreadsDensely(std::vector<TraceRead>& reads) {
    std::map<std::uint32_t, std::uint32_t> number;
    for (auto& r : reads)
        r.thread = number.try_emplace(r.thread, std::uint32_t(number.size())).first->second;
}

std::string traceDigest(const std::vector<TraceRead>& reads) {
    // FNV-1a, 64 bits, over each read's offset and length in little-endian bytes.
    std::uint64_t h = 0xcbf29ce484222325ull;
    auto mix = [&h](std::uint64_t v) {
        for (int i = 0; i < 8; ++i) {
            h ^= (v >> (8 * i)) & 0xff;
            h *= 0x100000001b3ull;
        }
    };
    for (const auto& r : reads) {
        mix(r.offset);
        mix(r.length);
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

namespace {
// The bytes the reads cover, each byte once however often it is read.
std::uint64_t coveredBytes(std::span<const TraceRead> reads) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
    for (const auto& r : reads)
        if (r.length)
            spans.emplace_back(r.offset, r.offset + r.length);
    std::sort(spans.begin(), spans.end());
    std::uint64_t covered = 0, reach = 0;
    for (const auto& [from, to] : spans) {
        const std::uint64_t start = std::max(from, reach);
        if (to > start)
            covered += to - start;
        reach = std::max(reach, to);
    }
    return covered;
}
} // namespace

std::uint64_t Trace::windowFootprint(std::uint64_t budget) const {
    return coveredBytes(std::span(reads).first(windowReads(budget)));
}

TraceSummary summarize(const Trace& trace, std::optional<std::uint64_t> fileBytes) {
    TraceSummary s;
    s.reads = trace.reads.size();
    s.bytes = trace.bytes();
    std::map<std::uint64_t, std::uint64_t> classes;
    std::set<std::uint32_t> threads;
    std::vector<std::uint64_t> lengths;
    for (const auto& r : trace.reads) {
        ++classes[std::bit_ceil(std::max<std::uint64_t>(r.length, 1))];
        threads.insert(r.thread);
        lengths.push_back(r.length);
    }
    s.histogram.assign(classes.begin(), classes.end());
    s.threads = std::uint32_t(threads.size());
    if (!lengths.empty()) {
        std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
        s.median = lengths[lengths.size() / 2];
    }
    const std::uint64_t covered = coveredBytes(trace.reads);
    s.uniqueBytes = covered;
    s.reRead = s.bytes ? double(s.bytes - covered) / double(s.bytes) : 0;
    if (const auto size = fileBytes ? fileBytes : trace.fileBytes; size && *size)
        s.fileTouched = std::min(1.0, double(covered) / double(*size));
    return s;
}

} // namespace readscope
