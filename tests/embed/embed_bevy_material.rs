//! The Bevy 0.20 material of examples/bevy/ (cloud_material.wesl), compiled by the `wesl`
//! crate exactly as written against the generated `wgpu_noise` WESL package (texture
//! variant at Bevy's material group 3): the material module itself compiles to WGSL that
//! wgpu accepts, and its `cloud_density` run on the GPU matches the CPU reference.
//! (Bevy itself is not built here; see docs/embedding.md.)

use crate::common;
use crate::embed_support;

use embed_support::{points, run_kernel, NoiseSide, APP_BINDINGS};
use wgpu_noise::embed::{NoiseBindings, NoiseBindingsDescriptor};
use wgpu_noise::params::{NoiseSettings, FRACTAL_FBM, KERNEL_REFERENCE};
use wgpu_noise::shader::{wesl_module, LookupVariant};
use wgpu_noise::tables::PermutationTables;
use wgpu_noise::{cpu, NoiseKind};

/// The file the Bevy example uses, byte for byte.
const MATERIAL: &str = include_str!("../../examples/bevy/cloud_material.wesl");

/// Bevy's material bind group, where the example declares the noise's textures.
const MATERIAL_GROUP: u32 = 3;

/// The parity tolerance of the compute path (absolute), as in tests/embed/embed_compute.rs.
const TOLERANCE: f32 = 1e-5;

fn compile(root: &str, extra: Option<(&str, String)>) -> String {
    let mut app = wesl::VirtualResolver::new();
    app.add_module("package::cloud_material".parse().unwrap(), MATERIAL.into());
    if let Some((path, source)) = extra {
        app.add_module(path.parse().unwrap(), source.into());
    }
    let mut noise = wesl::VirtualResolver::new();
    noise.add_module(
        "package::textures".parse().unwrap(),
        wesl_module(LookupVariant::Textures, MATERIAL_GROUP).into(),
    );
    let mut router = wesl::Router::new();
    router.mount_resolver("wgpu_noise".parse().unwrap(), noise);
    router.mount_fallback_resolver(app);
    wesl::Wesl::new("")
        .set_custom_resolver(router)
        .compile(&root.parse().unwrap())
        .unwrap_or_else(|e| panic!("wesl refused {root}: {e}"))
        .to_string()
}

#[test]
fn the_bevy_material_compiles_through_wesl_into_a_fragment_shader_wgpu_accepts() {
    let wgsl = compile("package::cloud_material", None);
    let module = naga::front::wgsl::parse_str(&wgsl).expect("WESL output parses");
    assert!(
        module
            .entry_points
            .iter()
            .any(|e| e.name == "fragment" && e.stage == naga::ShaderStage::Fragment),
        "the material's fragment entry point survives: {wgsl}"
    );
    // Only what the material uses survives WESL's stripping (3D noise reads two of the
    // four textures); all of it at the material's group, the uniform at binding 4.
    let bindings: Vec<(u32, u32)> = module
        .global_variables
        .iter()
        .filter_map(|(_, v)| v.binding.as_ref().map(|b| (b.group, b.binding)))
        .collect();
    eprintln!("material bindings after WESL: {bindings:?}");
    assert!(
        bindings.iter().all(|&(g, b)| g == MATERIAL_GROUP && b <= 4),
        "{bindings:?}"
    );
    assert!(bindings.contains(&(MATERIAL_GROUP, 4)), "{bindings:?}");
    assert!(
        bindings.len() >= 2,
        "the noise textures are gone: {bindings:?}"
    );

    let Some(ctx) = common::gpu() else { return };
    let scope = ctx.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let _material = ctx
        .device
        .create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("bevy cloud material"),
            source: wgpu::ShaderSource::Wgsl(wgsl.into()),
        });
    if let Some(e) = pollster::block_on(scope.pop()) {
        panic!("wgpu refused the material: {e}");
    }
}

#[test]
fn the_bevy_materials_cloud_density_matches_the_cpu_reference() {
    let Some(ctx) = common::gpu() else { return };
    let (device, queue) = (&ctx.device, &ctx.queue);
    let seed = 7;
    let kernel = format!(
        "import package::cloud_material::{{cloud_density, CloudParams}};\n{APP_BINDINGS}\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(global_invocation_id) id: vec3<u32>) {{\n\
             let i = id.x;\n\
             if (i >= arrayLength(&points)) {{ return; }}\n\
             let p = points[i];\n\
             values[i] = cloud_density(p.xy * 0.01, CloudParams(8.0, p.z * 0.1, 0.5, 0.0));\n\
         }}\n"
    );
    let wgsl = compile("package::check", Some(("package::check", kernel)));
    let noise = NoiseBindings::new(
        device,
        queue,
        &NoiseBindingsDescriptor {
            group: MATERIAL_GROUP,
            seed,
            visibility: wgpu::ShaderStages::COMPUTE,
        },
    )
    .unwrap();
    let points = points(2000);
    let side = NoiseSide {
        group: MATERIAL_GROUP,
        binding: Some((noise.layout(), noise.bind_group())),
        constants: vec![],
    };
    let gpu = run_kernel(device, queue, &wgsl, &side, &points, 1);

    let lut = PermutationTables::new(seed);
    let settings = NoiseSettings {
        octaves: 4,
        mode: FRACTAL_FBM,
        lacunarity: 2.0,
        gain: 0.5,
        kernel: KERNEL_REFERENCE,
        ..Default::default()
    };
    let mut max = 0.0f32;
    for (p, g) in points.iter().zip(&gpu) {
        // The same f32 operations as the shader: uv = p.xy * 0.01, then uv * scale.
        let (u, v, t) = (p[0] * 0.01, p[1] * 0.01, p[2] * 0.1);
        let c = cpu::fractal::fractal::<f32>(
            &lut,
            NoiseKind::Simplex,
            &[u * 8.0, v * 8.0, t],
            &settings,
        );
        let e = (g - c).abs();
        max = if e.is_nan() {
            f32::INFINITY
        } else {
            max.max(e)
        };
    }
    eprintln!(
        "Bevy material cloud_density (WESL): {} points, max abs error vs CPU f32 {max:e}",
        points.len()
    );
    assert!(max <= TOLERANCE, "max abs error {max:e}");
    assert!(gpu.iter().filter(|v| **v != 0.0).count() * 2 > gpu.len());
}
