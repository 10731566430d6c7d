#include "readscope/user_folders.h"

#include <cstdlib>
#include <filesystem>

namespace readscope {

namespace fs = std::filesystem;

namespace {

// $xdg/readscope, or ~/<fallback>/readscope (Windows: %LOCALAPPDATA%\readscope), made.
std::string userFolder(const char* xdg, const char* fallback) {
    fs::path dir;
#ifdef _WIN32
    (void)xdg;
    (void)fallback;
    const char* local = std::getenv("LOCALAPPDATA");
    dir = local && *local ? fs::path(local) : fs::temp_directory_path();
#else
    const char* own = std::getenv(xdg);
    const char* home = std::getenv("HOME");
    if (own && *own)
        dir = own;
    else if (home && *home)
        dir = fs::path(home) / fallback;
    else
        dir = fs::temp_directory_path();
#endif
    dir /= "readscope";
    std::error_code ec;
    fs::create_directories(dir, ec);
    return dir.string();
}

} // namespace

std::string stateFolder() { return userFolder("XDG_STATE_HOME", ".local/state"); }
std::string cacheFolder() { return userFolder("XDG_CACHE_HOME", ".cache"); }

} // namespace readscope
