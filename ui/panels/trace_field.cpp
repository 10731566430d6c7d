#include "trace_field.h"

#include "trace_shape.h"

#include "readscope/trace_formats.h"

#include <QFileInfo>
#include <QLabel>
#include <QVBoxLayout>

namespace readscope::ui {

namespace {
constexpr const char* kNoTrace =
    "No trace opened: File ▸ Open trace…, or drop a .trace file on the window. "
    "`readscope-cli record` makes one from a program's reads.";
}

TraceField::TraceField(QWidget* parent) : QWidget(parent), label_(new QLabel(kNoTrace, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    label_->setObjectName("traceSummary");
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(label_);
    shape_ = new TraceShape(this);
    shape_->setVisible(false);
    layout->addWidget(shape_);
}

void TraceField::setTrace(std::shared_ptr<const Trace> trace, const QString& path) {
    trace_ = std::move(trace);
    path_ = path;
    if (!trace_) {
        shape_->setTrace(nullptr, {});
        label_->setText(kNoTrace);
        label_->setToolTip({});
        return;
    }
    const auto summary = summarize(*trace_, trace_->fileBytes);
    shape_->setTrace(trace_, summary);
    label_->setText(QString("%1\n%2").arg(
        QFileInfo(path).fileName(),
        QString::fromStdString(traceSummaryText(*trace_, summary)).trimmed()));
    label_->setToolTip(QString("%1\n%2").arg(path, QString::fromStdString(trace_->source)));
}

QString TraceField::text() const { return label_->text(); }

} // namespace readscope::ui
