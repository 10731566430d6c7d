#pragma once
// Runs a helper program (systemd-run, for a memory limit's scope) and waits for it. POSIX only;
// private to the core.
#include <string>
#include <utility>
#include <vector>

namespace readscope::platform {

// Runs `args` (the first found on PATH; stdin /dev/null) with its output and errors gathered,
// trailing blanks cut; killed after `seconds`. The exit status, or -1 when it did not start
// or finish (the output then says why).
std::pair<int, std::string> runHelper(const std::vector<std::string>& args, int seconds);

} // namespace readscope::platform
