#include "recovery_offer.h"

#include "main_window.h"
#include "recovery_file.h"
#include "run_status.h"

#include <QMessageBox>
#include <QPushButton>

namespace readscope::ui {

void offerRecovery(MainWindow& window) {
    const auto kept = readRecoveryFile();
    if (!kept) {
        QMessageBox::warning(&window, "readscope",
                             "A run did not finish, and what it kept cannot be read: " +
                                 QString::fromStdString(kept.error().message));
        removeRecoveryFile();
        return;
    }
    QMessageBox box(QMessageBox::Question, "readscope",
                    QString("A run did not finish: it was closed mid-run, or the app stopped "
                            "unexpectedly. It kept %1.")
                        .arg(keptCellsText(keptCells(*kept))),
                    QMessageBox::NoButton, &window);
    box.setInformativeText("Finish measures what it lacks, going on from the rounds it kept; "
                           "Show puts its cells on screen as they are.");
    QPushButton* finish = box.addButton("&Finish the run", QMessageBox::AcceptRole);
    finish->setObjectName("finishRecovered");
    QPushButton* show = box.addButton("&Show what it kept", QMessageBox::ActionRole);
    show->setObjectName("showRecovered");
    QPushButton* discard = box.addButton("&Discard", QMessageBox::DestructiveRole);
    discard->setObjectName("discardRecovered");
    box.setDefaultButton(finish);
    box.setEscapeButton(show); // Esc loses nothing
    box.exec();
    QString error;
    if (box.clickedButton() == finish)
        error = window.finishRecoveredRun();
    else if (box.clickedButton() == discard)
        removeRecoveryFile();
    else
        error = window.restoreRecovery();
    if (!error.isEmpty())
        QMessageBox::warning(&window, "readscope", error);
}

} // namespace readscope::ui
