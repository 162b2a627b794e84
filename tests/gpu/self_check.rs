//! The runtime self-check: the first use of a dimension on a generator compares small
//! probe fills and point evaluations with the f32 CPU reference; a mismatch is a
//! `NoiseError::SelfCheck` naming the adapter and backend, never wrong numbers. Run on
//! every backend the machine offers, with tables (or the hash key) corrupted behind the
//! generator's back so that the probe must fail.

use crate::common;

use std::time::Instant;

use wgpu_noise::field::FlagField;
use wgpu_noise::gpu::{GpuNoise, LookupVariant};
use wgpu_noise::{NoiseError, NoiseKind};

#[test]
fn a_sound_adapter_passes_and_the_probe_costs_a_few_milliseconds() {
    for (name, ctx) in common::gpu_per_backend() {
        for variant in [LookupVariant::Textures, LookupVariant::Hash] {
            let g = GpuNoise::with_variant(&ctx.device, &ctx.queue, 3, variant).unwrap();
            for dims in 2..=4 {
                for kind in NoiseKind::ALL {
                    // Compile the probe's pipeline (a plain fill of that kind) first, so
                    // the time is the probe's own.
                    g.generate(&FlagField::new(kind, &[3, 3, 3, 3][..dims]))
                        .unwrap();
                    g.forget_self_checks();
                    let start = Instant::now();
                    g.self_check(kind, dims).unwrap();
                    let probe = start.elapsed();
                    eprintln!(
                        "SELF-CHECK {name} {variant:?} {kind} {dims}D fill: passed in {:.2} ms",
                        probe.as_secs_f64() * 1e3
                    );
                }
            }
        }
    }
}

#[test]
fn a_corrupted_generator_fails_its_self_check_naming_adapter_and_backend() {
    for (name, ctx) in common::gpu_per_backend() {
        let info = ctx.adapter.get_info();
        for variant in [LookupVariant::Textures, LookupVariant::Hash] {
            for dims in 2..=4 {
                let mut g = GpuNoise::with_variant(&ctx.device, &ctx.queue, 0, variant).unwrap();
                g.sabotage_for_test();
                let size = &[9, 7, 5, 3][..dims];
                let fill = g.generate(&FlagField::new(NoiseKind::Classic, size));
                let points = g.self_check_points(NoiseKind::Simplex, dims);
                for result in [fill.map(|_| ()), points.map(|_| ())] {
                    match result {
                        Err(NoiseError::SelfCheck {
                            adapter,
                            backend,
                            max_error,
                            what,
                        }) => {
                            assert_eq!(adapter, info.name);
                            assert_eq!(backend, format!("{:?}", info.backend));
                            assert!(max_error > 0.01, "{name} {variant:?} {dims}D: {max_error}");
                            assert!(what.contains(&format!("{dims}D")), "{what}");
                        }
                        other => panic!("{name} {variant:?} {dims}D: expected a self-check error, got {other:?}"),
                    }
                }
            }
        }
    }
}

#[test]
fn every_noise_kind_is_self_checked_on_its_own() {
    // A passed check of one kind must not stand for another: after classic and simplex
    // pass, a corrupted generator's first cellular fill must still fail.
    for (name, ctx) in common::gpu_per_backend() {
        for dims in 2..=4 {
            let mut g = GpuNoise::new(&ctx.device, &ctx.queue, 0).unwrap();
            let size = &[6, 5, 4, 3][..dims];
            for kind in [NoiseKind::Classic, NoiseKind::Simplex] {
                g.generate(&FlagField::new(kind, size)).unwrap();
            }
            g.sabotage_for_test();
            for kind in [NoiseKind::Classic, NoiseKind::Simplex] {
                g.generate(&FlagField::new(kind, size)).unwrap_err();
            }
            match g.generate(&FlagField::new(NoiseKind::Cellular, size)) {
                Err(NoiseError::SelfCheck { what, .. }) => {
                    assert!(what.contains("cellular"), "{name} {dims}D: {what}")
                }
                other => {
                    panic!("{name} {dims}D cellular: expected a self-check error, got {other:?}")
                }
            }
        }
    }
}
