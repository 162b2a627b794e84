//! The page's downloads of the values it shows: a `width` × `height` grid of `f32` (the top
//! row first) as the bytes of an OpenEXR or `.npy` file, written by the bake's own encoders
//! (`src/bake/format.rs`), so a download reads as a `wgpu-noise bake` of the same field
//! does. The desktop preview bakes its files with [`crate::bake::bake`] itself.

use std::io::Cursor;
use std::path::Path;

use crate::bake::format::{encode, EncodeJob, Encoding, SliceAtlas};
use crate::field::Field;

/// A file of values the editors write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValuesFile {
    /// OpenEXR, one 32-bit float channel `Y`, ZIP-compressed.
    Exr,
    /// NumPy `.npy`, little-endian `f32`, shape `(height, width)`.
    Npy,
}

impl ValuesFile {
    /// Both, in the order the editors offer them.
    pub const ALL: [ValuesFile; 2] = [ValuesFile::Exr, ValuesFile::Npy];

    /// The file name's extension.
    pub fn extension(self) -> &'static str {
        self.encoding().format().extension()
    }

    /// Its name on a button: `EXR`, `.npy`.
    pub fn label(self) -> &'static str {
        match self {
            ValuesFile::Exr => "EXR",
            ValuesFile::Npy => ".npy",
        }
    }

    /// What the bake writes for this file: the values themselves, as `wgpu-noise bake`
    /// writes them by default.
    pub fn encoding(self) -> Encoding {
        match self {
            ValuesFile::Exr => Encoding::Exr {
                half: false,
                compression: Default::default(),
            },
            ValuesFile::Npy => Encoding::Npy,
        }
    }
}

/// The bytes of `file` holding `values`, `width` × `height` with x fastest and the top row
/// first; `description` goes into an EXR's comments. An error if `values` is not that grid.
pub fn values_file(
    file: ValuesFile,
    width: u32,
    height: u32,
    values: &[f32],
    description: &str,
) -> Result<Vec<u8>, String> {
    let texels = (width as usize).checked_mul(height as usize);
    if texels != Some(values.len()) || values.is_empty() {
        return Err(format!(
            "{} values are not a {width} × {height} picture",
            values.len()
        ));
    }
    let field = Field::new(&[width, height]);
    let atlas = SliceAtlas::new(&field, None).map_err(|e| e.to_string())?;
    let name = format!("wgpu-noise.{}", file.extension());
    let job = EncodeJob {
        encoding: &file.encoding(),
        field: &field,
        channels: 1,
        atlas: &atlas,
        description,
        target: Path::new(&name),
    };
    let mut out = Cursor::new(Vec::new());
    encode(&job, &mut out, &mut |sink| sink(values)).map_err(|e| e.to_string())?;
    Ok(out.into_inner())
}
