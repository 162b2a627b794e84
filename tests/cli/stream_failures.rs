//! A write to stdout or stderr that fails never panics (exit 101): a reader that went away
//! (a closed pipe) ends the run quietly with status 0, as `sample` always did; any other
//! failure (`/dev/full`) is one `error:` line (where stderr still takes it) and status 1.
#![cfg(unix)]

use std::fs::File;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn wgpu_noise(args: &[&str], dir: &std::path::Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"));
    cmd.args(args).current_dir(dir).stdin(Stdio::null());
    cmd
}

fn full() -> Stdio {
    Stdio::from(
        File::options()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full"),
    )
}

/// The writing end of a pipe whose reading end is already closed: the stdin of a `true`
/// that has exited.
fn closed_pipe() -> Stdio {
    let mut reader = Command::new("true")
        .stdin(Stdio::piped())
        .spawn()
        .expect("true");
    let writer = reader.stdin.take().unwrap();
    reader.wait().expect("true exits");
    Stdio::from(writer)
}

/// Runs `cmd` with stdout (`on_stdout`) or stderr a pipe nobody reads any more.
fn with_closed_pipe(mut cmd: Command, on_stdout: bool) -> Output {
    if on_stdout {
        cmd.stdout(closed_pipe()).stderr(Stdio::piped());
    } else {
        cmd.stderr(closed_pipe()).stdout(Stdio::piped());
    }
    cmd.output().expect("run wgpu-noise")
}

const RAW_BAKE: [&str; 8] = [
    "bake",
    "--size",
    "8x4",
    "--backend",
    "cpu",
    "--force",
    "-o",
    "h.r16",
];

#[test]
fn a_full_stdout_is_one_error_line_and_status_1() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&RAW_BAKE[..], &["bake", "--help"], &["--version"]] {
        let out = wgpu_noise(args, dir.path())
            .stdout(full())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        let last = stderr.lines().last().unwrap_or_default();
        assert_eq!(
            last, "error: writing to stdout: No space left on device (os error 28)",
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // sample, which always handled it, still does.
    let mut child = wgpu_noise(&["sample"], dir.path())
        .stdin(Stdio::piped())
        .stdout(full())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"0.5 0.25\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: writing to stdout: No space left on device (os error 28)\n"
    );
}

#[test]
fn a_full_stderr_is_status_1_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &RAW_BAKE[..],
        &["sample", "--verbose"],
        &["bake", "--size", "0", "-o", "x.npy"],
        &["bake", "--no-such-option"],
    ] {
        let out = wgpu_noise(args, dir.path())
            .stdout(Stdio::piped())
            .stderr(full())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
    }
}

#[test]
fn a_closed_pipe_ends_quietly_with_status_0() {
    let dir = tempfile::tempdir().unwrap();
    for (args, on_stdout) in [
        (&RAW_BAKE[..], true),
        (&RAW_BAKE[..], false),
        (&["bake", "--help"][..], true),
        (&["--version"][..], true),
    ] {
        let out = with_closed_pipe(wgpu_noise(args, dir.path()), on_stdout);
        let other = if on_stdout { &out.stderr } else { &out.stdout };
        let text = String::from_utf8_lossy(other);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?} (stdout {on_stdout}): {text}"
        );
        assert!(!text.contains("error"), "{args:?}: {text}");
    }
    let bytes = std::fs::read(dir.path().join("h.r16")).unwrap();
    assert_eq!(bytes.len(), 8 * 4 * 2, "the file was written whole");
}
