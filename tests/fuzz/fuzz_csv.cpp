// libFuzzer target: the CSV summary reader must return a document or an error, never crash.
#include "readscope/documents.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto doc =
        readscope::fromSummaryCsv(std::string_view(reinterpret_cast<const char*>(data), size));
    if (doc)
        (void)readscope::toSummaryCsv(*doc);
    return 0;
}
