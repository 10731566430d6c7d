#pragma once
// The red line above the results: why a run cannot start or a file cannot be measured. One
// said about the panel's input is marked so, for the window to take it away once the input is
// right again.
#include <QLabel>

namespace readscope::ui {

class Banner : public QLabel {
    Q_OBJECT
public:
    explicit Banner(QWidget* parent = nullptr);
    void say(const QString& message, bool aboutInput = false); // an empty message hides it
    bool isAboutInput() const { return aboutInput_; }
    QString shown() const { return isHidden() ? QString() : text(); } // empty when hidden

private:
    bool aboutInput_ = false;
};

} // namespace readscope::ui
