#pragma once
// A cached file of 1 MiB and the run's unit costs over it: what the copy-price suites
// (tst_machine_limits, tst_destination_prices) measure over. Includes the engine's private
// machine_limits.h: only for suites that add core/src/engine to their include path.
#include "machine_limits.h"

#include "readscope/result_document.h"

#include <QByteArray>
#include <QTemporaryFile>

namespace readscope::testing {

// A temporary file of 1 MiB, written and flushed.
inline bool fillMiB(QTemporaryFile& file) {
    return file.open() && file.write(QByteArray(1 << 20, 'x')) == qint64(1 << 20) && file.flush();
}

// The run's unit costs over a filled file: false where the kernel's copy cannot be priced (no
// cached-page cost measured).
inline bool pricedMiB(QTemporaryFile& file, ResultDocument& doc) {
    measureUnitCosts(doc, file.handle(), 1 << 20);
    return doc.unitCosts.cachedPage.has_value();
}

} // namespace readscope::testing
