//! `examples/embed.rs`, run headless the way CI runs it: it writes a PNG that is a real
//! picture (not constant, not noise-free), animates with time, changes with the seed, and
//! refuses bad output paths with a one-line error.
//!
//! The example's code is compiled into this test (`#[path]`), so the test exercises the
//! very functions `cargo run --example embed -- out.png` calls, without spawning cargo
//! inside a test (slow, and it would contend for the build lock).

use crate::common;

#[path = "../../examples/embed.rs"]
#[allow(dead_code)]
mod example;

use clap::Parser;

fn args(list: &[&str]) -> example::Args {
    example::Args::parse_from(std::iter::once("embed").chain(list.iter().copied()))
}

/// Of the 8-bit luma: Shannon entropy of the histogram (bits), standard deviation, and
/// the 1st and 99th percentiles.
fn luma_stats(rgba: &[u8]) -> (f64, f64, u8, u8) {
    let mut luma: Vec<u8> = rgba
        .chunks(4)
        .map(|p| (0.299 * p[0] as f64 + 0.587 * p[1] as f64 + 0.114 * p[2] as f64).round() as u8)
        .collect();
    let mut histogram = [0usize; 256];
    for &l in &luma {
        histogram[l as usize] += 1;
    }
    let n = luma.len() as f64;
    let entropy = histogram
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| -(c as f64 / n) * (c as f64 / n).log2())
        .sum();
    let mean = luma.iter().map(|&l| l as f64).sum::<f64>() / n;
    let sd = (luma.iter().map(|&l| (l as f64 - mean).powi(2)).sum::<f64>() / n).sqrt();
    luma.sort_unstable();
    let percentile = |q: f64| luma[((luma.len() - 1) as f64 * q) as usize];
    (entropy, sd, percentile(0.01), percentile(0.99))
}

#[test]
fn the_example_writes_a_nontrivial_png_headless() {
    let Some(_ctx) = common::gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("marble.png");
    example::run(&args(&[
        path.to_str().unwrap(),
        "--size",
        "256x192",
        "--time",
        "1.5",
        "--seed",
        "3",
    ]))
    .unwrap();

    let image = image::open(&path).expect("a readable PNG").to_rgba8();
    assert_eq!(image.dimensions(), (256, 192));
    let (entropy, sd, p1, p99) = luma_stats(image.as_raw());
    eprintln!("luma entropy {entropy:.2} bits, standard deviation {sd:.1}, 1st-99th percentile {p1}..{p99}");
    // A constant picture has entropy 0 and deviation 0, a two-tone one at most 1 bit, an
    // unrendered (cleared) target is constant. Measured on lavapipe: 5.9 bits, 21.0, 150..242
    // (256x192, time 1.5, seed 3); the bounds leave a wide margin for other GPUs.
    assert!(
        entropy > 4.0,
        "luma entropy {entropy:.2} bits: the picture is nearly flat"
    );
    assert!(
        sd > 10.0,
        "luma standard deviation {sd:.1}: the picture is nearly flat"
    );
    // Marble: darker veins through light stone, so the tones span a wide range.
    assert!(
        p99 - p1 > 50,
        "luma 1st-99th percentile {p1}..{p99}: no contrast between veins and stone"
    );
    // The PNG was written by renaming a complete temporary file: nothing else is left.
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, [std::ffi::OsString::from("marble.png")]);
}

#[test]
fn the_example_animates_with_time_and_changes_with_the_seed() {
    let Some(ctx) = common::gpu() else { return };
    let (device, queue) = (&ctx.device, &ctx.queue);
    let mut marble =
        example::Marble::new(device, queue, wgpu::TextureFormat::Rgba8UnormSrgb, 0).unwrap();
    let frame = |marble: &example::Marble, time| {
        example::render_rgba(device, queue, marble, 96, 64, time).unwrap()
    };
    let first = frame(&marble, 0.0);
    let same = frame(&marble, 0.0);
    let later = frame(&marble, 4.0);
    marble.set_seed(queue, 9);
    let reseeded = frame(&marble, 0.0);

    let differing =
        |a: &[u8], b: &[u8]| a.chunks(4).zip(b.chunks(4)).filter(|(x, y)| x != y).count();
    let pixels = 96 * 64;
    eprintln!(
        "pixels changed: time 0 -> 4: {} of {pixels}; seed 0 -> 9: {} of {pixels}",
        differing(&first, &later),
        differing(&first, &reseeded)
    );
    assert_eq!(
        first, same,
        "the same frame rendered twice should be identical"
    );
    assert!(
        differing(&first, &later) * 2 > pixels,
        "time barely changes the picture"
    );
    assert!(
        differing(&first, &reseeded) * 2 > pixels,
        "the seed barely changes the picture"
    );
}

#[test]
fn the_example_refuses_bad_output_paths_with_one_line_errors() {
    let Some(_ctx) = common::gpu() else { return };
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir").join("out.png");
    let jpeg = dir.path().join("out.jpg");
    for (path, expected) in [(&missing, "does not exist"), (&jpeg, ".png")] {
        let err = example::run(&args(&[path.to_str().unwrap(), "--size", "32x32"])).unwrap_err();
        let message = format!("{err:#}");
        eprintln!("{message}");
        assert!(message.contains(expected), "{message}");
        assert!(!message.contains('\n'), "one line: {message}");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing may be written on error"
    );
}

#[test]
fn the_example_rejects_a_malformed_size() {
    for bad in ["0x10", "10", "axb", "10x-3"] {
        let result = example::Args::try_parse_from(["embed", "out.png", "--size", bad]);
        assert!(result.is_err(), "--size {bad} was accepted");
    }
}
