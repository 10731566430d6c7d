#pragma once
// A very small test harness for the core's portable tests: Qt Test is not available to the
// Windows cross build (Debian ships no mingw Qt), so these run on both platforms with this.
#include <fmt/format.h>

#include <functional>
#include <string>
#include <vector>

namespace check {

struct Case {
    std::string name;
    std::function<void()> body;
};
std::vector<Case>& cases();
int& failures();

struct Register {
    Register(const char* name, std::function<void()> body) {
        cases().push_back({name, std::move(body)});
    }
};

inline void fail(const char* file, int line, const std::string& what) {
    ++failures();
    fmt::print("  FAIL {}:{}: {}\n", file, line, what);
}

} // namespace check

#define CHECK_CAT2(a, b) a##b
#define CHECK_CAT(a, b) CHECK_CAT2(a, b)
#define TEST_CASE(name)                                                                            \
    static void CHECK_CAT(test_, __LINE__)();                                                      \
    static const check::Register CHECK_CAT(reg_, __LINE__)(name, CHECK_CAT(test_, __LINE__));      \
    static void CHECK_CAT(test_, __LINE__)()

// Records a failure and goes on with the case.
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond))                                                                               \
            check::fail(__FILE__, __LINE__,                                                        \
                        std::string(#cond) + " " + fmt::format("" __VA_ARGS__));                   \
    } while (0)
// Records a failure and ends the case.
#define REQUIRE(cond, ...)                                                                         \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            check::fail(__FILE__, __LINE__,                                                        \
                        std::string(#cond) + " " + fmt::format("" __VA_ARGS__));                   \
            return;                                                                                \
        }                                                                                          \
    } while (0)
