#include "exporter.h"
#include "qt_text.h"

#include "chart_file.h"
#include "chart_view.h"
#include "file_dialogs.h"

#include "readscope/documents.h"
#include "readscope/report.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QMimeData>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrl>

namespace readscope::ui {

QString saveTextAtomically(const QString& path, const QByteArray& content) {
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QString("Cannot write %1: %2").arg(path, file.errorString());
    auto failed = [&path](const QString& why) {
        return QString("Writing %1 failed: %2. Any previous file is unchanged.").arg(path, why);
    };
    if (file.write(content) != content.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return failed(why);
    }
    if (!file.commit())
        return failed(file.errorString());
    return {};
}

namespace {} // namespace

QString suggestedFileName(const ResultDocument& doc, const QString& suffix, const QString& part) {
    QString date = QString::fromStdString(doc.system.date.substr(0, 10));
    if (date.isEmpty())
        date = QDate::currentDate().toString("yyyy-MM-dd");
    return QString("readscope-%1-%2-%3%4.%5")
        .arg(date, qs(toString(doc.plan.pattern)), qs(toString(doc.plan.cache)),
             part.isEmpty() ? QString() : "-" + part, suffix);
}

QString saveDocument(const ResultDocument& doc, DocumentFormat format, const QString& path) {
    std::string text;
    switch (format) {
    case DocumentFormat::Json: text = toJson(doc); break;
    case DocumentFormat::SummaryCsv: text = toSummaryCsv(doc); break;
    case DocumentFormat::SamplesCsv: text = toSamplesCsv(doc); break;
    }
    return saveTextAtomically(path, QByteArray::fromStdString(text));
}

QString saveChart(ChartView& chart, const QString& path) {
    QString error;
    return chart.exportTo(path, &error) ? QString() : error;
}

QString saveReport(const ResultDocument& doc, ChartView& chart, const Comparison* comparison,
                   const QString& dir) {
    if (!QDir(dir).exists())
        return missingFolderText(dir);
    QString error = saveChart(chart, QDir(dir).filePath(ReportFiles::chart));
    const auto extras = reportExtraCharts(doc);
    for (const auto& extra : extras)
        if (error.isEmpty())
            error = saveDocumentChart(doc, QDir(dir).filePath(extra.file), extra.chart);
    if (error.isEmpty())
        error = saveDocument(doc, DocumentFormat::Json, QDir(dir).filePath(ReportFiles::results));
    if (!error.isEmpty())
        return error;
    return saveTextAtomically(
        QDir(dir).filePath(ReportFiles::markdown),
        QByteArray::fromStdString(reportMarkdown(doc, comparison, ReportFiles::chart, extras)));
}

namespace {
// The PNG a copied chart offers as a file (for pasting into a file manager or a web page's
// upload): it lives while the clipboard holds that copy, and goes when something else is
// copied or the application quits.
class ClipboardFile : public QObject {
public:
    ClipboardFile(QString path, const QMimeData* mime)
        : QObject(QCoreApplication::instance()), path_(std::move(path)), mime_(mime) {
        connect(QApplication::clipboard(), &QClipboard::dataChanged, this, [this] {
            if (QApplication::clipboard()->mimeData() != mime_)
                deleteLater();
        });
    }
    ~ClipboardFile() override { QFile::remove(path_); }

private:
    QString path_;
    const QMimeData* mime_;
};
} // namespace

void copyChartToClipboard(ChartView& chart) {
    static int copies = 0;
    const QImage image = chart.imageForSharing();
    auto* mime = new QMimeData;
    mime->setImageData(image);
    const QString path =
        QDir(QStandardPaths::writableLocation(QStandardPaths::TempLocation))
            .filePath(QString("readscope-chart-%1-%2-%3.png")
                          .arg(QDateTime::currentDateTime().toString("yyyyMMdd-HHmmss"))
                          .arg(QCoreApplication::applicationPid())
                          .arg(++copies)); // two copies in one second are two files
    const bool saved = image.save(path, "PNG");
    if (saved)
        mime->setUrls({QUrl::fromLocalFile(path)});
    QApplication::clipboard()->setMimeData(mime);
    if (saved)
        new ClipboardFile(path, mime); // after the copy: the change it makes is its own
}

} // namespace readscope::ui
