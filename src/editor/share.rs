//! Share links: a graph and the view's settings as one URL-safe string (a page's URL
//! fragment), and the `wgpu-noise bake` command that writes the same picture to a file.
//!
//! The string is `v1.` then the settings as JSON, deflated (`miniz_oxide`) and written in
//! URL-safe base64 without padding. Reading one back checks everything it holds: a link is
//! text from anywhere. A view of the terrain adds `"view": "3d"` and its camera, `"camera":
//! [yaw, pitch, distance]` (radians, radians, world units); a view of a 3D graph's
//! iso-surface `"view": "iso"`, its camera and `"level"` (the surface's value); without a
//! view a link is of the flat view. Where and when the view looks ([`Framing`]) is
//! `"pan"` (`[x, y]`, the first pixel's point), `"dims"`, `"time"`, `"speed"`, `"paused"`
//! and `"relief"`; a link without them is of the view from the origin, in 2D (3D for the
//! iso view), with the clock paused at 0. A link is the page's address, `#`, then the
//! string ([`SharedView::link`]); the desktop preview makes and opens the same links.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Value};

use super::isosurface::LEVEL_RANGE;
use crate::field::shortest;

use super::orbit::{Orbit, DEFAULT_RELIEF, DISTANCE_RANGE, PITCH_RANGE, RELIEF_RANGE};
use crate::ramp::ColourRamp;

/// Samples along each side of the iso view's cube (`iso::SAMPLES`; that module needs the
/// `gpu` feature, share links do not).
const ISO_SAMPLES: u32 = 64;

/// The page's address as `web/serve` serves it: what a link made outside the page (the
/// desktop preview's) is put after unless told another.
pub const PAGE_URL: &str = "http://127.0.0.1:8000/";
/// The version prefix of a share string.
const PREFIX: &str = "v1.";
/// The most bytes a share string may inflate to: graph files are a few kilobytes; the
/// bound keeps a hostile link from filling the page's memory.
const MAX_INFLATED: usize = 1 << 20;
/// The most characters a share string may have before it is decoded.
const MAX_ENCODED: usize = 1 << 20;
/// Deflate's level: the strongest, for the shortest link (the text is small).
const LEVEL: u8 = 10;
/// Lattice cells per second along the animated axis unless a link or `preview --speed`
/// says otherwise.
pub const DEFAULT_SPEED: f64 = 0.5;

/// What a share link holds: the graph's JSON text and the settings of the view it is drawn
/// in (the picture's seed, frequency across it and colour ramp).
#[derive(Clone, Debug, PartialEq)]
pub struct SharedView {
    /// The graph file's text, as the editor holds it.
    pub graph: String,
    pub seed: u64,
    /// Lattice cells across the picture (`bake --frequency`).
    pub frequency: f64,
    /// A colour ramp's name (`bake --ramp`).
    pub ramp: String,
    /// How the graph is drawn.
    pub scene: Scene,
    /// Where and when the view looks.
    pub framing: Framing,
}

/// Where and when a view looks, beyond its frequency: the desktop preview's pan, the
/// graph's dimension count, the animation clock and the terrain's relief. The picture's
/// first pixel samples `pan` (x, y) plus `speed × time` along the animated axis (x in 2D,
/// z in 3D, w in 4D); the iso view's cube starts at that point. The page draws its 2D and
/// 3D views with the whole framing, its iso view at the origin, in 3D, at time 0
/// ([`Framing::of`] it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Framing {
    /// The first pixel's point before the clock's offset, lattice units.
    pub pan: [f64; 2],
    /// The graph's dimension count, 2 to 4.
    pub dims: usize,
    /// The clock, seconds.
    pub time: f64,
    /// Lattice cells per second along the animated axis.
    pub speed: f64,
    /// Whether the clock is stopped.
    pub paused: bool,
    /// The terrain's height of a value of 1, world units ([`RELIEF_RANGE`]).
    pub relief: f64,
}

impl Framing {
    /// The framing of a link that holds none: from the origin, in 2D (3D for the iso
    /// view), the clock paused at 0 with the default speed, the default relief.
    pub fn of(scene: &Scene) -> Framing {
        Framing {
            pan: [0.0; 2],
            dims: match scene {
                Scene::Iso { .. } => 3,
                Scene::Flat | Scene::Terrain(_) => 2,
            },
            time: 0.0,
            speed: DEFAULT_SPEED,
            paused: true,
            relief: DEFAULT_RELIEF,
        }
    }

    /// The axis the clock moves along: x in 2D, the last axis in 3D and 4D.
    pub fn animated_axis(&self) -> usize {
        match self.dims {
            2 => 0,
            d => d - 1,
        }
    }

    /// The first pixel's point: the pan, and the clock's offset along the animated axis.
    pub fn origin(&self) -> [f64; 4] {
        let mut origin = [self.pan[0], self.pan[1], 0.0, 0.0];
        origin[self.animated_axis()] += self.speed * self.time;
        origin
    }

    /// The framing a link's settings hold, each checked; [`Framing::of`] `scene`'s where
    /// one is absent.
    fn read(settings: &Value, scene: &Scene) -> Result<Framing, String> {
        let default = Framing::of(scene);
        let number = |name: &str, or: f64| match settings.get(name) {
            None => Ok(or),
            Some(v) => v
                .as_f64()
                .filter(|n| n.is_finite())
                .ok_or_else(|| format!("share link: {name:?} is not a finite number")),
        };
        let pan = match settings.get("pan") {
            None => default.pan,
            Some(held) => finite_numbers::<2>(held)
                .ok_or("share link: \"pan\" is not [x, y] (finite numbers)")?,
        };
        let dims = match settings.get("dims") {
            None => default.dims,
            Some(held) => held
                .as_u64()
                .filter(|d| (2..=4).contains(d))
                .ok_or("share link: \"dims\" is not 2, 3 or 4")? as usize,
        };
        let paused = match settings.get("paused") {
            None => default.paused,
            Some(held) => held
                .as_bool()
                .ok_or("share link: \"paused\" is not true or false")?,
        };
        let (low, high) = RELIEF_RANGE;
        let relief = number("relief", default.relief)?;
        if !(low..=high).contains(&relief) {
            return Err(format!(
                "share link: \"relief\" {relief} is not from {low} to {high}"
            ));
        }
        Ok(Framing {
            pan,
            dims,
            time: number("time", default.time)?,
            speed: number("speed", default.speed)?,
            paused,
            relief,
        })
    }
}

/// How a shared view draws its graph.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scene {
    /// The flat picture of a 2D graph (`"view": "2d"`, or no view).
    Flat,
    /// The lit terrain of a 2D graph seen from the camera (`"view": "3d"`).
    Terrain(Orbit),
    /// The surface where a 3D graph's value is `level`, seen from the camera (`"view":
    /// "iso"`).
    Iso { camera: Orbit, level: f64 },
}

impl Scene {
    /// The terrain's camera when the scene is the terrain.
    pub fn terrain(&self) -> Option<Orbit> {
        match self {
            Scene::Terrain(camera) => Some(*camera),
            Scene::Flat | Scene::Iso { .. } => None,
        }
    }

    /// The camera of the 3D views.
    pub fn camera(&self) -> Option<Orbit> {
        match self {
            Scene::Flat => None,
            Scene::Terrain(camera) | Scene::Iso { camera, .. } => Some(*camera),
        }
    }
}

impl SharedView {
    /// The share string of this view.
    pub fn encode(&self) -> String {
        let mut settings = json!({
            "graph": self.graph,
            // A string: a seed may exceed 2^53, where JavaScript's numbers lose it.
            "seed": self.seed.to_string(),
            "frequency": self.frequency,
            "ramp": self.ramp,
            "pan": self.framing.pan,
            "dims": self.framing.dims,
            "time": self.framing.time,
            "speed": self.framing.speed,
            "paused": self.framing.paused,
            "relief": self.framing.relief,
        });
        let camera = |c: &Orbit| json!([c.yaw, c.pitch, c.distance]);
        match &self.scene {
            Scene::Flat => {}
            Scene::Terrain(orbit) => {
                settings["view"] = json!("3d");
                settings["camera"] = camera(orbit);
            }
            Scene::Iso {
                camera: orbit,
                level,
            } => {
                settings["view"] = json!("iso");
                settings["camera"] = camera(orbit);
                settings["level"] = json!(level);
            }
        }
        let text = settings.to_string();
        let deflated = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), LEVEL);
        format!("{PREFIX}{}", URL_SAFE_NO_PAD.encode(deflated))
    }

    /// The full link of this view: `page` (an address without a fragment), `#`, the share
    /// string.
    pub fn link(&self, page: &str) -> String {
        format!("{page}#{}", self.encode())
    }

    /// The view a link holds: a full link (the share string is its fragment, after the
    /// first `#`) or the share string alone ([`SharedView::decode`]'s errors).
    pub fn from_link(link: &str) -> Result<SharedView, String> {
        let link = link.trim();
        let shared = link.split_once('#').map_or(link, |(_, fragment)| fragment);
        SharedView::decode(shared)
    }

    /// The view a share string holds. Errors say what is wrong with the string: not one
    /// of ours, not base64, not deflated, too large, or a setting out of range. The graph
    /// itself is checked where it is drawn, as any edit is.
    pub fn decode(shared: &str) -> Result<SharedView, String> {
        if shared.len() > MAX_ENCODED {
            return Err(format!(
                "share link: {} characters, more than the {MAX_ENCODED} a link may have",
                shared.len()
            ));
        }
        let Some(body) = shared.strip_prefix(PREFIX) else {
            return Err(format!(
                "share link: it does not start with {PREFIX:?} (not a wgpu-noise link, or a newer one)"
            ));
        };
        let deflated = URL_SAFE_NO_PAD
            .decode(body)
            .map_err(|e| format!("share link: not URL-safe base64 ({e})"))?;
        let text = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_INFLATED)
            .map_err(|e| match e.status {
                miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                    format!("share link: it inflates to more than {MAX_INFLATED} bytes")
                }
                status => format!("share link: not deflated data ({status:?})"),
            })?;
        let value: Value = serde_json::from_slice(&text)
            .map_err(|e| format!("share link: its settings are not JSON ({e})"))?;
        let field = |name: &str| {
            value
                .get(name)
                .ok_or_else(|| format!("share link: no {name:?}"))
        };
        let graph = field("graph")?
            .as_str()
            .ok_or("share link: \"graph\" is not a string")?
            .to_string();
        let seed = field("seed")?
            .as_str()
            .and_then(|s| s.parse::<u64>().ok())
            .ok_or("share link: \"seed\" is not a whole number from 0 to 2^64 − 1 in a string")?;
        let frequency = field("frequency")?
            .as_f64()
            .filter(|f| f.is_finite() && *f > 0.0)
            .ok_or("share link: \"frequency\" is not a number above 0")?;
        let ramp = field("ramp")?
            .as_str()
            .filter(|r| ColourRamp::from_name(r).is_ok())
            .ok_or("share link: \"ramp\" is not a colour ramp's name")?
            .to_string();
        let scene = match value.get("view").map(|v| v.as_str()) {
            None | Some(Some("2d")) => Scene::Flat,
            Some(Some("3d")) => Scene::Terrain(camera(field("camera")?)?),
            Some(Some("iso")) => Scene::Iso {
                camera: camera(field("camera")?)?,
                level: level(field("level")?)?,
            },
            Some(_) => return Err("share link: \"view\" is not \"2d\", \"3d\" or \"iso\"".into()),
        };
        let framing = Framing::read(&value, &scene)?;
        Ok(SharedView {
            graph,
            seed,
            frequency,
            ramp,
            scene,
            framing,
        })
    }

    /// The command that bakes what this view shows, `width` × `height`, with the graph
    /// saved as `graph.json` (values from -1 to 1, as the editors draw a graph): the flat
    /// picture in its ramp to `noise.png`; the terrain's heights as a 16-bit gray
    /// heightmap, `heightmap.png`; the iso view's volume, the cube's values
    /// ([`super::iso`]'s samples per side, the same frequency along each axis) as
    /// `volume.npy`. The bake starts at the framing's first pixel (`--offset`, when it is
    /// not the origin) and has its dimensions (a slice one texel deep in 3D and 4D).
    pub fn bake_command(&self, width: u32, height: u32) -> String {
        let (frequency, seed) = (self.frequency, self.seed);
        let start = "wgpu-noise bake --graph graph.json";
        let output = bake_output(&self.scene, &self.ramp);
        let origin = self.framing.origin();
        let (dims, size) = match self.scene {
            Scene::Flat | Scene::Terrain(_) => {
                let mut size = vec![width, height];
                size.resize(self.framing.dims, 1);
                (self.framing.dims, size)
            }
            Scene::Iso { .. } => (3, vec![ISO_SAMPLES; 3]),
        };
        let mut options = String::new();
        if dims != 2 {
            options += &format!(" --dims {dims}");
        }
        let size: Vec<String> = size.iter().map(u32::to_string).collect();
        options += &format!(" --size {}", size.join("x"));
        options += &format!(" --frequency {frequency}");
        if origin[..dims].iter().any(|&o| o != 0.0) {
            let origin: Vec<String> = origin[..dims].iter().map(|&o| shortest(o)).collect();
            options += &format!(" --offset {}", origin.join(","));
        }
        format!("{start}{options} --seed {seed} {output}")
    }
}

/// The options of a graph's bake after its field's (size, frequency, seed, offset) for what
/// `scene` shows, the page's and the desktop preview's: the flat picture in `ramp` over the
/// values -1 to 1 as 8-bit `noise.png`; the terrain's heights, the same values, as the
/// 16-bit gray `heightmap.png`; the iso view's cube as its values, `volume.npy`.
pub fn bake_output(scene: &Scene, ramp: &str) -> String {
    match scene {
        Scene::Flat => format!("--range -1,1 --bits 8 --ramp {ramp} -o noise.png"),
        Scene::Terrain(_) => "--range -1,1 --bits 16 -o heightmap.png".to_string(),
        Scene::Iso { .. } => "-o volume.npy".to_string(),
    }
}

/// `held` as an array of `N` finite numbers, if it is one.
fn finite_numbers<const N: usize>(held: &Value) -> Option<[f64; N]> {
    let held = held.as_array().filter(|a| a.len() == N)?;
    let mut numbers = [0.0; N];
    for (number, v) in numbers.iter_mut().zip(held) {
        *number = v.as_f64().filter(|n| n.is_finite())?;
    }
    Some(numbers)
}

/// The iso-surface's level a link holds: a number within [`LEVEL_RANGE`] (the slider's).
fn level(held: &Value) -> Result<f64, String> {
    let (low, high) = LEVEL_RANGE;
    held.as_f64()
        .filter(|l| (low..=high).contains(l))
        .ok_or_else(|| format!("share link: \"level\" is not a number from {low} to {high}"))
}

/// The terrain's camera a link holds: `[yaw, pitch, distance]`, each within its range (a
/// link's camera is one the page had, so one out of range is an error, not clamped).
fn camera(held: &Value) -> Result<Orbit, String> {
    let Some([yaw, pitch, distance]) = finite_numbers::<3>(held) else {
        return Err("share link: \"camera\" is not [yaw, pitch, distance]".into());
    };
    let within = |v: f64, (low, high): (f64, f64)| (low..=high).contains(&v);
    if !(0.0..std::f64::consts::TAU).contains(&yaw) {
        return Err(format!(
            "share link: the camera's yaw {yaw} is not from 0 to 2π radians"
        ));
    }
    if !within(pitch, PITCH_RANGE) {
        return Err(format!(
            "share link: the camera's pitch {pitch} is not from {} to {} radians",
            PITCH_RANGE.0, PITCH_RANGE.1
        ));
    }
    if !within(distance, DISTANCE_RANGE) {
        return Err(format!(
            "share link: the camera's distance {distance} is not from {} to {}",
            DISTANCE_RANGE.0, DISTANCE_RANGE.1
        ));
    }
    Ok(Orbit::new(yaw, pitch, distance))
}
