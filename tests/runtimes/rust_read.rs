// Rust's own whole-file reads, for tst_runtime_traces (under strace) and
// scripts/bench-runtimes.sh (timed): `rust_read [--thread] MODE REPEATS FILE...`, MODE fs-read
// (std::fs::read) or read-to-end (read_to_end through a reader with no size hint, which
// implements read() only, as most wrappers do). Prints nanoseconds per file read, per file.
// --thread reads on a second thread while the first waits, as readscope's worker does: a
// process with two threads pays for it on every call (glibc's malloc takes its arena lock,
// the kernel counts references to the file), which a single-threaded one skips.
use std::io::Read;
use std::time::Instant;

struct NoHint(std::fs::File);
impl Read for NoHint {
    fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(b)
    }
}

fn read_once(mode: &str, path: &str) -> Vec<u8> {
    if mode == "fs-read" {
        std::fs::read(path).unwrap()
    } else {
        let mut r = NoHint(std::fs::File::open(path).unwrap());
        let mut v = Vec::new();
        r.read_to_end(&mut v).unwrap();
        v
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--thread") {
        let rest: Vec<String> = args[..1].iter().chain(&args[2..]).cloned().collect();
        std::thread::spawn(move || run(rest)).join().unwrap();
    } else {
        run(args);
    }
}

fn run(args: Vec<String>) {
    let mode = &args[1];
    let repeats: u32 = args[2].parse().unwrap();
    let mut sink = 0u64;
    for path in &args[3..] {
        // Untimed reads first, as readscope's calibration reads before its rounds: glibc's
        // first buffers of a size come from fresh pages (mmap, then brk) and fault. None for a
        // single read (the trace test's), whose calls are what is looked at.
        let warm = if repeats > 1 { 3 } else { 0 };
        for _ in 0..warm {
            sink = sink.wrapping_add(read_once(mode, path).len() as u64);
        }
        let start = Instant::now();
        for _ in 0..repeats {
            let v = read_once(mode, path);
            // One byte looked at, as readscope's --consume minimal: the read is what is timed.
            sink = sink.wrapping_add(v.len() as u64 + v.get(v.len() / 2).copied().unwrap_or(0) as u64);
        }
        let ns = start.elapsed().as_nanos() as f64 / repeats as f64;
        println!("{} {:.0}", path, ns);
    }
    eprintln!("{}", sink);
}
