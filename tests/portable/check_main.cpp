#include "check.h"

#include <cstring>

namespace check {
std::vector<Case>& cases() {
    static std::vector<Case> all;
    return all;
}
int& failures() {
    static int n = 0;
    return n;
}
} // namespace check

// Runs every case, or those whose name contains argv[1]; exit status 1 when any failed.
int main(int argc, char** argv) {
    int run = 0, failedCases = 0;
    for (const auto& c : check::cases()) {
        if (argc > 1 && c.name.find(argv[1]) == std::string::npos)
            continue;
        const int before = check::failures();
        fmt::print("{}\n", c.name);
        c.body();
        ++run;
        if (check::failures() != before)
            ++failedCases;
    }
    fmt::print("{} cases, {} failed, {} checks failed\n", run, failedCases, check::failures());
    return run == 0 || failedCases ? 1 : 0;
}
