#include "help_pages.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QScreen>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>

namespace readscope::ui {

namespace {

QDialog* page(QWidget* parent, const QString& title, const QString& name, QWidget* content,
              QSize wanted) {
    auto* dialog = new QDialog(parent);
    dialog->setObjectName(name);
    dialog->setWindowTitle(title);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(content, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    layout->addWidget(buttons);
    const QSize avail = dialog->screen()->availableGeometry().size();
    dialog->resize(std::min(wanted.width(), avail.width() - 40),
                   std::min(wanted.height(), avail.height() - 40));
    dialog->show();
    return dialog;
}

} // namespace

QDialog* showMeasuringHelp(QWidget* parent) {
    auto* text = new QTextBrowser;
    text->setObjectName("measuringText");
    text->setOpenExternalLinks(true);
    QFile file(":/docs/how-readscope-measures.md");
    if (file.open(QIODevice::ReadOnly))
        text->setMarkdown(QString::fromUtf8(file.readAll()));
    else
        text->setPlainText("docs/how-readscope-measures.md is missing from this build.");
    return page(parent, "How readscope measures", "measuringHelp", text, {860, 720});
}

QDialog* showShortcuts(QWidget* parent, const QList<QAction*>& actions) {
    auto* table = new QTableWidget(0, 2);
    table->setObjectName("shortcutsTable");
    table->setHorizontalHeaderLabels({"Action", "Keys"});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setStretchLastSection(true);
    for (const QAction* a : actions) {
        if (a->shortcut().isEmpty())
            continue;
        const int row = table->rowCount();
        table->insertRow(row);
        table->setItem(row, 0, new QTableWidgetItem(QString(a->text()).remove('&')));
        table->setItem(row, 1,
                       new QTableWidgetItem(a->shortcut().toString(QKeySequence::NativeText)));
    }
    table->resizeColumnToContents(0);
    return page(parent, "Keyboard shortcuts", "shortcutsHelp", table, {480, 560});
}

} // namespace readscope::ui
