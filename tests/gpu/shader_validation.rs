//! Every shader parses and validates with naga, with no GPU involved; failures print
//! naga's diagnostics with the source location.

use wgpu_noise::graph::{wgsl, Graph};
use wgpu_noise::shader::{self, ApiNames};

fn validate(name: &str, source: &str) {
    let module = match naga::front::wgsl::parse_str(source) {
        Ok(m) => m,
        Err(e) => panic!(
            "{name} does not parse:\n{}",
            e.emit_to_string_with_path(source, name)
        ),
    };
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    );
    if let Err(e) = validator.validate(&module) {
        panic!(
            "{name} does not validate:\n{}",
            e.emit_to_string_with_path(source, name)
        );
    }
}

use wgpu_noise::shader::LookupVariant;

#[test]
fn each_lookup_module_validates_on_its_own() {
    validate("shaders/lookup.wgsl", shader::LOOKUP_WGSL);
    validate("shaders/lookup_hash.wgsl", shader::LOOKUP_HASH_WGSL);
    validate("shaders/lattice.wgsl", shader::LATTICE_WGSL);
}

#[test]
fn each_noise_family_validates_with_either_lookup_module() {
    for lookup in [shader::LOOKUP_WGSL, shader::LOOKUP_HASH_WGSL] {
        let base = format!("{lookup}\n{}", shader::LATTICE_WGSL);
        validate(
            "lookup + classic.wgsl",
            &format!("{base}\n{}", shader::CLASSIC_WGSL),
        );
        // Simplex noise of vectors reads cellular noise's cell units.
        validate(
            "lookup + cellular.wgsl + simplex.wgsl",
            &format!(
                "{base}\n{}\n{}",
                shader::CELLULAR_WGSL,
                shader::SIMPLEX_WGSL
            ),
        );
        validate(
            "lookup + cellular.wgsl + simplex.wgsl + curl.wgsl",
            &format!(
                "{base}\n{}\n{}\n{}",
                shader::CELLULAR_WGSL,
                shader::SIMPLEX_WGSL,
                shader::CURL_WGSL
            ),
        );
        // Value noise blends with classic noise's fade and reads cellular noise's cell value.
        validate(
            "lookup + classic.wgsl + cellular.wgsl + value.wgsl",
            &format!(
                "{base}\n{}\n{}\n{}",
                shader::CLASSIC_WGSL,
                shader::CELLULAR_WGSL,
                shader::VALUE_WGSL
            ),
        );
        // SuperSimplex hashes its lattice points as cellular cells (the lookup's functions),
        // its vector noise reads cellular noise's cell units, and its 2D tiles take simplex
        // noise's torus.
        validate(
            "lookup + classic.wgsl + cellular.wgsl + simplex.wgsl + supersimplex.wgsl",
            &format!(
                "{base}\n{}\n{}\n{}\n{}",
                shader::CLASSIC_WGSL,
                shader::CELLULAR_WGSL,
                shader::SIMPLEX_WGSL,
                shader::SUPERSIMPLEX_WGSL
            ),
        );
        // fractal.wgsl and warp.wgsl call each other (the warp moves the point first,
        // and samples the base noise of fractal.wgsl).
        validate(
            "lookup + all + fractal.wgsl + warp.wgsl",
            &format!(
                "{base}\n{}\n{}\n{}\n{}\n{}\n{}\n{}",
                shader::CLASSIC_WGSL,
                shader::SIMPLEX_WGSL,
                shader::CELLULAR_WGSL,
                shader::VALUE_WGSL,
                shader::SUPERSIMPLEX_WGSL,
                shader::FRACTAL_WGSL,
                shader::WARP_WGSL
            ),
        );
    }
}

#[test]
fn the_fill_shader_validates_for_both_lookup_variants() {
    validate(
        "fill shader (textures)",
        &shader::fill_shader_wgsl(LookupVariant::Textures),
    );
    validate(
        "fill shader (hash)",
        &shader::fill_shader_wgsl(LookupVariant::Hash),
    );
}

/// Every file under shaders/ is covered: the library's own modules by the assemblies
/// above, any other shader (preview, benchmarks) on its own or, when it calls the noise
/// functions, after them.
#[test]
fn every_shader_file_validates() {
    const LIBRARY_MODULES: [&str; 13] = [
        "lookup.wgsl",
        "lookup_hash.wgsl",
        "lattice.wgsl",
        "classic.wgsl",
        "simplex.wgsl",
        "cellular.wgsl",
        "value.wgsl",
        "supersimplex.wgsl",
        "fractal.wgsl",
        "warp.wgsl",
        "curl.wgsl",
        "combine.wgsl",
        "fill.wgsl",
    ];
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/shaders");
    let mut others = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.ends_with(".wgsl") || LIBRARY_MODULES.contains(&name.as_str()) {
            continue;
        }
        // Benchmark templates get their workgroup size (WG_X, WG_Y, WG_Z) at run time.
        let source = std::fs::read_to_string(&path)
            .unwrap()
            .replace("WG_X", "8")
            .replace("WG_Y", "8")
            .replace("WG_Z", "1");
        // The preview's shader calls the colour ramp (`shaders/ramp.wgsl`) and the
        // `--graph` file's function, generated at run time (`graph::wgsl::function`):
        // validate it with the terrain example's.
        let source = if name == "preview.wgsl" {
            let program = Graph::from_json(include_str!("../../examples/graphs/terrain.json"))
                .unwrap()
                .program(3, [0.0; 4])
                .unwrap();
            format!(
                "{source}\n{}\n{}",
                wgpu_noise::ramp::ColourRamp::WGSL,
                wgsl::function(&program, "preview_graph", ApiNames::Plain)
            )
        } else if name == "terrain.wgsl" {
            // The terrain's shader calls the ramp and the graph's value-and-gradient
            // function (`editor::terrain::shader_source`).
            let program = Graph::from_json(include_str!("../../examples/graphs/terrain.json"))
                .unwrap()
                .program(2, [0.0; 4])
                .unwrap();
            format!(
                "{source}\n{}\n{}",
                wgpu_noise::ramp::ColourRamp::WGSL,
                wgsl::gradient_function(&program, "terrain_graph", ApiNames::Plain)
            )
        } else if name == "iso.wgsl" {
            // The iso view's shader calls the ramp (`editor::iso::shader_source`).
            assert_eq!(
                wgpu_noise::editor::iso::shader_source(),
                format!("{source}\n{}", wgpu_noise::ramp::ColourRamp::WGSL)
            );
            wgpu_noise::editor::iso::shader_source()
        } else {
            source
        };
        if naga::front::wgsl::parse_str(&source).is_ok() {
            validate(&name, &source);
        } else {
            // Calls the noise functions: validate after them, with the lookup textures at
            // a group (3) the file's own bindings do not use.
            validate(
                &name,
                &format!("{}\n{source}", shader::noise_functions_wgsl(3)),
            );
        }
        others += 1;
    }
    eprintln!("validated {others} shader(s) beyond the library modules");
}

/// The functions generated from a graph (value, value and gradient, curl) validate after
/// the noise functions of either lookup variant, plain or prefixed: the terrain example in
/// 2D to 4D and random graphs of every node type.
#[test]
fn generated_graph_functions_validate() {
    use crate::common::graphs::{random_graph, Rng, Shape};
    let mut programs = Vec::new();
    let terrain = Graph::from_json(include_str!("../../examples/graphs/terrain.json")).unwrap();
    for dims in 2..=4 {
        programs.push(terrain.program(dims, [0.0; 4]).unwrap());
    }
    let mut rng = Rng::new(5);
    while programs.len() < 23 {
        let shape = Shape {
            dims: 2 + rng.below(3) as usize,
            depth: 1 + rng.below(6) as usize,
            differentiable: false,
        };
        let text = random_graph(&mut rng, shape).to_string();
        if let Ok(p) = Graph::from_json(&text)
            .unwrap()
            .program(shape.dims, [0.0; 4])
        {
            programs.push(p);
        }
    }
    for variant in [LookupVariant::Textures, LookupVariant::Hash] {
        for api_names in [ApiNames::Plain, ApiNames::Prefixed] {
            let noise = shader::assemble(&shader::WgslOptions {
                variant,
                group: 0,
                api_names,
            });
            for (k, program) in programs.iter().enumerate() {
                let mut source = format!(
                    "{noise}\n{}\n{}",
                    wgsl::function(program, "graph", api_names),
                    wgsl::gradient_function(program, "graph_gradient", api_names)
                );
                if program.dims() < 4 {
                    source +=
                        &wgsl::curl_function(program, "graph_curl", "graph_gradient", api_names);
                }
                let name = format!("{variant:?} {api_names:?} graph {k} ({}D)", program.dims());
                validate(&name, &source);
                if variant == LookupVariant::Hash {
                    process_seed_key(&name, &source, program.dims() < 4);
                }
            }
        }
    }
}

/// The hash variant's pipelines set the seed key (an override): naga's pipeline-constant
/// pass then rebuilds and revalidates the module, and rejects some forms the first
/// validation accepts (equal constant columns of a matrix, for one). Runs that pass over
/// an entry point calling the generated functions.
fn process_seed_key(name: &str, functions: &str, curl: bool) {
    let call = if curl { "graph_curl" } else { "graph_gradient" };
    let source = format!(
        "{functions}\n@group(1) @binding(1) var<storage, read_write> out: array<f32>;\n\
         @compute @workgroup_size(1) fn main() {{ let d = {call}(vec4<f32>(0.5)); \
         out[0] = graph(vec4<f32>(0.5)) + d[0]; }}\n"
    );
    let module = naga::front::wgsl::parse_str(&source).expect("parses");
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .expect("validates");
    let mut constants = naga::back::PipelineConstants::default();
    constants.insert(shader::HASH_KEY_OVERRIDE_ID.to_string(), 5.0);
    let entry = Some((naga::ShaderStage::Compute, "main"));
    match naga::back::pipeline_constants::process_overrides(&module, &info, entry, &constants) {
        Ok(_) => {}
        Err(naga::back::pipeline_constants::PipelineConstantError::ValidationError(e)) => panic!(
            "{name}: the seed key's pass rejects it:\n{}",
            e.emit_to_string(&source)
        ),
        Err(e) => panic!("{name}: the seed key's pass rejects it: {e:?}"),
    }
}

/// The "keep in sync" pairs of fill.wgsl and the Rust side, read back from the shader by
/// naga: the uniforms `FillParams` and `NoiseSettings` have the Rust structs' size and
/// every member at the Rust member's offset (no member on one side only, WGSL's padding
/// is Rust's `_padding`), and each entry point's `@workgroup_size` is the one the
/// dispatches divide by (`WORKGROUP`).
#[test]
fn the_fill_shaders_uniforms_and_workgroup_sizes_are_the_rust_sides() {
    use wgpu_noise::gpu::WORKGROUP;
    use wgpu_noise::params::{FillParams, NoiseSettings};
    use wgpu_noise::rust_struct_layout;
    use wgpu_noise::struct_layout::wgsl_struct_layout;
    let source = shader::fill_shader_wgsl(LookupVariant::Textures);
    assert_eq!(
        wgsl_struct_layout(&source, "FillParams"),
        rust_struct_layout!(FillParams: offset, step, origin, extent, settings),
        "FillParams: WGSL size, members and offsets vs the Rust struct's"
    );
    let noise_settings = wgsl_struct_layout(&source, "NoiseSettings");
    assert_eq!(
        noise_settings,
        rust_struct_layout!(NoiseSettings: period, octaves, mode, lacunarity, gain, kernel,
            cellular_output, cellular_distance, cellular_jitter, warp_amplitude,
            warp_frequency, warp_octaves, warp_iterations, flow_angle),
        "NoiseSettings: WGSL size, members and offsets vs the Rust struct's"
    );
    // The Rust padding covers exactly what WGSL rounds NoiseSettings up to.
    let last = noise_settings.members.last().unwrap().1 + 4;
    assert_eq!(
        std::mem::offset_of!(NoiseSettings, _padding),
        last,
        "_padding follows the last member"
    );
    assert_eq!(
        noise_settings.size - last,
        4 * 3,
        "_padding: [u32; 3] fills the rest"
    );

    let module = naga::front::wgsl::parse_str(&source).expect("fill shader parses");
    let mut entries = 0;
    for entry in &module.entry_points {
        let expected = match entry.name.as_str() {
            name if name.starts_with("fill_") => WORKGROUP,
            other => panic!("entry point {other} has no Rust workgroup size to check"),
        };
        assert_eq!(entry.workgroup_size, expected, "{}", entry.name);
        entries += 1;
    }
    assert_eq!(entries, 11, "fill.wgsl's entry points");
}
