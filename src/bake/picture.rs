//! Whole 8-bit pictures (preview screenshots, the embedding example's frames) written as
//! PNG with the same crate and the same all-or-nothing file handling as `bake`.

use std::io::Write;
use std::path::Path;

use super::file::AtomicFile;
use crate::error::{NoiseError, Result};

/// The channels of an 8-bit picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channels {
    /// One byte per pixel.
    Gray,
    /// Four bytes per pixel, red, green, blue, alpha.
    Rgba,
}

impl Channels {
    fn count(self) -> usize {
        match self {
            Channels::Gray => 1,
            Channels::Rgba => 4,
        }
    }
}

/// Writes `pixels` (`width` × `height`, rows top to bottom, 8 bits per channel) to `path`
/// as a PNG, completely or not at all (a temporary file renamed into place, replacing an
/// existing file).
pub fn write_png8(
    path: &Path,
    width: u32,
    height: u32,
    channels: Channels,
    pixels: &[u8],
) -> Result<()> {
    let expected = width as usize * height as usize * channels.count();
    if pixels.len() != expected {
        return Err(NoiseError::Output(format!(
            "a {width}×{height} {channels:?} picture has {expected} bytes, not {}",
            pixels.len()
        )));
    }
    let file = AtomicFile::create(path, true)?;
    let io = |error| NoiseError::Io {
        context: format!("writing {}", path.display()),
        error,
    };
    let png_error = |e| match e {
        png::EncodingError::IoError(error) => io(error),
        other => NoiseError::Output(format!("PNG encoder: {other}")),
    };
    let mut out = std::io::BufWriter::new(file.file());
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(match channels {
        Channels::Gray => png::ColorType::Grayscale,
        Channels::Rgba => png::ColorType::Rgba,
    });
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(png_error)?;
    writer.write_image_data(pixels).map_err(png_error)?;
    writer.finish().map_err(png_error)?;
    out.flush().map_err(io)?;
    drop(out);
    file.commit()
}
