//! Sizes whose sample count overflows 64 bits are refused up front, naming `--size` with
//! the true count and the limit: no panic (a count that wrapped to 0 divided by zero), no
//! allocation sized by a wrapped count, no temporary file left.

use crate::bake_support;

use bake_support::assert_refused;
use wgpu_noise::field::FlagField;
use wgpu_noise::NoiseKind;

#[test]
fn sizes_whose_count_overflows_u64_are_refused_with_the_true_count() {
    let dir = tempfile::tempdir().unwrap();
    for (dims, size, count) in [
        // 2^22 · 2^22 · 2^20 = 2^64: wrapped to 0 before.
        ("3", "4194304x4194304x1048576", "18446744073709551616"),
        // 2^64 again in 4D, on the CPU (which allocated box lists for a wrapped count).
        ("4", "4194304x4194304x1024x1024", "18446744073709551616"),
        // 2^56 · 257 = 2^64 + 2^56: reported as 2^56 before.
        ("4", "16777216x16777216x256x257", "18518801667747479552"),
        // The largest: 2^96.
        ("4", "16777216", "79228162514264337593543950336"),
    ] {
        for backend in ["cpu", "auto"] {
            assert_refused(
                dir.path(),
                &[
                    "--dims",
                    dims,
                    "--size",
                    size,
                    "--backend",
                    backend,
                    "-o",
                    "x.npy",
                ],
                &format!("--size {size}: {count} samples, above the maximum 4294967295"),
            );
        }
    }
}

#[test]
fn a_tile_of_an_overflowing_field_is_refused_naming_the_tile() {
    let dir = tempfile::tempdir().unwrap();
    // The whole field may exceed the limit (only the tile is baked); this tile does too.
    assert_refused(
        dir.path(),
        &[
            "--dims",
            "4",
            "--size",
            "16777216x16777216x256x257",
            "--tiles",
            "2,2,2",
            "--tile",
            "0,0,0",
            "-o",
            "t.npy",
        ],
        "2314850208468434944 samples is above the maximum 4294967295",
    );
}

#[test]
fn the_library_counts_samples_exactly_and_refuses_them() {
    let field = FlagField::new(NoiseKind::Simplex, &[1 << 22, 1 << 22, 1 << 20]);
    assert_eq!(field.exact_len(), 1u128 << 64);
    assert_eq!(field.len(), u64::MAX, "saturated, not wrapped to 0");
    let err = field.validate().unwrap_err().to_string();
    assert!(
        err.contains("18446744073709551616 samples is above the maximum 4294967295"),
        "{err}"
    );
}
