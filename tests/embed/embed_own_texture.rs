//! Filling a texture the application owns, no readback: `GpuNoise::record` records
//! the fill of a 3D `R32Float` volume into the application's encoder; the application's
//! own render pass then samples the volume in its fragment shader (a non-filtering
//! sampler at texel centres, as a volumetric-cloud shader would with nearest sampling)
//! and writes what it sampled to a 2D target, read back and compared with the CPU `f32`
//! reference of the same field.

use crate::common;

use std::time::Duration;

use wgpu_noise::field::{FlagField, Fractal, FractalMode};
use wgpu_noise::gpu::readback::{map_and_read, padded_row_bytes, unpad_rows};
use wgpu_noise::{cpu, FieldOutput, NoiseError, NoiseKind};

/// The documented parity tolerance of the compute path (absolute): the fill pass is the
/// library's own `fill_3d`, and sampling a texel centre with a nearest sampler returns
/// the stored `f32` unchanged.
const TOLERANCE: f32 = 1e-5;

/// 37 × 21 × 9: sizes that are no multiples of the 8 × 8 workgroup, so the edges of the
/// dispatch are exercised.
const SIZE: [u32; 3] = [37, 21, 9];

/// The application's pass: one fragment per texel of the unrolled volume (x across, the
/// z slices stacked along y), sampling the volume at the texel's centre.
const SAMPLE_SHADER: &str = r#"
@group(0) @binding(0) var volume: texture_3d<f32>;
@group(0) @binding(1) var nearest: sampler;

@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
}

@fragment fn fs(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let size = vec3<f32>(textureDimensions(volume));
    let texel = vec2<u32>(pos.xy);
    let ny = u32(size.y);
    let index = vec3<f32>(f32(texel.x), f32(texel.y % ny), f32(texel.y / ny));
    let v = textureSampleLevel(volume, nearest, (index + 0.5) / size, 0.0).r;
    return vec4<f32>(v, 0.0, 0.0, 1.0);
}
"#;

fn volume(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("the application's noise volume"),
        size: wgpu::Extent3d {
            width: SIZE[0],
            height: SIZE[1],
            depth_or_array_layers: SIZE[2],
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D3,
        format,
        usage,
        view_formats: &[],
    })
}

fn field() -> FlagField {
    FlagField::new(NoiseKind::Simplex, &SIZE)
        .with_frequency(&[5.0, 3.0, 2.0])
        .with_offset(&[-17.25, 40.5, 3.0])
        .with_fractal(Fractal {
            mode: FractalMode::Fbm,
            octaves: 3,
            lacunarity: 2.0,
            gain: 0.5,
        })
}

#[test]
fn a_filled_3d_r32float_volume_sampled_in_the_apps_render_pass_matches_the_cpu_reference() {
    let Some(ctx) = common::gpu() else { return };
    let (device, queue) = (&ctx.device, &ctx.queue);
    let seed = 21;
    let noise = common::generator(&ctx, seed);
    let field = field();
    let volume = volume(
        device,
        wgpu::TextureFormat::R32Float,
        wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::TEXTURE_BINDING,
    );

    // The application's sampling pipeline.
    let (width, height) = (SIZE[0], SIZE[1] * SIZE[2]);
    let target = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("sampled"),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::R32Float,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("sample volume"),
        source: wgpu::ShaderSource::Wgsl(SAMPLE_SHADER.into()),
    });
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("sample layout"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D3,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::NonFiltering),
                count: None,
            },
        ],
    });
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor::default());
    let volume_view = volume.create_view(&Default::default());
    let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("sample group"),
        layout: &layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(&volume_view),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Sampler(&sampler),
            },
        ],
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("sample pipeline layout"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let pipeline = crate::embed_support::r32float_pipeline(
        device,
        "sample pipeline",
        &pipeline_layout,
        &module,
    );

    // One encoder: the fill, then the application's pass, then its copy.
    let mut encoder = device.create_command_encoder(&Default::default());
    crate::embed_support::record_options(&noise, &mut encoder, &field, FieldOutput::Value, &volume)
        .unwrap();
    {
        let view = target.create_view(&Default::default());
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("the application's pass"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color {
                        r: -7.0,
                        g: 0.0,
                        b: 0.0,
                        a: 1.0,
                    }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.draw(0..3, 0..1);
    }
    let padded = padded_row_bytes(width);
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("sampled readback"),
        size: u64::from(padded) * u64::from(height),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    encoder.copy_texture_to_buffer(
        target.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &readback,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(height),
            },
        },
        target.size(),
    );
    let submission = queue.submit([encoder.finish()]);
    let mut gpu = Vec::new();
    map_and_read(
        device,
        &readback,
        submission,
        Duration::from_secs(120),
        |b| unpad_rows(b, width, height as usize, padded, &mut gpu),
    )
    .unwrap();

    // Row y of the unrolled picture is slice y / ny, row y % ny: the volume's own
    // x-fastest order, which is the CPU field's order too.
    let reference =
        cpu::fill::generate_f32(&wgpu_noise::tables::PermutationTables::new(seed), &field).unwrap();
    assert_eq!(gpu.len(), reference.len());
    let max = gpu
        .iter()
        .zip(&reference)
        .map(|(g, c)| {
            if g.is_nan() {
                f32::INFINITY
            } else {
                (g - c).abs()
            }
        })
        .fold(0.0f32, f32::max);
    let spread = reference.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    eprintln!(
        "3D R32Float {}x{}x{} (3-octave simplex fBm) filled, sampled in a fragment shader: \
         max abs error vs CPU f32 {max:e} (values up to {spread})",
        SIZE[0], SIZE[1], SIZE[2]
    );
    assert!(max <= TOLERANCE, "max abs error {max:e} > {TOLERANCE:e}");
    assert!(spread > 0.1, "a flat volume would prove nothing");
}

#[test]
fn a_texture_that_does_not_fit_the_field_is_refused_with_a_reason() {
    let Some(ctx) = common::gpu() else { return };
    let device = &ctx.device;
    let noise = common::generator(&ctx, 0);
    let field = field();
    let storage = wgpu::TextureUsages::STORAGE_BINDING;
    let record = |texture: &wgpu::Texture, field: &FlagField| {
        let mut encoder = device.create_command_encoder(&Default::default());
        let output = FieldOutput::Value;
        crate::embed_support::record_options(&noise, &mut encoder, field, output, texture)
    };
    let record_gradient = |texture: &wgpu::Texture, field: &FlagField| {
        let mut encoder = device.create_command_encoder(&Default::default());
        let output = FieldOutput::Gradient;
        crate::embed_support::record_options(&noise, &mut encoder, field, output, texture)
    };

    let no_storage = volume(
        device,
        wgpu::TextureFormat::R32Float,
        wgpu::TextureUsages::TEXTURE_BINDING,
    );
    let err = record(&no_storage, &field).unwrap_err();
    assert!(
        matches!(err, NoiseError::InvalidArgument(ref m) if m.contains("STORAGE_BINDING")),
        "{err}"
    );

    let wrong_size = FlagField::new(NoiseKind::Simplex, &[SIZE[0], SIZE[1], SIZE[2] + 1]);
    let err = record(
        &volume(device, wgpu::TextureFormat::R32Float, storage),
        &wrong_size,
    )
    .unwrap_err();
    assert!(
        matches!(err, NoiseError::InvalidArgument(ref m) if m.contains("37×21×10")),
        "{err}"
    );

    let flat = FlagField::new(NoiseKind::Simplex, &[SIZE[0], SIZE[1]]);
    let err = record(
        &volume(device, wgpu::TextureFormat::R32Float, storage),
        &flat,
    )
    .unwrap_err();
    assert!(
        matches!(err, NoiseError::InvalidArgument(ref m) if m.contains("D2")),
        "{err}"
    );

    // A format the fill does not write: a typed error, not a wgpu validation panic.
    let unorm = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("unorm"),
        size: wgpu::Extent3d {
            width: SIZE[0],
            height: SIZE[1],
            depth_or_array_layers: SIZE[2],
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D3,
        format: wgpu::TextureFormat::Rgba8Unorm,
        usage: storage,
        view_formats: &[],
    });
    let err = record(&unorm, &field).unwrap_err();
    eprintln!("{err}");
    assert!(
        matches!(err, NoiseError::UnsupportedFormat { ref format, .. } if format == "Rgba8Unorm"),
        "{err}"
    );

    // R16Float is no core WebGPU storage format: refused with that reason unless the
    // device's features guarantee it (then only this texture's missing usage is wrong).
    let r16 = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("r16"),
        size: wgpu::Extent3d {
            width: SIZE[0],
            height: SIZE[1],
            depth_or_array_layers: SIZE[2],
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D3,
        format: wgpu::TextureFormat::R16Float,
        usage: wgpu::TextureUsages::TEXTURE_BINDING,
        view_formats: &[],
    });
    let guaranteed = wgpu::TextureFormat::R16Float
        .guaranteed_format_features(device.features())
        .allowed_usages
        .contains(storage);
    let err = record(&r16, &field).unwrap_err();
    eprintln!("R16Float storage guaranteed on this device: {guaranteed}; {err}");
    if guaranteed {
        assert!(matches!(err, NoiseError::InvalidArgument(_)), "{err}");
    } else {
        assert!(
            matches!(err, NoiseError::UnsupportedFormat { ref reason, .. } if reason.contains("guarantee")),
            "{err}"
        );
    }

    // The value is not written to a gradient's format.
    let err = record(
        &volume(device, wgpu::TextureFormat::Rgba32Float, storage),
        &field,
    )
    .unwrap_err();
    assert!(
        matches!(err, NoiseError::UnsupportedFormat { ref reason, .. } if reason.contains("R32Float")),
        "{err}"
    );

    // Classic noise's gradient has no hand-written fill: its graph runs on its own
    // pipeline, copied into the texture, which a storage-only texture does not allow.
    let classic = FlagField::new(NoiseKind::Classic, &SIZE);
    let err = record_gradient(
        &volume(device, wgpu::TextureFormat::Rgba32Float, storage),
        &classic,
    )
    .unwrap_err();
    assert!(
        matches!(err, NoiseError::InvalidArgument(ref m) if m.contains("COPY_DST")),
        "{err}"
    );
}

/// IEEE 754 binary16 to f32 (exact: every half is an f32).
fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((h >> 10) & 0x1f);
    let mantissa = f32::from(h & 0x3ff);
    match exponent {
        0 => sign * mantissa * 2f32.powi(-24),
        31 => f32::NAN,
        e => sign * (1.0 + mantissa / 1024.0) * 2f32.powi(e - 15),
    }
}

#[test]
fn a_2d_rgba16float_target_receives_value_and_gradient_to_half_precision() {
    let Some(ctx) = common::gpu() else { return };
    let (device, queue) = (&ctx.device, &ctx.queue);
    let seed = 2;
    let noise = common::generator(&ctx, seed);
    let (nx, ny) = (45u32, 30u32);
    let field = FlagField::new(NoiseKind::Simplex, &[nx, ny])
        .with_frequency(&[6.0, 4.0])
        .with_fractal(Fractal {
            mode: FractalMode::Fbm,
            octaves: 2,
            lacunarity: 2.0,
            gain: 0.5,
        });
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: Some("the application's gradient map"),
        size: wgpu::Extent3d {
            width: nx,
            height: ny,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba16Float,
        usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let mut encoder = device.create_command_encoder(&Default::default());
    crate::embed_support::record_options(
        &noise,
        &mut encoder,
        &field,
        FieldOutput::Gradient,
        &texture,
    )
    .unwrap();
    let row = nx * 8;
    let padded = row.div_ceil(256) * 256;
    let readback = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("gradient readback"),
        size: u64::from(padded * ny),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &readback,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded),
                rows_per_image: Some(ny),
            },
        },
        texture.size(),
    );
    let submission = queue.submit([encoder.finish()]);
    let gpu: Vec<f32> = map_and_read(
        device,
        &readback,
        submission,
        Duration::from_secs(120),
        |b| {
            b.chunks(padded as usize)
                .flat_map(|r| r[..row as usize].chunks(2))
                .map(|h| half_to_f32(u16::from_le_bytes([h[0], h[1]])))
                .collect()
        },
    )
    .unwrap();

    let params =
        wgpu_noise::params::FillParams::new(&field, wgpu_noise::params::Slab::whole(&field));
    let mut reference = vec![[0.0f32; 4]; params.len()];
    cpu::fill::fill_slab_gradient(
        &wgpu_noise::tables::PermutationTables::new(seed),
        2,
        &params,
        &mut reference,
    );
    // Half precision: an 11-bit significand. Vulkan lets a store to a 16-bit float
    // format round toward zero instead of to nearest, and lavapipe does (1.3465084 was
    // stored as 1.3457031, 8.1e-4 below, more than half an ulp), so the bound is one
    // ulp: |x| * 2^-10 in the normal range, 2^-24 below it, on top of the f32 compute
    // path's own 1e-5.
    let mut worst = 0.0f32;
    for (texel, expected) in gpu.chunks(4).zip(&reference) {
        for channel in 0..3 {
            let (g, c) = (texel[channel], expected[channel]);
            let bound = c.abs() * 2f32.powi(-10) + 2f32.powi(-24) + TOLERANCE;
            let e = (g - c).abs();
            assert!(
                e <= bound,
                "channel {channel}: {g} vs {c} (bound {bound:e})"
            );
            worst = worst.max(if e.is_nan() { f32::INFINITY } else { e / bound });
        }
    }
    let steep = reference.iter().fold(0.0f32, |m, t| m.max(t[1].abs()));
    eprintln!(
        "2D Rgba16Float gradient fill {nx}x{ny}: worst error {worst:.3} of the half-precision bound \
         (|d/dx| up to {steep})"
    );
    assert!(
        steep > 1.0,
        "the gradient should be far from zero somewhere"
    );
}

/// wgpu's GL backend binds a 3D storage texture one layer deep, so a 3D target there
/// would be filled only at z = 0: the fill refuses it with a reason instead, and takes a
/// 2D array texture (one layer per z) on every backend. (That the layered fill gives the
/// reference values is `tests/gpu/backend_parity.rs`'s `layered_volume_fills_…`.)
#[test]
fn on_gl_a_3d_target_is_refused_and_a_2d_array_target_is_filled() {
    for (backend, ctx) in common::gpu_per_backend() {
        let device = &ctx.device;
        let noise = common::generator(&ctx, 0);
        let field = field();
        let storage = wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC;
        let record = |texture: &wgpu::Texture| {
            let mut encoder = device.create_command_encoder(&Default::default());
            crate::embed_support::record_options(
                &noise,
                &mut encoder,
                &field,
                FieldOutput::Value,
                texture,
            )
        };
        let volume_3d = volume(device, wgpu::TextureFormat::R32Float, storage);
        let result = record(&volume_3d);
        if device.adapter_info().backend == wgpu::Backend::Gl {
            let err = result.expect_err("a 3D target on GL must be refused");
            assert!(
                matches!(err, NoiseError::InvalidArgument(ref m) if m.contains("GL") && m.contains("2D array")),
                "{backend}: {err}"
            );
        } else {
            result.unwrap_or_else(|e| panic!("{backend}: {e}"));
        }
        let layers = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("the application's layered noise volume"),
            size: wgpu::Extent3d {
                width: SIZE[0],
                height: SIZE[1],
                depth_or_array_layers: SIZE[2],
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::R32Float,
            usage: storage,
            view_formats: &[],
        });
        record(&layers).unwrap_or_else(|e| panic!("{backend}: a 2D array target: {e}"));
        eprintln!(
            "OWN TEXTURE {backend}: 3D target {}, 2D array target filled",
            if device.adapter_info().backend == wgpu::Backend::Gl {
                "refused"
            } else {
                "filled"
            }
        );
    }
}

#[test]
fn on_gl_a_cube_shaped_2d_array_target_is_refused() {
    // wgpu's GL backend creates square 2D textures with a multiple of 6 layers as cube
    // maps; a fill through a 2D array view would write the wrong texels there.
    for (backend, ctx) in common::gpu_per_backend() {
        let device = &ctx.device;
        let noise = common::generator(&ctx, 0);
        let field = wgpu_noise::field::FlagField::new(wgpu_noise::NoiseKind::Simplex, &[8, 8, 6]);
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("the application's cube-shaped layers"),
            size: wgpu::Extent3d {
                width: 8,
                height: 8,
                depth_or_array_layers: 6,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::R32Float,
            usage: wgpu::TextureUsages::STORAGE_BINDING | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        let result = crate::embed_support::record_options(
            &noise,
            &mut encoder,
            &field,
            FieldOutput::Value,
            &texture,
        );
        if device.adapter_info().backend == wgpu::Backend::Gl {
            let err = result.expect_err("a cube-shaped target on GL must be refused");
            assert!(
                matches!(err, NoiseError::InvalidArgument(ref m) if m.contains("cube map")),
                "{backend}: {err}"
            );
        } else {
            result.unwrap_or_else(|e| panic!("{backend}: {e}"));
        }
    }
}
