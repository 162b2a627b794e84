//! Numbers at the edge of their range: a normal map of any finite strength has unit
//! normals, a range whose width overflows is refused (a narrower huge one maps values
//! correctly), a spacing too fine for f32 blames the frequency and the size (not the
//! offset), frequency 0 is refused rather than baking a constant, and no message or value
//! prints a number as hundreds of digits.

use crate::bake_support;

use bake_support::{assert_refused, bake_ok, sample_with_input};

#[test]
fn normal_maps_of_huge_strengths_have_unit_normals() {
    let dir = tempfile::tempdir().unwrap();
    for strength in ["1", "1e155", "1e300", "1e308"] {
        bake_ok(
            dir.path(),
            &[
                "--size",
                "32x32",
                "--frequency",
                "4",
                "--normal-map",
                "--normal-strength",
                strength,
                "--backend",
                "cpu",
                "--force",
                "-o",
                "n.png",
            ],
        );
        let image = image::open(dir.path().join("n.png")).unwrap().into_rgb16();
        let mut shortest = f64::INFINITY;
        for px in image.pixels() {
            let n = px.0.map(|l| l as f64 / 65535.0 * 2.0 - 1.0);
            let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
            shortest = shortest.min(len);
            // 16-bit levels: each component within 1/65535 of the true one.
            assert!(
                (len - 1.0).abs() < 1e-4,
                "strength {strength}: |n| = {len} at {px:?}"
            );
        }
        eprintln!("NORMAL MAP strength {strength}: shortest |n| {shortest}");
    }
}

#[test]
fn a_range_whose_width_overflows_is_refused_and_a_huge_one_still_maps() {
    let dir = tempfile::tempdir().unwrap();
    assert_refused(
        dir.path(),
        &["--size", "8x8", "--range=-9e307,9e307", "-o", "r.png"],
        "value range [-9e307, 9e307]: its width 9e307 - (-9e307) is beyond f64",
    );
    // Width 2e307: noise values (|v| ≤ 1) all sit at the middle level, not at level 0.
    bake_ok(
        dir.path(),
        &[
            "--size",
            "8x8",
            "--range=-1e307,1e307",
            "--backend",
            "cpu",
            "-o",
            "r.png",
        ],
    );
    let image = image::open(dir.path().join("r.png")).unwrap().into_luma16();
    assert!(
        image.pixels().all(|p| p.0[0] == 32768),
        "mid-level everywhere"
    );
}

#[test]
fn spacings_too_fine_for_f32_blame_the_frequency_and_size_not_the_offset() {
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            &["--size", "64x64", "--frequency", "1e-45"][..],
            "frequency along x is 1e-45 over 64 texels: a texel spacing of 1.5625e-47, which is 0 in f32",
        ),
        (
            &["--size", "16777216x1"],
            "frequency along x is 8 over 16777216 texels: a texel spacing of 4.76837158203125e-7, too fine for f32 coordinates reaching 7.9999995",
        ),
    ] {
        let mut all = args.to_vec();
        all.extend_from_slice(&["-o", "f.npy"]);
        assert_refused(dir.path(), &all, message);
    }
}

#[test]
fn frequency_zero_is_refused_instead_of_baking_a_constant() {
    let dir = tempfile::tempdir().unwrap();
    assert_refused(
        dir.path(),
        &["--size", "64x64", "--frequency", "0", "-o", "z.npy"],
        "--frequency 0: 0 along x makes every one of its 64 texels sample the same coordinate",
    );
    assert_refused(
        dir.path(),
        &["--size", "64x64", "--frequency", "4,0", "-o", "z.npy"],
        "0 along y",
    );
    // One texel along an axis has nothing to spread: frequency 0 there is fine.
    bake_ok(
        dir.path(),
        &[
            "--size",
            "64x1",
            "--frequency",
            "4,0",
            "--backend",
            "cpu",
            "-o",
            "z.npy",
        ],
    );
}

#[test]
fn tileable_frequencies_above_the_limit_say_so() {
    let dir = tempfile::tempdir().unwrap();
    assert_refused(
        dir.path(),
        &["--noise", "classic", "--size", "8x8", "--tileable", "--frequency", "16777217", "-o", "t.npy"],
        "tileable classic noise needs a whole-number frequency from 1 to 16777216 along x (cells across the tile), not 16777217",
    );
}

#[test]
fn extreme_numbers_print_in_a_few_characters() {
    let dir = tempfile::tempdir().unwrap();
    for (args, message) in [
        (
            &["--warp", "1", "--warp-frequency=-1e308"][..],
            "warp frequency must be a positive number, not -1e308",
        ),
        (
            &["--noise", "classic", "--tileable", "--frequency", "5e-324"],
            "not 5e-324",
        ),
        (
            &["--normal-map", "--normal-strength=-1e308"],
            "--normal-strength -1e308: must be ≥ 0",
        ),
        (
            &["--octaves", "2", "--lacunarity=-1e308"],
            "lacunarity must be a positive number, not -1e308",
        ),
    ] {
        let mut all = vec!["--size", "8x8"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-o", "e.png"]);
        assert_refused(dir.path(), &all, message);
    }
    // A subnormal point's value: 17 significant digits in scientific notation.
    let out = sample_with_input(&["--noise", "simplex"], b"5e-324 0\n1e-310 3e-320\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in text.lines() {
        assert!(line.len() <= 25, "{line:?} ({} characters)", line.len());
        assert!(line.parse::<f64>().unwrap().is_finite(), "{line}");
    }
    assert_eq!(text.lines().count(), 2);
}
