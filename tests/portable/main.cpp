// doctest's own runner: `portable_core_tests -tc="*bytes*"` runs the cases whose name matches,
// `--list-test-cases` lists them (what CTest's discovery reads).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
