//! `wgpu-noise bake` writes each format so that an independent reader gets back the CPU
//! reference's values: `.npy` by its specification (and NumPy when installed), PNG through
//! the `image` crate, EXR through the `exr` crate, RAW heightmaps byte by byte (KTX2:
//! tests/cli/bake_ktx2.rs).
//!
//! These bakes use `--backend cpu`, which is the `f32` CPU reference itself, so values are
//! compared exactly; GPU parity is tests/cli/bake_backends.rs's subject.

use crate::bake_support;

use std::path::Path;

use bake_support::{bake_ok, listing, numpy_available, read_npy, reference};
use wgpu_noise::NoiseKind;

const FREQUENCY: [f64; 4] = [3.0, 2.5, 1.5, 2.0];
const OFFSET: [f64; 4] = [-1.25, 0.5, 7.0, -3.0];

/// `--frequency` and `--offset` values for `dims` axes.
fn per_axis(values: &[f64], dims: usize) -> String {
    values[..dims]
        .iter()
        .map(f64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Bakes `kind` noise of `size` with the test's frequency, offset and seed 7 on the CPU.
fn bake_cpu(
    dir: &Path,
    file: &str,
    kind: NoiseKind,
    size: &[u32],
    extra: &[&str],
) -> (Vec<f32>, String) {
    let dims = size.len();
    let size_arg = size
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join("x");
    let (freq, offset) = (per_axis(&FREQUENCY, dims), per_axis(&OFFSET, dims));
    let dims_arg = dims.to_string();
    let mut args = vec![
        "--noise",
        kind.name(),
        "--dims",
        &dims_arg,
        "--seed",
        "7",
        "--size",
        &size_arg,
        "--frequency",
        &freq,
        "--offset",
        &offset,
        "--backend",
        "cpu",
        "-o",
        file,
    ];
    args.extend_from_slice(extra);
    let stderr = bake_ok(dir, &args);
    (
        reference(kind, size, &FREQUENCY[..dims], &OFFSET[..dims], 7),
        stderr,
    )
}

/// The documented PNG mapping, written out independently of the crate's code.
fn level(v: f32, low: f64, high: f64, max: f64) -> u32 {
    (((v as f64 - low) / (high - low)).clamp(0.0, 1.0) * max).round() as u32
}

/// The documented atlas position of texel (x, y, z, w): slice s = z + depth*w at column
/// s % columns, row s / columns.
fn atlas_pixel(
    texel: [usize; 4],
    tile: [usize; 2],
    depth: usize,
    columns: usize,
) -> (usize, usize) {
    let s = texel[2] + depth * texel[3];
    (
        (s % columns) * tile[0] + texel[0],
        (s / columns) * tile[1] + texel[1],
    )
}

/// Every texel of a field of `size` (unused axes 1), in memory order.
fn texels(size: &[u32]) -> impl Iterator<Item = [usize; 4]> {
    let mut s = [1usize; 4];
    for (d, v) in s.iter_mut().zip(size) {
        *d = *v as usize;
    }
    (0..s[3]).flat_map(move |w| {
        (0..s[2])
            .flat_map(move |z| (0..s[1]).flat_map(move |y| (0..s[0]).map(move |x| [x, y, z, w])))
    })
}

#[test]
fn npy_holds_the_true_shape_slowest_axis_first_and_the_reference_values() {
    let dir = tempfile::tempdir().unwrap();
    for (kind, size, shape) in [
        (NoiseKind::Simplex, &[7u32, 5][..], &[5usize, 7][..]),
        (NoiseKind::Classic, &[6, 5, 4], &[4, 5, 6]),
        (NoiseKind::Simplex, &[5, 4, 3, 2], &[2, 3, 4, 5]),
    ] {
        let file = format!("field{}d.npy", size.len());
        let (expected, _) = bake_cpu(dir.path(), &file, kind, size, &[]);
        let values = read_npy(&dir.path().join(&file), shape);
        assert_eq!(
            values, expected,
            "{file}: values must be the f32 reference, x fastest"
        );
    }
    let mut names = listing(dir.path());
    names.sort();
    assert_eq!(
        names,
        ["field2d.npy", "field3d.npy", "field4d.npy"],
        "no temporary file may remain"
    );
}

#[test]
fn npy_loads_in_numpy_with_the_shape_w_z_y_x_when_numpy_is_installed() {
    if !numpy_available() {
        eprintln!(
            "SKIPPED: python3 with numpy is not installed (pip install numpy to run this check)"
        );
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let size = [5u32, 4, 3, 2];
    let (expected, _) = bake_cpu(dir.path(), "f.npy", NoiseKind::Classic, &size, &[]);
    let script = "import numpy, sys\n\
        a = numpy.load(sys.argv[1])\n\
        print(a.shape, a.dtype)\n\
        for idx in [(0,0,0,0), (1,2,3,4), (1,0,2,1), (0,2,1,3)]:\n    print(repr(float(a[idx])))\n";
    let out = std::process::Command::new("python3")
        .args(["-c", script, "f.npy"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("(2, 3, 4, 5) float32"));
    // a[w, z, y, x] is sample x + 5*(y + 4*(z + 3*w)).
    for [w, z, y, x] in [[0usize, 0, 0, 0], [1, 2, 3, 4], [1, 0, 2, 1], [0, 2, 1, 3]] {
        let got: f64 = lines.next().unwrap().parse().unwrap();
        assert_eq!(
            got,
            expected[x + 5 * (y + 4 * (z + 3 * w))] as f64,
            "a[{w},{z},{y},{x}]"
        );
    }
}

#[test]
fn png_16_bit_is_the_default_and_maps_minus_one_to_0_and_one_to_65535() {
    let dir = tempfile::tempdir().unwrap();
    let size = [33u32, 17];
    let (expected, _) = bake_cpu(dir.path(), "n.png", NoiseKind::Simplex, &size, &[]);
    let image = image::open(dir.path().join("n.png")).unwrap();
    let gray = image.as_luma16().expect("a 16-bit grayscale PNG");
    assert_eq!(gray.dimensions(), (33, 17));
    for [x, y, _, _] in texels(&size) {
        let want = level(expected[x + 33 * y], -1.0, 1.0, 65535.0);
        assert_eq!(
            gray.get_pixel(x as u32, y as u32).0[0] as u32,
            want,
            "pixel ({x}, {y})"
        );
    }
    // The file says how to turn levels back into values.
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(dir.path().join("n.png")).unwrap(),
    ));
    let reader = decoder.read_info().unwrap();
    let texts: Vec<String> = reader
        .info()
        .uncompressed_latin1_text
        .iter()
        .map(|t| t.text.clone())
        .collect();
    assert!(
        texts.iter().any(
            |t| t.contains("Level p of 65535 stands for the value -1 + 2*p/65535")
                && t.contains("seed 7")
        ),
        "{texts:?}"
    );
}

#[test]
fn png_8_bit_maps_the_same_range_onto_255_levels() {
    let dir = tempfile::tempdir().unwrap();
    let size = [20u32, 9];
    let (expected, _) = bake_cpu(
        dir.path(),
        "n.png",
        NoiseKind::Classic,
        &size,
        &["--bits", "8"],
    );
    let image = image::open(dir.path().join("n.png")).unwrap();
    let gray = image.as_luma8().expect("an 8-bit grayscale PNG");
    assert_eq!(gray.dimensions(), (20, 9));
    for [x, y, _, _] in texels(&size) {
        assert_eq!(
            gray.get_pixel(x as u32, y as u32).0[0] as u32,
            level(expected[x + 20 * y], -1.0, 1.0, 255.0)
        );
    }
}

#[test]
fn png_range_option_sets_the_mapping_and_out_of_range_samples_are_clamped_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let size = [24u32, 16];
    let (expected, stderr) = bake_cpu(
        dir.path(),
        "n.png",
        NoiseKind::Simplex,
        &size,
        &["--range", "-0.25,0.5"],
    );
    let outside = expected
        .iter()
        .filter(|&&v| !(-0.25..=0.5).contains(&(v as f64)))
        .count();
    assert!(outside > 0, "the test needs values outside the range");
    assert!(
        stderr.contains(&format!(
            "notice: {outside} of {} samples were outside [-0.25, 0.5]",
            expected.len()
        )),
        "{stderr}"
    );
    let image = image::open(dir.path().join("n.png")).unwrap();
    let gray = image.as_luma16().unwrap();
    for [x, y, _, _] in texels(&size) {
        assert_eq!(
            gray.get_pixel(x as u32, y as u32).0[0] as u32,
            level(expected[x + 24 * y], -0.25, 0.5, 65535.0)
        );
    }
}

#[test]
fn png_of_a_3d_field_is_a_near_square_slice_atlas() {
    let dir = tempfile::tempdir().unwrap();
    // Depth 12: the smallest divisor ≥ √12 is 4, so 4 columns × 3 rows of 5×4 tiles.
    let size = [5u32, 4, 12];
    let (expected, stderr) = bake_cpu(dir.path(), "v.png", NoiseKind::Simplex, &size, &[]);
    assert!(stderr.contains("20x12 atlas of 12 slices"), "{stderr}");
    let image = image::open(dir.path().join("v.png")).unwrap();
    let gray = image.as_luma16().unwrap();
    assert_eq!(gray.dimensions(), (20, 12));
    for (i, t) in texels(&size).enumerate() {
        let (px, py) = atlas_pixel(t, [5, 4], 12, 4);
        assert_eq!(
            gray.get_pixel(px as u32, py as u32).0[0] as u32,
            level(expected[i], -1.0, 1.0, 65535.0),
            "texel {t:?}"
        );
    }
}

#[test]
fn png_of_a_4d_field_has_one_atlas_row_per_w_step_unless_columns_are_given() {
    let dir = tempfile::tempdir().unwrap();
    let size = [4u32, 3, 5, 2];
    for (file, columns, dims) in [
        ("a.png", None, (20u32, 6u32)),
        ("b.png", Some("2"), (8, 15)),
    ] {
        let extra: Vec<&str> = columns
            .map(|c| vec!["--columns", c, "--bits", "8"])
            .unwrap_or(vec!["--bits", "8"]);
        let (expected, _) = bake_cpu(dir.path(), file, NoiseKind::Classic, &size, &extra);
        let image = image::open(dir.path().join(file)).unwrap();
        let gray = image.as_luma8().unwrap();
        assert_eq!(gray.dimensions(), dims, "{file}");
        let c: usize = columns.map(|c| c.parse().unwrap()).unwrap_or(5);
        for (i, t) in texels(&size).enumerate() {
            let (px, py) = atlas_pixel(t, [4, 3], 5, c);
            assert_eq!(
                gray.get_pixel(px as u32, py as u32).0[0] as u32,
                level(expected[i], -1.0, 1.0, 255.0),
                "{file} {t:?}"
            );
        }
    }
}

/// Reads an EXR with the `exr` crate: (width, height, channel names, Y samples, comments).
fn read_exr(path: &Path) -> (usize, usize, Vec<String>, Vec<f32>, String) {
    let image =
        exr::prelude::read_first_flat_layer_from_file(path).expect("a readable OpenEXR file");
    let layer = &image.layer_data;
    let names = layer
        .channel_data
        .list
        .iter()
        .map(|c| c.name.to_string())
        .collect();
    let samples = match &layer.channel_data.list[0].sample_data {
        exr::prelude::FlatSamples::F32(v) => v.clone(),
        other => panic!("expected 32-bit float samples, got {other:?}"),
    };
    let comments = layer
        .attributes
        .comments
        .as_ref()
        .map(|t| t.to_string())
        .unwrap_or_default();
    (layer.size.0, layer.size.1, names, samples, comments)
}

#[test]
fn exr_holds_one_32_bit_float_channel_y_with_the_reference_values() {
    let dir = tempfile::tempdir().unwrap();
    let size = [13u32, 6];
    let (expected, _) = bake_cpu(dir.path(), "n.exr", NoiseKind::Classic, &size, &[]);
    let (w, h, names, samples, comments) = read_exr(&dir.path().join("n.exr"));
    assert_eq!((w, h), (13, 6));
    assert_eq!(names, ["Y"]);
    assert_eq!(
        samples, expected,
        "EXR stores the values themselves, row by row"
    );
    assert!(
        comments.contains("classic noise, 2D, seed 7, size 13x6"),
        "{comments}"
    );
}

#[test]
fn exr_of_a_3d_field_uses_the_same_slice_atlas_as_png() {
    let dir = tempfile::tempdir().unwrap();
    let size = [6u32, 5, 8];
    // Depth 8: smallest divisor ≥ √8 is 4: 4 columns × 2 rows.
    let (expected, _) = bake_cpu(dir.path(), "v.exr", NoiseKind::Simplex, &size, &[]);
    let (w, h, names, samples, comments) = read_exr(&dir.path().join("v.exr"));
    assert_eq!((w, h, names.len()), (24, 10, 1));
    for (i, t) in texels(&size).enumerate() {
        let (px, py) = atlas_pixel(t, [6, 5], 8, 4);
        assert_eq!(samples[px + w * py], expected[i], "texel {t:?}");
    }
    assert!(
        comments.contains("slice s = z + 8*w is the tile at column s % 4, row s / 4"),
        "{comments}"
    );
}

/// An EXR as read back: channel names, each channel's (bits per sample, samples as
/// `f64`), the compression.
type ExrContents = (
    Vec<String>,
    Vec<(u32, Vec<f64>)>,
    exr::compression::Compression,
);

/// Reads an EXR with the `exr` crate.
fn read_exr_any(path: &Path) -> ExrContents {
    let image =
        exr::prelude::read_first_flat_layer_from_file(path).expect("a readable OpenEXR file");
    let layer = &image.layer_data;
    let names = layer
        .channel_data
        .list
        .iter()
        .map(|c| c.name.to_string())
        .collect();
    let channels = layer
        .channel_data
        .list
        .iter()
        .map(|c| match &c.sample_data {
            exr::prelude::FlatSamples::F32(v) => (32, v.iter().map(|&x| x as f64).collect()),
            exr::prelude::FlatSamples::F16(v) => (16, v.iter().map(|x| x.to_f64()).collect()),
            other => panic!("expected float samples, got {other:?}"),
        })
        .collect();
    (names, channels, layer.encoding.compression)
}

/// Whether `got` is `v` rounded to the nearest `f16`: within half a unit in the last
/// place of f16 (11 significant bits) at `v`'s magnitude (2^-24 apart below 2^-14).
fn is_f16_rounding(got: f64, v: f64) -> bool {
    let ulp = 2f64.powi((v.abs().log2().floor() as i32).max(-14) - 10);
    (got - v).abs() <= ulp / 2.0
}

#[test]
fn exr_compression_none_zip_and_piz_all_read_back_the_same_values_zip_by_default() {
    use exr::compression::Compression;
    let dir = tempfile::tempdir().unwrap();
    let size = [37u32, 41];
    for (file, flag, compression) in [
        ("default.exr", None, Compression::ZIP16),
        ("none.exr", Some("none"), Compression::Uncompressed),
        ("zip.exr", Some("zip"), Compression::ZIP16),
        ("piz.exr", Some("piz"), Compression::PIZ),
    ] {
        let extra: Vec<&str> = flag.map(|f| vec!["--compression", f]).unwrap_or_default();
        let (expected, _) = bake_cpu(dir.path(), file, NoiseKind::Simplex, &size, &extra);
        let (names, channels, stored) = read_exr_any(&dir.path().join(file));
        assert_eq!(names, ["Y"], "{file}");
        assert_eq!(stored, compression, "{file}");
        let want: Vec<f64> = expected.iter().map(|&v| v as f64).collect();
        assert_eq!(channels[0], (32, want), "{file}: lossless, bit for bit");
    }
}

#[test]
fn exr_half_stores_f16_samples_rounded_to_nearest_in_y_or_rgba() {
    let dir = tempfile::tempdir().unwrap();
    let size = [19u32, 11];
    let (expected, _) = bake_cpu(dir.path(), "h.exr", NoiseKind::Classic, &size, &["--half"]);
    let (names, channels, _) = read_exr_any(&dir.path().join("h.exr"));
    assert_eq!(names, ["Y"]);
    assert_eq!(channels[0].0, 16, "half floats");
    for (i, (&got, &v)) in channels[0].1.iter().zip(&expected).enumerate() {
        assert!(is_f16_rounding(got, v as f64), "texel {i}: {got} for {v}");
    }
    // A gradient bake: R, G, B, A = value, d/dx, d/dy, d/dz, also in half.
    let g = [
        "--size",
        "16x8",
        "--frequency",
        "3",
        "--gradient",
        "--half",
        "--backend",
        "cpu",
        "-o",
        "g.exr",
    ];
    bake_ok(dir.path(), &g);
    let (names, channels, _) = read_exr_any(&dir.path().join("g.exr"));
    assert_eq!(names, ["A", "B", "G", "R"], "stored sorted by name");
    assert!(channels
        .iter()
        .all(|(bits, v)| *bits == 16 && v.len() == 128));
    // ∂/∂z of a 2D field is 0; the value channel is noise, not constant.
    assert!(channels[0].1.iter().all(|&v| v == 0.0));
    assert!(channels[3].1.iter().any(|&v| v != channels[3].1[0]));
}

#[test]
fn raw_is_little_endian_u16_levels_without_header_and_the_size_is_printed() {
    let dir = tempfile::tempdir().unwrap();
    let size = [23u32, 9];
    for file in ["t.r16", "t.raw"] {
        let (expected, _) = bake_cpu(
            dir.path(),
            file,
            NoiseKind::Simplex,
            &size,
            &["--range", "-0.8,0.6"],
        );
        let bytes = std::fs::read(dir.path().join(file)).unwrap();
        assert_eq!(
            bytes.len(),
            2 * 23 * 9,
            "{file}: no header, two bytes a texel"
        );
        let levels: Vec<u32> = bytes
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]) as u32)
            .collect();
        let want: Vec<u32> = expected
            .iter()
            .map(|&v| level(v, -0.8, 0.6, 65535.0))
            .collect();
        assert_eq!(levels, want, "{file}: the 16-bit PNG levels, x fastest");
    }
    let out = bake_support::bake_in(
        dir.path(),
        &["--size", "40x24", "--backend", "cpu", "-o", "s.r16"],
        &[],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("raw: 40 x 24 texels (width x height), 16-bit little-endian, no header"),
        "{stdout}"
    );
    bake_support::assert_refused(
        dir.path(),
        &["--size", "8", "--bits", "8", "-o", "b.r16"],
        "RAW heightmaps are 16-bit",
    );
}
