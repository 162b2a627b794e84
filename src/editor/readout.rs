//! The readout of the preview's panel and of the page: the graph's value and gradient at
//! the field point under the cursor, and the least and greatest value drawn, from the CPU's
//! `f32` sampler ([`crate::graph::Sampler`], the GPU's operations).
//!
//! The desktop's range is the CPU's, not a readback of the frame: the terrain's vertices are
//! the [`GRID`]² points it samples (its colours between them interpolate those values), so
//! the CPU gives that frame's exact range without a GPU → CPU stall (lavapipe draws and maps
//! on the same cores); the flat view shows the same grid's range (every few pixels of the
//! frame). The page reads its picture back anyway and takes the range of those values.

use crate::graph::Sampler;

use crate::editor::iso::{Cube, EXTENT};
use crate::editor::orbit::Orbit;
use crate::editor::terrain::{Placement, GRID};

/// What the cursor points at.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// The field point (the flat view's pixel's, or where the cursor's ray meets the
    /// terrain or the iso view's surface).
    pub point: [f32; 4],
    /// The graph's value there.
    pub value: f32,
    /// Its gradient (∂/∂x, ∂/∂y, ∂/∂z, ∂/∂w; 0 past the graph's dimensions).
    pub gradient: [f32; 4],
}

/// The flat view's field point of the pixel under `cursor` (window pixels; the pixel's
/// point `offset + step · index`, in f32 as the shader computes it), or `None` off the
/// frame.
pub fn flat_point(
    placement: &Placement,
    step: [f32; 2],
    size: [u32; 2],
    cursor: [f64; 2],
) -> Option<[f32; 4]> {
    let inside = (0..2).all(|a| cursor[a] >= 0.0 && cursor[a] < size[a] as f64);
    if !inside {
        return None;
    }
    let mut p = placement.origin;
    for a in 0..2 {
        p[a] += step[a] * cursor[a].floor() as f32;
    }
    Some(p)
}

/// How finely the cursor's ray is stepped before bisection (steps along its way through
/// the mesh's box), and the bisection's halvings: the hit is found to well under a
/// thousandth of a world unit.
const RAY_STEPS: usize = 512;
const BISECTIONS: usize = 30;

/// The field point where the ray through window pixel `cursor` of a `size` frame meets
/// the terrain (the graph's heights, sampled where the ray is, not the mesh's facets), or
/// `None` when it misses.
pub fn terrain_point(
    sampler: &mut Sampler,
    placement: &Placement,
    camera: &Orbit,
    size: [u32; 2],
    cursor: [f64; 2],
) -> Option<[f32; 4]> {
    let (eye, dir) = camera.ray(cursor[0], cursor[1], size[0] as f64, size[1] as f64);
    // Above the surface: positive. Off the mesh: `None`.
    let mut above = |t: f64| {
        let q: [f64; 3] = std::array::from_fn(|k| eye[k] + t * dir[k]);
        let [u, v] = placement.uv(q[0], q[1]);
        if !(0.0..=1.0).contains(&u) || !(0.0..=1.0).contains(&v) {
            return None;
        }
        let p = placement.field_point(u as f32, v as f32);
        let height = placement.height(sampler.value(&p) as f64);
        Some((q[2] - height, p))
    };
    let far = camera.distance + 4.0;
    let mut previous: Option<f64> = None;
    for k in 0..=RAY_STEPS {
        let t = far * k as f64 / RAY_STEPS as f64;
        match above(t) {
            Some((gap, p)) if gap <= 0.0 => {
                let Some(mut low) = previous else {
                    return Some(p);
                };
                let mut high = t;
                for _ in 0..BISECTIONS {
                    let mid = (low + high) / 2.0;
                    match above(mid) {
                        Some((gap, _)) if gap > 0.0 => low = mid,
                        _ => high = mid,
                    }
                }
                return above(high).map(|(_, p)| p);
            }
            Some(_) => previous = Some(t),
            None => previous = None,
        }
    }
    None
}

/// Where the iso view's surface is: the cube the graph is filled over and the level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsoSurfaceAt {
    pub cube: Cube,
    pub level: f32,
}

/// The field point where the ray through window pixel `cursor` of a `size` frame first
/// crosses the iso view's surface inside its cube: where the graph's value (sampled along
/// the ray, not the mesh's facets) passes the level, from the side the ray enters the cube
/// on; `None` when it misses the cube or crosses no surface in it.
pub fn iso_point(
    sampler: &mut Sampler,
    surface: &IsoSurfaceAt,
    camera: &Orbit,
    size: [u32; 2],
    cursor: [f64; 2],
) -> Option<[f32; 4]> {
    let (eye, dir) = camera.ray(cursor[0], cursor[1], size[0] as f64, size[1] as f64);
    // The ray's stretch inside the cube (the slab method).
    let (mut enter, mut leave) = (0.0f64, f64::INFINITY);
    for k in 0..3 {
        if dir[k] == 0.0 {
            if eye[k].abs() > EXTENT {
                return None;
            }
            continue;
        }
        let (a, b) = ((-EXTENT - eye[k]) / dir[k], (EXTENT - eye[k]) / dir[k]);
        enter = enter.max(a.min(b));
        leave = leave.min(a.max(b));
    }
    if enter >= leave {
        return None;
    }
    let mut side = |t: f64| {
        let p = surface
            .cube
            .field_point(std::array::from_fn(|k| eye[k] + t * dir[k]));
        (sampler.value(&p) < surface.level, p)
    };
    let (start, _) = side(enter);
    let mut previous = enter;
    for k in 1..=RAY_STEPS {
        let t = enter + (leave - enter) * k as f64 / RAY_STEPS as f64;
        if side(t).0 != start {
            let (mut low, mut high) = (previous, t);
            for _ in 0..BISECTIONS {
                let mid = (low + high) / 2.0;
                if side(mid).0 == start {
                    low = mid;
                } else {
                    high = mid;
                }
            }
            return Some(side(high).1);
        }
        previous = t;
    }
    None
}

/// The graph's value and gradient at `point`.
pub fn probe(sampler: &mut Sampler, point: [f32; 4]) -> Probe {
    let [value, gx, gy, gz, gw] = sampler.value_and_gradient(&point);
    Probe {
        point,
        value,
        gradient: [gx, gy, gz, gw],
    }
}

/// The least and greatest value at the [`GRID`]² points of `placement` (the terrain's
/// vertices).
pub fn range(sampler: &mut Sampler, placement: &Placement) -> (f32, f32) {
    let last = (GRID - 1) as f32;
    let mut range = (f32::INFINITY, f32::NEG_INFINITY);
    for j in 0..GRID {
        for i in 0..GRID {
            let p = placement.field_point(i as f32 / last, j as f32 / last);
            let v = sampler.value(&p);
            range = (range.0.min(v), range.1.max(v));
        }
    }
    range
}

/// What the panel shows: the probe under the cursor (`None` off the frame or the terrain)
/// and the range drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct Readout {
    /// The cursor's place in the window (pixels), if over the picture.
    pub cursor: Option<[f64; 2]>,
    pub probe: Option<Probe>,
    pub range: (f32, f32),
}

impl Readout {
    /// The panel's lines for a `dims`-dimensional graph: four, whether or not the cursor is
    /// on the picture.
    pub fn lines(&self, dims: usize) -> String {
        let join = |v: &[f32]| {
            v.iter()
                .map(|x| format!("{x:.4}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let under = match &self.probe {
            Some(p) => format!(
                "at        {}\nvalue     {:.5}\ngradient  {}",
                join(&p.point[..dims]),
                p.value,
                join(&p.gradient[..dims])
            ),
            // As many lines as a probe's, so that what is below does not move as the
            // cursor comes and goes.
            None => "(the cursor is off the picture)\n\n".to_string(),
        };
        format!(
            "{under}\nrange     {:.5} to {:.5}",
            self.range.0, self.range.1
        )
    }

    /// The test hook's record (`WGPU_NOISE_PANEL_LAYOUT`): `"cursor": [x, y]`, `"probe":
    /// {"point", "value", "gradient"}` (or `null` off the picture) and `"range": [min,
    /// max]`.
    pub fn json(&self) -> serde_json::Value {
        let probe = self.probe.as_ref().map(|p| {
            serde_json::json!({
                "point": p.point,
                "value": p.value,
                "gradient": p.gradient,
            })
        });
        serde_json::json!({
            "cursor": self.cursor,
            "probe": probe,
            "range": [self.range.0, self.range.1],
        })
    }
}
