// Rust's own whole-file reads, for tst_runtime_traces (under strace) and
// scripts/bench-runtimes.sh (timed): `rust_read MODE REPEATS FILE...`, MODE fs-read
// (std::fs::read) or read-to-end (read_to_end through a reader with no size hint, which
// implements read() only, as most wrappers do). Prints nanoseconds per file read, per file.
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
    let mode = &args[1];
    let repeats: u32 = args[2].parse().unwrap();
    let mut sink = 0u64;
    for path in &args[3..] {
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
