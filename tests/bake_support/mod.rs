//! Shared by tests/bake_*.rs: running the binary, the CPU reference, directory listings,
//! an independent `.npy` reader.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use wgpu_noise::bake::{CpuSource, NoiseSpec, SampleSource};
use wgpu_noise::field::FlagField;
use wgpu_noise::params::FillParams;
use wgpu_noise::{cpu, tables::PermutationTables, NoiseKind};

/// The GPU backends a bake can be sent to: Vulkan (wgpu's default here) and GL, as the
/// environment that selects each.
pub const GPU_BACKENDS: [(&str, &[(&str, &str)]); 2] =
    [("vulkan", &[]), ("gl", &[("WGPU_BACKEND", "gl")])];

/// A fresh directory `wgpu-noise-{name}-{pid}` under the system's temporary directory.
pub fn scratch_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wgpu-noise-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `wgpu-noise sample ARGS` with `input` on its stdin. A run that refuses its options may
/// exit, closing stdin, before the input is written: that write's error is ignored.
pub fn sample_with_input(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
        .arg("sample")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run wgpu-noise");
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().expect("wait for wgpu-noise")
}

/// `wgpu-noise bake ARGS` run in `dir`, with `env` added.
pub fn bake_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"));
    cmd.arg("bake").args(args).current_dir(dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run wgpu-noise")
}

/// Like [`bake_in`], asserting success; returns stderr.
pub fn bake_ok(dir: &Path, args: &[&str]) -> String {
    let out = bake_in(dir, args, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "bake {args:?} failed: {stderr}");
    stderr
}

/// The `f32` CPU reference of a field (the values every backend must reproduce).
pub fn reference(
    kind: NoiseKind,
    size: &[u32],
    frequency: &[f64],
    offset: &[f64],
    seed: u64,
) -> Vec<f32> {
    let field = FlagField::new(kind, size)
        .with_frequency(frequency)
        .with_offset(offset);
    cpu::fill::generate_f32(&PermutationTables::new(seed), &field).expect("reference")
}

/// Runs `bake ARGS` in `dir` and checks the refusal: exit code 1, exactly one stderr line
/// `error: …` containing `message`, and `dir` unchanged.
pub fn assert_refused(dir: &Path, args: &[&str], message: &str) {
    let before = listing(dir);
    let out = bake_in(dir, args, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "bake {args:?}: exit code; stderr: {stderr}"
    );
    assert_eq!(
        stderr.lines().count(),
        1,
        "bake {args:?}: one line expected: {stderr}"
    );
    assert!(
        stderr.starts_with("error: ") && stderr.contains(message),
        "bake {args:?}: expected {message:?} in {stderr:?}"
    );
    assert_eq!(
        listing(dir),
        before,
        "bake {args:?} must leave no file behind"
    );
}

/// Every entry of `dir`, hidden ones included, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Parses a `.npy` file by the format's specification (not with the crate's writer code):
/// checks the magic, version 1.0, the 64-byte alignment and the exact header text NumPy
/// writes for a C-order little-endian f32 array of `shape`, and returns the values.
pub fn read_npy(path: &Path, shape: &[usize]) -> Vec<f32> {
    let bytes = std::fs::read(path).expect("read npy");
    assert_eq!(&bytes[..6], b"\x93NUMPY", "magic");
    assert_eq!(&bytes[6..8], &[1, 0], "version 1.0");
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let data_start = 10 + header_len;
    assert_eq!(data_start % 64, 0, "data must start on a 64-byte boundary");
    let header = std::str::from_utf8(&bytes[10..data_start]).expect("ASCII header");
    let dims: Vec<String> = shape.iter().map(|s| s.to_string()).collect();
    let dict = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': ({}), }}",
        dims.join(", ")
    );
    assert!(
        header.starts_with(&dict),
        "header {header:?} should start with {dict:?}"
    );
    assert!(
        header[dict.len()..]
            .trim_end_matches('\n')
            .chars()
            .all(|c| c == ' '),
        "padding is spaces"
    );
    assert!(header.ends_with('\n'), "header ends with a newline");
    let data = &bytes[data_start..];
    let count: usize = shape.iter().product();
    assert_eq!(data.len(), 4 * count, "data length");
    data.chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
}

/// Whether `python3 -c "import numpy"` works here.
pub fn numpy_available() -> bool {
    Command::new("python3")
        .args(["-c", "import numpy"])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// The largest absolute difference of two equally long slices.
pub fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

/// The CPU reference with float `i` of its output (counted from the field's first) made
/// `alter(i, value)`: a wrong sample, channel or pattern of them for `--verify` to catch.
pub struct Faulty {
    pub inner: CpuSource,
    pub alter: Box<dyn FnMut(usize, f32) -> f32>,
}

impl Faulty {
    /// The CPU reference in small chunks (64 samples, so `at` falls inside a later chunk),
    /// with float `at` of its output moved by `error` (made NaN when `error` is NaN).
    pub fn new(at: usize, error: f32) -> Self {
        Faulty::at(CpuSource::with_chunk_samples(64), at, error)
    }

    /// `inner` with float `at` of its output moved by `error` (NaN when `error` is NaN).
    pub fn at(inner: CpuSource, at: usize, error: f32) -> Self {
        Faulty {
            inner,
            alter: Box::new(move |i, v| match i == at {
                false => v,
                true if error.is_nan() => f32::NAN,
                true => v + error,
            }),
        }
    }
}

impl SampleSource for Faulty {
    fn name(&self) -> String {
        "faulty".into()
    }

    fn produce(
        &mut self,
        spec: &NoiseSpec,
        sink: &mut dyn FnMut(&FillParams, &[f32]) -> wgpu_noise::Result<()>,
    ) -> wgpu_noise::Result<()> {
        let alter = &mut self.alter;
        let mut seen = 0usize;
        self.inner.produce(spec, &mut |params, values| {
            let v: Vec<f32> = values
                .iter()
                .enumerate()
                .map(|(i, &v)| alter(seen + i, v))
                .collect();
            seen += v.len();
            sink(params, &v)
        })
    }
}
