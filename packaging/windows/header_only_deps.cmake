# fmt, nlohmann-json and CLI11 for a Windows cross build, header-only from Debian's own
# packages (libfmt-dev, nlohmann-json3-dev, libcli11-dev): nothing is downloaded. Only their
# folders are exposed (a symlink each), never the host's whole /usr/include, so no Linux header
# leaks into the build. (CLI11's own CMake config would point at /usr/include.)
set(_hosted ${CMAKE_BINARY_DIR}/host-headers)
file(MAKE_DIRECTORY ${_hosted})
foreach(dir fmt nlohmann CLI)
    if(NOT EXISTS /usr/include/${dir})
        message(FATAL_ERROR "/usr/include/${dir} is missing: install libfmt-dev, "
                            "nlohmann-json3-dev and libcli11-dev (scripts/deps.sh does)")
    endif()
    file(CREATE_LINK /usr/include/${dir} ${_hosted}/${dir} SYMBOLIC)
endforeach()

add_library(readscope_fmt_header_only INTERFACE)
target_include_directories(readscope_fmt_header_only SYSTEM INTERFACE ${_hosted})
target_compile_definitions(readscope_fmt_header_only INTERFACE FMT_HEADER_ONLY=1)
add_library(fmt::fmt ALIAS readscope_fmt_header_only)

add_library(readscope_json_header_only INTERFACE)
target_include_directories(readscope_json_header_only SYSTEM INTERFACE ${_hosted})
add_library(nlohmann_json::nlohmann_json ALIAS readscope_json_header_only)

add_library(readscope_cli11_header_only INTERFACE)
target_include_directories(readscope_cli11_header_only SYSTEM INTERFACE ${_hosted})
add_library(CLI11::CLI11 ALIAS readscope_cli11_header_only)

# doctest for the portable core tests, header-only from Debian's doctest-dev.
if(NOT EXISTS /usr/include/doctest/doctest.h)
    message(FATAL_ERROR "/usr/include/doctest is missing: install doctest-dev "
                        "(scripts/deps.sh does)")
endif()
file(CREATE_LINK /usr/include/doctest ${_hosted}/doctest SYMBOLIC)
add_library(readscope_doctest_header_only INTERFACE)
target_include_directories(readscope_doctest_header_only SYSTEM INTERFACE ${_hosted})
add_library(doctest::doctest ALIAS readscope_doctest_header_only)
