//! The output formats and their streaming encoders: PNG (8/16-bit grayscale), OpenEXR
//! (one float channel `Y`, 32- or 16-bit, through the `exr` crate), NumPy `.npy`
//! (little-endian `f32`, true N-D shape), KTX2 (a real 2D or 3D texture, [`ktx2`]) and
//! headerless 16-bit RAW heightmaps ([`raw`]), plus the slice atlas that lays 3D and 4D
//! fields out as one 2D image (PNG, EXR). `docs/formats.md` is the user's table of them.
//!
//! Gradient bakes (four floats per texel: value, ∂/∂x, ∂/∂y, ∂/∂z) go to a 4-channel EXR
//! (`R` = value, `G` = ∂/∂x, `B` = ∂/∂y, `A` = ∂/∂z: the channel names every EXR reader
//! shows), a `.npy` with a trailing axis of 4, or an RGB PNG normal map
//! ([`Encoding::NormalMap`]).
//!
//! Every encoder takes the samples as they are generated — contiguous runs in memory order
//! (x fastest, then y, z, w) — and writes them out before asking for more, so no encoder
//! ever holds the whole field (see [`RowAssembler`] for the most any of them holds).

use std::io::{Seek, Write};
use std::path::Path;

pub mod exr;
pub mod ktx2;
pub mod raw;

use crate::error::{NoiseError, Result};
use crate::field::Field;
use crate::ramp::{ColourRamp, RampStops};

/// The file format, chosen from the output's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileFormat {
    /// `.png`: grayscale, 8 or 16 bits, values mapped from a [`ValueRange`].
    Png,
    /// `.exr`: OpenEXR scan lines, one float channel `Y` (32- or 16-bit).
    Exr,
    /// `.npy`: NumPy array, `<f4`, shape `(y, x)`, `(z, y, x)` or `(w, z, y, x)`.
    Npy,
    /// `.ktx2`: a KTX2 2D or 3D texture, one level, `R32_SFLOAT` (or 16/8-bit).
    Ktx2,
    /// `.r16` / `.raw`: little-endian `u16` levels, no header, memory order.
    Raw,
}

impl FileFormat {
    /// The format `path`'s extension names (case-insensitive), or an error listing the
    /// known ones.
    pub fn from_path(path: &Path) -> Result<Self> {
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("png") => Ok(FileFormat::Png),
            Some("exr") => Ok(FileFormat::Exr),
            Some("npy") => Ok(FileFormat::Npy),
            Some("ktx2") => Ok(FileFormat::Ktx2),
            Some("r16" | "raw") => Ok(FileFormat::Raw),
            _ => Err(NoiseError::Output(format!(
                "cannot tell the format of {} from its extension: use .png, .exr, .npy, .ktx2, \
                 .r16 or .raw",
                path.display()
            ))),
        }
    }

    /// The format a name (`png`, `exr`, `npy`, `ktx2`, `raw`, `r16`) stands for.
    pub fn from_name(name: &str) -> Result<Self> {
        Self::from_path(Path::new(&format!("x.{name}")))
    }

    /// The lower-case extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            FileFormat::Png => "png",
            FileFormat::Exr => "exr",
            FileFormat::Npy => "npy",
            FileFormat::Ktx2 => "ktx2",
            FileFormat::Raw => "r16",
        }
    }

    /// Whether the format is a 2D image, in which 3D and 4D fields become a [`SliceAtlas`]
    /// (PNG, EXR); `.npy` and RAW keep memory order, KTX2 is a real 3D texture.
    pub fn is_image(self) -> bool {
        matches!(self, FileFormat::Png | FileFormat::Exr)
    }
}

/// Bits per PNG sample.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PngDepth {
    /// 8 bits: 256 levels.
    Eight,
    /// 16 bits: 65536 levels (big-endian in the file, as PNG requires).
    Sixteen,
}

impl PngDepth {
    /// Bits per sample.
    pub fn bits(self) -> u32 {
        match self {
            PngDepth::Eight => 8,
            PngDepth::Sixteen => 16,
        }
    }

    /// The largest sample value, 255 or 65535.
    pub fn max_level(self) -> u32 {
        (1 << self.bits()) - 1
    }
}

/// The largest finite half float (`f16`).
pub const HALF_MAX: f32 = 65504.0;

/// `v` as a half float (to nearest, ties to even) for the `--half` encodings (KTX2
/// `R16_SFLOAT`, EXR half channels), clamped to ±[`HALF_MAX`] first so that no value
/// becomes an infinity; `clamped` counts the values beyond it, for the notice the PNG's
/// out-of-range values get too.
pub(crate) fn to_half(v: f32, clamped: &mut u64) -> half::f16 {
    let beyond = v.abs() > HALF_MAX;
    *clamped += beyond as u64;
    half::f16::from_f32(if beyond { HALF_MAX.copysign(v) } else { v })
}

/// The noise values a PNG's darkest and brightest levels stand for.
///
/// Level `p` of `max` (255 or 65535) stands for `low + (high - low) * p / max`; a value
/// maps to `round(clamp((v - low) / (high - low), 0, 1) * max)` (computed in `f64`,
/// halves rounded away from zero). Values outside the range are clamped and counted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ValueRange {
    /// The value of level 0.
    pub low: f64,
    /// The value of the top level.
    pub high: f64,
}

impl ValueRange {
    /// `[-1, 1]`: the nominal range of both noise families. Simplex noise stays inside it;
    /// classic 4D noise can leave it slightly (measured extremes ±1.09 over 10⁶ random
    /// points), and those samples are clamped (and counted) unless a wider range is given.
    pub const NOMINAL: ValueRange = ValueRange {
        low: -1.0,
        high: 1.0,
    };

    /// A range, checked: both ends finite, `low < high`, and the width `high - low`
    /// finite too (the levels divide by it: an infinite width would map every value to
    /// level 0).
    pub fn new(low: f64, high: f64) -> Result<Self> {
        let (l, h) = (crate::field::shortest(low), crate::field::shortest(high));
        if !(low.is_finite() && high.is_finite() && low < high) {
            return Err(NoiseError::Output(format!(
                "value range [{l}, {h}] must be finite with low < high"
            )));
        }
        if !(high - low).is_finite() {
            return Err(NoiseError::Output(format!(
                "value range [{l}, {h}]: its width {h} - ({l}) is beyond f64 (at most {:e})",
                f64::MAX
            )));
        }
        Ok(ValueRange { low, high })
    }

    /// The level `v` maps to among `0..=max`, and whether it had to be clamped.
    #[inline]
    pub fn quantize(&self, v: f32, max: u32) -> (u32, bool) {
        let (unit, clamped) = self.unit(v);
        ((unit * max as f64).round() as u32, clamped)
    }

    /// Where `v` lies in the range, clamped to [0, 1], and whether it had to be clamped.
    #[inline]
    pub fn unit(&self, v: f32) -> (f64, bool) {
        let unit = (v as f64 - self.low) / (self.high - self.low);
        let clamped = !(0.0..=1.0).contains(&unit);
        // NaN never gets here (the bake rejects non-finite samples), but would map to 0.
        (unit.clamp(0.0, 1.0), clamped)
    }
}

/// How to encode: the format and its format-specific settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Encoding {
    /// PNG at `depth`, values mapped from `range` to `t` in [0, 1], then drawn with `ramp`:
    /// grayscale for [`ColourRamp::Gray`] (level = `round(t · max)`), else RGB.
    Png {
        /// Bits per sample.
        depth: PngDepth,
        /// The values of `t` = 0 and `t` = 1 (the darkest and brightest gray level).
        range: ValueRange,
        /// The colours of `t`.
        ramp: ColourRamp,
    },
    /// OpenEXR scan lines, the values themselves (`src/bake/format/exr.rs`).
    Exr {
        /// 16-bit (`half`) channels instead of 32-bit.
        half: bool,
        /// Block compression.
        compression: ExrCompression,
    },
    /// NumPy `.npy`, little-endian `f32`, the values themselves.
    Npy,
    /// A KTX2 texture of one level (`src/bake/format/ktx2.rs`).
    Ktx2 {
        /// The texel format.
        texel: KtxTexel,
    },
    /// Headerless little-endian 16-bit levels (`src/bake/format/raw.rs`), values mapped from `range` as in a
    /// 16-bit PNG.
    Raw {
        /// The values of level 0 and level 65535.
        range: ValueRange,
    },
    /// A flow map of a curl-noise bake: RGB PNG at `depth`, R, G (and B in 3D) = the
    /// curl's x, y (and z) components, each mapped from `range` as a grayscale PNG's
    /// values; B is level 0 in 2D (the two-channel flow maps of game engines read R and G).
    FlowMap {
        /// Bits per sample.
        depth: PngDepth,
        /// The component values of level 0 and of the top level.
        range: ValueRange,
    },
    /// A tangent-space normal map of a 2D gradient bake: RGB PNG at `depth`.
    ///
    /// OpenGL convention (+X right, +Y up — towards the image's top row — +Z out of the
    /// surface): with `∂v/∂x`, `∂v/∂y` per texel (the noise-space derivative × the step
    /// `frequency / size`; `y` counting rows downwards as stored),
    /// `n = normalize(-s·∂v/∂x, +s·∂v/∂y, 1)`, i.e. `normalize(-s·∂v/∂x, -s·∂v/∂y↑, 1)`
    /// with `y↑` the upward axis; each component is stored as `(n + 1) / 2` of full scale.
    NormalMap {
        /// Bits per sample.
        depth: PngDepth,
        /// The height scale `s` (1: the noise value is the height in texel units).
        strength: f64,
    },
}

/// OpenEXR block compression (all lossless).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ExrCompression {
    /// None: one scan line per block.
    None,
    /// ZIP (deflate) over blocks of 16 scan lines: the default, as in the OpenEXR library
    /// itself (`Imf::Header`), so every reader of the format has it.
    #[default]
    Zip,
    /// PIZ (wavelet + Huffman) over blocks of 32 scan lines.
    Piz,
}

impl ExrCompression {
    /// The name on the command line: `none`, `zip` or `piz`.
    pub fn name(self) -> &'static str {
        match self {
            ExrCompression::None => "none",
            ExrCompression::Zip => "zip",
            ExrCompression::Piz => "piz",
        }
    }
}

/// The texel format of a KTX2 texture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KtxTexel {
    /// `VK_FORMAT_R32_SFLOAT`: the `f32` values themselves.
    Float32,
    /// `VK_FORMAT_R16_SFLOAT`: the values rounded to `f16` (to nearest, ties to even),
    /// clamped to ±65504 first (`HALF_MAX`, the largest finite half).
    Float16,
    /// `VK_FORMAT_R16_UNORM` / `VK_FORMAT_R8_UNORM`: levels mapped from `range` as in a PNG.
    Unorm {
        /// Bits per texel.
        depth: PngDepth,
        /// The values of level 0 and of the top level.
        range: ValueRange,
    },
}

impl Encoding {
    /// The default encoding for a format: 16-bit PNG over [`ValueRange::NOMINAL`], 32-bit
    /// ZIP EXR, npy, `R32_SFLOAT` KTX2, RAW over [`ValueRange::NOMINAL`].
    pub fn default_for(format: FileFormat) -> Self {
        match format {
            FileFormat::Png => Encoding::Png {
                depth: PngDepth::Sixteen,
                range: ValueRange::NOMINAL,
                ramp: ColourRamp::Gray,
            },
            FileFormat::Exr => Encoding::Exr {
                half: false,
                compression: ExrCompression::default(),
            },
            FileFormat::Npy => Encoding::Npy,
            FileFormat::Ktx2 => Encoding::Ktx2 {
                texel: KtxTexel::Float32,
            },
            FileFormat::Raw => Encoding::Raw {
                range: ValueRange::NOMINAL,
            },
        }
    }

    /// The file format.
    pub fn format(&self) -> FileFormat {
        match self {
            Encoding::Png { .. } | Encoding::FlowMap { .. } | Encoding::NormalMap { .. } => {
                FileFormat::Png
            }
            Encoding::Exr { .. } => FileFormat::Exr,
            Encoding::Npy => FileFormat::Npy,
            Encoding::Ktx2 { .. } => FileFormat::Ktx2,
            Encoding::Raw { .. } => FileFormat::Raw,
        }
    }

    /// The value range of the levels, for the encodings that map values to levels.
    pub fn value_range(&self) -> Option<ValueRange> {
        match self {
            Encoding::Png { range, .. }
            | Encoding::FlowMap { range, .. }
            | Encoding::Raw { range }
            | Encoding::Ktx2 {
                texel: KtxTexel::Unorm { range, .. },
            } => Some(*range),
            _ => None,
        }
    }

    /// A few words for messages, e.g. "16-bit grayscale PNG".
    pub fn describe(&self) -> String {
        match self {
            Encoding::Png {
                depth,
                ramp: ColourRamp::Gray,
                ..
            } => format!("{}-bit grayscale PNG", depth.bits()),
            Encoding::Png { depth, ramp, .. } => {
                format!("{}-bit RGB PNG, {} colour ramp", depth.bits(), ramp.name())
            }
            Encoding::FlowMap { depth, .. } => format!("{}-bit RGB flow map PNG", depth.bits()),
            Encoding::NormalMap { depth, strength } => {
                format!(
                    "{}-bit RGB normal map PNG (OpenGL, +Y up, strength {})",
                    depth.bits(),
                    crate::field::shortest(*strength)
                )
            }
            Encoding::Exr { half, compression } => format!(
                "{}-bit float OpenEXR ({} compression)",
                if *half { 16 } else { 32 },
                compression.name()
            ),
            Encoding::Npy => "little-endian f32 .npy".into(),
            Encoding::Ktx2 { texel } => format!("KTX2 {}", ktx2::vk_format_name(*texel)),
            Encoding::Raw { .. } => "16-bit little-endian RAW (no header)".into(),
        }
    }
}

/// How a 3D or 4D field is laid out as one 2D image: a grid of z-slices.
///
/// Slice `s = z + depth * w` (memory order) is the `tile_width × tile_height` tile at
/// column `s % columns`, row `s / columns`, counted from the top left; inside a tile, `x`
/// runs right and `y` down, as in a 2D bake. This is the "flipbook" layout game engines
/// import volume textures from (Unity's Texture3D flipbook, Unreal's volume texture from a
/// tiled 2D texture, Godot's 3D texture slices): `columns × rows` equals the slice count
/// exactly, so no tile is padding. A 2D field is the one-tile atlas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceAtlas {
    /// Width of one slice (the field's x size).
    pub tile_width: u32,
    /// Height of one slice (the field's y size).
    pub tile_height: u32,
    /// Number of slices: `depth × time` (1 in 2D, the z size in 3D).
    pub slices: u32,
    /// Tiles per atlas row; divides `slices`.
    pub columns: u32,
}

impl SliceAtlas {
    /// The atlas of `field` with `columns` tiles per row, or the default: in 3D the
    /// smallest divisor of the depth that is at least its square root (64 slices: 8 × 8;
    /// 32: 8 × 4), so the atlas is near square; in 4D the depth (one row per `w` step,
    /// one column per `z`); in 2D 1.
    pub fn new(field: &Field, columns: Option<u32>) -> Result<Self> {
        let [nx, ny, nz, nw] = field.size;
        let slices = match field.dims {
            2 => 1,
            3 => nz,
            _ => nz
                .checked_mul(nw)
                .ok_or_else(|| NoiseError::Output("too many slices".into()))?,
        };
        let columns = match columns {
            Some(c) if c == 0 || slices % c != 0 => {
                return Err(NoiseError::Output(format!(
                    "atlas columns must divide the number of slices ({slices}); {c} does not"
                )))
            }
            Some(c) => c,
            None => match field.dims {
                2 => 1,
                3 => (1..=nz)
                    .find(|c| nz % c == 0 && (*c as u64) * (*c as u64) >= nz as u64)
                    .unwrap_or(nz),
                _ => nz,
            },
        };
        Ok(SliceAtlas {
            tile_width: nx,
            tile_height: ny,
            slices,
            columns,
        })
    }

    /// The same layout with `channels` floats per texel seen as `channels` times as many
    /// single floats per row: what a `RowAssembler` of interleaved texels works on.
    pub fn interleaved(&self, channels: usize) -> SliceAtlas {
        SliceAtlas {
            tile_width: self.tile_width * channels as u32,
            ..*self
        }
    }

    /// Tiles per atlas column.
    pub fn rows(&self) -> u32 {
        self.slices / self.columns
    }

    /// Width of the whole image in pixels.
    pub fn width(&self) -> u64 {
        self.tile_width as u64 * self.columns as u64
    }

    /// Height of the whole image in pixels.
    pub fn height(&self) -> u64 {
        self.tile_height as u64 * self.rows() as u64
    }

    /// The pixel `(column, row)` of field texel `[x, y, z, w]` (`depth` = the z size).
    pub fn pixel_of(&self, texel: [u32; 4], depth: u32) -> (u64, u64) {
        let s = texel[2] as u64 + depth as u64 * texel[3] as u64;
        let (tile_col, tile_row) = (s % self.columns as u64, s / self.columns as u64);
        (
            tile_col * self.tile_width as u64 + texel[0] as u64,
            tile_row * self.tile_height as u64 + texel[1] as u64,
        )
    }

    /// One line for messages and file metadata.
    pub fn describe(&self, depth: u32) -> String {
        if self.slices == 1 {
            return format!("{}x{} image", self.tile_width, self.tile_height);
        }
        format!(
            "slice atlas of {} {}x{} slices: slice s = z + {depth}*w is the tile at column s % {c}, \
             row s / {c} ({c} columns, {} rows, from the top left)",
            self.slices,
            self.tile_width,
            self.tile_height,
            self.rows(),
            c = self.columns,
        )
    }

    /// Whether `format` can hold an image this large (PNG: sides below 2³¹; EXR: sides
    /// and one scan line's bytes below 2³¹, as its header stores them in `i32`).
    pub fn check_fits(&self, format: FileFormat) -> Result<()> {
        self.check_fits_channels(format, 1)
    }

    /// [`SliceAtlas::check_fits`] for `channels` 32-bit floats per texel (an EXR scan
    /// line holds all of them).
    pub fn check_fits_channels(&self, format: FileFormat, channels: u64) -> Result<()> {
        let (w, h) = (self.width(), self.height());
        let limit = i32::MAX as u64;
        let too_big = match format {
            FileFormat::Png => w > limit || h > limit,
            FileFormat::Exr => w * 4 * channels > limit || h > limit,
            FileFormat::Npy | FileFormat::Ktx2 | FileFormat::Raw => false,
        };
        if too_big {
            return Err(NoiseError::Output(format!(
                "a {w}x{h} image is too large for {} (choose other atlas columns, or .npy)",
                format.extension()
            )));
        }
        Ok(())
    }
}

/// Turns memory-order samples into image rows of a [`SliceAtlas`].
///
/// With one column, memory order already is image order and whole rows pass straight
/// through. With `c` columns, one atlas row of tiles needs `c` consecutive slices, so up
/// to `c × tile_width × tile_height` samples wait here (plus one image row): the most any
/// encoder holds (a 512³ volume in a 32 × 16 atlas: 32 MiB).
pub struct RowAssembler {
    atlas: SliceAtlas,
    unit: usize,
    pending: Vec<f32>,
    row: Vec<f32>,
    taken: u64,
}

impl RowAssembler {
    /// An assembler for `atlas`.
    pub fn new(atlas: SliceAtlas) -> Self {
        let w = atlas.tile_width as usize;
        let unit = if atlas.columns == 1 {
            w
        } else {
            atlas.columns as usize * w * atlas.tile_height as usize
        };
        RowAssembler {
            atlas,
            unit,
            pending: Vec::new(),
            row: Vec::new(),
            taken: 0,
        }
    }

    /// Takes the next samples; hands every completed run of image rows to `emit` (its
    /// length is a multiple of the image width).
    pub fn push(
        &mut self,
        mut values: &[f32],
        emit: &mut dyn FnMut(&[f32]) -> Result<()>,
    ) -> Result<()> {
        self.taken += values.len() as u64;
        if !self.pending.is_empty() {
            let take = (self.unit - self.pending.len()).min(values.len());
            self.pending.extend_from_slice(&values[..take]);
            values = &values[take..];
            if self.pending.len() < self.unit {
                return Ok(());
            }
            let pending = std::mem::take(&mut self.pending);
            let result = self.emit_units(&pending, emit);
            self.pending = pending;
            self.pending.clear();
            result?;
        }
        let whole = values.len() / self.unit * self.unit;
        self.emit_units(&values[..whole], emit)?;
        self.pending.extend_from_slice(&values[whole..]);
        Ok(())
    }

    /// Checks that exactly the atlas's samples came, none left waiting.
    pub fn finish(&self) -> Result<()> {
        let expected = self.atlas.width() * self.atlas.height();
        if self.taken != expected || !self.pending.is_empty() {
            return Err(NoiseError::Output(format!(
                "internal error: the generator produced {} samples for an image of {expected}",
                self.taken
            )));
        }
        Ok(())
    }

    fn emit_units(
        &mut self,
        units: &[f32],
        emit: &mut dyn FnMut(&[f32]) -> Result<()>,
    ) -> Result<()> {
        if units.is_empty() {
            return Ok(());
        }
        if self.atlas.columns == 1 {
            return emit(units);
        }
        let (w, h, c) = (
            self.atlas.tile_width as usize,
            self.atlas.tile_height as usize,
            self.atlas.columns as usize,
        );
        for unit in units.chunks_exact(self.unit) {
            for y in 0..h {
                self.row.clear();
                for tile in 0..c {
                    let start = (tile * h + y) * w;
                    self.row.extend_from_slice(&unit[start..start + w]);
                }
                emit(&self.row)?;
            }
        }
        Ok(())
    }
}

/// What the encoder saw that the caller should report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EncodeStats {
    /// Values clamped: outside the [`ValueRange`] of the encodings with levels (PNG, RAW,
    /// KTX2 UNORM), or beyond ±[`HALF_MAX`] in half floats.
    pub clamped: u64,
}

/// The generator, as an encoder sees it: call it with a sink; it feeds the sink every
/// sample of the field, in memory order, in contiguous runs.
pub type Produce<'a> = dyn FnMut(&mut dyn FnMut(&[f32]) -> Result<()>) -> Result<()> + 'a;

/// Where an encoder writes: a seekable stream (the `exr` crate writes its offset table
/// last, seeking back to it; every other encoder writes front to back).
pub trait WriteSeek: Write + Seek {}

impl<T: Write + Seek> WriteSeek for T {}

/// What [`encode`] writes: the field, its texel layout and the file's metadata.
pub struct EncodeJob<'a> {
    /// The file format and its options.
    pub encoding: &'a Encoding,
    /// The field whose samples are written.
    pub field: &'a Field,
    /// Floats per texel: 1, 4 (value and gradient, interleaved), or 2 or 3 (curl noise).
    pub channels: usize,
    /// How the slices of a 3D/4D field are laid out in a 2D image.
    pub atlas: &'a SliceAtlas,
    /// Goes into the PNG `Description` / EXR `comments` metadata.
    pub description: &'a str,
    /// The file, named in error messages.
    pub target: &'a Path,
}

/// Encodes the samples `produce` generates into `out`, as `job` says.
pub fn encode(
    job: &EncodeJob<'_>,
    out: &mut dyn WriteSeek,
    produce: &mut Produce<'_>,
) -> Result<EncodeStats> {
    let EncodeJob {
        encoding,
        field,
        channels,
        atlas,
        description,
        target,
    } = *job;
    let io = |error: std::io::Error| NoiseError::Io {
        context: format!("writing {}", target.display()),
        error,
    };
    match encoding {
        Encoding::Npy => {
            let mut shape = npy_shape(field);
            if channels > 1 {
                shape.push(channels as u64);
            }
            out.write_all(&npy_header(&shape)).map_err(io)?;
            let mut scratch = Vec::new();
            let mut written = 0u64;
            produce(&mut |values| {
                written += values.len() as u64;
                out.write_all(le_bytes(values, &mut scratch)).map_err(io)
            })?;
            if written != field.len() * channels as u64 {
                return Err(NoiseError::Output(format!(
                    "internal error: the generator produced {written} floats for a field of {} x {channels}",
                    field.len()
                )));
            }
            Ok(EncodeStats::default())
        }
        Encoding::Exr { half, compression } => {
            atlas.check_fits_channels(FileFormat::Exr, channels as u64)?;
            let layout = exr::Layout {
                atlas,
                channels,
                half: *half,
                compression: *compression,
                description,
            };
            let clamped = exr::write(&layout, out, &io, produce)?;
            Ok(EncodeStats { clamped })
        }
        Encoding::Ktx2 { texel } => {
            if channels != 1 {
                return Err(NoiseError::Output(
                    "KTX2 output holds one value per texel".into(),
                ));
            }
            ktx2::write(field, *texel, description, out, &io, produce)
        }
        Encoding::Raw { range } => {
            if channels != 1 {
                return Err(NoiseError::Output(
                    "a RAW heightmap holds one value per texel".into(),
                ));
            }
            raw::write(field, range, out, &io, produce)
        }
        Encoding::Png { depth, range, ramp } => {
            atlas.check_fits(FileFormat::Png)?;
            if channels != 1 {
                return Err(NoiseError::Output(
                    "a value PNG holds one value per texel".into(),
                ));
            }
            write_png(
                atlas,
                PngPixels::value(*depth, *ramp),
                range,
                description,
                out,
                &io,
                produce,
            )
        }
        Encoding::FlowMap { depth, range } => {
            atlas.check_fits(FileFormat::Png)?;
            if !(2..=3).contains(&channels) {
                return Err(NoiseError::Output(
                    "a flow map holds the 2 or 3 components of curl noise".into(),
                ));
            }
            let pixels = PngPixels {
                depth: *depth,
                channels,
                ramp: None,
            };
            write_png(atlas, pixels, range, description, out, &io, produce)
        }
        Encoding::NormalMap { depth, strength } => {
            atlas.check_fits(FileFormat::Png)?;
            if channels != 4 || field.dims != 2 {
                return Err(NoiseError::Output(
                    "a normal map needs the gradient of a 2D field".into(),
                ));
            }
            let step = field.step();
            write_normal_map(
                atlas,
                *depth,
                (*strength, [step[0], step[1]]),
                description,
                out,
                &io,
                produce,
            )
        }
    }
}

/// The `.npy` shape of `field`: its sizes slowest axis first, `(y, x)` … `(w, z, y, x)`.
pub fn npy_shape(field: &Field) -> Vec<u64> {
    field.size[..field.dims]
        .iter()
        .rev()
        .map(|&s| s as u64)
        .collect()
}

/// A `.npy` version 1.0 header for a C-order little-endian `f32` array of `shape`: magic,
/// version, header length, the Python dict, padded with spaces and a newline so the data
/// starts at a multiple of 64 bytes (as NumPy writes it).
pub fn npy_header(shape: &[u64]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
    let tuple = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let dict = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {tuple}, }}");
    let unpadded = 10 + dict.len() + 1;
    let pad = (64 - unpadded % 64) % 64;
    let header_len = (dict.len() + pad + 1) as u16;
    let mut out = Vec::with_capacity(unpadded + pad);
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&header_len.to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.extend(std::iter::repeat_n(b' ', pad));
    out.push(b'\n');
    out
}

/// `values` as little-endian bytes (no copy on little-endian machines).
fn le_bytes<'a>(values: &'a [f32], scratch: &'a mut Vec<u8>) -> &'a [u8] {
    if cfg!(target_endian = "little") {
        bytemuck::cast_slice(values)
    } else {
        scratch.clear();
        scratch.extend(values.iter().flat_map(|v| v.to_le_bytes()));
        scratch
    }
}

/// Maps the PNG encoder's errors: I/O errors through `io` (so a full disk reads as one),
/// anything else as an output error.
fn png_error_of(
    io: &dyn Fn(std::io::Error) -> NoiseError,
) -> impl Fn(png::EncodingError) -> NoiseError + Copy + '_ {
    move |e| match e {
        png::EncodingError::IoError(error) => io(error),
        other => NoiseError::Output(format!("PNG encoder: {other}")),
    }
}

/// A PNG of the atlas's size with its header written: `color`, `depth`, fast deflate
/// (noise hardly compresses; the fast setting keeps PNG from dominating the bake time),
/// and the Software and Description text chunks.
fn png_header<'a>(
    out: &'a mut dyn Write,
    atlas: &SliceAtlas,
    color: png::ColorType,
    depth: PngDepth,
    description: &str,
    png_error: &dyn Fn(png::EncodingError) -> NoiseError,
) -> Result<png::Writer<&'a mut dyn Write>> {
    let mut encoder = png::Encoder::new(out, atlas.width() as u32, atlas.height() as u32);
    encoder.set_color(color);
    encoder.set_depth(match depth {
        PngDepth::Eight => png::BitDepth::Eight,
        PngDepth::Sixteen => png::BitDepth::Sixteen,
    });
    encoder.set_compression(png::Compression::Fast);
    encoder
        .add_text_chunk(
            "Software".into(),
            format!("wgpu-noise {}", env!("CARGO_PKG_VERSION")),
        )
        .map_err(png_error)?;
    encoder
        .add_text_chunk("Description".into(), description.into())
        .map_err(png_error)?;
    encoder.write_header().map_err(png_error)
}

/// Appends one sample `level` in the PNG's bit depth (16-bit samples are big-endian).
fn push_level(bytes: &mut Vec<u8>, level: u32, depth: PngDepth) {
    match depth {
        PngDepth::Eight => bytes.push(level as u8),
        PngDepth::Sixteen => bytes.extend_from_slice(&(level as u16).to_be_bytes()),
    }
}

/// What a level-mapped PNG's pixels are: the bit depth, and the values per texel (1: a
/// grayscale pixel; 2 or 3: an RGB pixel, a missing B at level 0).
#[derive(Clone, Copy, Debug)]
struct PngPixels {
    depth: PngDepth,
    /// Values per texel.
    channels: usize,
    /// The colours of a one-value PNG other than gray.
    ramp: Option<RampStops>,
}

impl PngPixels {
    fn value(depth: PngDepth, ramp: ColourRamp) -> Self {
        PngPixels {
            depth,
            channels: 1,
            ramp: (ramp != ColourRamp::Gray).then(|| ramp.stops()),
        }
    }
}

/// Writes a PNG of levels mapped from `range`, row by row with the `png` crate's stream
/// writer: grayscale, or RGB for several values per texel (a component each) or a colour
/// ramp (`t = (v − low) / (high − low)` clamped, as `f32`, then [`RampStops::colour`]).
fn write_png(
    atlas: &SliceAtlas,
    pixels: PngPixels,
    range: &ValueRange,
    description: &str,
    out: &mut dyn Write,
    io: &dyn Fn(std::io::Error) -> NoiseError,
    produce: &mut Produce<'_>,
) -> Result<EncodeStats> {
    let PngPixels {
        depth,
        channels,
        ramp,
    } = pixels;
    let png_error = png_error_of(io);
    let color = if channels == 1 && ramp.is_none() {
        png::ColorType::Grayscale
    } else {
        png::ColorType::Rgb
    };
    let mut writer = png_header(out, atlas, color, depth, description, &png_error)?;
    let mut clamped = 0u64;
    {
        // Borrowing (not `into_stream_writer`) so that `writer.finish()` below writes IEND
        // and reports its errors, instead of a drop that would swallow them.
        let mut stream = writer.stream_writer().map_err(png_error)?;
        let mut assembler = RowAssembler::new(atlas.interleaved(channels));
        let mut bytes = Vec::new();
        let max = depth.max_level();
        produce(&mut |values| {
            assembler.push(values, &mut |rows| {
                bytes.clear();
                for texel in rows.chunks_exact(channels) {
                    if let Some(ramp) = &ramp {
                        let (t, out_of_range) = range.unit(texel[0]);
                        clamped += out_of_range as u64;
                        for c in ramp.colour(t as f32) {
                            push_level(&mut bytes, (c * max as f32).round() as u32, depth);
                        }
                        continue;
                    }
                    for &v in texel {
                        let (level, out_of_range) = range.quantize(v, max);
                        clamped += out_of_range as u64;
                        push_level(&mut bytes, level, depth);
                    }
                    if channels == 2 {
                        push_level(&mut bytes, 0, depth);
                    }
                }
                stream.write_all(&bytes).map_err(io)
            })
        })?;
        assembler.finish()?;
        stream.finish().map_err(png_error)?;
    }
    writer.finish().map_err(png_error)?;
    Ok(EncodeStats { clamped })
}

/// The unit normal of a texel with value gradient `g = [∂v/∂x, ∂v/∂y]` (noise space),
/// height scale `strength` and texel `step` per axis, in the OpenGL convention of
/// [`Encoding::NormalMap`] (+Y up, so the sign of the row-wise ∂/∂y flips). A unit vector
/// for every finite strength: where the squares of the slopes overflow (strengths beyond
/// about 1e150) the same direction is computed divided through by the strength first.
pub fn normal_of(g: [f32; 2], strength: f64, step: [f64; 2]) -> [f64; 3] {
    let (dx, dy) = (
        g[0] as f64 * (strength * step[0]),
        g[1] as f64 * (strength * step[1]),
    );
    let len = (dx * dx + dy * dy + 1.0).sqrt();
    if len.is_finite() {
        return [-dx, dy, 1.0].map(|c| c / len);
    }
    let m = step[0].abs().max(step[1].abs());
    let v = [
        -(g[0] as f64) * (step[0] / m),
        g[1] as f64 * (step[1] / m),
        1.0 / (strength * m),
    ];
    let largest = v.iter().fold(0.0f64, |a, c| a.max(c.abs()));
    if largest == 0.0 {
        return [0.0, 0.0, 1.0]; // a flat texel: no slope to scale
    }
    let v = v.map(|c| c / largest);
    let len = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    v.map(|c| c / len)
}

/// Writes an RGB PNG normal map row by row from interleaved `[value, ∂/∂x, ∂/∂y, ∂/∂z]`.
fn write_normal_map(
    atlas: &SliceAtlas,
    depth: PngDepth,
    (strength, step): (f64, [f64; 2]),
    description: &str,
    out: &mut dyn Write,
    io: &dyn Fn(std::io::Error) -> NoiseError,
    produce: &mut Produce<'_>,
) -> Result<EncodeStats> {
    let png_error = png_error_of(io);
    let mut writer = png_header(
        out,
        atlas,
        png::ColorType::Rgb,
        depth,
        description,
        &png_error,
    )?;
    {
        let mut stream = writer.stream_writer().map_err(png_error)?;
        let mut assembler = RowAssembler::new(atlas.interleaved(4));
        let mut bytes = Vec::new();
        let max = depth.max_level() as f64;
        produce(&mut |values| {
            assembler.push(values, &mut |rows| {
                bytes.clear();
                for texel in rows.chunks_exact(4) {
                    for c in normal_of([texel[1], texel[2]], strength, step) {
                        let level = ((c + 1.0) * 0.5 * max).round().clamp(0.0, max) as u32;
                        push_level(&mut bytes, level, depth);
                    }
                }
                stream.write_all(&bytes).map_err(io)
            })
        })?;
        assembler.finish()?;
        stream.finish().map_err(png_error)?;
    }
    writer.finish().map_err(png_error)?;
    Ok(EncodeStats::default())
}
