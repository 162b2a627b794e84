//! The terrain view's orbit camera: where it stands (yaw, pitch, distance about the
//! mesh's centre), how a drag and the wheel move it, its view-projection matrix and the
//! ray through a pixel (for the readout under the cursor). Pure math, no GPU.
//!
//! World space: the mesh lies over x ∈ [-a, a], y ∈ [-b, b] (the frame's aspect, the
//! longer side 2), z up; world y is the frame's rows upwards (field y grows downwards on
//! screen, as in the flat view), so the camera looking straight down sees the flat view.

use std::f64::consts::{FRAC_PI_2, PI};

/// The vertical field of view.
pub const FIELD_OF_VIEW: f64 = PI / 4.0;
/// The lowest pitch a drag reaches (just above the horizon) and the highest (straight
/// down).
pub const PITCH_RANGE: (f64, f64) = (0.05, FRAC_PI_2);
/// The nearest and farthest the wheel takes the camera from the centre.
pub const DISTANCE_RANGE: (f64, f64) = (0.5, 20.0);
/// Zoom factor of one wheel notch (the terrain's camera, and the desktop preview's flat
/// view and frequency keys).
pub const ZOOM_STEP: f64 = 1.25;
/// The terrain's height of a value of 1 in world units (the mesh's longer side is 2)
/// unless the panel changes it.
pub const DEFAULT_RELIEF: f64 = 0.15;
/// The relief the panel offers, and a share link may hold.
pub const RELIEF_RANGE: (f64, f64) = (0.0, 1.0);
/// The depth the near and far planes keep around the mesh (its half-diagonal is √2, its
/// relief less than 1).
const SCENE_RADIUS: f64 = 2.0;

/// Where the camera stands, looking at the mesh's centre.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Orbit {
    /// Turn about the vertical axis, radians: 0 stands south of the centre (below the
    /// flat view's bottom edge) looking north; positive turns the camera east.
    pub yaw: f64,
    /// Elevation above the horizon, radians ([`PITCH_RANGE`]): π/2 looks straight down.
    pub pitch: f64,
    /// Distance from the centre in world units ([`DISTANCE_RANGE`]).
    pub distance: f64,
}

impl Default for Orbit {
    /// South, 50° up, 3 units away: the whole mesh in view at 45° of field of view.
    fn default() -> Self {
        Orbit {
            yaw: 0.0,
            pitch: 50f64.to_radians(),
            distance: 3.0,
        }
    }
}

type Vec3 = [f64; 3];

fn sub(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: Vec3, b: Vec3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn normalize(a: Vec3) -> Vec3 {
    let n = dot(a, a).sqrt();
    a.map(|c| c / n)
}

impl Orbit {
    /// The camera at `yaw`, `pitch` (radians) and `distance`, each clamped to its range
    /// (a non-finite value takes the default's).
    pub fn new(yaw: f64, pitch: f64, distance: f64) -> Self {
        let d = Orbit::default();
        let finite = |v: f64, or: f64| if v.is_finite() { v } else { or };
        Orbit {
            yaw: finite(yaw, d.yaw).rem_euclid(2.0 * PI),
            pitch: finite(pitch, d.pitch).clamp(PITCH_RANGE.0, PITCH_RANGE.1),
            distance: finite(distance, d.distance).clamp(DISTANCE_RANGE.0, DISTANCE_RANGE.1),
        }
    }

    /// A drag of `dx`, `dy` pixels in a window `height` pixels high: a drag across the
    /// window's height turns the camera once around (right turns the scene right), a drag
    /// down raises it towards looking straight down.
    pub fn drag(&mut self, dx: f64, dy: f64, height: f64) {
        let per_pixel = 2.0 * PI / height.max(1.0);
        *self = Orbit::new(
            self.yaw - dx * per_pixel,
            self.pitch + dy * per_pixel,
            self.distance,
        );
    }

    /// The wheel: `factor` > 1 comes closer (as the flat view's zoom shows more detail).
    pub fn zoom(&mut self, factor: f64) {
        *self = Orbit::new(self.yaw, self.pitch, self.distance / factor);
    }

    /// The camera's position.
    pub fn eye(&self) -> Vec3 {
        let (c, s) = (self.pitch.cos(), self.pitch.sin());
        [
            self.distance * c * self.yaw.sin(),
            -self.distance * c * self.yaw.cos(),
            self.distance * s,
        ]
    }

    /// The camera's right, up and forward directions (unit, right-handed; right stays
    /// horizontal, so looking straight down is as well defined as any other pitch).
    pub fn basis(&self) -> [Vec3; 3] {
        let forward = normalize(sub([0.0; 3], self.eye()));
        let right = [self.yaw.cos(), self.yaw.sin(), 0.0];
        let up = cross(right, forward);
        [right, up, forward]
    }

    /// The matrix from world space to wgpu's clip space (depth 0 near to 1 far) for a
    /// frame of `aspect` = width / height, column-major as WGSL's `mat4x4<f32>`.
    pub fn view_projection(&self, aspect: f64) -> [[f32; 4]; 4] {
        let eye = self.eye();
        let [right, up, forward] = self.basis();
        let near = (self.distance - SCENE_RADIUS).max(self.distance * 0.01);
        let far = self.distance + SCENE_RADIUS;
        let fy = 1.0 / (FIELD_OF_VIEW / 2.0).tan();
        let fx = fy / aspect;
        // Rows of the view matrix: camera x = right, y = up, z = -forward.
        let back = forward.map(|c| -c);
        let view = [right, up, back].map(|axis| [axis[0], axis[1], axis[2], -dot(axis, eye)]);
        let depth = far / (near - far);
        let rows = [
            view[0].map(|v| fx * v),
            view[1].map(|v| fy * v),
            std::array::from_fn(|k| depth * view[2][k] + if k == 3 { near * depth } else { 0.0 }),
            view[2].map(|v| -v),
        ];
        std::array::from_fn(|column| std::array::from_fn(|row| rows[row][column] as f32))
    }

    /// The ray through the centre of pixel (`x`, `y`) (0, 0 the top-left pixel's corner)
    /// of a `width` × `height` frame: the eye and a unit direction.
    pub fn ray(&self, x: f64, y: f64, width: f64, height: f64) -> (Vec3, Vec3) {
        let [right, up, forward] = self.basis();
        let tan = (FIELD_OF_VIEW / 2.0).tan();
        let ndc_x = 2.0 * x / width - 1.0;
        let ndc_y = 1.0 - 2.0 * y / height;
        let (sx, sy) = (ndc_x * tan * width / height, ndc_y * tan);
        let direction = std::array::from_fn(|k| forward[k] + sx * right[k] + sy * up[k]);
        (self.eye(), normalize(direction))
    }
}
