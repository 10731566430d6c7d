#include "banner.h"

namespace readscope::ui {

Banner::Banner(QWidget* parent) : QLabel(parent) {
    setObjectName("banner");
    setWordWrap(true);
    setStyleSheet("background: #fdecea; color: #611a15; padding: 6px; border-radius: 3px");
    hide();
}

void Banner::say(const QString& message, bool aboutInput) {
    aboutInput_ = aboutInput && !message.isEmpty();
    setText(message);
    setVisible(!message.isEmpty());
}

} // namespace readscope::ui
