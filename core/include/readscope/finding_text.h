#pragma once
// The words for run_findings.h's values: one sentence or two per finding, no final full stop,
// the same in the CLI, the Markdown documents and the app's log. Nothing below the documents
// folder writes these sentences.
#include "readscope/run_findings.h"

#include <string>
#include <string_view>

namespace readscope {

// roundsOption names how the reader raises the rounds ("--rounds", "the Rounds field").
std::string findingText(const RunFinding& finding, const ResultDocument& doc,
                        std::string_view roundsOption);

// "9 of 65 cells noisy: their median is uncertain by more than ±5% (...); close other
// programs or raise <roundsOption>".
std::string noiseText(const NoiseFinding& f, const ResultDocument& doc,
                      std::string_view roundsOption);
// "2 copying cells ran faster than memcpy copies here: a at 8 KiB (120%), ...".
std::string aboveCopyLimitText(const AboveCopyLimitFinding& f, const ResultDocument& doc);
// "2 cells read faster than the device limit (2.00 GB/s: ...): ... They may have been ...".
std::string aboveDeviceLimitText(const AboveDeviceLimitFinding& f, const ResultDocument& doc);
// "2 cells were found in the page cache ... (status not-cold), so their figures are warm ones".
std::string notColdText(const NotColdFinding& f);
// "mmap-copy-kept at 1 MiB ran at two speeds, 7 rounds at about 17.1 GB/s and 5 at about
// 1.02: ... the slow rounds differ in system time (ms per GB) ..." (or that no counter does).
std::string twoSpeedsFindingText(const TwoSpeedsFinding& f, const ResultDocument& doc);
// "For this trace, pread-uninit has the highest median: 8.66 GB/s, 0.92 ms a replay of its
// 7.6 MiB; mmap-copy 6.64 GB/s, -23% (slower); pread-coalesce ... (cannot tell: ...)".
std::string traceRankingText(const TraceRankingFinding& f, const ResultDocument& doc);
// The verdict of a buffer-offset sweep in a sentence or two, ending with a full stop: "Cliff
// seen (256 KiB ranges on <CPU>): ...", "No cliff on this machine (...)", "Cannot tell (...)".
std::string offsetVerdictText(const OffsetSweepVerdict& v);
// "at 1 MiB its buffers started at page offset 16, inside the slow band (offsets 8, 16) that
// 'The 16-byte trap' measured on this machine ...": offsetsInBand() said; empty when none.
std::string offsetTrapNote(const Cell& cell, const SlowBand& band, std::uint32_t pageSize);

// The largest cause in words: "the hypervisor took 9% of the CPUs' time (steal in 7 of 12
// rounds)", "other processes and the kernel's threads kept 23% of the CPUs busy", "the workers
// were preempted in 40 of 120 rounds"; empty when nothing stood out (mainCause()).
std::string disturbanceText(const Disturbance& d);

} // namespace readscope
