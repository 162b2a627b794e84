//! The embedded curl noise (`curl2`, `curl3`) and flow noise (`flow2_deriv`, `flow3_deriv`,
//! value and gradient) equal the f32 CPU mirror on every backend, with the lookup textures
//! bound through `NoiseBindings` and with the hash variant.

use crate::common;
use crate::embed_support;

use embed_support::{compute_bindings, points, points_kernel, run_kernel, NoiseSide};
use wgpu_noise::cpu::curl::{curl2, curl3};
use wgpu_noise::cpu::simplex::{flow2_deriv, flow3_deriv};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::gpu::parity::{GRADIENT_TOLERANCE_SCALE, PARITY_TOLERANCE};
use wgpu_noise::shader::{noise_functions_wgsl_with, LookupVariant};
use wgpu_noise::tables::PermutationTables;

const GROUP: u32 = 1;
/// Values per point: curl2 (2), curl3 (3), flow2_deriv (3), flow3_deriv (4).
const COMPONENTS: usize = 12;
/// The components that are noise values (the others are derivatives).
const VALUE_COMPONENTS: [usize; 2] = [5, 8];
/// The flow angle of point i: spread over several turns, in steps of 2⁻⁷ (exact in f32,
/// so a fused multiply-add on the GPU gives the same angle).
fn angle(i: usize) -> f32 {
    i as f32 * 0.0078125 - 7.0
}

fn kernel(variant: LookupVariant) -> String {
    points_kernel(
        &noise_functions_wgsl_with(variant, GROUP),
        "let angle = f32(i) * 0.0078125 - 7.0;
         let c2 = curl2(p.xy);
         let c3 = curl3(p.xyz);
         let f2 = flow2_deriv(p.xy, angle);
         let f3 = flow3_deriv(p.xyz, angle, 0.6, 32.0);
         let out = array<f32, 12>(c2.x, c2.y, c3.x, c3.y, c3.z, f2.x, f2.y, f2.z, f3.x, f3.y, f3.z, f3.w);",
        COMPONENTS,
    )
}

/// The largest |GPU − CPU| over the curl components and over the flow components at every
/// point.
fn check(label: &str, values: &[f32], points: &[[f32; 4]], lut: &impl NoiseHasher) -> [f32; 2] {
    let mut worst = [0.0f32; 2];
    for (i, p) in points.iter().enumerate() {
        let c2 = curl2::<f32>(lut, p[0], p[1]);
        let c3 = curl3::<f32>(lut, [p[0], p[1], p[2]]);
        let f2 = flow2_deriv::<f32>(lut, p[0], p[1], angle(i));
        let f3 = flow3_deriv::<f32>(lut, [p[0], p[1], p[2]], angle(i), 0.6, 32.0);
        let cpu = [
            c2[0], c2[1], c3[0], c3[1], c3[2], f2[0], f2[1], f2[2], f3[0], f3[1], f3[2], f3[3],
        ];
        for (k, c) in cpu.iter().enumerate() {
            // Curl components and gradients are derivatives (up to about ±40 per cell,
            // values ±1): the parity rule's derivative bound.
            let tolerance = if VALUE_COMPONENTS.contains(&k) {
                PARITY_TOLERANCE
            } else {
                PARITY_TOLERANCE * GRADIENT_TOLERANCE_SCALE
            };
            let g = values[COMPONENTS * i + k];
            let e = (g - c).abs();
            assert!(
                e <= tolerance,
                "{label}: point {i} component {k}: gpu {g} cpu {c}"
            );
            let slot = usize::from(k >= 5);
            worst[slot] = worst[slot].max(e);
        }
    }
    worst
}

#[test]
fn embedded_curl_and_flow_noise_equal_the_cpu_mirror_on_every_backend() {
    let seed = 21;
    let points: Vec<[f32; 4]> = points(2000)
        .into_iter()
        .map(|p| p.map(|v| v * 0.1))
        .collect();
    for (backend, ctx) in common::gpu_per_backend() {
        let (device, queue) = (&ctx.device, &ctx.queue);
        let noise = compute_bindings(device, queue, GROUP, seed);
        let textures = NoiseSide::textures(&noise);
        let values = run_kernel(
            device,
            queue,
            &kernel(LookupVariant::Textures),
            &textures,
            &points,
            COMPONENTS,
        );
        let t = check(
            &format!("{backend} textures"),
            &values,
            &points,
            &PermutationTables::new(seed),
        );
        let hash = NoiseSide::hash(GROUP, seed);
        let values = run_kernel(
            device,
            queue,
            &kernel(LookupVariant::Hash),
            &hash,
            &points,
            COMPONENTS,
        );
        let h = check(
            &format!("{backend} hash"),
            &values,
            &points,
            &IntegerHasher::new(seed),
        );
        eprintln!(
            "PARITY curl {backend}: max |gpu - cpu f32| textures {:e}, hash {:e}",
            t[0], h[0]
        );
        eprintln!(
            "PARITY flow2/flow3 embedded {backend}: max |gpu - cpu f32| textures {:e}, hash {:e}",
            t[1], h[1]
        );
    }
}
