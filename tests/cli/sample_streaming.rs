//! `wgpu-noise sample` streams: each value comes out soon after its line goes in, memory
//! does not grow with the input, a closed stdout ends the run quietly, and an overlong line
//! is refused without being buffered or repeated.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Java: `SimplexNoise.noise(0.5, 0.25)` (first line of tests/golden/simplex2.txt).
const JAVA_SIMPLEX2_AT_HALF_QUARTER: f64 = -0.6471486502994073;

fn spawn_sample(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
        .arg("sample")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run wgpu-noise")
}

/// The child's stdout, line by line, on a channel (so a test can wait with a timeout).
fn output_lines(child: &mut Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

/// Whether `--backend gpu` can run here (a skip note on stderr when not, unless CI
/// requires a GPU).
fn gpu_available() -> bool {
    let out = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
        .args(["sample", "--backend", "gpu"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    if out.status.success() {
        return true;
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    if std::env::var_os("WGPU_NOISE_REQUIRE_GPU").is_some() {
        panic!("GPU required: {stderr}");
    }
    eprintln!("SKIPPED --backend gpu: {stderr}");
    false
}

fn backends() -> Vec<&'static str> {
    let mut backends = vec!["cpu"];
    if gpu_available() {
        backends.push("gpu");
    }
    backends
}

#[test]
fn the_first_value_arrives_before_the_input_ends() {
    for backend in backends() {
        let mut child = spawn_sample(&["--backend", backend]);
        let values = output_lines(&mut child);
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"0.5 0.25\n").unwrap();
        stdin.flush().unwrap();
        // The input stays open: the value must come anyway.
        let first = values
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("{backend}: no value within 60 s of its line"));
        let value: f64 = first.parse().unwrap();
        let tolerance = if backend == "gpu" { 1e-5 } else { 0.0 };
        assert!(
            (value - JAVA_SIMPLEX2_AT_HALF_QUARTER).abs() <= tolerance,
            "{backend}: {value}"
        );
        // A second line after a pause is answered too.
        stdin.write_all(b"0.5 0.25\n").unwrap();
        stdin.flush().unwrap();
        assert_eq!(
            values.recv_timeout(Duration::from_secs(60)).as_deref(),
            Ok(first.as_str())
        );
        drop(stdin);
        let status = child.wait().unwrap();
        assert!(status.success(), "{backend}: {status:?}");
        assert!(values.recv().is_err(), "{backend}: nothing more is printed");
    }
}

#[test]
fn a_closed_stdout_is_a_quiet_successful_end() {
    // `yes "0.5 0.25" | wgpu-noise sample | head -1`, with a finite `yes`.
    let mut child = spawn_sample(&[]);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let block = "0.5 0.25\n".repeat(1000);
        for _ in 0..2000 {
            if stdin.write_all(block.as_bytes()).is_err() {
                return; // sample has ended: its stdin is closed.
            }
        }
    });
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(
        first.trim().parse::<f64>().unwrap(),
        JAVA_SIMPLEX2_AT_HALF_QUARTER
    );
    drop(stdout); // what `head -1` does after its line
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
    assert!(stderr.is_empty(), "quiet: {stderr}");
}

#[test]
fn an_overlong_line_is_refused_quoting_only_its_start() {
    let mut child = spawn_sample(&[]);
    let mut stdin = child.stdin.take().unwrap();
    // 16 MiB on one line; the binary stops reading it after 4 KiB.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(b"0.5 0.25\n");
        let block = vec![b'7'; 1 << 20];
        for _ in 0..16 {
            if stdin.write_all(&block).is_err() {
                return;
            }
        }
        let _ = stdin.write_all(b"\n");
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "error: line 2: longer than 4096 bytes, not a point (it starts {:?}…)\n",
            "7".repeat(40)
        )
    );
    // Every line up to 4096 bytes is a point: leading blanks make one that long.
    let padded = format!("{}0.5 0.25\n", " ".repeat(4096 - 8));
    let mut child = spawn_sample(&[]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(padded.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim().parse::<f64>(),
        Ok(JAVA_SIMPLEX2_AT_HALF_QUARTER)
    );
}

/// The peak resident memory (`VmHWM`) of a running process, in KiB.
#[cfg(target_os = "linux")]
fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM in /proc/PID/status");
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Feeds `lines` points, keeping stdin open; returns the peak RSS once `checkpoint` values
/// and once all values have come back (so the process is alive to be measured).
#[cfg(target_os = "linux")]
fn peak_rss_while_streaming(backend: &str, lines: usize, checkpoint: usize) -> (u64, u64) {
    let mut child = spawn_sample(&["--dims", "3", "--backend", backend]);
    let values = output_lines(&mut child);
    let stdin = child.stdin.take().unwrap();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        let mut stdin: ChildStdin = stdin;
        let mut block = String::new();
        for i in 0..lines {
            let x = i as f64 * 0.001;
            block += &format!("{x} {} {}\n", -x, 100.0 - x);
            if block.len() > 1 << 16 {
                stdin.write_all(block.as_bytes()).unwrap();
                block.clear();
            }
        }
        stdin.write_all(block.as_bytes()).unwrap();
        stdin.flush().unwrap();
        // Keep the input open until the measurement is taken.
        let _ = done_rx.recv();
    });
    let mut at_checkpoint = 0;
    for n in 1..=lines {
        values
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| {
                panic!("{backend}: value {n} of {lines} did not come while the input was open")
            });
        if n == checkpoint {
            at_checkpoint = peak_rss_kib(child.id());
        }
    }
    let at_end = peak_rss_kib(child.id());
    done_tx.send(()).unwrap();
    writer.join().unwrap();
    assert!(child.wait().unwrap().success());
    (at_checkpoint, at_end)
}

#[test]
#[cfg(target_os = "linux")]
fn memory_does_not_grow_with_the_input() {
    // 1.5 M points held at once would be 48 MiB of coordinates alone (the old, buffering
    // `sample` peaked at 396 MiB for 10 M lines); streaming holds a few batches.
    for backend in backends() {
        let (at_checkpoint, at_end) = peak_rss_while_streaming(backend, 1_500_000, 300_000);
        let growth_kib = at_end.saturating_sub(at_checkpoint);
        eprintln!(
            "{backend}: peak RSS {at_checkpoint} KiB after 300 000 lines, {at_end} KiB after 1 500 000"
        );
        assert!(
            growth_kib <= 8 * 1024,
            "{backend}: peak RSS grew by {growth_kib} KiB over 1.2 M more lines"
        );
    }
}
