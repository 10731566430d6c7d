#pragma once
// The main window's menu bar and its shortcuts. Every action goes through the window's
// public interface, as a test or a person would; the actions that need results are enabled
// only while there are results and no run.
#include <QList>
#include <QObject>

class QAction;
class QMenu;

namespace readscope::ui {

class MainWindow;
class ResultExports;

class MainMenus : public QObject {
    Q_OBJECT
public:
    explicit MainMenus(MainWindow* window);
    void setResultsAvailable(bool available);
    // Run ▸ Finish the run: offered while a stopped or restored run is shown.
    void setFinishable(bool finishable);

private:
    void addFileMenu();
    void addEditMenu();
    void addViewMenu();
    void addRunMenu();
    void addLessonsAndHelp();
    void copyChart();
    void copyMarkdown();
    // An action in menu, with its shortcut (if any), calling slot.
    template <typename Slot>
    QAction* add(QMenu* menu, const QString& text, const QKeySequence& key, Slot slot);
    // What a File ▸ Export… item does: asks where, writes, says what happened.
    using Writer = QString (ResultExports::*)(const QString&) const;
    void exportWith(const QString& title, const QString& filter, const QString& suffix,
                    Writer write, const QString& part = {});

    MainWindow* window_;
    QAction* exportPng_ = nullptr;
    QList<QAction*> resultActions_;
    QAction* finish_ = nullptr;
};

} // namespace readscope::ui
