//! The WGSL sources, and their assembly for the fill pipelines and for embedding.
//!
//! `shaders/lookup.wgsl` declares the lookup textures at `@group(0)`;
//! [`noise_functions_wgsl`] rewrites that to the group an application chooses, so the
//! noise functions never collide with the application's own bindings.
//!
//! Every global name of the noise source other than [`API_NAMES`] starts with
//! `wgpu_noise_` / `WGPU_NOISE_` in the `.wgsl` files themselves; [`ApiNames::Prefixed`]
//! gives the API names that prefix too, by a whole-identifier rewrite at assembly time.
//! The pasted source, the WESL modules ([`wesl_module`]) and the naga_oil modules
//! ([`naga_oil_module`]) are all assembled here from the same files.

// The sources, one per file, and where the fill pipelines bind the lookups: internals
// (assembled by the functions below).
internal! {
    /// Lookup texture bindings and fetch helpers (`shaders/lookup.wgsl`).
    pub const LOOKUP_WGSL: &str = include_str!("../shaders/lookup.wgsl");
    /// The same lookups computed by hashing, without textures (`shaders/lookup_hash.wgsl`).
    pub const LOOKUP_HASH_WGSL: &str = include_str!("../shaders/lookup_hash.wgsl");
    /// Cell-coordinate wrapping (`shaders/lattice.wgsl`).
    pub const LATTICE_WGSL: &str = include_str!("../shaders/lattice.wgsl");
    /// Classic Perlin noise `classic2/3/4` (`shaders/classic.wgsl`).
    pub const CLASSIC_WGSL: &str = include_str!("../shaders/classic.wgsl");
    /// Simplex noise `simplex2/3/4` and flow noise `flow2/3` (`shaders/simplex.wgsl`).
    pub const SIMPLEX_WGSL: &str = include_str!("../shaders/simplex.wgsl");
    /// Cellular (Worley) noise `cellular2/3/4` and their periodic forms (`shaders/cellular.wgsl`).
    pub const CELLULAR_WGSL: &str = include_str!("../shaders/cellular.wgsl");
    /// Value noise `value2/3/4` and their periodic forms (`shaders/value.wgsl`).
    pub const VALUE_WGSL: &str = include_str!("../shaders/value.wgsl");
    /// OpenSimplex2S ("SuperSimplex") noise in 2D to 4D (`shaders/supersimplex.wgsl`).
    pub const SUPERSIMPLEX_WGSL: &str = include_str!("../shaders/supersimplex.wgsl");
    /// Fractal sums, tiling and kernel choice `fractal2/3/4` (`shaders/fractal.wgsl`).
    pub const FRACTAL_WGSL: &str = include_str!("../shaders/fractal.wgsl");
    /// Domain warp `warp2/3/4(kind, p, NoiseSettings)`, used by `fractal2/3/4` (`shaders/warp.wgsl`).
    pub const WARP_WGSL: &str = include_str!("../shaders/warp.wgsl");
    /// Curl noise `curl2`, `curl3` (`shaders/curl.wgsl`).
    pub const CURL_WGSL: &str = include_str!("../shaders/curl.wgsl");
    /// The functions graph nodes combine values with (`shaders/combine.wgsl`).
    pub const COMBINE_WGSL: &str = include_str!("../shaders/combine.wgsl");
    /// Compute entry points of the generator (`shaders/fill.wgsl`).
    pub const FILL_WGSL: &str = include_str!("../shaders/fill.wgsl");

    /// The bind group the fill pipelines use for the lookup textures.
    pub const FILL_LOOKUP_GROUP: u32 = 0;
}

/// The pipeline-constant id of the hash variant's seed key (`@id(..)` of
/// `WGPU_NOISE_HASH_KEY` in `shaders/lookup_hash.wgsl`; keep in sync). Set it by this
/// number (`"28271"` in `PipelineCompilationOptions::constants`): module systems (WESL,
/// naga_oil) rename the override, its id stays.
pub const HASH_KEY_OVERRIDE_ID: u16 = 28271;

pub use crate::tables::hash_key_for_seed;

/// The documented API of the noise source: the only global names without the
/// `wgpu_noise_` prefix (unless [`ApiNames::Prefixed`] is asked for).
pub const API_NAMES: [&str; 57] = [
    "classic2",
    "classic3",
    "classic4",
    "classic2_periodic",
    "classic3_periodic",
    "classic4_periodic",
    "classic2_periodic_deriv",
    "classic3_periodic_deriv",
    "classic4_periodic_deriv",
    "simplex2",
    "simplex3",
    "simplex4",
    "simplex2_tiled",
    "simplex3_periodic",
    "simplex3_r2",
    "simplex4_r2",
    "simplex2_deriv",
    "simplex3_deriv",
    "simplex4_gradient",
    "simplex4_deriv",
    "simplex2_tiled_deriv",
    "simplex3_periodic_deriv",
    "flow2",
    "flow2_deriv",
    "flow3",
    "flow3_r2",
    "flow3_deriv",
    "fbm_deriv2",
    "fbm_deriv3",
    "fractal2",
    "fractal3",
    "fractal4",
    "NoiseSettings",
    "cellular2",
    "cellular3",
    "cellular4",
    "cellular2_periodic",
    "cellular3_periodic",
    "cellular4_periodic",
    "cellular2_periodic_deriv",
    "cellular3_periodic_deriv",
    "cellular4_periodic_deriv",
    "CellularShape",
    "value2",
    "value3",
    "value4",
    "value2_periodic",
    "value3_periodic",
    "value4_periodic",
    "value2_periodic_deriv",
    "value3_periodic_deriv",
    "value4_periodic_deriv",
    "warp2",
    "warp3",
    "warp4",
    "curl2",
    "curl3",
];

/// The noise functions (`classic2`, `classic3`, `classic4`, `simplex2`, `simplex3`,
/// `simplex4`, each taking a `vecN<f32>` and returning `f32`; the periodic, tiled and
/// kernel variants; `cellular2/3/4(p, CellularShape)` and their `_periodic` forms; and
/// `fractal2/3/4(kind, p, NoiseSettings)`) as WGSL, with the lookup textures declared at
/// bind group `group`, bindings 0 to 3.
///
/// Prepend it to your own shader and bind a [`crate::gpu::LookupTextures`] bind group at
/// `group`. The functions use only `textureLoad`, so they work in every shader stage.
pub fn noise_functions_wgsl(group: u32) -> String {
    noise_functions_wgsl_with(LookupVariant::Textures, group)
}

/// Where the noise functions get their permutation and gradients.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LookupVariant {
    /// Texture fetches from the uploaded lookup tables (Gustavson's permutation; the
    /// values of the reference code).
    #[default]
    Textures,
    /// Integer hashing, no textures (another pattern with the same gradient sets; the
    /// seed enters as the pipeline constant `WGPU_NOISE_HASH_KEY`).
    Hash,
}

/// [`noise_functions_wgsl`] for either lookup variant. The hash variant declares no
/// bindings (`group` is unused) and has a pipeline-overridable `WGPU_NOISE_HASH_KEY`.
pub fn noise_functions_wgsl_with(variant: LookupVariant, group: u32) -> String {
    assemble(&WgslOptions {
        variant,
        group,
        api_names: ApiNames::Plain,
    })
}

/// Whether the API names ([`API_NAMES`]) carry the `wgpu_noise_` prefix too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ApiNames {
    /// `simplex3`, `NoiseSettings`, ...: the names the documentation uses.
    #[default]
    Plain,
    /// `wgpu_noise_simplex3`, `wgpu_noise_NoiseSettings`, ...: for a shader that already
    /// has a `simplex3` of its own. Then every global name of the noise is prefixed.
    Prefixed,
}

/// What [`assemble`] puts together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WgslOptions {
    /// Texture lookups (bind group `group`, bindings 0 to 3) or hashing (no bindings).
    pub variant: LookupVariant,
    /// The bind group of the lookup textures (unused by the hash variant).
    pub group: u32,
    /// Plain or prefixed API names.
    pub api_names: ApiNames,
}

/// The noise functions as one WGSL source, per `options`.
pub fn assemble(options: &WgslOptions) -> String {
    let lookup = match options.variant {
        LookupVariant::Textures => {
            LOOKUP_WGSL.replace("@group(0)", &format!("@group({})", options.group))
        }
        LookupVariant::Hash => LOOKUP_HASH_WGSL.to_string(),
    };
    let source = format!(
        "{lookup}\n{LATTICE_WGSL}\n{CLASSIC_WGSL}\n{SIMPLEX_WGSL}\n{CELLULAR_WGSL}\n{VALUE_WGSL}\n{SUPERSIMPLEX_WGSL}\n{FRACTAL_WGSL}\n{WARP_WGSL}\n{CURL_WGSL}\n{COMBINE_WGSL}"
    );
    match options.api_names {
        ApiNames::Plain => source,
        ApiNames::Prefixed => prefix_api_names(&source),
    }
}

/// `source` with every whole identifier in [`API_NAMES`] given the `wgpu_noise_` prefix
/// (comments included, which is harmless; no API name is a member or local name).
pub(crate) fn prefix_api_names(source: &str) -> String {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(source.len() + source.len() / 8);
    let mut rest = source;
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
        // An identifier starts here only if the previous character ends none.
        let (before, from) = rest.split_at(start);
        out.push_str(before);
        let len = from.find(|c: char| !is_ident(c)).unwrap_or(from.len());
        let (word, after) = from.split_at(len);
        let inside_word = out.chars().next_back().is_some_and(is_ident);
        if !inside_word && API_NAMES.contains(&word) {
            out.push_str("wgpu_noise_");
        }
        out.push_str(word);
        rest = after;
    }
    out.push_str(rest);
    out
}

/// The WESL package name of the modules [`wesl_module`] and [`naga_oil_module`] make.
pub const MODULE_PACKAGE: &str = "wgpu_noise";

impl LookupVariant {
    /// The module name of this variant inside [`MODULE_PACKAGE`]: `textures` or `hash`
    /// (`import wgpu_noise::textures::simplex3;`, `#import wgpu_noise::hash::simplex3`).
    pub fn module_name(self) -> &'static str {
        match self {
            LookupVariant::Textures => "textures",
            LookupVariant::Hash => "hash",
        }
    }
}

/// The noise as the WESL module `wgpu_noise::textures` (lookup textures at bind group
/// `group`) or `wgpu_noise::hash` (no bindings): save it as `wgpu_noise/textures.wesl`
/// (or register it with your WESL resolver under that path) and import from it:
/// `import wgpu_noise::textures::{simplex3, fractal3, NoiseSettings};`.
///
/// The WESL compiler renames (mangles) what it imports, so the plain API names are used
/// here; the seed key of the hash variant is set through its override id,
/// [`HASH_KEY_OVERRIDE_ID`], which mangling keeps.
pub fn wesl_module(variant: LookupVariant, group: u32) -> String {
    format!(
        "// wgpu-noise {} noise functions as the WESL module {MODULE_PACKAGE}::{}.\n\
         // Generated by wgpu_noise::shader::wesl_module from the crate's shaders/*.wgsl.\n{}",
        env!("CARGO_PKG_VERSION"),
        variant.module_name(),
        noise_functions_wgsl_with(variant, group)
    )
}

/// The noise as a naga_oil composable module `wgpu_noise::textures` (lookup textures at
/// bind group `group`) or `wgpu_noise::hash`: add it with
/// `Composer::add_composable_module` and import with
/// `#import wgpu_noise::textures::{simplex3, fractal3, NoiseSettings}`.
pub fn naga_oil_module(variant: LookupVariant, group: u32) -> String {
    format!(
        "#define_import_path {MODULE_PACKAGE}::{}\n{}",
        variant.module_name(),
        noise_functions_wgsl_with(variant, group)
    )
}

internal! {
    /// The complete source of the fill pipelines for a lookup variant.
    pub fn fill_shader_wgsl(variant: LookupVariant) -> String {
        format!(
            "{}\n{FILL_WGSL}",
            noise_functions_wgsl_with(variant, FILL_LOOKUP_GROUP)
        )
    }
}
