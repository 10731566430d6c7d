#pragma once
// The results of one run (or one opened file) as a table: one row per cell. The chart, the
// table, the details view and the exports all read this model's document.
#include "readscope/result_document.h"

#include <QAbstractTableModel>

namespace readscope::ui {

class ResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // Offset: the page offset the run pinned buffers at ("auto": the allocator's choice);
    // Threads: the workers that read the cell together; InFlight: io_uring's queue depth;
    // Fetched: bytes fetched from storage per byte wanted (cold and direct runs);
    // Buffers: the page offsets the strategy's buffers were seen at.
    enum Column {
        Strategy,
        Range,
        Offset,
        Threads,
        InFlight,
        Median,
        Min,
        Max,
        P25,
        P75,
        Cv,
        Iops,
        OfLimit,
        Resident,
        Fetched,
        Buffers,
        Status,
        Message,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1; // raw numbers for sorting

    using QAbstractTableModel::QAbstractTableModel;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    // A column whose every row would say the same thing nobody asked about (Offset all auto,
    // Threads all 1, In flight with no io_uring cell, Fetched on a warm run): the table hides
    // it, so the median is in view beside the range.
    bool columnSaysNothing(int column) const;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    void setDocument(const ResultDocument& doc); // header and cells, as opened or just run
    void beginRun(const ResultDocument& header); // header only, cells follow
    // A new row, or the row of the same strategy and point brought up to date (a cell's
    // rounds arrive one at a time).
    void addCell(const Cell& cell);
    void finishRun(const ResultDocument& doc); // the runner's final document
    void clear();

    const ResultDocument& document() const { return doc_; }
    const Cell* cellAt(int row) const;
    bool isEmpty() const { return doc_.cells.empty(); }
    // Between beginRun and the run's end (finishRun, or any setDocument): its cells so far.
    bool isLive() const { return live_; }

private:
    ResultDocument doc_;
    bool live_ = false;
};

} // namespace readscope::ui
