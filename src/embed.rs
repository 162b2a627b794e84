//! Noise inside your own shaders: the public embedding API for an existing wgpu application.
//!
//! [`NoiseBindings`] is everything a pipeline of yours needs to call `classic2/3/4` and
//! `simplex2/3/4` (each `vecN<f32> -> f32`), and the rest of the library's WGSL (fractal
//! sums `fractal2/3/4` with `NoiseSettings`, tiled variants; see
//! [`noise_functions_wgsl`]), from a fragment, vertex or compute shader:
//!
//! - [`NoiseBindings::wgsl`]: the noise functions, with their lookup textures declared at the
//!   bind group index **you** choose, so they never collide with your own bindings;
//!   [`NoiseBindings::create_shader_module`] prepends them to your source for you and
//!   reports a WGSL mistake as an error naming the line of *your* source.
//! - [`NoiseBindings::layout`] for your pipeline layout (at index [`NoiseBindings::group`])
//!   and [`NoiseBindings::bind_group`] for your passes ([`NoiseBindings::set_render`],
//!   [`NoiseBindings::set_compute`]).
//! - [`NoiseBindings::set_seed`]: a new pattern at runtime. The tables are rewritten in
//!   place, so your pipelines and bind groups stay valid; nothing is rebuilt.
//!
//! It never creates a device: it takes your `&wgpu::Device` and `&wgpu::Queue`.
//! `examples/embed.rs` is a complete application built this way.
//!
//! Other ways in (docs/embedding.md has the whole guide): WESL and naga_oil modules
//! ([`crate::shader::wesl_module`], [`crate::shader::naga_oil_module`]); the texture-free
//! hash variant ([`crate::shader::assemble`] with [`crate::shader::LookupVariant::Hash`]);
//! the wgpu-free texture [`contract`] for applications on another wgpu version; and
//! [`crate::gpu::GpuNoise::record`] to fill a texture of your own.
//!
//! ```no_run
//! use wgpu_noise::embed::{NoiseBindings, NoiseBindingsDescriptor};
//!
//! /// A full-screen material: the app's own uniform at group 0, the noise at group 1.
//! fn noise_material(
//!     device: &wgpu::Device,
//!     queue: &wgpu::Queue,
//!     app_layout: &wgpu::BindGroupLayout,
//!     format: wgpu::TextureFormat,
//! ) -> wgpu_noise::Result<(wgpu::RenderPipeline, NoiseBindings)> {
//!     let noise = NoiseBindings::new(
//!         device,
//!         queue,
//!         &NoiseBindingsDescriptor { group: 1, seed: 7, ..Default::default() },
//!     )?;
//!     // Your shader calls simplex3 as if it had written it itself.
//!     let module = noise.create_shader_module(device, Some("material"), r#"
//!         struct App { time: f32 }
//!         @group(0) @binding(0) var<uniform> app: App;
//!
//!         @vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
//!             let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
//!             return vec4<f32>(uv * 2.0 - 1.0, 0.0, 1.0);
//!         }
//!
//!         @fragment fn fs(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
//!             let n = simplex3(vec3<f32>(pos.xy / 64.0, app.time));
//!             return vec4<f32>(vec3<f32>(0.5 + 0.5 * n), 1.0);
//!         }
//!     "#)?;
//!     let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
//!         label: Some("material layout"),
//!         bind_group_layouts: &[Some(app_layout), Some(noise.layout())],
//!         immediate_size: 0,
//!     });
//!     let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
//!         label: Some("material pipeline"),
//!         layout: Some(&layout),
//!         vertex: wgpu::VertexState {
//!             module: &module,
//!             entry_point: Some("vs"),
//!             compilation_options: Default::default(),
//!             buffers: &[],
//!         },
//!         fragment: Some(wgpu::FragmentState {
//!             module: &module,
//!             entry_point: Some("fs"),
//!             compilation_options: Default::default(),
//!             targets: &[Some(format.into())],
//!         }),
//!         primitive: Default::default(),
//!         depth_stencil: None,
//!         multisample: Default::default(),
//!         multiview_mask: None,
//!         cache: None,
//!     });
//!     Ok((pipeline, noise))
//! }
//!
//! /// Each frame: bind your groups as usual, and the noise's at its own index.
//! fn draw(pass: &mut wgpu::RenderPass<'_>, pipeline: &wgpu::RenderPipeline,
//!         app_group: &wgpu::BindGroup, noise: &NoiseBindings) {
//!     pass.set_pipeline(pipeline);
//!     pass.set_bind_group(0, app_group, &[]);
//!     noise.set_render(pass);
//!     pass.draw(0..3, 0..1);
//! }
//!
//! /// At any time: another seed, the same pipeline.
//! fn reseed(noise: &mut NoiseBindings, queue: &wgpu::Queue) {
//!     noise.set_seed(queue, 42);
//! }
//! ```
//!
//! **Names.** Besides the documented functions (`classic2/3/4`, `simplex2/3/4`, their
//! periodic, tiled, kernel and derivative variants, `fractal2/3/4`) and `NoiseSettings`,
//! every name the noise source declares starts with `wgpu_noise_` (or `WGPU_NOISE_` for
//! constants): the lookup textures (`wgpu_noise_hash_grad3`, `wgpu_noise_grad4`,
//! `wgpu_noise_perm`, `wgpu_noise_simplex4_table`: four `texture_2d<u32>` at bindings 0 to 3,
//! formats and sizes in `tables`), helpers and constants. [`declared_names`]
//! lists them all. A declaration of the same name in your source is reported by
//! [`NoiseBindings::shader_source`] as a redefinition.
//!
//! **Directives.** WGSL requires `enable`, `requires` and `diagnostic` directives before
//! every declaration; [`NoiseBindings::shader_source`] moves the ones at the top of your
//! source above the noise functions. If you prepend [`NoiseBindings::wgsl`] yourself, put
//! your directives first.

pub mod contract;

#[cfg(feature = "gpu")]
use crate::error::ErrorScope;
use crate::error::{NoiseError, Result};
#[cfg(feature = "gpu")]
use crate::gpu::LookupTextures;
use crate::shader::noise_functions_wgsl;

#[cfg(feature = "gpu")]
/// How to create [`NoiseBindings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoiseBindingsDescriptor {
    /// The bind group index the lookup textures are declared at (bindings 0 to 3 of that
    /// group). Pick one your own shaders do not use; it must be below the device's
    /// `max_bind_groups` limit (4 in WebGPU's default limits).
    pub group: u32,
    /// The seed of the permutation (0 = Ken Perlin's original one).
    pub seed: u64,
    /// The shader stages that may call the noise functions.
    pub visibility: wgpu::ShaderStages,
}

#[cfg(feature = "gpu")]
impl Default for NoiseBindingsDescriptor {
    /// Group 0, seed 0, visible to the vertex, fragment and compute stages.
    fn default() -> Self {
        NoiseBindingsDescriptor {
            group: 0,
            seed: 0,
            visibility: wgpu::ShaderStages::VERTEX_FRAGMENT | wgpu::ShaderStages::COMPUTE,
        }
    }
}

#[cfg(feature = "gpu")]
/// The noise functions for your own pipelines: their WGSL, their bind group layout, and a
/// bind group over the lookup textures of the current seed.
///
/// Built on [`LookupTextures`] (the textures) and [`noise_functions_wgsl`] (the source);
/// see the [module documentation](self) for a complete pipeline.
pub struct NoiseBindings {
    lookup: LookupTextures,
    group: u32,
    visibility: wgpu::ShaderStages,
    wgsl: String,
    layout: wgpu::BindGroupLayout,
    bind_group: wgpu::BindGroup,
}

#[cfg(feature = "gpu")]
impl NoiseBindings {
    /// Uploads the lookup textures of `desc.seed` and creates the layout and bind group
    /// for group `desc.group`.
    ///
    /// Errors: [`NoiseError::ExceedsLimit`] when `desc.group` is not below the device's
    /// `max_bind_groups`; [`NoiseError::InvalidArgument`] when `desc.visibility` is empty.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        desc: &NoiseBindingsDescriptor,
    ) -> Result<Self> {
        let max_groups = device.limits().max_bind_groups;
        if desc.group >= max_groups {
            return Err(NoiseError::ExceedsLimit {
                what: "the noise bind group index (counted from 0)".into(),
                requested: desc.group.into(),
                limit: u64::from(max_groups) - 1,
            });
        }
        if desc.visibility.is_empty() {
            return Err(NoiseError::InvalidArgument(
                "noise bindings need at least one shader stage in `visibility`".into(),
            ));
        }
        let scope = ErrorScope::push(device, wgpu::ErrorFilter::Validation);
        let lookup = LookupTextures::new(device, queue, desc.seed);
        let layout = LookupTextures::bind_group_layout(device, desc.visibility);
        let bind_group = lookup.bind_group(device, &layout);
        scope.pop()?;
        Ok(NoiseBindings {
            lookup,
            group: desc.group,
            visibility: desc.visibility,
            wgsl: noise_functions_wgsl(desc.group),
            layout,
            bind_group,
        })
    }

    /// The WGSL source of the noise functions, lookup textures declared at
    /// [`NoiseBindings::group`]: prepend it to your shader (after your directives), or
    /// let [`NoiseBindings::shader_source`] do it.
    pub fn wgsl(&self) -> &str {
        &self.wgsl
    }

    /// Your shader with the noise functions in front of it, checked by naga.
    ///
    /// The `enable`, `requires` and `diagnostic` directives at the start of `user_wgsl`
    /// (one per line, before its first declaration; blank lines and `//` comments may
    /// precede them) are moved to the top, where WGSL requires them. Their lines are left
    /// blank, so line numbers stay those of your source. The result is parsed and validated, so a mistake is a
    /// [`NoiseError::InvalidShader`] naming the line of `user_wgsl`, instead of a wgpu
    /// validation error (which panics under wgpu's default error handler).
    ///
    /// Validation allows every naga capability: whether your device supports an optional
    /// feature you use is still checked by wgpu when you create the module.
    pub fn shader_source(&self, user_wgsl: &str) -> Result<String> {
        compose(&self.wgsl, user_wgsl)
    }

    /// [`NoiseBindings::shader_source`] compiled into a shader module on `device`.
    ///
    /// What naga accepts but this device cannot compile (an optional feature it lacks) is
    /// a [`NoiseError::Gpu`], caught in an error scope rather than left to wgpu's
    /// uncaptured-error handler.
    pub fn create_shader_module(
        &self,
        device: &wgpu::Device,
        label: Option<&str>,
        user_wgsl: &str,
    ) -> Result<wgpu::ShaderModule> {
        let source = self.shader_source(user_wgsl)?;
        let scope = ErrorScope::push(device, wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(label.unwrap_or("wgpu-noise embedded shader")),
            source: wgpu::ShaderSource::Wgsl(source.into()),
        });
        scope.pop()?;
        Ok(module)
    }

    /// The bind group layout: put it at index [`NoiseBindings::group`] of your
    /// `PipelineLayoutDescriptor::bind_group_layouts` (with `None` for unused indices
    /// below it).
    pub fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// The bind group over the lookup textures; it stays valid across
    /// [`NoiseBindings::set_seed`].
    pub fn bind_group(&self) -> &wgpu::BindGroup {
        &self.bind_group
    }

    /// The bind group index the noise functions read their textures from.
    pub fn group(&self) -> u32 {
        self.group
    }

    /// The shader stages the bind group layout is visible to.
    pub fn visibility(&self) -> wgpu::ShaderStages {
        self.visibility
    }

    /// The seed whose tables are uploaded.
    pub fn seed(&self) -> u64 {
        self.lookup.seed()
    }

    /// Switches to the tables of `seed`: written through `queue`, so they take effect with
    /// your next submission. Pipelines, layouts and bind groups stay valid. Setting the
    /// current seed again uploads nothing.
    pub fn set_seed(&mut self, queue: &wgpu::Queue, seed: u64) {
        self.lookup.set_seed(queue, seed);
    }

    /// Binds the noise bind group at [`NoiseBindings::group`] in a render pass.
    pub fn set_render(&self, pass: &mut wgpu::RenderPass<'_>) {
        pass.set_bind_group(self.group, &self.bind_group, &[]);
    }

    /// Binds the noise bind group at [`NoiseBindings::group`] in a compute pass.
    pub fn set_compute(&self, pass: &mut wgpu::ComputePass<'_>) {
        pass.set_bind_group(self.group, &self.bind_group, &[]);
    }

    /// The lookup textures themselves (their seed, their bind group layout).
    pub fn lookup(&self) -> &LookupTextures {
        &self.lookup
    }
}

/// [`NoiseBindings::shader_source`] without a device: `user_wgsl` with the noise functions
/// (textures at bind group `group`) in front of it, checked by naga.
///
/// For applications that manage the lookup textures themselves ([`LookupTextures`]), and
/// for checking shaders where no GPU is available.
pub fn shader_source(group: u32, user_wgsl: &str) -> Result<String> {
    compose(&noise_functions_wgsl(group), user_wgsl)
}

fn compose(noise_wgsl: &str, user_wgsl: &str) -> Result<String> {
    let (directives, body) = split_leading_directives(user_wgsl);
    let mut source = String::with_capacity(directives.len() + noise_wgsl.len() + body.len() + 80);
    source.push_str(&directives);
    source.push_str(noise_wgsl);
    source.push_str(
        "\n// ---- end of the wgpu-noise functions; the application's shader follows ----\n",
    );
    let body_start = source.len();
    source.push_str(&body);
    check_wgsl(&source, directives.len(), body_start)?;
    Ok(source)
}

/// Every module-scope name the noise source declares (functions, constants, structs, the
/// lookup texture variables), sorted: your shader must not declare these itself.
pub fn declared_names() -> Vec<String> {
    // Parsed from the source itself, so the list cannot drift from the shaders.
    let module = naga::front::wgsl::parse_str(&noise_functions_wgsl(0))
        .expect("the bundled noise WGSL parses (checked by the test suite)");
    let mut names: Vec<String> = module
        .functions
        .iter()
        .filter_map(|(_, f)| f.name.clone())
        .chain(module.constants.iter().filter_map(|(_, c)| c.name.clone()))
        .chain(
            module
                .global_variables
                .iter()
                .filter_map(|(_, v)| v.name.clone()),
        )
        .chain(module.overrides.iter().filter_map(|(_, o)| o.name.clone()))
        // Named types are the source's structs (naga's internal ones start with "__").
        .chain(
            module
                .types
                .iter()
                .filter_map(|(_, t)| t.name.clone())
                .filter(|n| !n.starts_with("__")),
        )
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Splits `user` into its leading global directives and the rest, the directive lines
/// replaced by empty lines so the rest keeps its line numbers.
fn split_leading_directives(user: &str) -> (String, String) {
    let mut directives = String::new();
    let mut body = String::with_capacity(user.len());
    let mut in_header = true;
    for line in user.split_inclusive('\n') {
        let trimmed = line.trim();
        if in_header && is_directive(trimmed) {
            directives.push_str(trimmed);
            directives.push('\n');
            body.push('\n');
            continue;
        }
        if !(trimmed.is_empty() || trimmed.starts_with("//")) {
            in_header = false;
        }
        body.push_str(line);
    }
    (directives, body)
}

fn is_directive(line: &str) -> bool {
    ["enable", "requires", "diagnostic"].iter().any(|keyword| {
        line.strip_prefix(keyword)
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_whitespace() || c == '('))
    })
}

/// Parses and validates the composed `source`; errors name a line of the caller's source
/// (its directives are the first `directives_len` bytes, its body starts at `body_start`).
fn check_wgsl(source: &str, directives_len: usize, body_start: usize) -> Result<()> {
    let body_first_line = source[..body_start].matches('\n').count() as u32 + 1;
    let directive_lines = source[..directives_len].matches('\n').count() as u32;
    let place = |location: Option<naga::SourceLocation>| match location {
        Some(l) if l.line_number >= body_first_line => {
            format!(
                "line {} of your shader",
                l.line_number - body_first_line + 1
            )
        }
        Some(l) if l.line_number <= directive_lines => "the directives of your shader".to_string(),
        Some(l) => format!(
            "line {} of the noise functions (NoiseBindings::wgsl)",
            l.line_number - directive_lines
        ),
        None => "your shader".to_string(),
    };
    let module = naga::front::wgsl::parse_str(source).map_err(|e| {
        NoiseError::InvalidShader(format!("{}: {}", place(e.location(source)), e.message()))
    })?;
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    );
    validator.validate(&module).map_err(|e| {
        // The whole cause chain on one line: "Function [3] 'fs' is invalid: ...".
        let mut message = e.as_inner().to_string();
        let mut cause = std::error::Error::source(e.as_inner());
        while let Some(c) = cause {
            message.push_str(": ");
            message.push_str(&c.to_string());
            cause = c.source();
        }
        NoiseError::InvalidShader(format!("{}: {message}", place(e.location(source))))
    })?;
    Ok(())
}

/// The embedding guide's snippets (docs/embedding.md), compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/embedding.md")]
pub struct EmbeddingGuideSnippets;
