//! Graph files from a hostile hand (`docs/graphs.md`, Limits): an endless or oversized file,
//! a huge node name, control characters in a name, a huge value where a number belongs,
//! duplicate keys, edge numbers and deep nesting are each refused with one bounded `error:`
//! line naming the JSON path, in bounded time and memory.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::bake_support::scratch_dir;

/// The graph file size limit of docs/graphs.md (`graph::spec::MAX_FILE_BYTES`).
const FILE_LIMIT: usize = 1 << 20;

/// Address space given to each run: far above what a refused or sampled graph needs, far
/// below what an unbounded read or a per-node copy of a huge name reaches.
pub const MEMORY_LIMIT: u64 = 1 << 30;

/// What a bounded run of `sample` left.
pub struct Run {
    /// The exit status (`None`: killed, by the timeout or a signal).
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// `wgpu-noise sample ARGS` with `input` on stdin, in at most [`MEMORY_LIMIT`] of address
/// space, killed after `timeout`.
pub fn sample_bounded(args: &[&str], input: &str, timeout: Duration) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"));
    cmd.arg("sample")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: only setrlimit (async-signal-safe) runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: MEMORY_LIMIT,
                rlim_max: MEMORY_LIMIT,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().expect("run wgpu-noise");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        // A run that refuses its graph exits before reading: a broken pipe is that.
        let _ = stdin.write_all(input.as_bytes());
    });
    let read = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = r.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = read(Box::new(child.stdout.take().unwrap()));
    let err = read(Box::new(child.stderr.take().unwrap()));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    let _ = writer.join();
    Run {
        code: status.and_then(|s| s.code()),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        elapsed,
    }
}

/// `sample --graph FILE` on the CPU in f32 at two 3D points, within 30 s.
pub fn sample_graph(file: &Path) -> Run {
    sample_bounded(
        &[
            "--graph",
            file.to_str().unwrap(),
            "--dims",
            "3",
            "--precision",
            "f32",
            "--backend",
            "cpu",
        ],
        "0.5 0.25 0.125\n-3.5 7.25 100.5\n",
        Duration::from_secs(30),
    )
}

/// The run was refused with exit status 1 and one `error:` line of at most 1 KiB containing
/// every one of `words`; returns the line.
#[track_caller]
pub fn assert_one_bounded_error(run: &Run, what: &str, words: &[&str]) -> String {
    assert_eq!(
        run.code,
        Some(1),
        "{what}: exit status after {:?}; stderr: {}",
        run.elapsed,
        cut(&run.stderr)
    );
    assert_eq!(
        run.stderr.lines().count(),
        1,
        "{what}: one line expected: {}",
        cut(&run.stderr)
    );
    let line = run.stderr.trim_end_matches('\n');
    assert!(line.starts_with("error: "), "{what}: {}", cut(line));
    assert!(
        line.len() <= 1024,
        "{what}: a {}-byte error line: {}",
        line.len(),
        cut(line)
    );
    assert!(
        !line.chars().any(char::is_control),
        "{what}: a control character in {line:?}"
    );
    for w in words {
        assert!(line.contains(w), "{what}: expected {w:?} in {line:?}");
    }
    line.to_string()
}

/// At most the first 300 bytes of `s`, for assertion messages.
fn cut(s: &str) -> &str {
    let mut end = s.len().min(300);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn graph_of(out: &str) -> String {
    format!(r#"{{ "version": 1, "output": "out", "nodes": {{ "out": {out} }} }}"#)
}

#[test]
fn an_endless_or_oversized_graph_file_is_one_error_line_naming_the_limit() {
    let dir = scratch_dir("graph-input-size");
    // A good graph padded with spaces to exactly the limit is read; one byte more is not.
    let good = graph_of(r#"{ "type": "simplex" }"#);
    let at_limit = dir.join("at-limit.json");
    let over = dir.join("over.json");
    let padded = format!("{good}{}", " ".repeat(FILE_LIMIT - good.len()));
    std::fs::write(&at_limit, &padded).unwrap();
    std::fs::write(&over, format!("{padded} ")).unwrap();
    let run = sample_graph(&at_limit);
    assert_eq!(run.code, Some(0), "{}", cut(&run.stderr));
    assert_eq!(run.stdout.lines().count(), 2);
    for file in [
        over.as_path(),
        Path::new("/dev/zero"),
        Path::new("/dev/urandom"),
    ] {
        let run = sample_graph(file);
        let line = assert_one_bounded_error(
            &run,
            &file.display().to_string(),
            &[&format!("--graph {}", file.display()), "1048576 bytes"],
        );
        println!("{line} ({:?})", run.elapsed);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fbm16(fbm16(fbm8(abs(position))))` (2 048 operations) under a node named with `len`
/// letters.
fn long_named_graph(len: usize) -> String {
    let name = "n".repeat(len);
    format!(
        r#"{{ "version": 1, "output": "{name}", "nodes": {{ "{name}": {{ "type": "fbm", "octaves": 16, "source": {{ "type": "fbm", "octaves": 16, "source": {{ "type": "fbm", "octaves": 8, "source": {{ "type": "abs", "source": {{ "type": "position", "axis": "x" }} }} }} }} }} }} }}"#
    )
}

#[test]
fn a_node_name_past_the_limit_is_refused_in_bounded_memory() {
    let dir = scratch_dir("graph-input-name");
    // At the limit the graph samples; past it, one short line, whatever the name's length
    // (450 000 letters, written twice: the file is within its limit, and a copy of the name
    // per inline node and octave would be gigabytes).
    let at_limit = dir.join("at-limit.json");
    std::fs::write(&at_limit, long_named_graph(64)).unwrap();
    let run = sample_graph(&at_limit);
    assert_eq!(run.code, Some(0), "{}", cut(&run.stderr));
    for len in [65, 450_000] {
        let file = dir.join(format!("name{len}.json"));
        std::fs::write(&file, long_named_graph(len)).unwrap();
        let run = sample_graph(&file);
        let line =
            assert_one_bounded_error(&run, &format!("a {len}-byte name"), &["nodes.nnn", "64"]);
        println!("{line} ({:?})", run.elapsed);
    }
    // A reference or output naming no node by a huge name is quoted in part.
    let file = dir.join("reference.json");
    let long = "r".repeat(100_000);
    std::fs::write(
        &file,
        graph_of(&format!(r#"{{ "type": "abs", "source": "{long}" }}"#)),
    )
    .unwrap();
    let run = sample_graph(&file);
    assert_one_bounded_error(&run, "a huge reference", &["nodes.out.source"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn control_characters_in_names_are_escaped_in_the_one_error_line() {
    let dir = scratch_dir("graph-input-control");
    let cases = [
        (r#"a\nb"#, r#"nodes.a\nb.source"#),
        (r#"\u001b[31mred"#, r#"nodes.\u{1b}[31mred.source"#),
        (r#"tab\there\r"#, r#"nodes.tab\there\r.source"#),
    ];
    for (name, path) in cases {
        let file = dir.join("control.json");
        std::fs::write(
            &file,
            format!(
                r#"{{ "version": 1, "output": "{name}", "nodes": {{ "{name}": {{ "type": "abs", "source": "missing" }} }} }}"#
            ),
        )
        .unwrap();
        let run = sample_graph(&file);
        let line = assert_one_bounded_error(&run, name, &[path, r#"no node is named "missing""#]);
        println!("{line}");
    }
    // A reference by such a name is quoted escaped.
    let file = dir.join("reference.json");
    std::fs::write(
        &file,
        graph_of(r#"{ "type": "abs", "source": "x\ny\u001b" }"#),
    )
    .unwrap();
    let run = sample_graph(&file);
    assert_one_bounded_error(
        &run,
        "a reference",
        &[r#"nodes.out.source: no node is named "x\ny\u{1b}""#],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_huge_value_where_a_number_belongs_is_quoted_in_part() {
    let dir = scratch_dir("graph-input-huge-value");
    let array = format!("[{}]", vec!["1"; 200_000].join(","));
    let text = "s".repeat(300_000);
    let object = format!(
        "{{ {} }}",
        (0..20_000)
            .map(|i| format!(r#""k{i}": {i}"#))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let cases = [
        (
            format!(r#"{{ "type": "fbm", "source": 1, "octaves": {array} }}"#),
            "nodes.out.octaves: must be a whole number, not [1,1,",
        ),
        (
            format!(r#"{{ "type": "constant", "value": "{text}" }}"#),
            "nodes.out.value: must be a number",
        ),
        (
            format!(r#"{{ "type": "simplex", "kernel": "{text}" }}"#),
            "nodes.out.kernel",
        ),
        (
            format!(r#"{{ "type": "abs", "source": {array} }}"#),
            "nodes.out.source: must be a node",
        ),
        (
            format!(r#"{{ "type": "simplex", "{text}": 1 }}"#),
            "unknown parameter",
        ),
        (format!(r#"{{ "type": {object} }}"#), "nodes.out.type"),
    ];
    for (node, words) in cases {
        let file = dir.join("huge.json");
        std::fs::write(&file, graph_of(&node)).unwrap();
        let run = sample_graph(&file);
        let line = assert_one_bounded_error(&run, words, &[words]);
        println!("{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_key_written_twice_is_refused_naming_its_json_path() {
    let dir = scratch_dir("graph-input-duplicates");
    let cases = [
        (
            r#"{ "version": 1, "version": 1, "output": "out", "nodes": { "out": { "type": "simplex" } } }"#,
            "version: ",
        ),
        (
            r#"{ "version": 1, "output": "out", "output": "out", "nodes": { "out": { "type": "simplex" } } }"#,
            "output: ",
        ),
        (
            r#"{ "version": 1, "output": "out", "nodes": { "out": { "type": "fbm", "source": 1, "octaves": 2, "octaves": 3 } } }"#,
            "nodes.out.octaves: ",
        ),
        (
            r#"{ "version": 1, "output": "out", "nodes": { "out": { "type": "simplex" }, "out": { "type": "classic" } } }"#,
            "nodes.out: ",
        ),
        (
            r#"{ "version": 1, "output": "out", "nodes": { "out": { "type": "abs", "source": { "type": "simplex", "seed": 1, "seed": 2 } } } }"#,
            "nodes.out.source.seed: ",
        ),
        (
            r#"{ "version": 1, "output": "out", "nodes": { "out": { "type": "warp", "amplitude": 1, "source": 1, "displacement": [1, { "type": "simplex", "type": "classic" }] } } }"#,
            "nodes.out.displacement[1].type: ",
        ),
    ];
    for (text, path) in cases {
        let file = dir.join("twice.json");
        std::fs::write(&file, text).unwrap();
        let run = sample_graph(&file);
        let line = assert_one_bounded_error(&run, text, &[path, "twice"]);
        println!("{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn edge_numbers_and_deep_nesting_get_plain_messages_naming_the_json_path() {
    let dir = scratch_dir("graph-input-edges");
    let write = |text: &str| {
        let file = dir.join("edge.json");
        std::fs::write(&file, text).unwrap();
        file
    };
    // -0 is 0, and a whole number written with a fraction or exponent is that number.
    for seed in ["-0", "0", "-0.0", "3.0", "1e3"] {
        let run = sample_graph(&write(&graph_of(&format!(
            r#"{{ "type": "simplex", "seed": {seed} }}"#
        ))));
        assert_eq!(run.code, Some(0), "seed {seed}: {}", cut(&run.stderr));
    }
    let cases = [
        (
            graph_of(r#"{ "type": "simplex", "seed": 9223372036854775808 }"#),
            "nodes.out.seed: 9223372036854775808 is out of range (-1048576 to 1048576)",
        ),
        (
            graph_of(r#"{ "type": "simplex", "seed": -9223372036854775809 }"#),
            "nodes.out.seed: -9.223372036854776e18 is out of range (-1048576 to 1048576)",
        ),
        (
            graph_of(r#"{ "type": "simplex", "seed": 1e300 }"#),
            "nodes.out.seed: 1e300 is out of range (-1048576 to 1048576)",
        ),
        (
            graph_of(r#"{ "type": "simplex", "seed": 0.5 }"#),
            "nodes.out.seed: must be a whole number, not 0.5",
        ),
        (
            graph_of(r#"{ "type": "simplex", "seed": NaN }"#),
            "nodes.out.seed: not valid JSON",
        ),
        (
            graph_of(r#"{ "type": "cellular", "jitter": nan }"#),
            "nodes.out.jitter: not valid JSON",
        ),
        (
            graph_of(r#"{ "type": "abs", "source": Infinity }"#),
            "nodes.out.source: not valid JSON",
        ),
        (
            graph_of(r#"{ "type": "constant", "value": 1e400 }"#),
            "nodes.out.value: not valid JSON",
        ),
    ];
    for (text, words) in &cases {
        let run = sample_graph(&write(text));
        let line = assert_one_bounded_error(&run, text, &[words]);
        println!("{line}");
    }
    // Nesting past the depth limit, however deep: the documented limit, never serde_json's
    // recursion limit.
    for levels in [40, 126, 127, 200, 5000] {
        let mut node = String::from(r#"{ "type": "simplex" }"#);
        for _ in 0..levels {
            node = format!(r#"{{ "type": "abs", "source": {node} }}"#);
        }
        let run = sample_graph(&write(&graph_of(&node)));
        let line = assert_one_bounded_error(
            &run,
            &format!("{levels} levels"),
            &["nodes.out.source.source", "deeper than 32 nodes"],
        );
        println!("{levels} levels: {} bytes", line.len());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
