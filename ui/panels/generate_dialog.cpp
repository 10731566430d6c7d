#include "generate_dialog.h"

#include "file_dialogs.h"

#include "readscope/generator.h"
#include "readscope/units.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>
#include <stop_token>
#include <utility>

namespace readscope::ui {

void giveKeyboardBack(QWidget* window) {
    // Asking the window manager once is not enough. When it focuses the window again by
    // itself as the dialog unmaps (openbox does), Qt may be told before it has let the dialog
    // go, and keeps no active window: its shortcuts then reach nothing until a click. So for
    // up to 3 s, while Qt has no active window and this one is shown, it is made the active
    // one; a window of the app's own that became active meanwhile (a message box) keeps it.
    // The Run button takes the focus once, the first time the window is active again.
    auto* watch = new QTimer(window);
    auto tries = std::make_shared<int>(30);
    auto focused = std::make_shared<bool>(false);
    const auto tick = [window, watch, tries, focused] {
        QWidget* active = QApplication::activeWindow();
        if (active == nullptr && window->isVisible()) {
            window->activateWindow();
            QApplication::setActiveWindow(window);
            active = QApplication::activeWindow();
        }
        if (active == window && !std::exchange(*focused, true))
            if (auto* run = window->findChild<QWidget*>("runButton"))
                run->setFocus(Qt::OtherFocusReason);
        if (--*tries <= 0 || (active && active != window))
            watch->deleteLater();
    };
    QObject::connect(watch, &QTimer::timeout, window, tick);
    watch->start(100);
    QTimer::singleShot(0, window, tick);
}

bool generateWithProgress(QWidget* parent, const QString& path, quint64 size, QString* error) {
    QProgressDialog progress(QString("Writing %1…").arg(path), "Cancel", 0, 1000, parent);
    progress.setWindowTitle("Generating test file");
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(300);
    std::stop_source stop;
    std::atomic<quint64> written{0};
    QFutureWatcher<Status> watcher;
    QObject::connect(&progress, &QProgressDialog::canceled, &progress,
                     [&] { stop.request_stop(); });
    QTimer ticker;
    QObject::connect(&ticker, &QTimer::timeout, &progress, [&] {
        progress.setValue(int(written.load() * 1000 / std::max<quint64>(size, 1)));
    });
    ticker.start(50);
    QEventLoop loop;
    QObject::connect(&watcher, &QFutureWatcher<Status>::finished, &loop, &QEventLoop::quit);
    watcher.setFuture(QtConcurrent::run([&, token = stop.get_token()] {
        return generateFile(
            path.toStdString(), size, false,
            [&](std::uint64_t done, std::uint64_t) { written = done; }, token);
    }));
    loop.exec();
    ticker.stop();
    progress.reset();
    // The window the dialog sat on takes the keyboard back: Ctrl+R, F1 and Tab did nothing
    // after the first start's generation until a click.
    if (parent)
        giveKeyboardBack(parent->window());
    const Status st = watcher.result();
    if (!st && error)
        *error = QString::fromStdString(st.error().message);
    return st.ok();
}

QString generateTestFile(QWidget* parent, const QString& suggestedFolder, std::uint64_t bytes,
                         const QString& fileName) {
    QDialog dialog(parent);
    dialog.setWindowTitle("Generate test file");
    auto* form = new QFormLayout(&dialog);
    auto* size = new QLineEdit(QString::fromStdString(formatSizeShort(bytes)), &dialog);
    size->setToolTip("e.g. 64M, 256M, 1G (1K = 1024)");
    auto* folder = new QLineEdit(suggestedFolder, &dialog);
    auto* browse = new QPushButton("…", &dialog);
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(folder, 1);
    folderRow->addWidget(browse);
    auto* name = new QLineEdit(fileName, &dialog);
    form->addRow("Size", size);
    form->addRow("Folder", folderRow);
    form->addRow("File name", name);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    QObject::connect(browse, &QPushButton::clicked, &dialog, [&] {
        const QString dir = QFileDialog::getExistingDirectory(&dialog, "Folder", folder->text());
        if (!dir.isEmpty())
            folder->setText(dir);
    });
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, [&] {
        auto bytes = parseSize(size->text().toStdString());
        if (!bytes) {
            QMessageBox::warning(&dialog, "Size", QString::fromStdString(bytes.error().message));
            return;
        }
        if (!QDir(folder->text()).exists()) {
            QMessageBox::warning(&dialog, "Folder", missingFolderText(folder->text()));
            return;
        }
        dialog.accept();
    });
    if (dialog.exec() != QDialog::Accepted)
        return {};
    const QString path = QDir(folder->text()).filePath(name->text());
    QString error;
    if (!generateWithProgress(parent, path, *parseSize(size->text().toStdString()), &error)) {
        QMessageBox::warning(parent, "Generate test file", error);
        return {};
    }
    return path;
}

} // namespace readscope::ui
