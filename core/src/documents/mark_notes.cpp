// The words for a cell's marks and a chart's lines: the only place they are written.
#include "readscope/mark_notes.h"
#include "readscope/run_notes.h"

#include "readscope/stats.h"

#include <fmt/format.h>

namespace readscope {

std::string noisyNote() {
    return fmt::format("noisy: the median's interval reaches more than ±{:.0f}% from it",
                       kNoisyUncertainty * 100);
}

std::string noisyLegendNote() {
    return fmt::format("noisy: interval past ±{:.0f}% of the median", kNoisyUncertainty * 100);
}

std::string tooFewRoundsNote() { return "too few rounds to tell"; }

std::string notColdNote() { return "not cold: the file stayed in the page cache"; }

std::string copyCeilingNote() { return "a strategy that copies is not expected to pass"; }

std::string onePerPageNote() {
    return "consume minimal: in-place mappings touched 1 byte/page, the others had every byte in "
           "a buffer: not comparable";
}

std::string consumeNote(Consume consume) {
    return consume == Consume::All ? "all (every byte read once)"
                                   : "minimal (1 byte per range or page)";
}

std::string deviceLimitLineNote(CacheMode cache) {
    return cache == CacheMode::Direct
               ? "the device limit, the faster of this file's large direct reads"
               : "the device limit, the fastest of this file's large sequential reads";
}

std::string tlbMachineWideNote() {
    return "machine-wide: every CPU and process while the rounds ran (/proc/interrupts), not "
           "these rounds' reads alone";
}

std::string tlbUncountedNote(const ResultDocument& doc) {
    return documentNote(doc).find("TLB") != std::string::npos
               ? "not counted in this run (its notes say why)"
               : "not counted in this run (the system it ran on keeps none)";
}

std::string faultsNotCountedNote() { return "the system reports none at all, as Wine does"; }

std::string syscallsCountedNote() {
    return "System calls: the strategy's own, counted by the engine (checked against strace "
           "on Linux); the memory allocator's (brk, mprotect, anonymous mmap: its heap growing "
           "and shrinking) are not counted";
}

} // namespace readscope
