//! The WGSL sources, and their assembly for the fill pipelines and for embedding.
//!
//! `shaders/lookup.wgsl` declares the lookup textures at `@group(0)`;
//! [`noise_functions_wgsl`] rewrites that to the group an application chooses, so the
//! noise functions never collide with the application's own bindings.

/// Lookup texture bindings and fetch helpers (`shaders/lookup.wgsl`).
pub const LOOKUP_WGSL: &str = include_str!("../shaders/lookup.wgsl");
/// The same lookups computed by hashing, without textures (`shaders/lookup_hash.wgsl`).
pub const LOOKUP_HASH_WGSL: &str = include_str!("../shaders/lookup_hash.wgsl");
/// Cell-coordinate wrapping (`shaders/lattice.wgsl`).
pub const LATTICE_WGSL: &str = include_str!("../shaders/lattice.wgsl");
/// Classic Perlin noise `classic2/3/4` (`shaders/classic.wgsl`).
pub const CLASSIC_WGSL: &str = include_str!("../shaders/classic.wgsl");
/// Simplex noise `simplex2/3/4` (`shaders/simplex.wgsl`).
pub const SIMPLEX_WGSL: &str = include_str!("../shaders/simplex.wgsl");
/// Cellular (Worley) noise `cellular2/3/4` and their periodic forms (`shaders/cellular.wgsl`).
pub const CELLULAR_WGSL: &str = include_str!("../shaders/cellular.wgsl");
/// Fractal sums, tiling and kernel choice `fractal2/3/4` (`shaders/fractal.wgsl`).
pub const FRACTAL_WGSL: &str = include_str!("../shaders/fractal.wgsl");
/// Compute entry points of the generator (`shaders/fill.wgsl`).
pub const FILL_WGSL: &str = include_str!("../shaders/fill.wgsl");

/// The bind group the fill pipelines use for the lookup textures.
pub const FILL_LOOKUP_GROUP: u32 = 0;

/// The noise functions (`classic2`, `classic3`, `classic4`, `simplex2`, `simplex3`,
/// `simplex4`, each taking a `vecN<f32>` and returning `f32`; the periodic, tiled and
/// kernel variants; `cellular2/3/4(p, CellularShape)` and their `_periodic` forms; and
/// `fractal2/3/4(kind, p, NoiseSettings)`) as WGSL, with the lookup textures declared at
/// bind group `group`, bindings 0 to 3.
///
/// Prepend it to your own shader and bind a [`crate::gpu::NoiseLookup`] bind group at
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
    /// seed enters as the pipeline constant `NOISE_HASH_KEY`).
    Hash,
}

/// [`noise_functions_wgsl`] for either lookup variant. The hash variant declares no
/// bindings (`group` is unused) and has a pipeline-overridable `NOISE_HASH_KEY`.
pub fn noise_functions_wgsl_with(variant: LookupVariant, group: u32) -> String {
    let lookup = match variant {
        LookupVariant::Textures => LOOKUP_WGSL.replace("@group(0)", &format!("@group({group})")),
        LookupVariant::Hash => LOOKUP_HASH_WGSL.to_string(),
    };
    format!(
        "{lookup}\n{LATTICE_WGSL}\n{CLASSIC_WGSL}\n{SIMPLEX_WGSL}\n{CELLULAR_WGSL}\n{FRACTAL_WGSL}"
    )
}

/// The complete source of the fill pipelines for a lookup variant.
pub fn fill_shader_wgsl(variant: LookupVariant) -> String {
    format!(
        "{}\n{FILL_WGSL}",
        noise_functions_wgsl_with(variant, FILL_LOOKUP_GROUP)
    )
}
