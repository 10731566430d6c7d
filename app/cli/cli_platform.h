#pragma once
// The few operating-system services the command-line front end needs, for POSIX and Windows.
#include "readscope/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace readscope::cli {

// A new, empty folder in the system's temporary location (TMPDIR, /tmp, or %TEMP%).
Result<std::string> makeTempDir(const std::string& prefix);
int processId();
// Why --drop-caches cannot be used here (empty when it can: root on Linux).
std::string dropCachesRefusal();
bool stderrIsTerminal();

// Ctrl-C (and SIGTERM, or the console's break events on Windows) set a flag instead of
// ending the process, while a guard lives.
void catchInterrupts();
void restoreInterrupts();
bool interrupted();
// Blocks until an interrupt arrives (true) or wakeInterruptWaiter() is called (false, unless an
// interrupt came too), without waking in between where the platform allows (a self-pipe on
// POSIX; Windows polls every 10 ms). One waiter at a time, between catch and restore.
bool waitForInterrupt();
void wakeInterruptWaiter();

// Where an output flag may write: a file in a folder that exists, never `target` (what is
// measured or traced; empty: none). The message names the flag, the path and, for target,
// what it is ("the file being measured").
Status checkOutputPath(const std::string& path, std::string_view flag, const std::string& target,
                       std::string_view targetIs);

// The full path of a program found on PATH; empty when it is not there.
std::string findProgram(const std::string& name);
// Runs argv[0] (found on PATH) with argv, waits for it and returns its exit status (128 + the
// signal that ended it). Refused where programs cannot be started this way (Windows).
Result<int> runProgram(const std::vector<std::string>& argv);

} // namespace readscope::cli
