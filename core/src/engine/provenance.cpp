#include "readscope/provenance.h"

#include "readscope/plan_flags.h"
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
    for (const PlanFlag& f : planFlags())
        if (const auto value = f.value(p)) {
            cmd += " ";
            cmd += f.name;
            if (!value->empty())
                cmd += " " + shellWord(*value);
        }
    return cmd;
}

std::string systemLine(const ResultDocument& doc) {
    const auto& s = doc.system;
    std::string date = s.date.substr(0, 10);
    std::string line = fmt::format(
        "readscope {} · {} · {} logical cores · {} · {} · page {} B · {}", s.toolVersion,
        s.cpuModel, s.logicalCores, s.kernel, s.filesystem, s.pageSize, date);
    if (s.memory) // what can move pages under the run
        line += " · " + memoryDaemonsText(*s.memory);
    if (s.hardwareCounters == HardwareCounters::Absent)
        line += " · no hardware counters";
    else if (s.hardwareCounters == HardwareCounters::NotPermitted)
        line += " · hardware counters not permitted";
    return line;
}

} // namespace readscope
