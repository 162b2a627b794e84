//! The texture contract for applications on another wgpu version: the lookup textures
//! created from `embed::contract::lookup_textures` bytes with nothing but plain wgpu
//! calls (no `NoiseBindings`, no `LookupTextures`), bound at the application's group, give
//! the CPU reference's noise.

use crate::common;
use crate::embed_support;

use embed_support::APP_BINDINGS;
use embed_support::{check_six, points, run_kernel, six_function_kernel, NoiseSide};
use wgpu_noise::embed::contract::{self, Dimension, TexelFormat};
use wgpu_noise::tables::PermutationTables;

#[test]
fn the_contract_describes_four_integer_textures_at_bindings_0_to_3() {
    let textures = contract::lookup_textures(0);
    for t in &textures {
        eprintln!(
            "contract v{}: binding {} {} {:?} {}x{} {:?} ({} bytes)",
            contract::VERSION,
            t.binding,
            t.name,
            t.dimension,
            t.width,
            t.height,
            t.format,
            t.texels.len()
        );
        assert_eq!(
            t.texels.len() as u32,
            t.width * t.height * t.format.bytes_per_texel(),
            "{}",
            t.name
        );
    }
    let bindings: Vec<u32> = textures.iter().map(|t| t.binding).collect();
    assert_eq!(bindings, [0, 1, 2, 3]);
    // Seed 0's perm texture is Perlin's permutation, the hash texel's red channel
    // T(a, b) = P(a + P(b)).
    let perm = textures
        .iter()
        .find(|t| t.name == "wgpu_noise_perm")
        .unwrap();
    assert_eq!(perm.texels, wgpu_noise::tables::PERLIN_PERMUTATION);
    let hash = &textures[0];
    let p = |i: usize| perm.texels[i & 255] as usize;
    for (a, b) in [(0usize, 0usize), (3, 200), (255, 255)] {
        assert_eq!(hash.texels[4 * (b * 256 + a)] as usize, p(a + p(b)));
    }
    // Another seed, other bytes.
    assert_ne!(contract::lookup_textures(1)[0].texels, hash.texels);
}

/// The plain wgpu calls an application on any wgpu version makes from the contract.
fn textures_from_contract(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    seed: u64,
) -> (wgpu::BindGroupLayout, wgpu::BindGroup) {
    let mut layout_entries = Vec::new();
    let mut views = Vec::new();
    for t in contract::lookup_textures(seed) {
        let (dimension, view_dimension) = match t.dimension {
            Dimension::D1 => (wgpu::TextureDimension::D1, wgpu::TextureViewDimension::D1),
            Dimension::D2 => (wgpu::TextureDimension::D2, wgpu::TextureViewDimension::D2),
        };
        let format = match t.format {
            TexelFormat::R8Uint => wgpu::TextureFormat::R8Uint,
            TexelFormat::Rgba8Uint => wgpu::TextureFormat::Rgba8Uint,
        };
        let size = wgpu::Extent3d {
            width: t.width,
            height: t.height,
            depth_or_array_layers: 1,
        };
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some(&t.name),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        queue.write_texture(
            texture.as_image_copy(),
            &t.texels,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(t.width * t.format.bytes_per_texel()),
                rows_per_image: Some(t.height),
            },
            size,
        );
        layout_entries.push(wgpu::BindGroupLayoutEntry {
            binding: t.binding,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Uint,
                view_dimension,
                multisampled: false,
            },
            count: None,
        });
        views.push((t.binding, texture.create_view(&Default::default())));
    }
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("app's own noise layout"),
        entries: &layout_entries,
    });
    let entries: Vec<_> = views
        .iter()
        .map(|(binding, view)| wgpu::BindGroupEntry {
            binding: *binding,
            resource: wgpu::BindingResource::TextureView(view),
        })
        .collect();
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("app's own noise group"),
        layout: &layout,
        entries: &entries,
    });
    (layout, group)
}

#[test]
fn textures_made_from_the_contract_bytes_give_the_reference_noise() {
    let Some(ctx) = common::gpu() else { return };
    let (device, queue) = (&ctx.device, &ctx.queue);
    let group = 3;
    let points = points(2000);
    let wgsl = wgpu_noise::embed::shader_source(
        group,
        &format!("{APP_BINDINGS}{}", six_function_kernel("")),
    )
    .unwrap();
    for seed in [0, 77] {
        let (layout, bind_group) = textures_from_contract(device, queue, seed);
        let side = NoiseSide {
            group,
            binding: Some((&layout, &bind_group)),
            constants: vec![],
        };
        let values = run_kernel(device, queue, &wgsl, &side, &points, 6);
        let max = check_six("contract", &values, &points, &PermutationTables::new(seed));
        eprintln!("contract textures, seed {seed}: max abs error vs CPU f32 {max:e}");
    }
}
