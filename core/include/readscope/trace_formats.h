#pragma once
// Traces in and out as text: readscope's own format (written by `record` and `trace`), and
// what can be imported into it: a plain CSV (offset,length[,thread]), a fio I/O log (versions 2
// and 3) and an strace log (strace -f -y; see parseStraceLog).
//
// readscope's format, plain text:
//   # readscope trace 1
//   # source: strace: python3 reader.py      where the reads came from
//   # file: /data/f.parquet                   the traced file, when known
//   # file-bytes: 1048576                     its size when recorded, when known
//   # reads: 200                              how many reads follow
//   # bytes: 12345678                         their lengths' sum
//   # digest: 0123456789abcdef                traceDigest() of the reads below
//   # not replayed: ...                       zero or more: what a replay cannot repeat
//   offset,length,thread
//   0,4096,0
#include "readscope/result.h"
#include "readscope/trace.h"

#include <span>
#include <string>
#include <string_view>

namespace readscope {

enum class TraceFormat { Readscope, Csv, FioLog, StraceLog };

// The reads of `text`, whose format is recognised from its first lines. `name` names the
// source (a path) in messages and in the trace's source. `file`: keep the reads of that file
// (fio and strace logs, which hold several); empty: the file most bytes were read from.
// Refused with a message naming the problem: an unknown format, a malformed line (and its
// number), no reads at all, a digest that does not match the reads.
Result<Trace> parseTrace(std::string_view text, const std::string& name,
                         const std::string& file = {});
// parseTrace of a file's content; refused when it cannot be read.
Result<Trace> loadTrace(const std::string& path, const std::string& file = {});

// An strace log (-f -y, any -s; with or without pids): the reads of one file in order:
// pread64, preadv and preadv2 at their offsets, read and readv at the file position (openat
// starts it at 0, lseek moves it, each read advances it by what it returned), each as long as
// what it returned; failed and empty reads are left out. Mappings of the file are said in
// notReplayed. Threads are the log's pids, numbered as they first read the file.
// file: the file whose reads are kept. Empty: the most read of `candidates` (the files named on
// the traced command line, as canonical paths); none read, the most read file that is not a
// system file (a runtime's libraries, modules and byte code: under /usr, /lib, /etc, a .so or
// .pyc...); refused when only such files were read.
Result<Trace> parseStraceLog(std::string_view text, const std::string& name,
                             const std::string& file = {},
                             std::span<const std::string> candidates = {});

// readscope's format, as above.
std::string traceText(const Trace& trace);
// "200 reads, 97.3 MiB, median 256 KiB, 1 thread; 41% of the file touched, 3% re-read" and the
// size histogram, one line per size class.
std::string traceSummaryText(const Trace& trace, const TraceSummary& summary);

} // namespace readscope
