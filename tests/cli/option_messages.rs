//! Every refused option is one `error:` line that names it: negative numbers for options
//! that take whole numbers ≥ 0 reach their parser (not clap's "unexpected argument"), clap's
//! own usage errors are one line too, and options that would be silently ignored — bench
//! shapings that apply to none of the chosen fields, preview tiling where it does not
//! tile — are refused with the reason.

use crate::bake_support;

use std::process::{Command, Stdio};

use bake_support::assert_refused;

/// `wgpu-noise ARGS` (no stdin, no display): status and stderr.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_wgpu-noise"))
        .args(args)
        .stdin(Stdio::null())
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("run wgpu-noise");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_one_error_line(args: &[&str], message: &str) {
    let (code, stderr) = run(args);
    assert_eq!(code, Some(1), "{args:?}: {stderr}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "{args:?}: one line expected: {stderr}"
    );
    assert!(
        stderr.starts_with("error: ") && stderr.contains(message),
        "{args:?}: expected {message:?} in {stderr:?}"
    );
}

#[test]
fn negative_numbers_for_whole_number_options_name_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let bake = |extra: &[&str], message: &str| {
        let mut args = vec!["--size", "8x8", "-o", "x.npy"];
        args.extend_from_slice(extra);
        assert_refused(dir.path(), &args, message);
    };
    bake(
        &["--seed", "-1"],
        "invalid value '-1' for '--seed <SEED>': must be a whole number ≥ 0",
    );
    bake(&["--octaves", "-1"], "--octaves -1: not a whole number");
    bake(
        &["--verify", "--tolerance", "-1"],
        "invalid value '-1' for '--tolerance <TOLERANCE>': must be a finite number ≥ 0",
    );
    bake(
        &["--tiles", "2,2", "--tile", "0,0", "--overlap", "-1"],
        "invalid value '-1' for '--overlap <N>': must be a whole number ≥ 0",
    );
    bake(
        &["--tiles", "2,2", "--tile", "-1,0"],
        "--tile -1,0: \"-1\" is not a whole number",
    );
    bake(
        &["--columns", "-2"],
        "invalid value '-2' for '--columns <COLUMNS>': must be a whole number ≥ 0",
    );
    bake(
        &["--warp", "1", "--warp-octaves", "-1"],
        "--warp-octaves must be a whole number, not \"-1\"",
    );
    bake(&["--dims", "-2"], "invalid value '-2' for '--dims <DIMS>'");
    for command in [&["sample"][..], &["bench", "--cpu-only"], &["preview"]] {
        let mut args = command.to_vec();
        args.extend_from_slice(&["--seed", "-1"]);
        assert_one_error_line(&args, "'--seed <SEED>': must be a whole number ≥ 0");
    }
    assert_one_error_line(
        &["bench", "--repeats", "-1"],
        "invalid value '-1' for '--repeats <REPEATS>'",
    );
    assert_one_error_line(
        &["preview", "--octaves", "-1"],
        "invalid value '-1' for '--octaves <OCTAVES>'",
    );
    assert_one_error_line(
        &["preview", "--frequency", "-1"],
        "--frequency must be a positive number, not -1",
    );
}

#[test]
fn usage_errors_clap_finds_are_one_line_with_their_tip() {
    assert_one_error_line(
        &["bake", "--dims", "5", "--size", "8", "-o", "x.npy"],
        "invalid value '5' for '--dims <DIMS>': 5 is not in 2..=4",
    );
    assert_one_error_line(
        &["bake", "--sise", "8"],
        "unexpected argument '--sise' found (a similar argument exists: '--size')",
    );
    assert_one_error_line(
        &["bake"],
        "the following required arguments were not provided: --size <WxH[xD[xT]]>, --output <FILE>",
    );
}

#[test]
fn bench_shapings_that_apply_to_nothing_chosen_are_refused() {
    for (args, message) in [
        (&["--flow-angle", "1", "--noise", "classic"][..], "--flow-angle: flow noise turns the gradients of simplex noise in 2D and 3D; nothing to measure with --noise classic"),
        (&["--flow-angle", "1", "--dims", "4"], "nothing to measure with --dims 4"),
        (&["--curl", "--noise", "cellular"], "--curl: curl noise is made from simplex noise in 2D and 3D"),
        (&["--tileable", "--noise", "simplex", "--dims", "4"], "--tileable: 4D simplex noise does not tile; nothing to measure with --noise simplex --dims 4"),
        (&["--warp", "nan"], "--warp NaN: the amplitude must be a finite number"),
    ] {
        let mut all = vec!["bench", "--quick", "--cpu-only"];
        all.extend_from_slice(args);
        assert_one_error_line(&all, message);
    }
}

#[test]
fn preview_refuses_what_it_would_silently_not_show() {
    assert_one_error_line(
        &["preview", "--dims", "4", "--tileable"],
        "--tileable: simplex noise tiles in 2D and 3D only",
    );
    assert_one_error_line(
        &["preview", "--tileable", "--curl"],
        "--tileable and --curl: curl noise does not tile",
    );
    assert_one_error_line(
        &["preview", "--curl", "--dims", "4"],
        "--curl: curl noise is 2D or 3D",
    );
    // Classic 4D noise tiles: the preview gets as far as looking for a display.
    let (code, stderr) = run(&["preview", "--dims", "4", "--tileable", "--noise", "classic"]);
    assert_eq!(code, Some(1));
    assert!(stderr.contains("no display"), "{stderr}");
}
