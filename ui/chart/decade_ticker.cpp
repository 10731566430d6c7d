#include "decade_ticker.h"

#include <cmath>
#include <string>

namespace readscope::ui {

namespace {
// The steps within each decade of [lower, upper], each a multiple of the decade's power of ten.
template <class Keep> QVector<double> stepsWithin(const QCPRange& range, Keep keep) {
    QVector<double> out;
    if (!(range.lower > 0) || !(range.upper > range.lower))
        return out;
    const int first = int(std::floor(std::log10(range.lower)));
    const int last = int(std::ceil(std::log10(range.upper)));
    for (int d = first; d <= last; ++d)
        for (int m = 1; m <= 9; ++m) {
            // From the decimal text, so 0.2 is the double nearest 0.2, not 2 * 0.1.
            const double v = std::stod(std::to_string(m) + "e" + std::to_string(d));
            if (v >= range.lower * (1 - 1e-9) && v <= range.upper * (1 + 1e-9) && keep(m))
                out << v;
        }
    return out;
}
} // namespace

QVector<double> DecadeTicker::ticksFor(const QCPRange& range) {
    const bool steps = range.lower > 0 && std::log10(range.upper / range.lower) <= kStepDecades;
    auto ticks =
        stepsWithin(range, [steps](int m) { return m == 1 || (steps && (m == 2 || m == 5)); });
    if (ticks.size() < 2) // inside one short stretch of a decade: every integer step
        ticks = stepsWithin(range, [](int) { return true; });
    return ticks;
}

QString DecadeTicker::label(double value) {
    const struct {
        double scale;
        const char* suffix;
    } units[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    for (const auto& u : units)
        if (value >= u.scale)
            return QString::number(value / u.scale, 'g', 3) + u.suffix;
    return QString::number(value, 'g', 3);
}

QVector<double> DecadeTicker::createTickVector(double, const QCPRange& range) {
    return ticksFor(range);
}

QVector<double> DecadeTicker::createSubTickVector(int, const QVector<double>& ticks) {
    if (ticks.isEmpty())
        return {};
    const QCPRange span(ticks.front() / 10, ticks.back() * 10);
    QVector<double> out;
    for (double v : stepsWithin(span, [](int) { return true; }))
        if (!ticks.contains(v))
            out << v;
    return out;
}

QString DecadeTicker::getTickLabel(double tick, const QLocale&, QChar, int) { return label(tick); }

} // namespace readscope::ui
