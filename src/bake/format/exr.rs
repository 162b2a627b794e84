//! OpenEXR through the `exr` crate: one scan-line layer, channel `Y` for values or `R G B
//! A` (value, ∂/∂x, ∂/∂y, ∂/∂z) for gradients, 32-bit or 16-bit floats, ZIP, PIZ or no
//! compression, written block by block as the rows arrive (a block is 1, 16 or 32 scan
//! lines), so the encoder holds one block besides the [`RowAssembler`]'s atlas row.
//!
//! The `exr` crate writes the header and a placeholder offset table first and seeks back
//! to fill the table in at the end: the reason encoders write to a [`WriteSeek`].

use exr::block::writer::ChunksWriter;
use exr::block::{BlockIndex, UncompressedBlock};
use exr::compression::Compression;
use exr::math::Vec2;
use exr::meta::attribute::{ChannelDescription, LineOrder, SampleType, Text};
use exr::meta::header::Header;
use exr::meta::BlockDescription;
use smallvec::SmallVec;

use super::{ExrCompression, Produce, RowAssembler, SliceAtlas, WriteSeek};
use crate::error::{NoiseError, Result};

/// The EXR channel names for `channels` floats per texel, in the order of the texel's
/// floats: `Y` for values alone; `R, G, B, A` = value, ∂/∂x, ∂/∂y, ∂/∂z for gradients;
/// `R, G (, B)` for the components of curl noise.
pub fn channel_names(channels: usize) -> &'static [&'static str] {
    match channels {
        1 => &["Y"],
        // Curl noise: x, y (, z).
        2 => &["R", "G"],
        3 => &["R", "G", "B"],
        _ => &["R", "G", "B", "A"],
    }
}

/// What an EXR file holds and how it is stored.
pub struct Layout<'a> {
    /// The image (a 3D/4D field's slice atlas).
    pub atlas: &'a SliceAtlas,
    /// Floats per texel: 1 or 4.
    pub channels: usize,
    /// 16-bit (`half`) channels instead of 32-bit.
    pub half: bool,
    /// Block compression.
    pub compression: ExrCompression,
    /// The `comments` attribute.
    pub description: &'a str,
}

/// The header of `layout`'s single scan-line layer.
fn header(layout: &Layout<'_>, order: &[usize]) -> Header {
    let names = channel_names(layout.channels);
    let sample_type = if layout.half {
        SampleType::F16
    } else {
        SampleType::F32
    };
    // Channels sorted by name, as the format stores them.
    let list: SmallVec<[ChannelDescription; 5]> = order
        .iter()
        .map(|&c| ChannelDescription::named(names[c], sample_type))
        .collect();
    let size = (
        layout.atlas.width() as usize,
        layout.atlas.height() as usize,
    );
    let compression = match layout.compression {
        ExrCompression::None => Compression::Uncompressed,
        ExrCompression::Zip => Compression::ZIP16,
        ExrCompression::Piz => Compression::PIZ,
    };
    let mut header = Header::new(Text::from("noise"), size, list).with_encoding(
        compression,
        BlockDescription::ScanLines,
        LineOrder::Increasing,
    );
    // EXR text is Latin-1: anything else becomes '?'.
    let latin1: String = layout
        .description
        .chars()
        .map(|c| if (c as u32) < 256 { c } else { '?' })
        .collect();
    header.own_attributes.comments = Text::new_or_none(latin1);
    header.own_attributes.software_name =
        Text::new_or_none(format!("wgpu-noise {}", env!("CARGO_PKG_VERSION")));
    header
}

/// Writes the file: header and offset table, then one compressed block per 1, 16 or 32
/// rows as they arrive, then (seeking back) the offset table. Returns how many half-float
/// values were clamped to ±65504 (`to_half`; 0 for 32-bit floats).
pub fn write(
    layout: &Layout<'_>,
    out: &mut dyn WriteSeek,
    io: &dyn Fn(std::io::Error) -> NoiseError,
    produce: &mut Produce<'_>,
) -> Result<u64> {
    let channels = layout.channels;
    let names = channel_names(channels);
    let mut order: Vec<usize> = (0..channels).collect();
    order.sort_by_key(|&c| names[c]);
    let header = header(layout, &order);
    let lines_per_block = header.compression.scan_lines_per_block();
    let (width, height) = (
        layout.atlas.width() as usize,
        layout.atlas.height() as usize,
    );
    let exr_error = |e: exr::error::Error| match e {
        exr::error::Error::Io(error) => io(error),
        other => NoiseError::Output(format!("OpenEXR encoder: {other}")),
    };
    // The generator's or the encoder's own error, kept while the `exr` crate unwinds.
    let mut failure: Option<NoiseError> = None;
    // Half-float values clamped to ±65504 (`to_half`).
    let mut clamped = 0u64;
    let written = exr::block::write(
        &mut *out,
        smallvec::smallvec![header],
        true,
        |meta, chunks| {
            let mut compressor = chunks.sequential_blocks_compressor(&meta);
            let mut assembler = RowAssembler::new(layout.atlas.interleaved(channels));
            let mut block: Vec<u8> = Vec::new();
            let (mut lines, mut y, mut index) = (0usize, 0usize, 0usize);
            let result = produce(&mut |values| {
                assembler.push(values, &mut |rows| {
                    for line in rows.chunks_exact(width * channels) {
                        // A block line holds each channel's samples in turn (native-endian;
                        // the crate makes them little-endian as it compresses).
                        for &c in &order {
                            let samples = line.iter().skip(c).step_by(channels);
                            if layout.half {
                                for &v in samples {
                                    let h = super::to_half(v, &mut clamped);
                                    block.extend_from_slice(&h.to_ne_bytes());
                                }
                            } else {
                                for &v in samples {
                                    block.extend_from_slice(&v.to_ne_bytes());
                                }
                            }
                        }
                        lines += 1;
                        y += 1;
                        if lines == lines_per_block || y == height {
                            let uncompressed = UncompressedBlock {
                                index: BlockIndex {
                                    layer: 0,
                                    pixel_position: Vec2(0, y - lines),
                                    pixel_size: Vec2(width, lines),
                                    level: Vec2(0, 0),
                                },
                                data: std::mem::take(&mut block),
                            };
                            compressor
                                .compress_block(index, uncompressed)
                                .map_err(exr_error)?;
                            index += 1;
                            lines = 0;
                        }
                    }
                    Ok(())
                })
            })
            .and_then(|()| assembler.finish());
            result.map_err(|e| {
                failure = Some(e);
                exr::error::Error::Aborted
            })
        },
    );
    match (written, failure) {
        (_, Some(e)) => Err(e),
        (Err(e), None) => Err(exr_error(e)),
        (Ok(()), None) => Ok(clamped),
    }
}
