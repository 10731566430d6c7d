#include "target_file.h"

#include "config_panel.h"
#include "file_inspector.h"

#include "readscope/probe.h"

namespace readscope::ui {

TargetFile::TargetFile(ConfigPanel* config, QObject* parent)
    : QObject(parent), config_(config), inspector_(new FileInspector(this)) {
    connect(inspector_, &FileInspector::inspected, this,
            [this](const QString& path, const FileStatus* status, const QString& error) {
                if (path != config_->filePath())
                    return; // the field names another file by now; its own look is on its way
                // The core's advice to generate a test file, made into where the app does it.
                problem_ = advisesGenerating(error.toStdString())
                               ? error + " with the Generate… button beside the file field."
                               : error;
                config_->showFileStatus(status, problem_);
                inspectedPath_ = path;
                emit inspected(status != nullptr, problem_);
            });
}

void TargetFile::open(const QString& path) {
    config_->setFilePath(path);
    config_->showInspecting();
    inspector_->inspect(path);
}

void TargetFile::refresh() {
    if (!config_->filePath().isEmpty())
        open(config_->filePath());
}

bool TargetFile::busy() const { return inspector_->busy(); }

QString TargetFile::readiness() {
    if (config_->filePath().isEmpty())
        return kNoFileChosen;
    // The status must be the look at the file the field names now: a path typed without
    // Return was never looked at, and its answer may have been dropped for an older name.
    if (inspectedPath_ != config_->filePath() && !busy())
        open(config_->filePath());
    if (busy())
        return "Still looking at the file; press Run again in a moment.";
    // The last look at the file decides here; the run probes it again before its first read,
    // so a file that changed since is caught there.
    if (config_->fileStatus())
        return {};
    return problem_.isEmpty() ? "The file could not be looked at; choose it again." : problem_;
}

} // namespace readscope::ui
