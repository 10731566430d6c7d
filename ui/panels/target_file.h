#pragma once
// The file to measure, as the configuration panel names it: looked at off the GUI thread
// (FileInspector) whenever it is chosen, the panel showing what was found; and, before a run,
// whether the look answers for the file the field names now.
#include <QObject>
#include <QString>

namespace readscope::ui {

class ConfigPanel;
class FileInspector;

class TargetFile : public QObject {
    Q_OBJECT
public:
    TargetFile(ConfigPanel* config, QObject* parent = nullptr);

    void open(const QString& path); // names it in the panel and looks at it
    void refresh();                 // looks again at the file the panel names, if any
    bool busy() const;              // a look is under way
    // Empty when the file the panel names has been looked at and can be measured; otherwise
    // why a run cannot start now. A name typed without Return was never looked at: that
    // starts a look, and the answer is to press Run again in a moment.
    QString readiness();

signals:
    // The look at the file the panel names is done; problem says why it cannot be measured.
    void inspected(bool ok, const QString& problem);

private:
    ConfigPanel* config_;
    FileInspector* inspector_;
    QString problem_;       // why the last file looked at cannot be measured
    QString inspectedPath_; // the file the panel's status is about
};

} // namespace readscope::ui
