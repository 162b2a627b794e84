//! A signal that arrives after the finished file was renamed into place ends the process
//! with status 0: the exit status tells the truth about the file, which is complete.
//! The bake is held right after its rename by a stderr nobody reads (its first stderr
//! line, the summary, comes after the rename), so the moment is hit every time.
#![cfg(unix)]

use crate::bake_support;

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bake_support::{listing, read_npy};

const SIGHUP: i32 = 1;
const SIGINT: i32 = 2;
const SIGTERM: i32 = 15;

/// The writing end of a pipe that is full and never read: the stdin of a `sleep` (which
/// does not read it), filled with the 64 KiB a Linux pipe holds. The next write blocks.
fn full_pipe() -> (std::process::Child, Stdio) {
    let mut sleeper = Command::new("sleep")
        .arg("300")
        .stdin(Stdio::piped())
        .spawn()
        .expect("sleep");
    let mut writer = sleeper.stdin.take().unwrap();
    writer.write_all(&[b'.'; 65536]).expect("fill the pipe");
    (sleeper, Stdio::from(writer))
}

#[test]
fn a_signal_after_the_rename_exits_0_with_the_new_file_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for signal in [SIGHUP, SIGINT, SIGTERM] {
        std::fs::write(d.join("out.npy"), b"old").unwrap();
        let (mut sleeper, stderr) = full_pipe();
        let mut child = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
            .args([
                "bake",
                "--size",
                "64x32",
                "--backend",
                "cpu",
                "--force",
                "-o",
                "out.npy",
            ])
            .current_dir(d)
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("start wgpu-noise");
        // Renamed: the new file is in place and no temporary file is left.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let names = listing(d);
            let renamed = std::fs::metadata(d.join("out.npy")).is_ok_and(|m| m.len() > 3)
                && !names.iter().any(|n| n.ends_with(".tmp"));
            if renamed {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "signal {signal}: no rename in 60 s"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        // Blocked on its summary line, after the rename.
        std::thread::sleep(Duration::from_millis(200));
        assert!(
            child.try_wait().unwrap().is_none(),
            "signal {signal}: the bake should be held by its full stderr"
        );
        let sent = Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(child.id().to_string())
            .status()
            .unwrap();
        assert!(sent.success());
        let status = child.wait().unwrap();
        let _ = sleeper.kill();
        let _ = sleeper.wait();
        assert_eq!(
            (status.code(), status.signal()),
            (Some(0), None),
            "signal {signal} after the rename: the file is written, the status must say so"
        );
        assert_eq!(read_npy(&d.join("out.npy"), &[32, 64]).len(), 64 * 32);
        assert_eq!(listing(d), vec!["out.npy".to_string()]);
    }
}
