//! The lookup textures on the GPU: upload, seed changes, bind group layout and bind group.

use crate::tables::PermutationTables;

/// The four lookup textures of one seed, uploaded (layout: `tables`): all four
/// are 2D textures (`perm` and `simplex4` one row high), as every backend has them.
///
/// Bind them with [`LookupTextures::bind_group_layout`] and [`LookupTextures::bind_group`] at
/// the group given to [`crate::shader::noise_functions_wgsl`]. [`LookupTextures::set_seed`]
/// rewrites the texels in place, so bind groups and pipelines stay valid.
pub struct LookupTextures {
    hash_grad3: wgpu::Texture,
    grad4: wgpu::Texture,
    perm: wgpu::Texture,
    simplex4: wgpu::Texture,
    seed: u64,
}

const SIDE: u32 = crate::tables::PERIOD;

impl LookupTextures {
    /// Creates and uploads the textures for `seed` (0 = Perlin's permutation).
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, seed: u64) -> Self {
        let make = |label: &str, dimension, width, height, format| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width,
                    height,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension,
                format,
                usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
                view_formats: &[],
            })
        };
        use wgpu::{TextureDimension::*, TextureFormat::*};
        let lookup = LookupTextures {
            hash_grad3: make("wgpu-noise hash_grad3", D2, SIDE, SIDE, Rgba8Uint),
            grad4: make("wgpu-noise grad4", D2, SIDE, SIDE, Rgba8Uint),
            perm: make("wgpu-noise perm", D2, SIDE, 1, R8Uint),
            simplex4: make("wgpu-noise simplex4", D2, 64, 1, Rgba8Uint),
            seed,
        };
        lookup.upload_tables(queue, &PermutationTables::new(seed));
        lookup
    }

    /// Uploads the tables of another seed into the same textures.
    pub fn set_seed(&mut self, queue: &wgpu::Queue, seed: u64) {
        if seed != self.seed {
            self.upload_tables(queue, &PermutationTables::new(seed));
            self.seed = seed;
        }
    }

    /// The seed whose tables are uploaded.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Uploads `tables` as they are (tests use this to upload deliberately wrong tables;
    /// public with the `test-hooks` feature only).
    #[cfg(feature = "test-hooks")]
    pub fn upload(&self, queue: &wgpu::Queue, tables: &PermutationTables) {
        self.upload_tables(queue, tables)
    }

    /// Uploads `tables` as they are.
    pub(crate) fn upload_tables(&self, queue: &wgpu::Queue, tables: &PermutationTables) {
        write(
            queue,
            &self.hash_grad3,
            bytemuck::cast_slice(&tables.hash_grad3),
            4,
            SIDE,
            SIDE,
        );
        write(
            queue,
            &self.grad4,
            bytemuck::cast_slice(&tables.grad4),
            4,
            SIDE,
            SIDE,
        );
        write(queue, &self.perm, &tables.perm, 1, SIDE, 1);
        write(
            queue,
            &self.simplex4,
            bytemuck::cast_slice(&tables.simplex4),
            4,
            64,
            1,
        );
    }

    /// The layout of the lookup bind group (bindings 0 to 3), visible to `visibility`.
    pub fn bind_group_layout(
        device: &wgpu::Device,
        visibility: wgpu::ShaderStages,
    ) -> wgpu::BindGroupLayout {
        let entry = |binding, view_dimension| wgpu::BindGroupLayoutEntry {
            binding,
            visibility,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Uint,
                view_dimension,
                multisampled: false,
            },
            count: None,
        };
        use wgpu::TextureViewDimension::D2;
        device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("wgpu-noise lookup layout"),
            entries: &[entry(0, D2), entry(1, D2), entry(2, D2), entry(3, D2)],
        })
    }

    /// A bind group over these textures for `layout` (from [`LookupTextures::bind_group_layout`]).
    pub fn bind_group(
        &self,
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
    ) -> wgpu::BindGroup {
        let views = [&self.hash_grad3, &self.grad4, &self.perm, &self.simplex4]
            .map(|t| t.create_view(&wgpu::TextureViewDescriptor::default()));
        let entries: Vec<_> = views
            .iter()
            .enumerate()
            .map(|(i, view)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: wgpu::BindingResource::TextureView(view),
            })
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("wgpu-noise lookup bind group"),
            layout,
            entries: &entries,
        })
    }
}

fn write(
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    bytes: &[u8],
    texel_bytes: u32,
    width: u32,
    height: u32,
) {
    queue.write_texture(
        texture.as_image_copy(),
        bytes,
        wgpu::TexelCopyBufferLayout {
            offset: 0,
            bytes_per_row: Some(width * texel_bytes),
            rows_per_image: Some(height),
        },
        wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
    );
}
