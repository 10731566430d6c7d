#pragma once
// What the results table's columns mean, worded once: the CLI writes them as footnotes, the
// app as the columns' tooltips.
#include "readscope/result_document.h"

#include <string>

namespace readscope {

// "page offsets the destination buffers started at (offset x ranges read into a buffer
// there)"
std::string buffersColumnNote();
// "ranges per second at the median" ("files ..." on a whole-file sweep)
std::string iopsColumnNote(const Plan& plan);
// The limit column: "memcpy: the median as a share of memcpy's speed here, ..." on a warm run,
// "device: the median as a share of the device limit ..." on the others, or why there is none
// ("device: no device limit: ...").
std::string limitColumnNote(const ResultDocument& doc);
// "fetched from storage per byte wanted (read-ahead, populate and fault-around included)"
std::string fetchedMeaning();
// The fetched column: fetchedMeaning(), the median over rounds, where it is counted.
std::string fetchedColumnNote();
// "reads io_uring kept in flight per thread (its queue depth); – for strategies that read one
// range at a time"
std::string inFlightColumnNote();

} // namespace readscope
