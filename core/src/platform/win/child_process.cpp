// Windows: the measurement runs in the app's own process; no worker is started.
#include "child_process.h"

namespace readscope::platform {

Result<std::unique_ptr<ChildProcess>> ChildProcess::start(const std::vector<std::string>&) {
    return Error{"a measurement in its own process is not built for Windows"};
}
std::optional<std::string> LineReader::next() { return std::nullopt; }
ChildProcess::~ChildProcess() = default;
bool ChildProcess::writeLine(std::string_view) { return false; }
void ChildProcess::closeInput() {}
std::optional<std::string> ChildProcess::readLine() { return std::nullopt; }
std::string ChildProcess::wait() { return {}; }
void ChildProcess::kill() {}

} // namespace readscope::platform
