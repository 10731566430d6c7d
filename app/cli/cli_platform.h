#pragma once
// The few operating-system services the command-line front end needs, for POSIX and Windows.
#include "readscope/result.h"

#include <string>

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

} // namespace readscope::cli
