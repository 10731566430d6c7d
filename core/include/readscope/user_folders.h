#pragma once
// Where readscope keeps what is the user's but not a document: one place for both front ends.
// State (the recovery files of runs under way: the app's recovery-app.jsonl, each CLI run's
// recovery-PID.jsonl): $XDG_STATE_HOME/readscope, else ~/.local/state/readscope. Cache (the
// app's generated default test file): $XDG_CACHE_HOME/readscope, else ~/.cache/readscope.
// On Windows both are %LOCALAPPDATA%\readscope. Made when missing; the system's temporary
// folder when there is no home.
#include <string>

namespace readscope {

std::string stateFolder();
std::string cacheFolder();

} // namespace readscope
