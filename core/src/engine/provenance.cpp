#include "readscope/provenance.h"

#include "readscope/units.h"

#include <fmt/format.h>

namespace readscope {

namespace {

// Quotes a shell word only when it needs it.
std::string shellWord(const std::string& w) {
    if (!w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789-_./,=:+@%") == std::string::npos)
        return w;
    std::string out = "'";
    for (char c : w)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

} // namespace

std::string rerunCommand(const ResultDocument& doc) {
    if (!doc.fileGenerated)
        return reproduceCommand(doc.plan);
    // The same bytes anywhere: generate a file of the same size, then run on it.
    Plan plan = doc.plan;
    plan.file = "readscope-test.bin";
    return fmt::format("readscope-cli generate {} --size {} && {}", plan.file,
                       formatSizeShort(doc.fileSize), reproduceCommand(plan));
}

std::string reproduceCommand(const Plan& p) {
    std::string cmd = "readscope-cli run";
    if (!p.file.empty())
        cmd += " " + shellWord(p.file);
    // The whole pattern's --sizes are its file sizes (none: the file itself).
    const auto& given = p.pattern == Pattern::Whole ? p.fileSizes : p.sizes;
    if (!given.empty()) {
        std::string sizes;
        for (auto s : given)
            sizes += (sizes.empty() ? "" : ",") + formatSizeShort(s);
        cmd += " --sizes " + sizes;
    }
    std::string ids;
    for (const auto& id : p.strategies)
        ids += (ids.empty() ? "" : ",") + id;
    if (!ids.empty())
        cmd += " --strategies " + ids;
    cmd += fmt::format(" --pattern {} --cache {} --threads {} --rounds {} --warmup {} --seed {}",
                       toString(p.pattern), toString(p.cache), threadsListText(p), p.rounds,
                       p.warmup, p.seed);
    if (!p.queueDepths.empty())
        cmd += " --queue-depth " + queueDepthsText(p);
    if (p.budget)
        cmd += " --budget " + formatSizeShort(p.budget);
    // Always said: the defaults have changed before (consume minimal became all).
    cmd += fmt::format(" --consume {} --round-time {} --time-cap {}", toString(p.consume),
                       p.roundTimeSeconds, p.timeCapSeconds);
    if (!p.bufferOffsets.empty())
        cmd += " --buffer-offset " + formatBufferOffsets(p.bufferOffsets);
    if (p.dropCachesAsRoot)
        cmd += " --drop-caches";
    if (p.repeats != 1)
        cmd += fmt::format(" --repeat {}", p.repeats);
    if (p.precision > 0)
        cmd += fmt::format(" --precision {}", p.precision * 100);
    if (p.maxTimeSeconds > 0)
        cmd += fmt::format(" --max-time {}", p.maxTimeSeconds);
    return cmd;
}

std::string systemLine(const ResultDocument& doc) {
    const auto& s = doc.system;
    std::string date = s.date.substr(0, 10);
    return fmt::format("readscope {} · {} · {} logical cores · {} · {} · page {} B · {}",
                       s.toolVersion, s.cpuModel, s.logicalCores, s.kernel, s.filesystem,
                       s.pageSize, date);
}

} // namespace readscope
