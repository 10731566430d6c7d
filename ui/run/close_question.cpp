#include "close_question.h"

#include "run_controller.h"

#include <QMessageBox>
#include <QPushButton>

namespace readscope::ui {

bool stopRunToClose(QWidget* parent, RunController& controller, bool refining) {
    QMessageBox ask(QMessageBox::Question, "Close readscope",
                    refining ? "Rounds are being added to the noisy cells. Stop and close the "
                               "window?\n\nThe results shown are not kept: save them first "
                               "(File ▸ Save results) to keep them."
                             : "A run is in progress. Stop it and close the window?\n\nThe "
                               "cells that finished are kept in the recovery file until the "
                               "next start.",
                    QMessageBox::NoButton, parent);
    ask.setObjectName("confirmClose");
    QPushButton* stop = ask.addButton("Stop and close", QMessageBox::AcceptRole);
    stop->setObjectName("stopAndClose");
    ask.addButton("Keep running", QMessageBox::RejectRole)->setObjectName("keepRunning");
    // A run that ends on its own while the question is up answers it: there is nothing left
    // to stop, and the window closes as asked.
    QObject::connect(&controller, &RunController::runningChanged, &ask, [&ask](bool running) {
        if (!running)
            ask.done(QMessageBox::Cancel);
    });
    ask.exec();
    if (!controller.isRunning())
        return true;
    if (ask.clickedButton() != stop)
        return false;
    controller.stopKeepingRecovery(5000); // as the question promised
    return true;
}

} // namespace readscope::ui
