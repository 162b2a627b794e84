//! The embedded curl noise (`curl2`, `curl3`) equals the f32 CPU mirror on every backend,
//! with the lookup textures bound through `NoiseBindings` and with the hash variant.

use crate::common;
use crate::embed_support;

use embed_support::{points, run_kernel, NoiseSide, APP_BINDINGS};
use wgpu_noise::cpu::curl::{curl2, curl3};
use wgpu_noise::cpu::{IntegerHasher, NoiseHasher};
use wgpu_noise::embed::{NoiseBindings, NoiseBindingsDescriptor};
use wgpu_noise::gpu::parity::{GRADIENT_TOLERANCE_SCALE, PARITY_TOLERANCE};
use wgpu_noise::shader::{noise_functions_wgsl_with, LookupVariant, HASH_KEY_OVERRIDE_ID};
use wgpu_noise::tables::{hash_key_for_seed, PermutationTables};

const GROUP: u32 = 1;

fn kernel(variant: LookupVariant) -> String {
    format!(
        "{}\n{APP_BINDINGS}\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
             let i = id.x;\n\
             if (i >= arrayLength(&points)) {{ return; }}\n\
             let p = points[i];\n\
             let c2 = curl2(p.xy);\n\
             let c3 = curl3(p.xyz);\n\
             values[5u * i] = c2.x;\n\
             values[5u * i + 1u] = c2.y;\n\
             values[5u * i + 2u] = c3.x;\n\
             values[5u * i + 3u] = c3.y;\n\
             values[5u * i + 4u] = c3.z;\n\
         }}\n",
        noise_functions_wgsl_with(variant, GROUP)
    )
}

/// The largest |GPU − CPU| over the five components at every point.
fn check(label: &str, values: &[f32], points: &[[f32; 4]], lut: &impl NoiseHasher) -> f32 {
    // Curl components are derivatives (up to about ±40 per cell, values ±1): the parity
    // rule's derivative bound.
    let tolerance = PARITY_TOLERANCE * GRADIENT_TOLERANCE_SCALE;
    let mut worst = 0.0f32;
    for (i, p) in points.iter().enumerate() {
        let c2 = curl2::<f32>(lut, p[0], p[1]);
        let c3 = curl3::<f32>(lut, [p[0], p[1], p[2]]);
        let cpu = [c2[0], c2[1], c3[0], c3[1], c3[2]];
        for (k, c) in cpu.iter().enumerate() {
            let g = values[5 * i + k];
            let e = (g - c).abs();
            assert!(
                e <= tolerance,
                "{label}: point {i} component {k}: gpu {g} cpu {c}"
            );
            worst = worst.max(e);
        }
    }
    worst
}

#[test]
fn embedded_curl_noise_equals_the_cpu_mirror_on_every_backend() {
    let seed = 21;
    let points: Vec<[f32; 4]> = points(2000)
        .into_iter()
        .map(|p| p.map(|v| v * 0.1))
        .collect();
    for (backend, ctx) in common::gpu_per_backend() {
        let (device, queue) = (&ctx.device, &ctx.queue);
        let noise = NoiseBindings::new(
            device,
            queue,
            &NoiseBindingsDescriptor {
                group: GROUP,
                seed,
                visibility: wgpu::ShaderStages::COMPUTE,
            },
        )
        .unwrap();
        let textures = NoiseSide {
            group: GROUP,
            binding: Some((noise.layout(), noise.bind_group())),
            constants: vec![],
        };
        let values = run_kernel(
            device,
            queue,
            &kernel(LookupVariant::Textures),
            &textures,
            &points,
            5,
        );
        let t = check(
            &format!("{backend} textures"),
            &values,
            &points,
            &PermutationTables::new(seed),
        );
        let hash = NoiseSide {
            group: GROUP,
            binding: None,
            constants: vec![(
                HASH_KEY_OVERRIDE_ID.to_string(),
                hash_key_for_seed(seed) as f64,
            )],
        };
        let values = run_kernel(
            device,
            queue,
            &kernel(LookupVariant::Hash),
            &hash,
            &points,
            5,
        );
        let h = check(
            &format!("{backend} hash"),
            &values,
            &points,
            &IntegerHasher::new(seed),
        );
        eprintln!("PARITY curl {backend}: max |gpu - cpu f32| textures {t:e}, hash {h:e}");
    }
}
