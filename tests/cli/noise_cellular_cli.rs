//! The command line for cellular noise: `bake` writes the CPU reference's values, `sample`
//! evaluates every option, and bad options are one-line errors that write nothing.

use std::io::Write;
use std::process::{Command, Stdio};

use wgpu_noise::cpu::cellular::{cellular, CellularShape};
use wgpu_noise::field::{Cellular, CellularOutput, Distance};
use wgpu_noise::tables::PermutationTables;

fn run(args: &[&str], stdin: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn sample_evaluates_the_chosen_output_distance_and_jitter() {
    let (ok, out, err) = run(
        &[
            "sample",
            "--noise",
            "cellular",
            "--dims",
            "3",
            "--cellular",
            "f2-f1",
            "--distance",
            "manhattan",
            "--jitter",
            "0.7",
            "--seed",
            "4",
        ],
        "1.5 -2.25 300.125\n",
    );
    assert!(ok, "{err}");
    let got: f64 = out.trim().parse().unwrap();
    let shape = CellularShape::from_options(&Cellular {
        output: CellularOutput::F2MinusF1,
        distance: Distance::Manhattan,
        jitter: 0.7,
    });
    let expect = cellular::<f64>(&PermutationTables::new(4), &[1.5, -2.25, 300.125], &shape);
    assert_eq!(got, expect);
}

#[test]
fn bad_cellular_options_are_refused_and_write_nothing() {
    let dir = std::env::temp_dir().join(format!("wgpu-noise-cellular-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("x.npy");
    let path = file.to_str().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["--noise", "cellular", "--jitter", "1.5"],
            "--jitter must be a number from 0 to 1",
        ),
        (
            &["--noise", "cellular", "--jitter", "nan"],
            "--jitter must be a number from 0 to 1",
        ),
        (
            &["--noise", "simplex", "--distance", "manhattan"],
            "apply to --noise cellular only",
        ),
        (
            &["--noise", "cellular", "--tileable", "--frequency", "2.5"],
            "whole-number frequency",
        ),
    ];
    for (extra, message) in cases {
        let mut args = vec!["bake", "--size", "8x8", "--backend", "cpu", "-o", path];
        args.extend_from_slice(extra);
        let (ok, _, err) = run(&args, "");
        assert!(!ok, "{extra:?} must fail");
        assert!(err.contains(message), "{extra:?}: {err}");
        assert!(!file.exists(), "{extra:?} wrote a file");
    }
    std::fs::remove_dir_all(&dir).ok();
}
