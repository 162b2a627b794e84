//! `bake --half` (KTX2 `R16_SFLOAT`, EXR half channels) never writes an infinity: a value
//! beyond the largest finite half float (±65504) is clamped to it and counted, and a
//! notice on stderr says how many, as the PNG path does for values outside its range
//! (docs/formats.md).

use std::path::Path;

use crate::bake_support::{bake_ok, read_npy};

/// Simplex noise remapped from [-1, 1] onto [0, 100000]: about a third of its values lie
/// above 65504.
const WIDE: &str = r#"{ "version": 1, "output": "o", "nodes": {
    "o": { "type": "remap", "source": { "type": "simplex" }, "from": [-1, 1], "to": [0, 100000] } } }"#;

const HALF_MAX: f32 = 65504.0;

/// The 32-bit values of the graph over `args` (an `.npy` bake).
fn full_values(dir: &Path, args: &[&str], shape: &[usize]) -> Vec<f32> {
    let mut all = args.to_vec();
    all.extend_from_slice(&["-o", "full.npy", "--force"]);
    bake_ok(dir, &all);
    read_npy(&dir.join("full.npy"), shape)
}

/// Each value rounded to the nearest half float after clamping to ±65504.
fn clamped_halves(values: &[f32]) -> Vec<f32> {
    values
        .iter()
        .map(|v| half::f16::from_f32(v.clamp(-HALF_MAX, HALF_MAX)).to_f32())
        .collect()
}

fn assert_notice(stderr: &str, over: usize, total: usize) {
    let notice = format!(
        "notice: {over} of {total} values were outside [-65504, 65504] and clamped to the largest finite half float (write 32-bit floats without --half)"
    );
    assert!(
        stderr.contains(&notice),
        "expected {notice:?} in {stderr:?}"
    );
}

#[test]
fn ktx2_half_clamps_values_beyond_65504_with_a_notice() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("wide.json"), WIDE).unwrap();
    let args = ["--graph", "wide.json", "--size", "8x8", "--backend", "cpu"];
    let full = full_values(d, &args, &[8, 8]);
    let over = full.iter().filter(|v| v.abs() > HALF_MAX).count();
    assert!(over > 0, "the field must reach past 65504: {full:?}");

    let mut half_args = args.to_vec();
    half_args.extend_from_slice(&["--half", "-o", "h.ktx2"]);
    let stderr = bake_ok(d, &half_args);
    assert_notice(&stderr, over, 64);
    let bytes = std::fs::read(d.join("h.ktx2")).unwrap();
    let reader = ktx2::Reader::new(&bytes[..]).expect("a KTX2 file");
    let data = reader.levels().next().expect("one level").data;
    let got: Vec<f32> = data
        .chunks_exact(2)
        .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
        .collect();
    assert!(got.iter().all(|v| v.is_finite()), "{got:?}");
    assert_eq!(got, clamped_halves(&full));
}

#[test]
fn exr_half_clamps_values_and_gradients_beyond_65504_with_a_notice() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("wide.json"), WIDE).unwrap();
    for (extra, channels) in [(&[][..], 1usize), (&["--gradient"][..], 4)] {
        let mut args = vec!["--graph", "wide.json", "--size", "8x8", "--backend", "cpu"];
        args.extend_from_slice(extra);
        let shape: &[usize] = if channels == 1 { &[8, 8] } else { &[8, 8, 4] };
        let full = full_values(d, &args, shape);
        let over = full.iter().filter(|v| v.abs() > HALF_MAX).count();
        assert!(over > 0, "{extra:?}: the field must reach past 65504");

        args.extend_from_slice(&["--half", "-o", "h.exr", "--force"]);
        let stderr = bake_ok(d, &args);
        assert_notice(&stderr, over, 64 * channels);
        let image = exr::prelude::read_first_flat_layer_from_file(d.join("h.exr"))
            .expect("a readable OpenEXR file");
        let expected = clamped_halves(&full);
        // The file's channels in name order (A, B, G, R or Y); ours interleaved.
        let list = &image.layer_data.channel_data.list;
        let names: Vec<String> = list.iter().map(|c| c.name.to_string()).collect();
        let order: &[&str] = if channels == 1 {
            &["Y"]
        } else {
            &["R", "G", "B", "A"]
        };
        for (c, name) in order.iter().enumerate() {
            let at = names.iter().position(|n| n == name).expect("channel");
            let exr::prelude::FlatSamples::F16(samples) = &list[at].sample_data else {
                panic!("{name}: half samples expected");
            };
            let got: Vec<f32> = samples.iter().map(|h| h.to_f32()).collect();
            let want: Vec<f32> = expected.iter().skip(c).step_by(channels).copied().collect();
            assert!(
                got.iter().all(|v| v.is_finite()),
                "{extra:?} {name}: {got:?}"
            );
            assert_eq!(got, want, "{extra:?} channel {name}");
        }
    }
}
