#pragma once
// Checks about what an unprivileged user meets (a file it may not read) cannot fail for root,
// who reads every file. Run as root, such a check runs this same test program again as
// 'nobody' (setpriv, from util-linux), with only that check, and passes when it passed there.
#include <QString>

namespace readscope::testing {

struct NobodyRun {
    bool ran = false;    // setpriv started the check as 'nobody'
    bool passed = false; // ... and Qt Test reported it passed (not skipped, not failed)
    QString output;      // what it printed, or why it could not run
};

// This test program's `testFunction`, as 'nobody', with HOME and TMPDIR in a folder of its own.
NobodyRun rerunAsNobody(const char* testFunction);

} // namespace readscope::testing

// In a check that needs an unprivileged user: as root, the check's verdict is the one it
// reached as 'nobody' (a skip, saying why, where it could not be run that way).
#define READSCOPE_AS_NOBODY(testFunction)                                                          \
    do {                                                                                           \
        if (::geteuid() == 0) {                                                                    \
            const auto nobodyRun = readscope::testing::rerunAsNobody(testFunction);                \
            if (!nobodyRun.ran)                                                                    \
                QSKIP(qPrintable(nobodyRun.output));                                               \
            QVERIFY2(nobodyRun.passed, qPrintable(nobodyRun.output));                              \
            return;                                                                                \
        }                                                                                          \
    } while (false)
