// A trace run's trace in its JSON document (json_parts.h).
#include "json_parts.h"

#include <nlohmann/json.hpp>

#include <memory>

namespace readscope {

using nlohmann::json;

// A trace run's reads travel whole in its document, so a resumed run, the worker child and a
// reloaded result replay and name the same trace even if its file has moved.
json traceJson(const Plan& p) {
    json reads = json::array();
    if (p.trace)
        for (const auto& r : p.trace->reads)
            reads.push_back({r.offset, r.length, r.thread});
    return {{"path", p.tracePath},
            {"source", p.trace ? p.trace->source : std::string()},
            {"file", p.trace ? p.trace->file : std::string()},
            {"file_bytes", p.trace && p.trace->fileBytes ? json(*p.trace->fileBytes) : json()},
            {"digest", p.trace ? traceDigest(p.trace->reads) : std::string()},
            {"not_replayed", p.trace ? p.trace->notReplayed : std::vector<std::string>{}},
            {"reads", std::move(reads)}};
}

void traceFrom(const json& j, Plan& p) {
    p.tracePath = j.value("path", "");
    auto trace = std::make_shared<Trace>();
    trace->source = j.value("source", "");
    trace->file = j.value("file", "");
    if (j.contains("file_bytes") && j.at("file_bytes").is_number())
        trace->fileBytes = j.at("file_bytes").get<std::uint64_t>();
    trace->notReplayed = j.value("not_replayed", std::vector<std::string>{});
    for (const auto& r : j.value("reads", json::array()))
        trace->reads.push_back({r.at(0).get<std::uint64_t>(), r.at(1).get<std::uint64_t>(),
                                r.at(2).get<std::uint32_t>()});
    p.trace = std::move(trace);
}

} // namespace readscope
