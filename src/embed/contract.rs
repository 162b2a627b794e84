//! The lookup-texture contract, without wgpu: what an application on **any** wgpu version
//! (or any other WebGPU/Vulkan host) creates and binds so that the noise WGSL
//! ([`crate::shader::noise_functions_wgsl`]) reads the tables of a seed.
//!
//! [`lookup_textures`] gives, per texture, the binding number, the WGSL variable, the
//! dimension, size and texel format, and the texel bytes of a seed, rows packed tightly
//! (`bytes_per_row = width × bytes_per_texel`, y outer, x inner). Everything is derived
//! from the sources themselves (the bindings from `shaders/lookup.wgsl`, the bytes from
//! [`crate::tables::PermutationTables`]), so the contract cannot drift from what the shaders
//! read. The version also covers the hash variant's pattern (`shaders/lookup_hash.wgsl`,
//! which binds nothing): what a seed gives with either lookup variant. docs/embedding.md
//! documents version [`VERSION`] of it in words.

use crate::shader::LOOKUP_WGSL;
use crate::tables::PermutationTables;

/// The version of the lookup contract. It changes whenever a binding number, a dimension, a
/// size, a format or the meaning of a texel changes, or the hash variant's pattern does
/// (2: `perm` and `simplex4` became 2D textures of one row, because OpenGL ES has no 1D
/// textures; 3: the hash variant hashes each lattice point once, whole (prime-weighted
/// coordinates, xor-combined and mixed), the textures are unchanged).
pub const VERSION: u32 = 3;

/// The texel format of a lookup texture (unsigned integer texels, read with
/// `textureLoad`; no sampler, no filtering).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexelFormat {
    /// One `u8` per texel (`R8Uint` in wgpu, `VK_FORMAT_R8_UINT`).
    R8Uint,
    /// Four `u8` per texel (`Rgba8Uint` in wgpu, `VK_FORMAT_R8G8B8A8_UINT`).
    Rgba8Uint,
}

impl TexelFormat {
    /// Bytes per texel.
    pub fn bytes_per_texel(self) -> u32 {
        match self {
            TexelFormat::R8Uint => 1,
            TexelFormat::Rgba8Uint => 4,
        }
    }
}

/// The dimension of a lookup texture (and of its view and binding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dimension {
    /// `texture_1d<u32>`: `height` is 1.
    D1,
    /// `texture_2d<u32>`.
    D2,
}

/// One lookup texture of the contract, with the texels of one seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractTexture {
    /// The binding number within the noise's bind group (the group is the application's
    /// choice: `noise_functions_wgsl(group)`).
    pub binding: u32,
    /// The WGSL variable that reads it.
    pub name: String,
    /// Texture, view and binding dimension.
    pub dimension: Dimension,
    /// Width in texels.
    pub width: u32,
    /// Height in texels (1 for a 1D texture).
    pub height: u32,
    /// Texel format; the binding's sample type is unsigned integer, unfilterable.
    pub format: TexelFormat,
    /// `width × height` texels, rows packed tightly, y outer.
    pub texels: Vec<u8>,
}

/// The four lookup textures with the texels of `seed`, in binding order.
pub fn lookup_textures(seed: u64) -> Vec<ContractTexture> {
    let tables = PermutationTables::new(seed);
    let side = crate::tables::PERIOD;
    // (bytes, texel format, rows) of each table, by the WGSL variable that reads it.
    let bytes_of = |name: &str| -> (Vec<u8>, TexelFormat, u32) {
        match name {
            "wgpu_noise_hash_grad3" => (tables.hash_grad3.concat(), TexelFormat::Rgba8Uint, side),
            "wgpu_noise_grad4" => (tables.grad4.concat(), TexelFormat::Rgba8Uint, side),
            "wgpu_noise_perm" => (tables.perm.to_vec(), TexelFormat::R8Uint, 1),
            "wgpu_noise_simplex4_table" => (tables.simplex4.concat(), TexelFormat::Rgba8Uint, 1),
            other => unreachable!("shaders/lookup.wgsl declares a texture {other} unknown here"),
        }
    };
    let module = naga::front::wgsl::parse_str(LOOKUP_WGSL)
        .expect("the bundled lookup WGSL parses (checked by the test suite)");
    let mut textures: Vec<ContractTexture> = module
        .global_variables
        .iter()
        .filter_map(|(_, var)| {
            let binding = var.binding.as_ref()?;
            let dimension = match module.types[var.ty].inner {
                naga::TypeInner::Image {
                    dim: naga::ImageDimension::D1,
                    ..
                } => Dimension::D1,
                naga::TypeInner::Image { .. } => Dimension::D2,
                _ => return None,
            };
            let name = var.name.clone().unwrap_or_default();
            let (texels, format, height) = bytes_of(&name);
            let width = texels.len() as u32 / format.bytes_per_texel() / height;
            Some(ContractTexture {
                binding: binding.binding,
                name,
                dimension,
                width,
                height,
                format,
                texels,
            })
        })
        .collect();
    textures.sort_by_key(|t| t.binding);
    textures
}
