#include "as_nobody.h"

#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace readscope::testing {

NobodyRun rerunAsNobody(const char* testFunction) {
    NobodyRun r;
    const QString setpriv = QStandardPaths::findExecutable("setpriv");
    if (setpriv.isEmpty()) {
        r.output = "needs setpriv(1) (Debian: util-linux) to run this check as 'nobody'";
        return r;
    }
    QTemporaryDir home("/tmp/readscope-nobody-XXXXXX");
    QFile::setPermissions(home.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                           QFileDevice::ExeOwner | QFileDevice::ReadOther |
                                           QFileDevice::WriteOther | QFileDevice::ExeOther);
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(setpriv,
            {"--reuid=65534", "--regid=65534", "--clear-groups", "env", "HOME=" + home.path(),
             "TMPDIR=" + home.path(), "XDG_RUNTIME_DIR=" + home.path(), "QT_QPA_PLATFORM=offscreen",
             QCoreApplication::applicationFilePath(), testFunction});
    if (!p.waitForStarted() || !p.waitForFinished(120000)) {
        r.output = "could not run this check as 'nobody': " + p.errorString();
        return r;
    }
    r.output = QString::fromUtf8(p.readAll());
    r.ran = true;
    // Its own line, "PASS   : TestX::testFunction()": a skip or a failure is not a pass.
    const QString pass = QString("::%1()").arg(testFunction);
    bool listedAsPassed = false;
    for (const QString& line : r.output.split('\n'))
        listedAsPassed |= line.startsWith("PASS   : ") && line.contains(pass);
    r.passed = p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 && listedAsPassed;
    return r;
}

} // namespace readscope::testing
