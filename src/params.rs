//! Uniforms shared with the WGSL fill shader, and the slabs a field is generated in.

use crate::field::Field;

/// Parameters of one fill dispatch.
///
/// Keep in sync with `struct FillParams` in `shaders/fill.wgsl` (same fields, same order;
/// `vec4` members, so no padding rules come into play). The CPU mirror
/// ([`crate::cpu::fill`]) reads the same struct, so both paths round the same `f32`s.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct FillParams {
    /// Noise-space coordinate of field texel 0, per axis (reduced in `f64`, then rounded).
    pub offset: [f32; 4],
    /// Coordinate step per texel, `frequency / size`, per axis.
    pub step: [f32; 4],
    /// Field index of this slab's first texel `[x, y, z, w]`.
    pub origin: [u32; 4],
    /// Size of this slab in texels `[x, y, z, w]`; unused axes are 1.
    pub extent: [u32; 4],
}

/// A run of whole layers along a field's outermost axis (`y` in 2D, `z` in 3D, `w` in
/// 4D): the unit in which large fields are generated, read back and written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slab {
    /// First layer.
    pub start: u32,
    /// Number of layers.
    pub count: u32,
}

impl Slab {
    /// The whole field as one slab.
    pub fn whole(field: &Field) -> Self {
        Slab { start: 0, count: field.size[field.dims - 1] }
    }

    /// Splits the outermost axis of `field` into slabs of at most `layers` layers.
    pub fn split(field: &Field, layers: u32) -> impl Iterator<Item = Slab> {
        let total = field.size[field.dims - 1];
        let layers = layers.max(1);
        (0..total.div_ceil(layers)).map(move |n| {
            let start = n * layers;
            Slab { start, count: layers.min(total - start) }
        })
    }
}

impl FillParams {
    /// The parameters that generate `slab` of `field`.
    pub fn new(field: &Field, slab: Slab) -> Self {
        let offset = field.reduced_offset();
        let step = field.step();
        let outer = field.dims - 1;
        let mut origin = [0u32; 4];
        origin[outer] = slab.start;
        let mut extent = field.size;
        extent[outer] = slab.count;
        FillParams {
            offset: offset.map(|v| v as f32),
            step: step.map(|v| v as f32),
            origin,
            extent,
        }
    }

    /// Number of samples in the slab.
    pub fn len(&self) -> usize {
        self.extent.iter().map(|&e| e as usize).product()
    }

    /// Whether the slab is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
