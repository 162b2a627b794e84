//! Interrupted bakes leave nothing behind: SIGINT or SIGTERM at any moment of a real bake,
//! a write past `ulimit -f` (SIGXFSZ), and the leftover of a SIGKILL, which the next bake
//! to the same path removes. An existing output stays byte for byte what it was.
#![cfg(unix)]

use crate::bake_support;

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bake_support::{bake_ok, listing};

/// Big enough (32 MiB of .npy) to be caught mid-write; 2D noise, about half the time of a
/// 3D field of as many texels (1.5 to 3 s on the CPU here).
const ARGS: [&str; 6] = ["--dims", "2", "--size", "4096x2048", "--backend", "cpu"];

const SIGINT: i32 = 2;
const SIGKILL: i32 = 9;
const SIGTERM: i32 = 15;

fn args_for<'a>(output: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = ARGS.to_vec();
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--force", "-o", output]);
    args
}

/// `wgpu-noise bake ARGS` started in `dir`, stdout and stderr discarded, with SIGINT and
/// SIGTERM at their default action: a process started as a background job inherits SIGINT
/// ignored, and a signal that comes before the bake installs its handlers would then be
/// lost instead of ending it.
fn spawn_bake(dir: &Path, args: &[&str]) -> Child {
    use std::os::unix::process::CommandExt;

    let mut command = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"));
    command
        .arg("bake")
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: between fork and exec the closure only calls `signal`, which is
    // async-signal-safe.
    unsafe {
        command.pre_exec(|| {
            for signal in [libc::SIGINT, libc::SIGTERM] {
                if libc::signal(signal, libc::SIG_DFL) == libc::SIG_ERR {
                    return Err(std::io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    command.spawn().expect("start wgpu-noise")
}

fn send(child: &Child, signal: i32) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -{signal} {}", child.id());
}

/// The temporary files of `output` in `dir` that process `pid` is writing.
fn temporaries_of(dir: &Path, output: &str, pid: u32) -> Vec<PathBuf> {
    let prefix = format!(".{output}.wgpu-noise-{pid}.");
    listing(dir)
        .into_iter()
        .filter(|n| n.starts_with(&prefix) && n.ends_with(".tmp"))
        .map(|n| dir.join(n))
        .collect()
}

/// When, during a bake, the signal is sent.
#[derive(Clone, Copy, Debug)]
enum Moment {
    /// Right after the process starts (before or while it sets up).
    AtOnce,
    /// As soon as its temporary file exists.
    Created,
    /// Once the temporary file holds half of the finished file's bytes.
    Half,
    /// Once it holds 90 %: the end of writing, syncing or renaming. The bake may finish
    /// first; then the output must be the whole new file.
    Late,
}

/// Waits until `child`'s bake of `output` reaches `moment`; false if it ended before.
fn wait_for(dir: &Path, output: &str, child: &mut Child, moment: Moment, full: u64) -> bool {
    let fraction = match moment {
        Moment::AtOnce => return true,
        Moment::Created => 0.0,
        Moment::Half => 0.5,
        Moment::Late => 0.9,
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        if child.try_wait().expect("try_wait").is_some() {
            return false;
        }
        for temp in temporaries_of(dir, output, child.id()) {
            if let Ok(meta) = std::fs::metadata(&temp) {
                if meta.len() as f64 >= fraction * full as f64 {
                    return true;
                }
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    panic!("bake of {output} did not reach {moment:?} in 120 s");
}

#[test]
fn sigint_or_sigterm_at_any_moment_leaves_no_temporary_file_and_the_old_output_intact() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut interrupted = 0;
    for ext in ["npy", "png", "exr"] {
        // What a finished bake writes, and a different old output to protect.
        let new_name = format!("new.{ext}");
        let old_name = format!("old.{ext}");
        bake_ok(d, &args_for(&new_name, &[]));
        bake_ok(d, &args_for(&old_name, &["--seed", "1"]));
        let new = std::fs::read(d.join(&new_name)).unwrap();
        let old = std::fs::read(d.join(&old_name)).unwrap();
        assert_ne!(new, old);
        let moments: &[(Moment, i32)] = if ext == "npy" {
            &[
                (Moment::AtOnce, SIGINT),
                (Moment::Created, SIGTERM),
                (Moment::Half, SIGINT),
                (Moment::Half, SIGTERM),
                (Moment::Late, SIGINT),
                (Moment::Late, SIGTERM),
            ]
        } else {
            &[(Moment::Half, SIGINT), (Moment::Late, SIGTERM)]
        };
        for &(moment, signal) in moments {
            for existing in [true, false] {
                let output = format!("out.{ext}");
                let target = d.join(&output);
                if existing {
                    std::fs::write(&target, &old).unwrap();
                } else {
                    let _ = std::fs::remove_file(&target);
                }
                let before = listing(d);
                let case = format!("{output} {moment:?} signal {signal} existing {existing}");

                let mut child = spawn_bake(d, &args_for(&output, &[]));
                let reached = wait_for(d, &output, &mut child, moment, new.len() as u64);
                if reached {
                    send(&child, signal);
                }
                let status = child.wait().unwrap();
                let after = listing(d);
                if status.signal() == Some(signal) {
                    interrupted += 1;
                    // Ended by the signal itself (a shell shows 128 + signal: 130, 143).
                    let content = std::fs::read(&target).ok();
                    // A signal that arrives just after the rename finds the new file whole.
                    let whole_new = content.as_deref() == Some(&new[..]);
                    if existing {
                        assert!(
                            content.as_deref() == Some(&old[..]) || whole_new,
                            "{case}: the old output changed"
                        );
                    } else {
                        assert!(content.is_none() || whole_new, "{case}: a partial output");
                    }
                    if !whole_new {
                        assert_eq!(after, before, "{case}: files left behind");
                    }
                } else {
                    assert!(
                        matches!(moment, Moment::Late) || !reached,
                        "{case}: not ended by the signal: {status:?}"
                    );
                    assert!(
                        !matches!(moment, Moment::AtOnce | Moment::Created | Moment::Half),
                        "{case}: the bake finished before the signal ({status:?}); it is meant to be caught mid-way"
                    );
                    assert!(status.success(), "{case}: {status:?}");
                    assert_eq!(std::fs::read(&target).unwrap(), new, "{case}");
                }
                let temps: Vec<_> = after.iter().filter(|n| n.ends_with(".tmp")).collect();
                assert!(temps.is_empty(), "{case}: left {temps:?}");
            }
        }
    }
    // AtOnce, Created and Half are always interrupted: 5 npy moments × 2 at least.
    assert!(interrupted >= 10, "{interrupted} bakes were interrupted");
}

/// `sh -c SCRIPT wgpu-noise ARGS…` in `dir`.
fn sh(dir: &Path, script: &str, args: &[&str]) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_wgpu-noise"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run sh")
}

#[test]
fn a_file_size_limit_is_a_clean_error_without_ignoring_sigxfsz_first() {
    // Unlike tests/cli/bake_errors.rs, the shell does not ignore SIGXFSZ: the binary must.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for ext in ["npy", "png", "exr"] {
        let output = format!("big.{ext}");
        bake_ok(d, &["--size", "256x256", "--seed", "1", "-o", &output]);
        let old = std::fs::read(d.join(&output)).unwrap();
        let before = listing(d);
        let out = sh(
            d,
            r#"ulimit -f 100; exec "$0" bake "$@""#,
            &[
                "--size",
                "256x256",
                "--backend",
                "cpu",
                "--force",
                "-o",
                &output,
            ],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{output}: {out:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!("error: writing {output}: File too large")),
            "{output}: {stderr}"
        );
        assert_eq!(listing(d), before, "{output}: files left behind");
        assert_eq!(std::fs::read(d.join(&output)).unwrap(), old, "{output}");
    }
}

#[test]
fn a_sigkill_leftover_is_named_for_its_process_and_removed_by_the_next_bake() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    bake_ok(d, &args_for("out.npy", &["--seed", "1"]));
    let old = std::fs::read(d.join("out.npy")).unwrap();

    let mut child = spawn_bake(d, &args_for("out.npy", &[]));
    assert!(wait_for(d, "out.npy", &mut child, Moment::Created, 1));
    send(&child, SIGKILL);
    assert_eq!(child.wait().unwrap().signal(), Some(SIGKILL));
    let leftovers = temporaries_of(d, "out.npy", child.id());
    assert_eq!(leftovers.len(), 1, "{:?}", listing(d));
    let leftover = leftovers[0]
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(std::fs::read(d.join("out.npy")).unwrap(), old);

    // Not removed: a file of a process that still runs (this test), and another output's.
    let live = format!(".out.npy.wgpu-noise-{}.abcdef.tmp", std::process::id());
    let other = format!(".other.npy.wgpu-noise-{}.abcdef.tmp", child.id());
    std::fs::write(d.join(&live), b"in progress").unwrap();
    std::fs::write(d.join(&other), b"another output").unwrap();

    let stderr = bake_ok(d, &["--size", "8x8", "--force", "-o", "out.npy"]);
    assert!(
        stderr.starts_with(&format!(
            "notice: removed {leftover}, left by an interrupted wgpu-noise whose process is gone\n"
        )),
        "{stderr}"
    );
    let mut expected = vec![live, other, "out.npy".to_string()];
    expected.sort();
    assert_eq!(listing(d), expected);
}
