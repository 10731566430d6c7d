#include "results_model.h"
#include "qt_text.h"

#include <QLocale>

#include <algorithm>

#include "readscope/buffer_offsets.h"
#include "readscope/column_notes.h"
#include "readscope/condition_words.h"
#include "readscope/document_words.h"
#include "readscope/units.h"

#include <QBrush>
#include <QColor>

namespace readscope::ui {

namespace {
QString offsetText(const Cell& c) {
    return c.bufferOffset ? QString::fromStdString(formatBufferOffset(*c.bufferOffset)) : "auto";
}
// A note worded for a footnote, as a tooltip's sentence: capitalized, with its full stop.
QString sentence(const std::string& note) {
    QString s = QString::fromStdString(note);
    if (!s.isEmpty())
        s[0] = s[0].toUpper();
    return s + ".";
}
QString placedText(const Cell& c) {
    if (c.bufferPageOffsets.empty())
        return c.measured() ? "in place" : "–";
    return QString::fromStdString(formatOffsetCounts(c.bufferPageOffsets));
}
} // namespace

int ResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(doc_.cells.size());
}

bool ResultsModel::columnSaysNothing(int column) const {
    const auto none = [&](auto says) {
        return std::none_of(doc_.cells.begin(), doc_.cells.end(), says);
    };
    switch (column) {
    case Offset: return none([](const Cell& c) { return c.bufferOffset.has_value(); });
    case Threads: return none([&](const Cell& c) { return threadsAt(doc_.plan, c.point()) != 1; });
    case InFlight: return none([](const Cell& c) { return c.queueDepth.has_value(); });
    case Fetched: return !readsStorage(doc_);
    default: return false;
    }
}

int ResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

const Cell* ResultsModel::cellAt(int row) const {
    return row >= 0 && row < int(doc_.cells.size()) ? &doc_.cells[std::size_t(row)] : nullptr;
}

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
    const Cell* c = index.isValid() ? cellAt(index.row()) : nullptr;
    if (!c)
        return {};
    const auto& s = c->summary;
    const bool hasFigures = c->measured();
    if (role == SortRole) {
        switch (index.column()) {
        case Strategy: return qs(c->strategy);
        case Range: return quint64(c->rangeBytes);
        case Offset: return c->bufferOffset ? qint64(*c->bufferOffset) : qint64(-1);
        case Threads: return threadsAt(doc_.plan, c->point());
        case InFlight: return c->queueDepth ? qint64(*c->queueDepth) : qint64(-1);
        case Buffers: return placedText(*c);
        case Median: return s.median;
        case Min: return s.min;
        case Max: return s.max;
        case P25: return s.p25;
        case P75: return s.p75;
        case Cv: return s.cv;
        case Iops: return medianIops(*c).value_or(-1);
        case OfLimit: return pctOfRunLimit(doc_, *c).value_or(-1);
        case Resident: return c->residentBefore ? *c->residentBefore : -1.0;
        case Fetched: return c->fetchedPerWanted.value_or(-1);
        case Status: return QString::fromStdString(statusText(*c));
        case Message: return QString::fromStdString(cellNotes(*c));
        }
        return {};
    }
    if (role == Qt::DisplayRole) {
        auto rate = [&](double v) { return hasFigures ? rateText(v) : QString("–"); };
        switch (index.column()) {
        case Strategy: return qs(c->strategy);
        case Range: // a trace's reads are of many sizes: its row is the trace
            return QString::fromStdString(rowLabel(doc_, formatSize(c->rangeBytes)));
        case Offset: return offsetText(*c);
        case Threads: return threadsAt(doc_.plan, c->point());
        case InFlight: return c->queueDepth ? QString::number(*c->queueDepth) : QString("–");
        case Buffers: return placedText(*c);
        case Median: return rate(s.median);
        case Min: return rate(s.min);
        case Max: return rate(s.max);
        case P25: return rate(s.p25);
        case P75: return rate(s.p75);
        case Cv: return hasFigures ? QString::number(s.cv * 100, 'f', 1) + " %" : QString("–");
        case Iops: {
            const auto v = medianIops(*c);
            if (!v)
                return QString("–");
            return *v >= 100 ? QLocale().toString(*v, 'f', 0) : QLocale().toString(*v, 'g', 3);
        }
        case OfLimit: {
            const auto v = pctOfRunLimit(doc_, *c);
            return v ? QString::number(*v, 'f', 0) + " %" : QString("–");
        }
        case Resident:
            return c->residentBefore ? QString::number(*c->residentBefore * 100, 'f', 1) + " %"
                                     : QString(hasFigures ? "unverified" : "–");
        case Fetched:
            if (!readsStorage(doc_) || !hasFigures)
                return QString("–");
            return c->fetchedPerWanted ? QString::number(*c->fetchedPerWanted, 'f', 2) + "x"
                                       : QString("not measured");
        case Status: return QString::fromStdString(statusText(*c));
        case Message: return QString::fromStdString(cellNotes(*c));
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= Range && index.column() <= Buffers)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && index.column() == Status) {
        if (c->status == CellStatus::Failed)
            return QBrush(QColor(0xd6, 0x27, 0x28));
        if (c->status == CellStatus::Noisy || c->status == CellStatus::NotCold ||
            c->status == CellStatus::TooFewRounds || c->status == CellStatus::Unverified)
            return QBrush(QColor(0xe0, 0x8a, 0x00));
    }
    if (role == Qt::ToolTipRole && index.column() == InFlight)
        return sentence(inFlightColumnNote());
    if (role == Qt::ToolTipRole && index.column() == Iops)
        return sentence(iopsColumnNote(doc_.plan));
    if (role == Qt::ToolTipRole && index.column() == OfLimit)
        return sentence(limitColumnNote(doc_));
    if (role == Qt::ToolTipRole && index.column() == Fetched)
        return sentence(fetchedColumnNote());
    if (role == Qt::ToolTipRole && index.column() == Buffers)
        return sentence(buffersColumnNote()) +
               " A copy into a buffer a few bytes past a page boundary can be several times "
               "slower.";
    if (role == Qt::ToolTipRole && !cellNotes(*c).empty())
        return QString::fromStdString(cellNotes(*c));
    return {};
}

QVariant ResultsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    static const char* names[] = {"Strategy",    "Range",  "Offset",  "Threads",  "In flight",
                                  "Median GB/s", "Min",    "Max",     "P25",      "P75",
                                  "CV",          "IOPS",   "% limit", "Resident", "Fetched",
                                  "Buffers at",  "Status", "Message"};
    if (section == OfLimit) // the run's own ceiling: memcpy's warm, the device's cold
        return QString("% %1").arg(QString::fromUtf8(runLimitName(doc_).data()));
    return section >= 0 && section < ColumnCount ? QString(names[section]) : QVariant();
}

void ResultsModel::setDocument(const ResultDocument& doc) {
    beginResetModel();
    doc_ = doc;
    live_ = false;
    endResetModel();
}

void ResultsModel::beginRun(const ResultDocument& header) {
    ResultDocument fresh = header;
    fresh.cells.clear();
    beginResetModel();
    doc_ = fresh;
    live_ = true;
    endResetModel();
}

void ResultsModel::addCell(const Cell& cell) {
    const auto same = std::find_if(doc_.cells.begin(), doc_.cells.end(), [&](const Cell& c) {
        return c.strategy == cell.strategy && c.point() == cell.point();
    });
    if (same != doc_.cells.end()) {
        *same = cell;
        const int at = int(same - doc_.cells.begin());
        emit dataChanged(index(at, 0), index(at, ColumnCount - 1));
        return;
    }
    const int row = int(doc_.cells.size());
    beginInsertRows({}, row, row);
    doc_.cells.push_back(cell);
    endInsertRows();
}

void ResultsModel::finishRun(const ResultDocument& doc) {
    // The final document holds the cells that arrived round by round, plus completeness and
    // notes: its cells take their rows' places (rows keep the order they arrived in, which the
    // table's sorting maps), and a cell the run did not keep (a stop between rounds) goes.
    const bool sameCells = doc.cells.size() == doc_.cells.size() &&
                           std::all_of(doc.cells.begin(), doc.cells.end(), [this](const Cell& c) {
                               return doc_.find(c.strategy, c.point()) != nullptr;
                           });
    if (!sameCells) {
        setDocument(doc);
        return;
    }
    std::vector<Cell> rows = std::move(doc_.cells);
    doc_ = doc;
    live_ = false;
    for (auto& row : rows)
        row = *doc.find(row.strategy, row.point());
    doc_.cells = std::move(rows);
    if (!doc_.cells.empty())
        emit dataChanged(index(0, 0), index(int(doc_.cells.size()) - 1, ColumnCount - 1));
}

void ResultsModel::clear() { setDocument(ResultDocument{}); }

} // namespace readscope::ui
