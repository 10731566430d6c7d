// Memory limits through cgroups (Linux): the process's own memory cgroup, found from
// /proc/self/cgroup and /proc/self/mountinfo; a child of it made, limited and entered through
// the cgroup files, or (cgroup v2) a limited scope the systemd user manager makes; left (and
// the child removed) when the scope ends.
#include "memory_limit.h"
#include "helper_process.h"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace readscope::platform {

#ifdef __linux__
namespace {

struct Cgroup {
    int version = 0;       // 1: the v1 memory controller's hierarchy; 2: the unified one
    std::string dir;       // the process's cgroup, as a folder
    std::string limitFile; // memory.limit_in_bytes or memory.max
    std::string path;      // the cgroup's path in its hierarchy, as /proc/self/cgroup says
};

std::vector<std::string> split(const std::string& s, char by) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string part; std::getline(in, part, by);)
        out.push_back(part);
    return out;
}

// Where a hierarchy's cgroup path is in the file system: its mount (fstype cgroup with the
// memory option for v1, cgroup2 for v2), the mount's root taken off the path.
std::optional<std::string> mountedAt(int version, const std::string& path) {
    std::ifstream in("/proc/self/mountinfo");
    for (std::string line; std::getline(in, line);) {
        const auto dash = line.find(" - ");
        if (dash == std::string::npos)
            continue;
        const auto before = split(line.substr(0, dash), ' ');
        const auto after = split(line.substr(dash + 3), ' ');
        if (before.size() < 5 || after.size() < 3)
            continue;
        const std::string& root = before[3];
        const std::string& mountPoint = before[4];
        const bool match = version == 2
                               ? after[0] == "cgroup2"
                               : after[0] == "cgroup" &&
                                     ("," + after[2] + ",").find(",memory,") != std::string::npos;
        if (!match || path.compare(0, root.size(), root) != 0)
            continue;
        const std::string rest = root == "/" ? path : path.substr(root.size());
        return mountPoint + (rest == "/" ? "" : rest);
    }
    return std::nullopt;
}

Result<Cgroup> ownCgroup() {
    std::ifstream in("/proc/self/cgroup");
    std::optional<std::string> v1, v2;
    for (std::string line; std::getline(in, line);) {
        const auto a = line.find(':'), b = line.find(':', a + 1);
        if (a == std::string::npos || b == std::string::npos)
            continue;
        const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
        if (line.compare(0, a, "0") == 0 && controllers.empty())
            v2 = path;
        else if (("," + controllers + ",").find(",memory,") != std::string::npos)
            v1 = path;
    }
    if (v1) { // the memory controller is on a v1 hierarchy: v2 has none to offer
        if (auto dir = mountedAt(1, *v1))
            return Cgroup{1, *dir, "memory.limit_in_bytes", *v1};
        return Error{"the cgroup v1 memory controller is not mounted where this process sees it"};
    }
    if (v2)
        if (auto dir = mountedAt(2, *v2))
            return Cgroup{2, *dir, "memory.max", *v2};
    return Error{"this system has no memory cgroup controller"};
}

std::optional<std::string> readFirstLine(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line))
        return std::nullopt;
    return line;
}

bool writeText(const std::string& path, const std::string& text, std::string& why) {
    std::ofstream out(path);
    out << text;
    out.flush();
    if (out)
        return true;
    why = fmt::format("writing '{}' to {} failed: {}", text, path, std::strerror(errno));
    return false;
}

// This process moved into the cgroup `dir` (its cgroup.procs written).
bool moveInto(const std::string& dir, std::string& why) {
    return writeText(dir + "/cgroup.procs", std::to_string(::getpid()), why);
}

// A v2 cgroup's limit taken away (memory.max "max"): for a process that cannot leave it.
bool liftLimit(const std::string& dir, std::string& why) {
    return writeText(dir + "/memory.max", "max", why);
}

// The limit a cgroup has; none when it has none ("max", or v1's page-rounded LONG_MAX).
std::optional<std::uint64_t> limitOf(const Cgroup& g) {
    const auto text = readFirstLine(g.dir + "/" + g.limitFile);
    if (!text || *text == "max")
        return std::nullopt;
    const std::uint64_t v = std::strtoull(text->c_str(), nullptr, 10);
    if (v == 0 || v >= (std::uint64_t{1} << 62))
        return std::nullopt;
    return v;
}

// Cgroups an earlier run made beside this one and could not remove because it was killed (a
// SIGKILL, or the limit's own OOM kill): readscope-<pid> with no process left in it, its
// process gone. A live run's is never touched (its pid is alive), nor one in use (rmdir
// refuses a cgroup that holds a process).
void removeLeftCgroups(const std::string& parent) {
    DIR* d = ::opendir(parent.c_str());
    if (!d)
        return;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name.rfind("readscope-", 0) != 0)
            continue;
        char* end = nullptr;
        const long pid = std::strtol(name.c_str() + 10, &end, 10);
        if (pid <= 0 || *end != '\0' || pid == ::getpid())
            continue;
        if (::kill(pid_t(pid), 0) == 0 || errno != ESRCH)
            continue; // its run is alive (or not ours to ask about)
        const auto procs = readFirstLine(parent + "/" + name + "/cgroup.procs");
        if (procs && !procs->empty())
            continue;
        ::rmdir((parent + "/" + name).c_str());
    }
    ::closedir(d);
}

class ScopeInPlace final : public MemoryLimitScope {
public:
    ScopeInPlace(std::uint64_t bytes, std::string how) : bytes_(bytes), how_(std::move(how)) {}
    std::uint64_t bytes() const override { return bytes_; }
    const std::string& how() const override { return how_; }
    Status leave() override { return okStatus(); } // the process was started in it

private:
    std::uint64_t bytes_;
    std::string how_;
};

// A cgroup the process moved into, and back out of when it leaves; removed then if it `made`
// it (a scope systemd made, left empty, systemd stops and removes itself).
class EnteredCgroup final : public MemoryLimitScope {
public:
    EnteredCgroup(std::string from, std::string dir, bool made, std::uint64_t bytes,
                  std::string how)
        : from_(std::move(from)), dir_(std::move(dir)), made_(made), bytes_(bytes),
          how_(std::move(how)) {}
    ~EnteredCgroup() override { (void)leave(); }
    std::uint64_t bytes() const override { return bytes_; }
    const std::string& how() const override { return how_; }
    Status leave() override {
        if (left_)
            return okStatus();
        left_ = true;
        std::string why;
        if (!moveInto(from_, why)) {
            // Alone in a scope systemd made (a desktop app's), the process emptied it by moving
            // out, and systemd removed it: there is no going back, so the limit goes instead.
            if (!made_ && ::access(from_.c_str(), F_OK) != 0 && liftLimit(dir_, why))
                return Error{fmt::format("the cgroup readscope came from, {}, is gone (systemd "
                                         "removes a scope once it is empty), so it stays in {}, "
                                         "with that limit lifted",
                                         from_, dir_)};
            return Error{fmt::format("leaving the memory limit failed, so this process stays "
                                     "limited until it ends: {}",
                                     why)};
        }
        if (!made_)
            return okStatus();
        // The page cache charged to it moves to the parent as it goes.
        int rc = 0;
        for (int i = 0; i < 20 && (rc = ::rmdir(dir_.c_str())) != 0 && errno == EBUSY; ++i)
            ::usleep(10000);
        if (rc != 0)
            return Error{fmt::format("the memory cgroup {} made for the run could not be "
                                     "removed: {}",
                                     dir_, std::strerror(errno))};
        return okStatus();
    }

private:
    bool left_ = false;
    std::string from_, dir_;
    bool made_;
    std::uint64_t bytes_;
    std::string how_;
};

// A child cgroup of the process's own, limited and entered.
Result<std::unique_ptr<MemoryLimitScope>> enterOwnChild(const Cgroup& own, std::uint64_t bytes) {
    removeLeftCgroups(own.dir);
    const std::string dir = fmt::format("{}/readscope-{}", own.dir, ::getpid());
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
        return Error{fmt::format("creating the cgroup {} failed: {} (it needs permission to "
                                 "write there: root, or a cgroup delegated to this user)",
                                 dir, std::strerror(errno))};
    std::string why;
    const auto fail = [&](const std::string& reason) {
        ::rmdir(dir.c_str());
        return Error{reason};
    };
    if (own.version == 2 && ::access((dir + "/memory.max").c_str(), F_OK) != 0 &&
        !writeText(own.dir + "/cgroup.subtree_control", "+memory", why))
        return fail(why + " (cgroup v2 gives a child the memory controller only from a cgroup "
                          "that holds no processes, and this process's holds it)");
    if (!writeText(dir + "/" + own.limitFile, std::to_string(bytes), why))
        return fail(why);
    if (!moveInto(dir, why))
        return fail(why);
    auto scope = std::make_unique<EnteredCgroup>(
        own.dir, dir, true, bytes,
        fmt::format("a cgroup of its own, {} (cgroup v{} memory controller, {} {})", dir,
                    own.version, own.limitFile, bytes));
    // Entered: /proc/self/cgroup names it now.
    auto now = ownCgroup();
    if (!now || now->dir != dir)
        return Error{fmt::format("the process did not move into {}", dir)};
    return std::unique_ptr<MemoryLimitScope>(std::move(scope));
}

// As `systemd-run --user --scope -p MemoryMax=...` would start readscope, for a process that
// is running already: the user manager makes a limited scope around a shell, which moves this
// process into it and ends. Where both cgroups are under the user's delegated one
// (user@UID.service: a desktop's apps and terminals), the user may move its own processes
// there without root; from a login session's scope (ssh) it may not.
Result<std::unique_ptr<MemoryLimitScope>> enterSystemdScope(const Cgroup& own,
                                                            std::uint64_t bytes) {
    // Where the hierarchy is mounted: the shell adds the scope's path to it.
    const std::string& path = own.path;
    const bool under =
        path == "/" || (own.dir.size() > path.size() &&
                        own.dir.compare(own.dir.size() - path.size(), path.size(), path) == 0);
    if (!under)
        return Error{
            fmt::format("its cgroup {} is not at its path {} below a mount", own.dir, path)};
    const std::string mount =
        path == "/" ? own.dir : own.dir.substr(0, own.dir.size() - path.size());
    // A name of its own each time: systemd removes the last run's scope in its own time.
    static std::atomic<unsigned> attempts{0};
    const std::string unit = fmt::format("readscope-{}-{}.scope", ::getpid(), ++attempts);
    const auto [status, output] =
        runHelper({"systemd-run", "--user", "--scope", "--quiet", "--collect", "--unit=" + unit,
                   fmt::format("--property=MemoryMax={}", bytes), "--", "/bin/sh", "-c",
                   "echo \"$1\" > \"$2$(sed -n 's/^0:://p' /proc/self/cgroup)/cgroup.procs\"", "sh",
                   std::to_string(::getpid()), mount},
                  30);
    // Moved or not, whatever the helper says: a process moved into a scope that is not what
    // was asked goes back.
    auto now = ownCgroup();
    const auto limit = now ? limitOf(*now) : std::nullopt;
    const bool moved = now && now->dir != own.dir;
    if (status != 0 || !moved || !limit || *limit > bytes) {
        std::string why;
        if (moved && !moveInto(own.dir, why)) {
            const bool lifted = liftLimit(now->dir, why);
            return Error{fmt::format("systemd-run --user --scope moved this process into {} and "
                                     "it could not move back, so it stays there{}: {}",
                                     now->dir, lifted ? ", its limit lifted" : "", why)};
        }
        if (status != 0)
            return Error{
                fmt::format("systemd-run --user --scope did not make a limited scope: {}",
                            output.empty() ? fmt::format("exit status {}", status) : output)};
        if (!moved)
            return Error{fmt::format("systemd-run --user --scope made {}, but this process did "
                                     "not move into it",
                                     unit)};
        if (!limit)
            return Error{fmt::format("systemd-run --user --scope made {}, but it has no memory "
                                     "limit (the user manager has no memory controller)",
                                     unit)};
        return Error{fmt::format("systemd-run --user --scope made {}, but its limit, {}, is "
                                 "above the {} asked",
                                 unit, *limit, bytes)};
    }
    return std::unique_ptr<MemoryLimitScope>(std::make_unique<EnteredCgroup>(
        own.dir, now->dir, false, *limit,
        fmt::format("a scope the systemd user manager made, {} ({}, {} {})", now->dir, unit,
                    now->limitFile, *limit)));
}

} // namespace

Result<std::unique_ptr<MemoryLimitScope>> enterMemoryLimit(std::uint64_t bytes) {
    const auto refuse = [](const std::string& why) {
        return Error{fmt::format(
            "cannot run under a memory limit: {}. Without one the run would not be limited, so "
            "it does not start. On a desktop with systemd, start readscope inside a limited "
            "scope instead: systemd-run --user --scope -p MemoryMax=SIZE readscope-cli run ... "
            "--memory-limit SIZE",
            why)};
    };
    auto own = ownCgroup();
    if (!own)
        return refuse(own.error().message);
    if (const auto limit = limitOf(*own); limit && *limit <= bytes)
        return std::unique_ptr<MemoryLimitScope>(std::make_unique<ScopeInPlace>(
            *limit, fmt::format("the cgroup readscope was started in, {} ({} {})", own->dir,
                                own->limitFile, *limit)));
    auto child = enterOwnChild(*own, bytes);
    if (child || own->version != 2)
        return child ? std::move(child) : refuse(child.error().message);
    auto scope = enterSystemdScope(*own, bytes);
    if (scope)
        return scope;
    return refuse(child.error().message + "; " + scope.error().message);
}
#else
Result<std::unique_ptr<MemoryLimitScope>> enterMemoryLimit(std::uint64_t) {
    return Error{"cannot run under a memory limit: memory limits through cgroups exist on Linux "
                 "only, so the run does not start"};
}
#endif

} // namespace readscope::platform
