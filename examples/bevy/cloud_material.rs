//! SKETCH, not compiled: a Bevy 0.20 material using wgpu-noise through WESL. Bevy is not a
//! dependency of wgpu-noise (it needs a newer Rust than this crate's CI, and is far too
//! large for it), so this file lives outside `examples/*.rs` where Cargo would build it.
//! Its shader, `cloud_material.wesl`, *is* compiled and run by
//! tests/embed/embed_bevy_material.rs. Copy both into a Bevy 0.20 app (features
//! `shader_format_wesl`) and check the Bevy-side calls against Bevy's documentation.
//!
//! What it shows:
//! - the lookup textures of a seed as Bevy `Image`s, from the wgpu-free texture contract
//!   (`wgpu_noise::embed::contract`), so no wgpu version has to match;
//! - the noise's WESL module registered as a shader asset that the material imports
//!   (`import wgpu_noise::textures::...`), generated for bind group 3 (the material's);
//! - a material whose bindings 0-3 are those textures and 4 its own uniform;
//! - a new seed at runtime: new `Image` bytes, same material and pipeline.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{
    AsBindGroup, Extent3d, ShaderRef, ShaderType, TextureDimension, TextureFormat,
};
use wgpu_noise::embed::contract::{self, Dimension, TexelFormat};
use wgpu_noise::shader::{wesl_module, LookupVariant};

/// Bevy's material bind group index; the noise's textures are declared there.
const MATERIAL_GROUP: u32 = 3;

#[derive(Clone, Copy, ShaderType)]
struct CloudParams {
    scale: f32,
    time: f32,
    coverage: f32,
    _pad: f32,
}

#[derive(Asset, TypePath, AsBindGroup, Clone)]
struct CloudMaterial {
    // Bindings 0-3: the texture contract (unsigned integer texels, no sampler).
    #[texture(0, sample_type = "u_int", dimension = "2d")]
    hash_grad3: Handle<Image>,
    #[texture(1, sample_type = "u_int", dimension = "2d")]
    grad4: Handle<Image>,
    #[texture(2, sample_type = "u_int", dimension = "1d")]
    perm: Handle<Image>,
    #[texture(3, sample_type = "u_int", dimension = "1d")]
    simplex4: Handle<Image>,
    #[uniform(4)]
    params: CloudParams,
}

impl Material for CloudMaterial {
    fn fragment_shader() -> ShaderRef {
        "shaders/cloud_material.wesl".into()
    }
    fn alpha_mode(&self) -> AlphaMode {
        AlphaMode::Blend
    }
}

/// The four lookup textures of `seed` as Bevy images, in binding order.
fn lookup_images(seed: u64, images: &mut Assets<Image>) -> Vec<Handle<Image>> {
    contract::lookup_textures(seed)
        .into_iter()
        .map(|t| {
            let dimension = match t.dimension {
                Dimension::D1 => TextureDimension::D1,
                Dimension::D2 => TextureDimension::D2,
            };
            let format = match t.format {
                TexelFormat::R8Uint => TextureFormat::R8Uint,
                TexelFormat::Rgba8Uint => TextureFormat::Rgba8Uint,
            };
            let size = Extent3d {
                width: t.width,
                height: t.height,
                depth_or_array_layers: 1,
            };
            images.add(Image::new(
                size,
                dimension,
                t.texels,
                format,
                RenderAssetUsages::RENDER_WORLD,
            ))
        })
        .collect()
}

/// Registers the generated module under the path the material's import names.
fn register_noise_module(mut shaders: ResMut<Assets<Shader>>) {
    let source = wesl_module(LookupVariant::Textures, MATERIAL_GROUP);
    let _ = shaders.add(Shader::from_wesl(source, "wgpu_noise/textures.wesl"));
}

fn setup(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<CloudMaterial>>,
) {
    let [hash_grad3, grad4, perm, simplex4]: [Handle<Image>; 4] =
        lookup_images(7, &mut images).try_into().expect("four textures");
    commands.spawn((
        Mesh3d(meshes.add(Plane3d::default().mesh().size(40.0, 40.0))),
        MeshMaterial3d(materials.add(CloudMaterial {
            hash_grad3,
            grad4,
            perm,
            simplex4,
            params: CloudParams {
                scale: 8.0,
                time: 0.0,
                coverage: 0.5,
                _pad: 0.0,
            },
        })),
        Transform::from_xyz(0.0, 10.0, 0.0),
    ));
    commands.spawn((Camera3d::default(), Transform::from_xyz(0.0, 2.0, 12.0)));
}

/// Time drives the third noise coordinate; `R` picks a new seed: the same material,
/// only the image bytes change.
fn animate(
    time: Res<Time>,
    keys: Res<ButtonInput<KeyCode>>,
    mut images: ResMut<Assets<Image>>,
    mut materials: ResMut<Assets<CloudMaterial>>,
    mut seed: Local<u64>,
) {
    let reseed = keys.just_pressed(KeyCode::KeyR);
    if reseed {
        *seed += 1;
    }
    for (_, material) in materials.iter_mut() {
        material.params.time = time.elapsed_secs() * 0.1;
        if reseed {
            let handles = [
                &material.hash_grad3,
                &material.grad4,
                &material.perm,
                &material.simplex4,
            ];
            for (handle, t) in handles.into_iter().zip(contract::lookup_textures(*seed)) {
                if let Some(image) = images.get_mut(handle) {
                    image.data = Some(t.texels);
                }
            }
        }
    }
}

fn main() {
    App::new()
        .add_plugins((DefaultPlugins, MaterialPlugin::<CloudMaterial>::default()))
        .add_systems(Startup, (register_noise_module, setup))
        .add_systems(Update, animate)
        .run();
}
