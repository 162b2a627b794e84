//! The embedded simplex gradients (`simplex2_deriv`, `simplex3_deriv`, `simplex4` with
//! `simplex4_gradient`, reference kernel) equal the f32 CPU mirror
//! (`cpu::simplex::simplexN_deriv`) at scattered points, called from an application's own
//! kernel with the lookup textures bound through `NoiseBindings`.

use crate::common;
use crate::embed_support;

use embed_support::{compute_bindings, points_kernel, run_kernel, NoiseSide};
use wgpu_noise::cpu::simplex::{simplex2_deriv, simplex3_deriv, simplex4_deriv};
use wgpu_noise::shader::{noise_functions_wgsl_with, LookupVariant};
use wgpu_noise::tables::PermutationTables;

const GROUP: u32 = 1;
/// Values per point: value and gradient in 2D (3), 3D (4) and 4D (5).
const COMPONENTS: usize = 12;

fn kernel() -> String {
    points_kernel(
        &noise_functions_wgsl_with(LookupVariant::Textures, GROUP),
        "let d2 = simplex2_deriv(p.xy);
         let d3 = simplex3_deriv(p.xyz, 0.6, 32.0);
         let v4 = simplex4(p);
         let g4 = simplex4_gradient(p, 0.6, 27.0);
         let out = array<f32, 12>(d2.x, d2.y, d2.z, d3.x, d3.y, d3.z, d3.w, v4, g4.x, g4.y, g4.z, g4.w);",
        COMPONENTS,
    )
}

/// xorshift64: uniform points over [-400, 400)⁴.
fn points(n: usize) -> Vec<[f32; 4]> {
    let mut state = 99u64;
    let mut uniform = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        -400.0 + (state >> 11) as f64 / (1u64 << 53) as f64 * 800.0
    };
    (0..n)
        .map(|_| std::array::from_fn(|_| uniform() as f32))
        .collect()
}

#[test]
fn embedded_simplex_gradients_equal_the_f32_cpu_gradients() {
    let Some(ctx) = common::gpu() else { return };
    let (device, queue) = (&ctx.device, &ctx.queue);
    let noise = compute_bindings(device, queue, GROUP, 0);
    let points = points(4000);
    let values = run_kernel(
        device,
        queue,
        &kernel(),
        &NoiseSide::textures(&noise),
        &points,
        COMPONENTS,
    );
    let lut = PermutationTables::default();
    for dims in 2..=4 {
        let first = [0, 3, 7][dims - 2];
        let (mut value_error, mut gradient_error) = (0.0f32, 0.0f32);
        let mut over = 0;
        for (i, p) in points.iter().enumerate() {
            let gpu = &values[COMPONENTS * i + first..][..dims + 1];
            let cpu: Vec<f32> = match dims {
                2 => simplex2_deriv(&lut, p[0], p[1]).to_vec(),
                3 => simplex3_deriv(&lut, p[0], p[1], p[2], 0.6, 32.0).to_vec(),
                _ => simplex4_deriv(&lut, p[0], p[1], p[2], p[3], 0.6, 27.0).to_vec(),
            };
            let ve = (gpu[0] - cpu[0]).abs();
            let ge = (1..=dims)
                .map(|a| (gpu[a] - cpu[a]).abs())
                .fold(0.0f32, f32::max);
            // Gradients reach ~10, so the value tolerance 1e-5 scales to 1e-4 for them;
            // a point within rounding of a simplex boundary (r² = 0.6) may differ more.
            if ve > 1e-5 || ge > 1e-4 {
                over += 1;
                assert!(
                    dims > 2 && ve < 2e-2 && ge < 1.0,
                    "{dims}D at {p:?}: value error {ve}, gradient error {ge}"
                );
            }
            value_error = value_error.max(ve);
            gradient_error = gradient_error.max(ge);
        }
        eprintln!("DERIV GPU simplex{dims}: max value error {value_error:e}, max gradient error {gradient_error:e}, {over} boundary samples");
        assert!(over <= 2, "{dims}D: {over} samples over tolerance");
    }
}
