#include "unit_costs.h"

// Windows keeps no per-thread page-fault count (and Wine none at all) to divide a touch's time
// by, and has no documented system call that does nothing: not measured there.
namespace readscope::platform {

bool nullSyscall() { return false; }
std::optional<double> anonymousFaultSeconds() { return std::nullopt; }
std::optional<double> fileFaultSeconds(int, std::uint64_t) { return std::nullopt; }
std::optional<double> unmapPageSeconds(int, std::uint64_t) { return std::nullopt; }
MappedFaults mappedFaultCosts(int, std::uint64_t, int, std::stop_token, std::optional<Rhythm>) {
    return {};
}
MappedRates mappedRates(int, std::uint64_t, std::uint64_t, int, std::stop_token,
                        std::optional<std::uint32_t>, MappedFolds, std::optional<Rhythm>) {
    return {};
}

} // namespace readscope::platform
