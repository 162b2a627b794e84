//! KTX2 (Khronos texture container, version 2): a 2D texture for a 2D field, a real 3D
//! texture (`pixelDepth` = the z size) for a 3D one, one mip level, no supercompression.
//!
//! Everything before the texel data — header, level index, data format descriptor (DFD),
//! key/value data — depends only on the sizes and the texel format, so it is written
//! first and the texels follow as the generator hands them out: memory order (x fastest,
//! then y, then z) is KTX2's order for one level, with `KTXorientation` `rd`/`rdi`
//! (x right, y down, z in) saying so. No crate on crates.io writes KTX2 in pure Rust (the
//! writers wrap the C++ KTX-Software and hold the whole image); the `ktx2` crate, which
//! reads, checks these files in the tests.
//!
//! 4D fields are refused: KTX2 could describe an array of 3D textures (`layerCount` with
//! `pixelDepth`), but Vulkan and wgpu have no 3D array textures (`TextureDimension::D3`
//! has a depth and no layers), so no engine loader turns such a file into a texture.

use super::{le_bytes, EncodeStats, KtxTexel, PngDepth, Produce, WriteSeek};
use crate::error::{NoiseError, Result};
use crate::field::Field;

/// The 12-byte file identifier: `«KTX 20»\r\n\x1A\n`.
const IDENTIFIER: [u8; 12] = [
    0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A,
];

/// `VkFormat` values of the texel formats written.
const VK_FORMAT_R8_UNORM: u32 = 9;
const VK_FORMAT_R16_UNORM: u32 = 70;
const VK_FORMAT_R16_SFLOAT: u32 = 76;
const VK_FORMAT_R32_SFLOAT: u32 = 100;

/// The Vulkan name of `texel`'s format, e.g. `R32_SFLOAT`.
pub fn vk_format_name(texel: KtxTexel) -> &'static str {
    match texel {
        KtxTexel::Float32 => "R32_SFLOAT",
        KtxTexel::Float16 => "R16_SFLOAT",
        KtxTexel::Unorm {
            depth: PngDepth::Sixteen,
            ..
        } => "R16_UNORM",
        KtxTexel::Unorm {
            depth: PngDepth::Eight,
            ..
        } => "R8_UNORM",
    }
}

/// The `VkFormat` number of `texel`.
pub fn vk_format(texel: KtxTexel) -> u32 {
    match texel {
        KtxTexel::Float32 => VK_FORMAT_R32_SFLOAT,
        KtxTexel::Float16 => VK_FORMAT_R16_SFLOAT,
        KtxTexel::Unorm {
            depth: PngDepth::Sixteen,
            ..
        } => VK_FORMAT_R16_UNORM,
        KtxTexel::Unorm {
            depth: PngDepth::Eight,
            ..
        } => VK_FORMAT_R8_UNORM,
    }
}

/// Bytes per texel (KTX2's `typeSize`: the size of the data type, here the texel).
pub fn type_size(texel: KtxTexel) -> u32 {
    match texel {
        KtxTexel::Float32 => 4,
        KtxTexel::Float16 => 2,
        KtxTexel::Unorm { depth, .. } => depth.bits() / 8,
    }
}

/// Whether a field of `dims` dimensions can be a KTX2 texture, and why not.
pub fn check_dims(dims: usize) -> Result<()> {
    if dims == 4 {
        return Err(NoiseError::Output(
            "KTX2 output is a 2D or 3D texture: a 4D field would be an array of 3D textures, \
             which Vulkan, wgpu and the engines loading KTX2 (Bevy) do not have; bake each w \
             step as its own 3D field (offset along w), or write .npy"
                .into(),
        ));
    }
    Ok(())
}

/// Everything before the texel data, and the data's length in bytes.
pub fn header(field: &Field, texel: KtxTexel, description: &str) -> Result<(Vec<u8>, u64)> {
    check_dims(field.dims)?;
    let [nx, ny, nz, _] = field.size;
    let depth = if field.dims == 3 { nz } else { 0 };
    let size = type_size(texel);
    let level_bytes = nx as u64 * ny as u64 * depth.max(1) as u64 * size as u64;

    let dfd = dfd(texel);
    let writer = format!("wgpu-noise {}", env!("CARGO_PKG_VERSION"));
    // Keys sorted by their bytes, as the format requires; values NUL-terminated strings.
    let orientation = if field.dims == 3 { "rdi" } else { "rd" };
    let kvd = key_values(&[
        ("KTXorientation", orientation),
        ("KTXwriter", &writer),
        ("wgpu-noise.description", description),
    ]);

    // Identifier, 9-word header, index (4 words, 2 double words), one level's index entry.
    let index_end = 12 + 9 * 4 + 4 * 4 + 2 * 8;
    let dfd_offset = index_end + 3 * 8;
    let kvd_offset = dfd_offset + dfd.len();
    // The level's offset must be a multiple of lcm(texel size, 4) = 4; entries already are.
    let data_offset = (kvd_offset + kvd.len()).next_multiple_of(4);
    let u32_of = |v: usize, what: &str| {
        u32::try_from(v).map_err(|_| NoiseError::Output(format!("KTX2 {what} too long")))
    };

    let mut out = Vec::with_capacity(data_offset);
    out.extend_from_slice(&IDENTIFIER);
    for word in [
        vk_format(texel),
        size, // typeSize
        nx,
        ny,
        depth,
        0, // layerCount: not an array
        1, // faceCount
        1, // levelCount
        0, // supercompressionScheme: none
    ] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    for word in [
        u32_of(dfd_offset, "header")?,
        u32_of(dfd.len(), "data format descriptor")?,
        u32_of(kvd_offset, "header")?,
        u32_of(kvd.len(), "metadata")?,
    ] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&0u64.to_le_bytes()); // sgdByteOffset
    out.extend_from_slice(&0u64.to_le_bytes()); // sgdByteLength
    for double in [data_offset as u64, level_bytes, level_bytes] {
        out.extend_from_slice(&double.to_le_bytes());
    }
    out.extend_from_slice(&dfd);
    out.extend_from_slice(&kvd);
    out.resize(data_offset, 0);
    Ok((out, level_bytes))
}

/// The data format descriptor: one basic block with one sample, the red channel, linear.
fn dfd(texel: KtxTexel) -> Vec<u8> {
    let bytes = type_size(texel);
    // Channel type: red (0) with the float and signed qualifiers for SFLOAT formats.
    const KHR_DF_SAMPLE_DATATYPE_FLOAT: u8 = 0x80;
    const KHR_DF_SAMPLE_DATATYPE_SIGNED: u8 = 0x40;
    let (channel, lower, upper) = match texel {
        // Float samples: the range -1..1 as f32 bit patterns, as KTX-Software writes them.
        KtxTexel::Float32 | KtxTexel::Float16 => (
            KHR_DF_SAMPLE_DATATYPE_FLOAT | KHR_DF_SAMPLE_DATATYPE_SIGNED,
            (-1.0f32).to_bits(),
            1.0f32.to_bits(),
        ),
        KtxTexel::Unorm { depth, .. } => (0, 0, depth.max_level()),
    };
    let block_size: u16 = 24 + 16;
    let mut out = Vec::with_capacity(4 + block_size as usize);
    out.extend_from_slice(&(4 + block_size as u32).to_le_bytes()); // dfdTotalSize
    out.extend_from_slice(&0u32.to_le_bytes()); // vendorId 0 (Khronos), descriptorType 0 (basic)
    out.extend_from_slice(&2u16.to_le_bytes()); // versionNumber: KDF 1.3
    out.extend_from_slice(&block_size.to_le_bytes());
    // colorModel RGBSDA (1), primaries BT709 (1), transfer LINEAR (1), flags: straight alpha.
    out.extend_from_slice(&[1, 1, 1, 0]);
    out.extend_from_slice(&[0, 0, 0, 0]); // texelBlockDimension0..3: 1×1×1×1
    out.extend_from_slice(&[bytes as u8, 0, 0, 0, 0, 0, 0, 0]); // bytesPlane0..7
                                                                // The sample: bitOffset 0, bitLength - 1, channel type; position 0; lower; upper.
    out.extend_from_slice(&0u16.to_le_bytes());
    out.push((bytes * 8 - 1) as u8);
    out.push(channel);
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&lower.to_le_bytes());
    out.extend_from_slice(&upper.to_le_bytes());
    out
}

/// Key/value data: per entry its byte length, the key, NUL, the value, NUL, padding to 4.
fn key_values(entries: &[(&str, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (key, value) in entries {
        let length = key.len() + 1 + value.len() + 1;
        out.extend_from_slice(&(length as u32).to_le_bytes());
        out.extend_from_slice(key.as_bytes());
        out.push(0);
        out.extend_from_slice(value.as_bytes());
        out.push(0);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    out
}

/// Writes the texture: the header, then every texel as it arrives.
pub fn write(
    field: &Field,
    texel: KtxTexel,
    description: &str,
    out: &mut dyn WriteSeek,
    io: &dyn Fn(std::io::Error) -> NoiseError,
    produce: &mut Produce<'_>,
) -> Result<EncodeStats> {
    let (head, level_bytes) = header(field, texel, description)?;
    out.write_all(&head).map_err(io)?;
    let mut written = 0u64;
    let mut clamped = 0u64;
    let mut scratch = Vec::new();
    produce(&mut |values| {
        let bytes: &[u8] = match texel {
            KtxTexel::Float32 => le_bytes(values, &mut scratch),
            KtxTexel::Float16 => {
                scratch.clear();
                for &v in values {
                    scratch.extend_from_slice(&super::to_half(v, &mut clamped).to_le_bytes());
                }
                &scratch
            }
            KtxTexel::Unorm { depth, range } => {
                scratch.clear();
                let max = depth.max_level();
                for &v in values {
                    let (level, out_of_range) = range.quantize(v, max);
                    clamped += out_of_range as u64;
                    match depth {
                        PngDepth::Eight => scratch.push(level as u8),
                        PngDepth::Sixteen => {
                            scratch.extend_from_slice(&(level as u16).to_le_bytes())
                        }
                    }
                }
                &scratch
            }
        };
        written += bytes.len() as u64;
        out.write_all(bytes).map_err(io)
    })?;
    if written != level_bytes {
        return Err(NoiseError::Output(format!(
            "internal error: the generator produced {written} bytes of texels for a level of {level_bytes}"
        )));
    }
    Ok(EncodeStats { clamped })
}
