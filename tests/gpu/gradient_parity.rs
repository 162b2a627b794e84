//! Value-and-gradient fields on every backend the machine offers equal the f32 CPU
//! reference within the parity rule (`gpu::parity`, gradient channels scaled), including
//! the square, multiple-of-6-layer shapes that wgpu's GL backend makes cube maps of.

use crate::common;

use wgpu_noise::cpu::fill::fill_slab_gradient;
use wgpu_noise::field::FlagField;
use wgpu_noise::gpu::parity::{GRADIENT_TOLERANCE_SCALE, PARITY_TOLERANCE};
use wgpu_noise::params::{FillParams, Slab};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::NoiseKind;

#[test]
fn gradient_fields_equal_the_cpu_reference_on_every_backend() {
    // 8x8x6 and 8x8x12 (square layers, a multiple of 6) came out wrong on GL before the
    // slab textures avoided cube-map shapes (docs/backends.md).
    let sizes: [&[u32]; 4] = [&[16, 16], &[8, 8, 6], &[8, 8, 12], &[17, 9, 5]];
    for (name, ctx) in common::gpu_per_backend() {
        let g = common::generator(&ctx, 0);
        let lut = PermutationTables::new(0);
        for size in sizes {
            let field = FlagField::new(NoiseKind::Simplex, size)
                .with_frequency(&[8.0; 4])
                .with_fractal(wgpu_noise::field::Fractal {
                    octaves: 3,
                    ..Default::default()
                });
            let label = format!("{name} {size:?}");
            match g.generate_gradient(&field) {
                Ok(gpu) => {
                    let params = FillParams::new(&field, Slab::whole(&field));
                    let mut cpu = vec![[0.0f32; 4]; params.len()];
                    fill_slab_gradient(&lut, field.dims, &params, &mut cpu);
                    let mut worst = [0.0f32; 4];
                    for (g, c) in gpu.iter().zip(&cpu) {
                        for k in 0..4 {
                            let e = (g[k] - c[k]).abs();
                            worst[k] = if e.is_nan() {
                                f32::INFINITY
                            } else {
                                worst[k].max(e)
                            };
                        }
                    }
                    eprintln!("GRADIENT PARITY {label}: max |GPU - CPU| value {:e}, d/dx {:e}, d/dy {:e}, d/dz {:e}", worst[0], worst[1], worst[2], worst[3]);
                    assert!(
                        worst[0] <= PARITY_TOLERANCE,
                        "{label}: value {:e}",
                        worst[0]
                    );
                    for (k, w) in worst.iter().enumerate().skip(1) {
                        assert!(
                            *w <= PARITY_TOLERANCE * GRADIENT_TOLERANCE_SCALE,
                            "{label}: channel {k} {w:e}"
                        );
                    }
                }
                Err(e) => panic!("{label}: {e}"),
            }
        }
    }
}
