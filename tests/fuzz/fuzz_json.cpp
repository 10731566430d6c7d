// libFuzzer target: the JSON result reader must return a document or an error, never crash.
#include "readscope/documents.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto doc = readscope::fromJson(std::string_view(reinterpret_cast<const char*>(data), size));
    if (doc) // whatever was read must write back out
        (void)readscope::toMarkdown(*doc);
    return 0;
}
