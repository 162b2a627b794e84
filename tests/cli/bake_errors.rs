//! Bad input to `wgpu-noise bake`: each case is a one-line error on stderr, exit code 1
//! (not clap's 2, not a panic's 101), and the directory is left exactly as it was — no
//! output file, no temporary file.

use crate::bake_support;

use std::path::Path;
use std::process::Command;

use bake_support::{assert_refused, bake_in, listing, read_npy};

#[test]
fn zero_negative_and_absurd_sizes_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_refused(
        d,
        &["--size", "0x8", "-o", "x.npy"],
        "--size 0x8: the size along x is 0",
    );
    assert_refused(
        d,
        &["--size", "8x-3", "-o", "x.npy"],
        r#"--size 8x-3: "-3" is not a whole number of texels"#,
    );
    assert_refused(
        d,
        &["--size", "-8", "-o", "x.npy"],
        r#""-8" is not a whole number of texels"#,
    );
    assert_refused(
        d,
        &["--size", "8xabc", "-o", "x.npy"],
        r#""abc" is not a whole number"#,
    );
    assert_refused(
        d,
        &["--size", "99999999999x2", "-o", "x.npy"],
        "the size along x is 99999999999, above the maximum 16777216",
    );
    assert_refused(
        d,
        &["--size", "100000x100000", "-o", "x.npy"],
        "10000000000 samples, above the maximum 4294967295",
    );
    assert_refused(
        d,
        &[
            "--dims",
            "4",
            "--size",
            "4096x4096x4096x4096",
            "-o",
            "x.npy",
        ],
        "above the maximum 4294967295",
    );
}

#[test]
fn a_size_with_another_number_of_axes_than_dims_is_refused_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    assert_refused(
        dir.path(),
        &["--size", "8x8x8", "-o", "x.npy"],
        "--size 8x8x8: 3 sizes, but --dims is 2 (give WxH, or --dims 3)",
    );
    assert_refused(
        dir.path(),
        &["--dims", "4", "--size", "8x8", "-o", "x.npy"],
        "2 sizes, but --dims is 4 (give WxHxDxT",
    );
}

#[test]
fn non_finite_or_absurd_frequency_and_offset_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for bad in ["nan", "inf", "-inf", "4,NaN"] {
        assert_refused(
            d,
            &["--size", "8x8", "--frequency", bad, "-o", "x.npy"],
            "is not a finite number",
        );
    }
    assert_refused(
        d,
        &["--size", "8x8", "--frequency", "1e30", "-o", "x.npy"],
        "frequency along x is 1e30, beyond ±2^24",
    );
    assert_refused(
        d,
        &["--size", "8x8", "--frequency", "1,2,3", "-o", "x.npy"],
        "--frequency 1,2,3: 3 values, expected 1 or 2",
    );
    assert_refused(
        d,
        &["--size", "8x8", "--offset", "0,inf", "-o", "x.npy"],
        r#"--offset 0,inf: "inf" is not a finite number"#,
    );
    assert_refused(
        d,
        &["--size", "8x8", "--offset", "1", "-o", "x.npy"],
        "--offset 1: 1 values, expected 2",
    );
    assert_refused(
        d,
        &["--size", "8x8", "--offset", "1,x", "-o", "x.npy"],
        r#""x" is not a number"#,
    );
}

#[test]
fn unknown_or_missing_extension_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["x.tif", "x", "x.npy.bak"] {
        assert_refused(
            dir.path(),
            &["--size", "8x8", "-o", name],
            &format!("cannot tell the format of {name} from its extension: use .png, .exr, .npy, .ktx2, .r16 or .raw"),
        );
    }
}

#[test]
fn options_that_do_not_fit_the_format_or_the_field_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_refused(
        d,
        &["--size", "8x8", "--bits", "8", "-o", "x.npy"],
        "--bits applies to PNG, KTX2 and RAW output only",
    );
    assert_refused(
        d,
        &["--size", "8x8", "--range", "0,1", "-o", "x.exr"],
        "--range applies to PNG, KTX2 and RAW output only",
    );
    assert_refused(
        d,
        &["--size", "8x8", "--range", "1,-1", "-o", "x.png"],
        "value range [1, -1] must be finite with low < high",
    );
    assert_refused(
        d,
        &[
            "--dims",
            "3",
            "--size",
            "4x4x12",
            "--columns",
            "5",
            "-o",
            "x.png",
        ],
        "atlas columns must divide the number of slices (12); 5 does not",
    );
    assert_refused(
        d,
        &[
            "--dims",
            "3",
            "--size",
            "4x4x12",
            "--columns",
            "4",
            "-o",
            "x.npy",
        ],
        "atlas columns apply to PNG and EXR only",
    );
}

#[test]
fn an_existing_output_is_refused_without_force_and_replaced_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("x.npy"), b"keep me").unwrap();
    assert_refused(
        d,
        &["--size", "8x4", "--backend", "cpu", "-o", "x.npy"],
        "x.npy already exists; pass --force to overwrite it",
    );
    assert_eq!(std::fs::read(d.join("x.npy")).unwrap(), b"keep me");

    let out = bake_in(
        d,
        &[
            "--size",
            "8x4",
            "--backend",
            "cpu",
            "--force",
            "-o",
            "x.npy",
        ],
        &[],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(read_npy(&d.join("x.npy"), &[4, 8]).len(), 32);
    assert_eq!(listing(d), ["x.npy"]);

    std::fs::create_dir(d.join("sub.npy")).unwrap();
    assert_refused(
        d,
        &["--size", "8x4", "--force", "-o", "sub.npy"],
        "sub.npy is a directory",
    );

    // --force replaces files, never a FIFO or device node (the rename would swap the node
    // itself out, e.g. /dev/null when run as root).
    if Command::new("mkfifo")
        .arg(d.join("pipe.npy"))
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
    {
        assert_refused(
            d,
            &["--size", "8x4", "--force", "-o", "pipe.npy"],
            "pipe.npy is not a regular file (a device, FIFO or socket; refusing to replace it)",
        );
    } else {
        eprintln!("SKIPPED FIFO case: mkfifo unavailable");
    }
}

#[test]
fn a_missing_or_unwritable_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    assert_refused(
        d,
        &["--size", "8x8", "-o", "missing/x.npy"],
        "cannot create a file in missing (for missing/x.npy): No such file or directory",
    );

    // A read-only directory; root ignores permission bits, so then use /sys, which no
    // one may create files in.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = d.join("ro");
        std::fs::create_dir(&ro).unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        let root_ignores_permissions = std::fs::write(ro.join("probe"), b"").is_ok();
        if root_ignores_permissions {
            std::fs::remove_file(ro.join("probe")).unwrap();
            if Path::new("/sys").is_dir() {
                assert_refused(d, &["--size", "8x8", "-o", "/sys/wgpu-noise-test.npy"], "cannot create a file in /sys (for /sys/wgpu-noise-test.npy): Permission denied");
            } else {
                eprintln!("SKIPPED read-only directory case: running as root and no /sys");
            }
        } else {
            assert_refused(
                d,
                &["--size", "8x8", "-o", "ro/x.npy"],
                "cannot create a file in ro (for ro/x.npy): Permission denied",
            );
            assert!(listing(&ro).is_empty());
        }
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
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
#[cfg(unix)]
fn a_write_failing_midway_leaves_no_file_in_every_format() {
    // RLIMIT_FSIZE stands in for a full disk without privileges: a write past the limit
    // fails (EFBIG) once SIGXFSZ is ignored. Each output is well past 16 KiB.
    let dir = tempfile::tempdir().unwrap();
    for file in ["big.npy", "big.png", "big.exr"] {
        let out = sh(
            dir.path(),
            r#"ulimit -f 16 && trap "" XFSZ && exec "$0" bake "$@""#,
            &["--size", "256x256", "--backend", "cpu", "-o", file],
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{file}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!("error: writing {file}: File too large")),
            "{file}: {stderr}"
        );
        assert!(
            listing(dir.path()).is_empty(),
            "{file}: {:?}",
            listing(dir.path())
        );
    }
}

#[test]
#[cfg(target_os = "linux")]
fn a_full_disk_leaves_no_file() {
    // A real full file system: a 64 KiB tmpfs, mounted in a private user+mount namespace
    // (no root needed where unprivileged user namespaces are allowed).
    let dir = tempfile::tempdir().unwrap();
    let mnt = dir.path().join("tmpfs");
    std::fs::create_dir(&mnt).unwrap();
    let probe = Command::new("unshare")
        .args([
            "--user",
            "--map-root-user",
            "--mount",
            "sh",
            "-c",
            "mount -t tmpfs -o size=64k tmpfs \"$0\"",
            mnt.to_str().unwrap(),
        ])
        .output();
    if !probe.map(|o| o.status.success()).unwrap_or(false) {
        eprintln!("SKIPPED: cannot mount a tmpfs here (unshare/user namespaces unavailable); the RLIMIT_FSIZE test covers the write path");
        return;
    }
    let script = r#"mount -t tmpfs -o size=64k tmpfs "$1" && cd "$1" && "$0" bake --size 256x256 --backend cpu -o full.npy; echo "rc=$?"; ls -A"#;
    let out = Command::new("unshare")
        .args([
            "--user",
            "--map-root-user",
            "--mount",
            "sh",
            "-c",
            script,
            env!("CARGO_BIN_EXE_wgpu-noise"),
            mnt.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        stdout.trim(),
        "rc=1",
        "exit code 1 and an empty file system afterwards; stderr: {stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("error: writing full.npy: No space left on device"),
        "{stderr}"
    );
}
