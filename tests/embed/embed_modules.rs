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
    let mut app = wesl::VirtualResolver::new();
    app.add_module("package::main".parse().unwrap(), main.to_string().into());
    let mut noise = wesl::VirtualResolver::new();
    noise.add_module(
        format!("package::{}", variant.module_name())
            .parse()
            .unwrap(),
        wesl_module(variant, GROUP).into(),
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
    use naga_oil::compose::{
        ComposableModuleDescriptor, Composer, NagaModuleDescriptor, ShaderLanguage, ShaderType,
    };
    let mut composer = Composer::default();
    let module_source = naga_oil_module(variant, GROUP);
    composer
        .add_composable_module(ComposableModuleDescriptor {
            source: &module_source,
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
