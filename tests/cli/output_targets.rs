//! What `-o` may name: a regular file (new, or existing with `--force`). A symbolic link
//! (`/dev/stdout` among them), a device, a FIFO or a path ending in `/` is refused with the
//! reason before any work, and left as it was; `--force` keeps the replaced file's
//! permissions; names up to the 255 bytes a file name may have work (the temporary name
//! beside them is shortened to fit).
#![cfg(unix)]

use crate::bake_support;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use bake_support::{assert_refused, bake_in, bake_ok, listing, read_npy};

const SMALL: [&str; 4] = ["--size", "8x4", "--backend", "cpu"];

fn args<'a>(output: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut all = SMALL.to_vec();
    all.extend_from_slice(extra);
    all.extend_from_slice(&["-o", output]);
    all
}

/// A link shaped as `/dev/stdout` (to `/proc/self/fd/1`), made in a scratch directory:
/// testing `/dev/stdout` itself would, as root and against a binary that replaces links,
/// replace the machine's `/dev/stdout` with a regular file.
#[test]
fn a_link_like_dev_stdout_is_refused_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/proc/self/fd/1", dir.path().join("stdout")).unwrap();
    let out = bake_in(
        dir.path(),
        &args("stdout", &["--force", "--format", "npy"]),
        &[],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr,
        "error: stdout is a symbolic link to /proc/self/fd/1, not a regular file (refusing to \
         replace it; give the path of a regular file)\n"
    );
    assert!(out.stdout.is_empty(), "nothing written to stdout");
    assert_eq!(
        std::fs::read_link(dir.path().join("stdout")).unwrap(),
        Path::new("/proc/self/fd/1"),
        "the link is untouched"
    );
    assert_eq!(listing(dir.path()), vec!["stdout".to_string()]);
}

#[test]
fn a_symbolic_link_is_refused_and_neither_it_nor_its_target_changes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("real.npy"), b"old").unwrap();
    std::os::unix::fs::symlink("real.npy", dir.path().join("link.npy")).unwrap();
    std::os::unix::fs::symlink("missing.npy", dir.path().join("dangling.npy")).unwrap();
    assert_refused(
        dir.path(),
        &args("link.npy", &["--force"]),
        "link.npy is a symbolic link to real.npy, not a regular file",
    );
    assert_refused(
        dir.path(),
        &args("dangling.npy", &["--force"]),
        "dangling.npy is a symbolic link to missing.npy",
    );
    assert_eq!(std::fs::read(dir.path().join("real.npy")).unwrap(), b"old");
    assert!(std::fs::symlink_metadata(dir.path().join("link.npy"))
        .unwrap()
        .file_type()
        .is_symlink());
}

#[test]
fn devices_and_fifos_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.npy");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo");
    assert_refused(
        dir.path(),
        &args("pipe.npy", &["--force"]),
        "pipe.npy is not a regular file (a device, FIFO or socket; refusing to replace it)",
    );
    assert_refused(
        dir.path(),
        &args("/dev/null", &["--force", "--format", "npy"]),
        "/dev/null is not a regular file",
    );
}

#[test]
fn a_path_ending_in_a_slash_is_refused_before_baking() {
    let dir = tempfile::tempdir().unwrap();
    for output in ["x.png/", "x.png/."] {
        // A bake big enough to take a while: refused at once means checked first.
        let started = std::time::Instant::now();
        assert_refused(
            dir.path(),
            &["--size", "4096x4096", "--backend", "cpu", "-o", output],
            "does not name a file (a path ending in / is a directory)",
        );
        assert!(
            started.elapsed().as_secs_f64() < 5.0,
            "{output}: refused late"
        );
    }
}

#[test]
fn force_keeps_the_permissions_of_the_file_it_replaces() {
    let dir = tempfile::tempdir().unwrap();
    for mode in [0o600, 0o640, 0o664, 0o444] {
        let path = dir.path().join("kept.npy");
        std::fs::write(&path, b"old").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        bake_ok(dir.path(), &args("kept.npy", &["--force"]));
        let after = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(after, mode, "mode {mode:o} became {after:o}");
        assert_eq!(read_npy(&path, &[4, 8]).len(), 32);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::fs::remove_file(&path).unwrap();
    }
}

/// A name of `len` bytes ending in `.npy`, made of `fill`.
fn long_name(fill: char, len: usize) -> String {
    format!("{}.npy", fill.to_string().repeat(len - 4))
}

#[test]
fn names_up_to_255_bytes_work_and_longer_ones_are_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    for len in [200, 221, 222, 225, 240, 255] {
        let name = long_name('a', len);
        bake_ok(dir.path(), &args(&name, &[]));
        assert_eq!(
            read_npy(&dir.path().join(&name), &[4, 8]).len(),
            32,
            "{len} bytes"
        );
        // Again with --force (a second temporary name next to the existing file).
        bake_ok(dir.path(), &args(&name, &["--force"]));
        assert_eq!(
            listing(dir.path()),
            vec![name.clone()],
            "{len}: nothing else left"
        );
        std::fs::remove_file(dir.path().join(&name)).unwrap();
    }
    // Two long names that differ only at the end keep apart.
    let (a, b) = (long_name('b', 255), format!("{}x.npy", "b".repeat(250)));
    bake_ok(dir.path(), &args(&a, &[]));
    bake_ok(dir.path(), &args(&b, &[]));
    assert_eq!(listing(dir.path()).len(), 2);
    for name in [&a, &b] {
        std::fs::remove_file(dir.path().join(name)).unwrap();
    }
    let too_long = long_name('c', 256);
    assert_refused(
        dir.path(),
        &args(&too_long, &[]),
        "the file name is 256 bytes, longer than the 255 a file name may have",
    );
    assert!(!Path::new(&too_long).exists());
}
