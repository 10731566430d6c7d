#pragma once
// What a cell's marks and a chart's lines mean, worded once: the status column, the Markdown's
// footnote marks, the chart's legend, tooltip and footnote, and the cell details all take the
// words from here, so no output can say them differently.
#include "readscope/result_document.h"

#include <string>

namespace readscope {

// "noisy: the median's interval reaches more than ±5% from it"
std::string noisyNote();
// Its short form, for a chart's legend: "noisy: interval past ±5% of the median".
std::string noisyLegendNote();
// "too few rounds to tell": a cell whose interval is too unsure to call it noisy or quiet.
std::string tooFewRoundsNote();
// "not cold: the file stayed in the page cache"
std::string notColdNote();
// "a strategy that copies cannot pass": what memcpy's speed is to a figure.
std::string copyCeilingNote();
// What consume minimal did to an in-place mapping: "consume minimal: in-place mappings touched
// 1 byte/page, the others had every byte in a buffer: not comparable"
std::string onePerPageNote();
// How the bytes were consumed: "all (every byte read once)" or "minimal (1 byte per range or
// page)".
std::string consumeNote(Consume consume);
// The device limit line: "the device limit, the fastest of this file's large sequential reads"
// (the faster of its large direct reads, with direct I/O).
std::string deviceLimitLineNote(CacheMode cache);
// What a TLB shootdown count covers: "machine-wide: every CPU and process while the rounds ran
// (/proc/interrupts), not these rounds' reads alone"
std::string tlbMachineWideNote();
// Why a run has no TLB shootdown count: "not counted in this run (its notes say why)" where they
// carry the reason (a kernel that flushes by hypercall), else "(the system it ran on keeps
// none)".
std::string tlbUncountedNote(const ResultDocument& doc);
// Why page faults may read as none: "the system reports none at all, as Wine does"
std::string faultsNotCountedNote();
// What a system-call count covers: the strategy's own calls, as strace sees them
// (tst_syscall_counts), not the memory allocator's growing and trimming its heap.
std::string syscallsCountedNote();

} // namespace readscope
