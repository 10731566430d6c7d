#pragma once
// A process's memory cgroup, as /proc/PID/cgroup says it: the v1 memory controller's line, or
// the unified one (v2). Empty when the file cannot be read.
#include <QFile>
#include <QString>
#include <QStringList>

namespace readscope::testing {

inline QString memoryCgroupOf(const QString& pid) {
    QFile f("/proc/" + pid + "/cgroup");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QString unified;
    for (const QString& line : QString(f.readAll()).split('\n')) {
        if (line.section(':', 1, 1).split(',').contains("memory"))
            return line;
        if (line.startsWith("0::"))
            unified = line;
    }
    return unified;
}

} // namespace readscope::testing
