//! No name leaks: every global name the embedded noise source declares is either the
//! documented API or carries the `wgpu_noise_` prefix, so a shader full of webgl-noise's
//! and psrdnoise's helper names composes with it and still computes the reference noise;
//! with `ApiNames::Prefixed` even the API names are free for the application.

use crate::common;
use crate::embed_support;

use embed_support::APP_BINDINGS;
use embed_support::{check_six, points, run_kernel, six_function_kernel, NoiseSide};
use wgpu_noise::cpu::IntegerHasher;
use wgpu_noise::embed::{NoiseBindings, NoiseBindingsDescriptor};
use wgpu_noise::shader::{
    assemble, ApiNames, LookupVariant, WgslOptions, API_NAMES, HASH_KEY_OVERRIDE_ID,
};
use wgpu_noise::tables::{hash_key_for_seed, PermutationTables};

/// Every module-scope name of `wgsl` (functions, constants, overrides, variables,
/// structs), as naga sees them.
fn global_names(wgsl: &str) -> Vec<String> {
    let module = naga::front::wgsl::parse_str(wgsl).expect("noise source parses");
    let mut names: Vec<String> = module
        .functions
        .iter()
        .filter_map(|(_, f)| f.name.clone())
        .chain(module.constants.iter().filter_map(|(_, c)| c.name.clone()))
        .chain(module.overrides.iter().filter_map(|(_, o)| o.name.clone()))
        .chain(
            module
                .global_variables
                .iter()
                .filter_map(|(_, v)| v.name.clone()),
        )
        .chain(
            module
                .types
                .iter()
                .filter_map(|(_, t)| t.name.clone())
                .filter(|n| !n.starts_with("__")),
        )
        .collect();
    names.sort();
    names.dedup();
    names
}

fn is_prefixed(name: &str) -> bool {
    name.to_ascii_lowercase().starts_with("wgpu_noise_")
}

#[test]
fn every_global_name_is_the_documented_api_or_prefixed() {
    for variant in [LookupVariant::Textures, LookupVariant::Hash] {
        let plain = assemble(&WgslOptions {
            variant,
            group: 2,
            api_names: ApiNames::Plain,
        });
        let names = global_names(&plain);
        eprintln!("{variant:?}: {} global names: {names:?}", names.len());
        let leaks: Vec<_> = names
            .iter()
            .filter(|n| !is_prefixed(n) && !API_NAMES.contains(&n.as_str()))
            .collect();
        assert!(
            leaks.is_empty(),
            "{variant:?}: unprefixed non-API names {leaks:?}"
        );
        // The API is all there (none listed that the source lacks).
        for api in API_NAMES {
            assert!(names.iter().any(|n| n == api), "{variant:?}: {api} missing");
        }

        let prefixed = assemble(&WgslOptions {
            variant,
            group: 2,
            api_names: ApiNames::Prefixed,
        });
        let names = global_names(&prefixed);
        let bare: Vec<_> = names.iter().filter(|n| !is_prefixed(n)).collect();
        assert!(bare.is_empty(), "{variant:?} prefixed: bare names {bare:?}");
        assert!(names.iter().any(|n| n == "wgpu_noise_simplex3"));
        assert!(names.iter().any(|n| n == "wgpu_noise_NoiseSettings"));
    }
}

#[test]
fn declared_names_lists_the_same_names_the_source_declares() {
    let source = assemble(&WgslOptions::default());
    assert_eq!(wgpu_noise::embed::declared_names(), global_names(&source));
}

/// An application shader that already carries webgl-noise (Ashima/McEwan) and psrdnoise
/// (Gustavson/McEwan 2022) helpers, plus other short names a noise user is likely to
/// have: each is declared next to the library's noise.
const WEBGL_NOISE_HELPERS: &str = r#"
const TAU: f32 = 6.283185307179586;
const PI: f32 = 3.141592653589793;
fn mod289(x: vec4<f32>) -> vec4<f32> { return x - floor(x * (1.0 / 289.0)) * 289.0; }
fn permute(x: vec4<f32>) -> vec4<f32> { return mod289(((x * 34.0) + 10.0) * x); }
fn taylorInvSqrt(r: vec4<f32>) -> vec4<f32> { return 1.79284291400159 - 0.85373472095314 * r; }
fn fade(t: vec3<f32>) -> vec3<f32> { return t * t * t * (t * (t * 6.0 - 15.0) + 10.0); }
fn lerp(a: vec3<f32>, b: vec3<f32>, t: f32) -> vec3<f32> { return mix(a, b, t); }
fn grad3(h: u32) -> vec3<f32> { return vec3<f32>(f32(h & 1u), f32(h & 2u), f32(h & 4u)); }
fn grad4(j: f32, ip: vec4<f32>) -> vec4<f32> { return fract(vec4<f32>(j) * ip); }
fn hash2(p: vec2<f32>) -> vec2<f32> { return fract(sin(p * 127.1) * 43758.5453); }
fn hash(x: u32) -> u32 { return x * 747796405u + 2891336453u; }
fn falloff(d: vec3<f32>) -> f32 { return max(0.5 - dot(d, d), 0.0); }
fn dot3(a: vec3<f32>, b: vec3<f32>) -> f32 { return dot(a, b); }
fn perm(x: f32) -> f32 { return (x * 34.0 + 1.0) * x % 289.0; }
fn perm1(x: u32) -> u32 { return x; }
fn wrap256(x: f32) -> f32 { return x % 256.0; }
fn snoise(v: vec3<f32>) -> f32 { return permute(vec4<f32>(v, 1.0)).x; }
fn psrdnoise(x: vec2<f32>, period: vec2<f32>, alpha: f32) -> f32 { return x.x * alpha; }
fn lowbias32(x: u32) -> u32 { return hash(x); }
fn cell_pair(x: f32) -> vec2<f32> { return vec2<f32>(floor(x), floor(x) + 1.0); }
struct Corners3 { d: vec3<f32> }
struct Cell4 { x: vec2<u32> }
const SIMPLEX3_F: f32 = 1.0 / 3.0;
const NOISE_SIMPLEX: u32 = 7u;
const FRACTAL_FBM: u32 = 9u;
"#;

#[test]
fn webgl_noise_and_psrdnoise_helper_names_beside_the_noise_compute_the_reference_noise() {
    let Some(ctx) = common::gpu() else {
        return;
    };
    let (device, queue) = (&ctx.device, &ctx.queue);
    let seed = 11;
    let points = points(2000);
    let user = format!(
        "{APP_BINDINGS}{WEBGL_NOISE_HELPERS}{}",
        six_function_kernel("")
    );

    // Texture variant, through the embedding API.
    let noise = NoiseBindings::new(
        device,
        queue,
        &NoiseBindingsDescriptor {
            group: 1,
            seed,
            visibility: wgpu::ShaderStages::COMPUTE,
        },
    )
    .unwrap();
    let source = noise
        .shader_source(&user)
        .expect("helpers compose with the noise");
    let values = run_kernel(
        device,
        queue,
        &source,
        &NoiseSide {
            group: 1,
            binding: Some((noise.layout(), noise.bind_group())),
            constants: vec![],
        },
        &points,
        6,
    );
    let max = check_six(
        "helpers + textures",
        &values,
        &points,
        &PermutationTables::new(seed),
    );
    eprintln!("helpers beside the texture variant: max abs error {max:e}");

    // Hash variant: no bindings; the seed key goes in by the override's id.
    let source = format!(
        "{}\n{user}",
        assemble(&WgslOptions {
            variant: LookupVariant::Hash,
            ..Default::default()
        })
    );
    let values = run_kernel(
        device,
        queue,
        &source,
        &NoiseSide {
            group: 1,
            binding: None,
            constants: vec![(
                HASH_KEY_OVERRIDE_ID.to_string(),
                hash_key_for_seed(seed) as f64,
            )],
        },
        &points,
        6,
    );
    let max = check_six(
        "helpers + hash",
        &values,
        &points,
        &IntegerHasher::new(seed),
    );
    eprintln!("helpers beside the hash variant: max abs error {max:e}");
}

#[test]
fn with_prefixed_api_names_an_application_keeps_its_own_simplex3() {
    let Some(ctx) = common::gpu() else {
        return;
    };
    let (device, queue) = (&ctx.device, &ctx.queue);
    let seed = 5;
    // The application's own functions under the API's plain names.
    let own: String = API_NAMES
        .iter()
        .filter(|n| **n != "NoiseSettings")
        .map(|n| format!("fn {n}() -> f32 {{ return 0.0; }}\n"))
        .collect::<String>()
        + "struct NoiseSettings { mine: f32 }\n";
    let user = format!("{APP_BINDINGS}{own}{}", six_function_kernel("wgpu_noise_"));
    // Plain names clash ...
    let plain = wgpu_noise::embed::shader_source(1, &user);
    assert!(plain.is_err(), "the plain API names should clash here");
    // ... prefixed ones do not.
    let noise = NoiseBindings::new(
        device,
        queue,
        &NoiseBindingsDescriptor {
            group: 1,
            seed,
            visibility: wgpu::ShaderStages::COMPUTE,
        },
    )
    .unwrap();
    let prefixed = assemble(&WgslOptions {
        variant: LookupVariant::Textures,
        group: 1,
        api_names: ApiNames::Prefixed,
    });
    let source = format!("{prefixed}\n{user}");
    naga::front::wgsl::parse_str(&source).expect("prefixed API composes");
    let values = run_kernel(
        device,
        queue,
        &source,
        &NoiseSide {
            group: 1,
            binding: Some((noise.layout(), noise.bind_group())),
            constants: vec![],
        },
        &points(1000),
        6,
    );
    let max = check_six(
        "prefixed API",
        &values,
        &points(1000),
        &PermutationTables::new(seed),
    );
    eprintln!("prefixed API names: max abs error {max:e}");
}
