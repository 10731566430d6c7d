#pragma once
// The teaching panel on the window's right: what the strategy last chosen (in the panel's
// list or the table) costs and why, with the shown results' cells of it, or this machine's
// verdict after an offset sweep.
#include "readscope/result_document.h"

#include <QTextBrowser>

namespace readscope::ui {

class TeachingPanel : public QTextBrowser {
    Q_OBJECT
public:
    explicit TeachingPanel(QWidget* parent = nullptr);
    // Explains strategy id with doc's cells of it (and whether they sit in the slow band this
    // machine's last offset sweep found); an unknown id leaves the page as it is.
    void explain(const QString& id, const ResultDocument& doc);
    // The same strategy again, about doc (new results, or none).
    void explainAgain(const ResultDocument& doc) { explain(explained_, doc); }
    // An offset sweep's verdict in place of the explanation, its slow band kept for later
    // runs on this machine when remember (opened results may be another machine's); none when
    // doc is no offset sweep.
    void showOffsetVerdict(const ResultDocument& doc, bool remember);

private:
    QString explained_;
};

} // namespace readscope::ui
