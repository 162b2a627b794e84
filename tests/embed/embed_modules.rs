//! The noise as importable modules, composed by the real toolchain crates and run on the
//! GPU against the CPU `f32` reference: a WESL package (the `wesl` crate, 0.4.0: the
//! newest that builds on this crate's Rust; Bevy 0.20 imports shaders this way) and
//! naga_oil composable modules (Bevy 0.19 and earlier). Both come from
//! `wgpu_noise::shader::{wesl_module, naga_oil_module}`, assembled from the same
//! `shaders/*.wgsl` as the pasted source.

use crate::common;
use crate::embed_support;

use std::collections::HashMap;

use embed_support::{
    check_six, compute_bindings, points, run_kernel, six_function_kernel, NoiseSide,
};
use embed_support::{APP_BINDINGS, SIX};
use wgpu_noise::cpu::IntegerHasher;
use wgpu_noise::shader::{naga_oil_module, wesl_module, LookupVariant};
use wgpu_noise::tables::PermutationTables;

/// The bind group the tests give the texture variant (the application's choice).
const GROUP: u32 = 2;

/// `import ...::{classic2, ..., simplex4};` (WESL) or `#import ...::{...}` (naga_oil).
fn six_names() -> String {
    SIX.map(|(name, _, _)| name).join(", ")
}

/// The application's package for WESL: `package::main` (its kernel, importing from
/// `wgpu_noise::{module}`), and the `wgpu_noise` package mounted beside it.
fn compile_wesl(variant: LookupVariant, main: &str) -> String {
    compile_wesl_module(variant.module_name(), &wesl_module(variant, GROUP), main)
}

/// [`compile_wesl`] with the module `wgpu_noise::{name}` of source `module`.
fn compile_wesl_module(name: &str, module: &str, main: &str) -> String {
    let mut app = wesl::VirtualResolver::new();
    app.add_module("package::main".parse().unwrap(), main.to_string().into());
    let mut noise = wesl::VirtualResolver::new();
    noise.add_module(
        format!("package::{name}").parse().unwrap(),
        module.to_string().into(),
    );
    let mut router = wesl::Router::new();
    router.mount_resolver("wgpu_noise".parse().unwrap(), noise);
    router.mount_fallback_resolver(app);
    let compiler = wesl::Wesl::new("").set_custom_resolver(router);
    match compiler.compile(&"package::main".parse().unwrap()) {
        Ok(result) => result.to_string(),
        Err(e) => panic!("wesl refused the shader: {e}"),
    }
}

/// naga_oil: the noise module added as composable, the application's shader composed
/// against it, written back out as WGSL (naga_oil 0.23 is on naga 30, as wgpu 30 is,
/// but text keeps the test independent of that).
fn compose_naga_oil(variant: LookupVariant, main: &str) -> String {
    compose_naga_oil_module(&naga_oil_module(variant, GROUP), main)
}

/// [`compose_naga_oil`] with the composable module `module_source`.
fn compose_naga_oil_module(module_source: &str, main: &str) -> String {
    use naga_oil::compose::{
        ComposableModuleDescriptor, Composer, NagaModuleDescriptor, ShaderLanguage, ShaderType,
    };
    let mut composer = Composer::default();
    composer
        .add_composable_module(ComposableModuleDescriptor {
            source: module_source,
            file_path: "wgpu_noise.wgsl",
            language: ShaderLanguage::Wgsl,
            as_name: None,
            additional_imports: &[],
            shader_defs: HashMap::new(),
        })
        .unwrap_or_else(|e| panic!("naga_oil refused the noise module: {e:?}"));
    let module = composer
        .make_naga_module(NagaModuleDescriptor {
            source: main,
            file_path: "main.wgsl",
            shader_type: ShaderType::Wgsl,
            shader_defs: HashMap::new(),
            additional_imports: &[],
        })
        .unwrap_or_else(|e| panic!("naga_oil refused the shader: {e:?}"));
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .expect("the composed module validates");
    naga::back::wgsl::write_string(&module, &info, naga::back::wgsl::WriterFlags::empty())
        .expect("naga writes the composed module as WGSL")
}

/// Runs `wgsl` (the composed six-function kernel) for `variant` with seed `seed` and
/// returns the worst error against the CPU reference.
fn run_and_check(what: &str, variant: LookupVariant, wgsl: &str, seed: u64) -> Option<f32> {
    let ctx = common::gpu()?;
    let (device, queue) = (&ctx.device, &ctx.queue);
    let points = points(2000);
    let worst = match variant {
        LookupVariant::Textures => {
            let noise = compute_bindings(device, queue, GROUP, seed);
            let side = NoiseSide::textures(&noise);
            let values = run_kernel(device, queue, wgsl, &side, &points, 6);
            check_six(what, &values, &points, &PermutationTables::new(seed))
        }
        LookupVariant::Hash => {
            let side = NoiseSide::hash(GROUP, seed);
            let values = run_kernel(device, queue, wgsl, &side, &points, 6);
            check_six(what, &values, &points, &IntegerHasher::new(seed))
        }
    };
    Some(worst)
}

#[test]
fn wesl_import_of_the_texture_module_computes_the_reference_noise() {
    let main = format!(
        "import wgpu_noise::textures::{{{}}};\n{APP_BINDINGS}{}",
        six_names(),
        six_function_kernel("")
    );
    let wgsl = compile_wesl(LookupVariant::Textures, &main);
    if let Some(max) = run_and_check("wesl textures", LookupVariant::Textures, &wgsl, 9) {
        eprintln!("WESL (wesl 0.4.0), texture variant at group {GROUP}: max abs error {max:e}");
    }
}

#[test]
fn wesl_import_of_the_hash_module_computes_the_reference_noise() {
    let main = format!(
        "import wgpu_noise::hash::{{{}}};\n{APP_BINDINGS}{}",
        six_names(),
        six_function_kernel("")
    );
    let wgsl = compile_wesl(LookupVariant::Hash, &main);
    assert!(
        !wgsl.contains("@group(2)"),
        "the hash variant declares no bindings"
    );
    if let Some(max) = run_and_check("wesl hash", LookupVariant::Hash, &wgsl, 9) {
        eprintln!("WESL (wesl 0.4.0), hash variant: max abs error {max:e}");
    }
}

#[test]
fn naga_oil_import_of_the_texture_module_computes_the_reference_noise() {
    let main = format!(
        "#import wgpu_noise::textures::{{{}}}\n{APP_BINDINGS}{}",
        six_names(),
        six_function_kernel("")
    );
    let wgsl = compose_naga_oil(LookupVariant::Textures, &main);
    if let Some(max) = run_and_check("naga_oil textures", LookupVariant::Textures, &wgsl, 4) {
        eprintln!("naga_oil 0.23, texture variant at group {GROUP}: max abs error {max:e}");
    }
}

#[test]
fn naga_oil_import_of_the_hash_module_computes_the_reference_noise() {
    let main = format!(
        "#import wgpu_noise::hash::{{{}}}\n{APP_BINDINGS}{}",
        six_names(),
        six_function_kernel("")
    );
    let wgsl = compose_naga_oil(LookupVariant::Hash, &main);
    if let Some(max) = run_and_check("naga_oil hash", LookupVariant::Hash, &wgsl, 4) {
        eprintln!("naga_oil 0.23, hash variant: max abs error {max:e}");
    }
}

/// The terrain graph (3D) as a module of its own, imported by WESL and by
/// naga_oil for both lookup variants, evaluated at scattered points by the application's
/// kernel: within the graph parity bound of the `f32` CPU evaluator
/// (`tests/common/graphs.rs`, docs/graphs.md "GPU and CPU agree").
#[test]
fn a_graph_imported_as_a_module_computes_the_graph() {
    use wgpu_noise::graph::Graph;
    let Some(ctx) = common::gpu() else { return };
    let (device, queue) = (&ctx.device, &ctx.queue);
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/graphs/terrain.json"),
    )
    .unwrap();
    let program = Graph::from_json(&text)
        .unwrap()
        .program(3, [0.0; 4])
        .unwrap();
    let points: Vec<[f32; 4]> = points(2000).iter().map(|p| p.map(|c| c * 0.05)).collect();
    let kernel = "@compute @workgroup_size(64)\nfn main(@builtin(global_invocation_id) id: vec3<u32>) {\n    \
                  let i = id.x;\n    if (i >= arrayLength(&points)) { return; }\n    \
                  values[i] = terrain(points[i]);\n}\n";
    let seed = 7;
    let bindings = compute_bindings(device, queue, GROUP, seed);
    for variant in [LookupVariant::Textures, LookupVariant::Hash] {
        let wesl = compile_wesl_module(
            "terrain",
            &program.wesl_module("terrain", variant, GROUP).unwrap(),
            &format!("import wgpu_noise::terrain::terrain;\n{APP_BINDINGS}{kernel}"),
        );
        let naga_oil = compose_naga_oil_module(
            &program.naga_oil_module("terrain", variant, GROUP).unwrap(),
            &format!("#import wgpu_noise::terrain::terrain\n{APP_BINDINGS}{kernel}"),
        );
        for (toolchain, wgsl) in [("wesl", wesl), ("naga_oil", naga_oil)] {
            let label = format!("{toolchain} {variant:?}");
            let (side, (cpu, cpu64)) = match variant {
                LookupVariant::Textures => (
                    NoiseSide::textures(&bindings),
                    graph_reference(&program, &PermutationTables::new(seed), &points),
                ),
                LookupVariant::Hash => (
                    NoiseSide::hash(GROUP, seed),
                    graph_reference(&program, &IntegerHasher::new(seed), &points),
                ),
            };
            let gpu = run_kernel(device, queue, &wgsl, &side, &points, 1);
            let worst = common::graphs::assert_graph_parity(&label, &gpu, &cpu, &cpu64);
            // The kernel ran: the values vary (a kernel that wrote nothing or a constant has
            // one value; terrain.json's terraces leave about 600 distinct ones of 2000).
            let mut distinct: Vec<u32> = gpu.iter().map(|v| v.to_bits()).collect();
            distinct.sort_unstable();
            distinct.dedup();
            assert!(
                distinct.len() > 100,
                "{label}: {} distinct values",
                distinct.len()
            );
            eprintln!("terrain.json as a {toolchain} module, {variant:?}: largest relative difference {worst:e}");
        }
    }
    // Names the noise already uses, or that are no WGSL identifier, are refused.
    for bad in ["simplex3", "wgpu_noise_x", "hash", "2d", "a-b", ""] {
        let e = program
            .wesl_module(bad, LookupVariant::Hash, GROUP)
            .unwrap_err();
        assert!(e.to_string().contains("name"), "{bad:?}: {e}");
    }
}

/// `program` at `points` on the CPU, in `f32` and in `f64`.
fn graph_reference(
    program: &wgpu_noise::graph::Program,
    lut: &impl wgpu_noise::cpu::NoiseHasher,
    points: &[[f32; 4]],
) -> (Vec<f32>, Vec<f64>) {
    use wgpu_noise::graph::eval;
    let (mut r32, mut r64) = (Vec::new(), Vec::new());
    let cpu = points
        .iter()
        .map(|p| eval::value(program, lut, *p, &mut r32))
        .collect();
    let cpu64 = points
        .iter()
        .map(|p| eval::value(program, lut, p.map(f64::from), &mut r64))
        .collect();
    (cpu, cpu64)
}
