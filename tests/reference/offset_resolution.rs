//! Offsets so large that adjacent texels are no longer distinct coordinates are refused by
//! `FlagField::validate` (so every generator, the bake, `sample`'s fields and the preview get
//! it), with the largest usable offset for that texel spacing in the message. Before,
//! `bake --size 64x64 --offset=1e25,0` wrote an all-zero image and `--verify` passed.

use crate::common;

use wgpu_noise::cpu::fill::{generate_f32, generate_f64};
use wgpu_noise::field::{FlagField, Fractal};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{NoiseError, NoiseKind};

fn refusal(field: &FlagField) -> String {
    match field.validate() {
        Err(NoiseError::InvalidField(m)) => m,
        other => panic!("{field:?} should be refused, got {other:?}"),
    }
}

/// The figure after "largest usable ... offset for that spacing is about".
fn usable_offset(message: &str) -> f64 {
    let tail = message.split("is about ").nth(1).expect(message);
    tail.split([' ', ')'])
        .next()
        .unwrap()
        .parse()
        .unwrap_or_else(|e| panic!("{message}: {e}"))
}

#[test]
fn offsets_beyond_f64_resolution_are_refused_naming_the_largest_usable_one() {
    for kind in NoiseKind::ALL {
        for offset in [1e24, 1e25, 1e30] {
            // 64 texels across one cell: a spacing of 1/64.
            let field = FlagField::new(kind, &[64, 64]).with_offset(&[offset, 0.0]);
            let message = refusal(&field);
            assert!(message.contains("offset along x"), "{message}");
            assert!(message.contains("no longer distinct"), "{message}");
            let usable = usable_offset(&message);
            // The named figure is right: just below it the field is accepted, twice it is
            // refused, and below it the f64 coordinates of all texels are distinct.
            let below = FlagField::new(kind, &[64, 64]).with_offset(&[usable * 0.99, 0.0]);
            below.validate().unwrap();
            let values = generate_f64(&PermutationTables::new(0), &below).unwrap();
            let row: Vec<f64> = (0..64).map(|x| below.coordinate([x, 0, 0, 0])[0]).collect();
            assert!(row.windows(2).all(|w| w[0] < w[1]), "{row:?}");
            assert!(values.iter().all(|v| v.is_finite()));
            refusal(&FlagField::new(kind, &[64, 64]).with_offset(&[usable * 2.0, 0.0]));
        }
    }
}

#[test]
fn offsets_beyond_what_the_f32_shaders_resolve_are_refused() {
    // Without period reduction the shaders receive 1e7 as f32 (steps of 1).
    let mut field = FlagField::new(NoiseKind::Simplex, &[33, 17]).with_offset(&[1e7, 0.5]);
    field.validate().unwrap();
    field.reduce_offset = false;
    let message = refusal(&field);
    assert!(message.contains("f32"), "{message}");
    // With a non-whole lacunarity and several octaves the offset cannot be reduced.
    let field = FlagField::new(NoiseKind::Classic, &[33, 17])
        .with_offset(&[1e7, 0.5])
        .with_fractal(Fractal {
            octaves: 3,
            lacunarity: 1.9,
            ..Fractal::default()
        });
    let message = refusal(&field);
    assert!(message.contains("whole-number lacunarity"), "{message}");
    // Every generator refuses it.
    assert!(matches!(
        generate_f32(&PermutationTables::new(0), &field),
        Err(NoiseError::InvalidField(_))
    ));
    if let Some(ctx) = common::gpu() {
        let g = common::generator(&ctx, 0);
        assert!(matches!(
            g.generate(&field),
            Err(NoiseError::InvalidField(_))
        ));
    }
}

#[test]
fn a_one_texel_axis_counts_its_frequency_as_the_spacing() {
    // The preview's 3D view: one z-slice, moved along z by --time.
    let at = |z: f64| {
        FlagField::new(NoiseKind::Simplex, &[64, 48, 1])
            .with_frequency(&[4.0, 3.0, 1.0])
            .with_offset(&[0.0, 0.0, z])
    };
    at(1e6).validate().unwrap();
    let message = refusal(&at(1e20));
    assert!(message.contains("offset along z"), "{message}");
}

#[test]
fn ordinary_fields_are_accepted() {
    for offset in [0.0, -3.0, 1e6, -1e9, 1e12] {
        FlagField::new(NoiseKind::Simplex, &[256, 256])
            .with_frequency(&[4.0, 4.0])
            .with_offset(&[offset, -offset])
            .validate()
            .unwrap();
    }
    // Frequency 0 is a constant along that axis, as asked (at any offset the f32 shaders
    // can hold: `FlagField::validate_octaves` refuses coordinates beyond ±2^120).
    FlagField::new(NoiseKind::Classic, &[8, 8])
        .with_frequency(&[0.0, 1.0])
        .with_offset(&[1e30, 0.0])
        .validate()
        .unwrap();
}
