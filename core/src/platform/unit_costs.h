#pragma once
// What single operations cost on this machine, measured untimed at a run's start for the
// cost model: a system call that does nothing, a page fault on a fresh anonymous page (a new
// buffer's first touch), and a page fault on a mapped page of a cached file (a mapping's
// first touch). Each is the median over a few hundred; measured on Linux only, none
// elsewhere (Windows and macOS keep no per-thread fault count to divide by). Private to the
// core.
#include <cstdint>
#include <optional>

namespace readscope::platform {

// One system call that does nothing (getppid); false, without a call, where not measured.
bool nullSyscall();
std::optional<double> anonymousFaultSeconds();
// Over the first pages of the file open at fd (read first, so that they are cached).
std::optional<double> fileFaultSeconds(int fd, std::uint64_t fileSize);

} // namespace readscope::platform
