//! Colour ramps: a noise value, once mapped to `t` in [0, 1] (e.g. by a bake's value
//! range), drawn as a colour, linear between a few stops. `shaders/ramp.wgsl` does it on
//! the GPU (the preview, the web page, an app's own shaders), [`RampStops::colour`] on the
//! CPU with the same `f32` operations in the same order (bake's ramped PNGs, the tests'
//! references).

use crate::error::{NoiseError, Result};

/// The colour ramps: [`ColourRamp::Gray`] is the plain grayscale of every PNG, the others
/// are colour maps for looking at noise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ColourRamp {
    /// Black to white.
    #[default]
    Gray,
    /// A height map's colours: deep and shallow water, sand, grass, forest, rock, snow.
    Terrain,
    /// Matplotlib's viridis sampled at quarters (its 0, ¼, ½, ¾, 1 colours), linear between.
    Viridis,
    /// Matplotlib's magma sampled at quarters, linear between.
    Magma,
}

/// The most stops a ramp has (the length of the WGSL uniform's array).
pub const MAX_RAMP_STOPS: usize = 8;

/// `(position, [r, g, b])` stops, sRGB 8-bit colours.
type Stops = &'static [(f32, [u8; 3])];

const GRAY: Stops = &[(0.0, [0, 0, 0]), (1.0, [255, 255, 255])];
const TERRAIN: Stops = &[
    (0.0, [16, 38, 89]),
    (0.45, [54, 115, 179]),
    (0.5, [217, 204, 140]),
    (0.58, [77, 140, 51]),
    (0.72, [38, 89, 31]),
    (0.85, [115, 102, 89]),
    (1.0, [242, 242, 242]),
];
const VIRIDIS: Stops = &[
    (0.0, [0x44, 0x01, 0x54]),
    (0.25, [0x3b, 0x52, 0x8b]),
    (0.5, [0x21, 0x91, 0x8c]),
    (0.75, [0x5e, 0xc9, 0x62]),
    (1.0, [0xfd, 0xe7, 0x25]),
];
const MAGMA: Stops = &[
    (0.0, [0x00, 0x00, 0x04]),
    (0.25, [0x51, 0x12, 0x7c]),
    (0.5, [0xb7, 0x37, 0x79]),
    (0.75, [0xfc, 0x89, 0x61]),
    (1.0, [0xfc, 0xfd, 0xbf]),
];

impl ColourRamp {
    /// Every ramp, in the order menus list them.
    pub const ALL: [ColourRamp; 4] = [
        ColourRamp::Gray,
        ColourRamp::Terrain,
        ColourRamp::Viridis,
        ColourRamp::Magma,
    ];

    /// The WGSL of `fn colour_ramp(ramp: RampStops, t: f32) -> vec3<f32>` and its uniform
    /// struct (`shaders/ramp.wgsl`).
    pub const WGSL: &'static str = include_str!("../shaders/ramp.wgsl");

    /// Its name: `gray`, `terrain`, `viridis` or `magma`.
    pub fn name(self) -> &'static str {
        match self {
            ColourRamp::Gray => "gray",
            ColourRamp::Terrain => "terrain",
            ColourRamp::Viridis => "viridis",
            ColourRamp::Magma => "magma",
        }
    }

    /// The ramp called `name` ([`ColourRamp::name`]).
    pub fn from_name(name: &str) -> Result<ColourRamp> {
        ColourRamp::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| {
                let names: Vec<_> = ColourRamp::ALL.iter().map(|r| r.name()).collect();
                NoiseError::InvalidArgument(format!(
                    "no colour ramp is named {name:?} (one of: {})",
                    names.join(", ")
                ))
            })
    }

    internal! {
        /// Its stops.
        pub fn table(self) -> Stops {
            match self {
                ColourRamp::Gray => GRAY,
                ColourRamp::Terrain => TERRAIN,
                ColourRamp::Viridis => VIRIDIS,
                ColourRamp::Magma => MAGMA,
            }
        }
    }

    /// The ramp as the WGSL uniform `RampStops` holds it.
    pub fn stops(self) -> RampStops {
        let table = self.table();
        let mut stops = [[0.0; 4]; MAX_RAMP_STOPS];
        for (stop, &(position, rgb)) in stops.iter_mut().zip(table) {
            let [r, g, b] = rgb.map(|c| f32::from(c) / 255.0);
            *stop = [r, g, b, position];
        }
        RampStops {
            stops,
            count: table.len() as u32,
            _padding: [0; 3],
        }
    }

    /// The colour of `t` as 8-bit sRGB levels: `round(255 · colour)`, what a `Rgba8Unorm`
    /// target stores for the WGSL's colour.
    pub fn rgb8(self, t: f32) -> [u8; 3] {
        self.stops()
            .colour(t)
            .map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8)
    }
}

/// The uniform `RampStops` of `shaders/ramp.wgsl`: up to `MAX_RAMP_STOPS` stops, each
/// `[r, g, b, position]`, positions increasing from 0 to 1.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct RampStops {
    /// `[r, g, b, position]`; those past `count` are unused.
    pub stops: [[f32; 4]; MAX_RAMP_STOPS],
    /// Stops used.
    pub count: u32,
    /// WGSL's struct size is a multiple of 16.
    pub _padding: [u32; 3],
}

impl RampStops {
    /// The colour of `t` (in [0, 1]): `colour_ramp` of `shaders/ramp.wgsl`, operation for
    /// operation. Below the first stop it is the first stop's colour.
    pub fn colour(&self, t: f32) -> [f32; 3] {
        let rgb = |s: &[f32; 4]| [s[0], s[1], s[2]];
        let mut c = rgb(&self.stops[0]);
        for i in 1..self.count as usize {
            let (a, b) = (&self.stops[i - 1], &self.stops[i]);
            if t > a[3] {
                let f = ((t - a[3]) / (b[3] - a[3])).min(1.0);
                c = [0, 1, 2].map(|k| a[k] + (b[k] - a[k]) * f);
            }
        }
        c
    }
}
