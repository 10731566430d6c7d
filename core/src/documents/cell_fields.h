#pragma once
// A cell's optional figures, each declared once: its name (the JSON key and the summary CSV's
// column), its unit, and how the stored value is written (seconds written as nanoseconds).
// Every one is optional: null in JSON, an empty CSV field, when the cell has none. The JSON
// writer and reader and the CSV writer and reader are driven by this table; a field added
// here is written and read back by both formats (tst_documents adds one). Private to the core.
#include "readscope/result_document.h"

#include <optional>
#include <span>
#include <string_view>

namespace readscope {

struct CellField {
    const char* name;
    const char* unit; // "GB/s", "ns", "x" (a ratio), "bytes", "fraction"
    std::optional<double> Cell::*member;
    double scale = 1; // written = stored * scale
};

inline constexpr CellField kCellFields[] = {
    // The run's limits as this cell met them: fold, zeroing and copy rates of range-sized
    // buffers, and the copy limit the cell is held against.
    {"fold_gbps", "GB/s", &Cell::foldGbps},
    {"memset_gbps", "GB/s", &Cell::memsetGbps},
    {"copy_limit_gbps", "GB/s", &Cell::copyLimitGbps},
    {"kernel_copy_gbps", "GB/s", &Cell::kernelCopyGbps},
    {"memcpy_gbps", "GB/s", &Cell::memcpyGbps},
    // Mappings: the fold and memcpy from the cached file's own mapped pages, and a fault and
    // an unmapped page of those pages.
    {"mapped_fold_gbps", "GB/s", &Cell::mappedFoldGbps},
    {"mapped_copy_gbps", "GB/s", &Cell::mappedCopyGbps},
    // The pause before each of the copy price's passes (none: back to back).
    {"copy_pause_ns", "ns", &Cell::copyPauseSeconds, 1e9},
    {"mapped_fault_ns", "ns", &Cell::mappedFaultSeconds, 1e9},
    {"mapped_unmap_page_ns", "ns", &Cell::mappedUnmapSeconds, 1e9},
    // Bytes read per byte wanted; bytes fetched from storage per round, and per byte wanted.
    {"read_amplification", "x", &Cell::readAmplification},
    {"device_bytes_read", "bytes", &Cell::deviceBytesRead},
    {"fetched_per_wanted", "x", &Cell::fetchedPerWanted},
    // The share of the cell's ranges cached when its rounds began and ended (medians).
    {"resident_before", "fraction", &Cell::residentBefore},
    {"resident_after", "fraction", &Cell::residentAfter},
};

// The value as written (scaled), if the cell has one; and a written value stored back.
inline std::optional<double> writtenValue(const CellField& f, const Cell& c) {
    const auto& v = c.*f.member;
    return v ? std::optional(*v * f.scale) : std::nullopt;
}
inline void storeWritten(const CellField& f, Cell& c, double written) {
    c.*f.member = written / f.scale;
}

} // namespace readscope
