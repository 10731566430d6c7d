#pragma once
// The app's recovery file: the run worker appends each finished cell to it as the run goes,
// so that a crash or a kill loses nothing; the next start offers to show what it holds, and it
// is removed once shown or declined. (The CLI keeps its own in the same folder, one per
// process.)
#include "readscope/result.h"
#include "readscope/result_document.h"

#include <QString>

namespace readscope::ui {

// recovery-app.jsonl in readscope's state folder (user_folders.h), beside the CLI's own.
QString recoveryFilePath();
bool recoveryFileExists();
Result<ResultDocument> readRecoveryFile();
void removeRecoveryFile(); // and the copies a crashed whole-file sweep left

} // namespace readscope::ui
