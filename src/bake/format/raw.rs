//! RAW 16-bit heightmaps (`.r16`, `.raw`): little-endian `u16` levels, no header, in
//! memory order (x fastest, then y; a 3D/4D field's slices follow one another). The
//! levels are a 16-bit PNG's ([`ValueRange::quantize`]); the file holds no size, so the
//! bake prints it for the engine's import dialog (Unity and Unreal terrain import ask
//! for width, height and byte order).

use super::{EncodeStats, Produce, ValueRange, WriteSeek};
use crate::error::{NoiseError, Result};
use crate::field::Field;

/// Writes the levels of every sample as it arrives.
pub fn write(
    field: &Field,
    range: &ValueRange,
    out: &mut dyn WriteSeek,
    io: &dyn Fn(std::io::Error) -> NoiseError,
    produce: &mut Produce<'_>,
) -> Result<EncodeStats> {
    let mut clamped = 0u64;
    let mut written = 0u64;
    let mut bytes = Vec::new();
    produce(&mut |values| {
        bytes.clear();
        for &v in values {
            let (level, out_of_range) = range.quantize(v, u16::MAX as u32);
            clamped += out_of_range as u64;
            bytes.extend_from_slice(&(level as u16).to_le_bytes());
        }
        written += values.len() as u64;
        out.write_all(&bytes).map_err(io)
    })?;
    if written != field.len() {
        return Err(NoiseError::Output(format!(
            "internal error: the generator produced {written} samples for a field of {}",
            field.len()
        )));
    }
    Ok(EncodeStats { clamped })
}
