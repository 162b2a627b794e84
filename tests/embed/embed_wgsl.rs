//! The embedding WGSL, checked by naga without a GPU: the caller's bind group index, its
//! own bindings beside the noise, directive placement, and clear errors for WGSL mistakes.

use wgpu_noise::embed::{declared_names, shader_source};
use wgpu_noise::NoiseError;

/// A fragment shader that calls all six functions, with its own uniform at group 0.
const USER_SHADER: &str = r#"
struct Params { time: f32, scale: f32 }
@group(0) @binding(0) var<uniform> params: Params;

@fragment
fn fs(@builtin(position) pos: vec4<f32>) -> @location(0) vec4<f32> {
    let p = vec4<f32>(pos.xy * params.scale, params.time, 0.5);
    let c = classic2(p.xy) + classic3(p.xyz) + classic4(p);
    let s = simplex2(p.xy) + simplex3(p.xyz) + simplex4(p);
    return vec4<f32>(c, s, 0.0, 1.0);
}
"#;

fn parse(source: &str) -> naga::Module {
    naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{}", e.emit_to_string(source)))
}

/// (name, group, binding) of every resource variable of `module`.
fn resources(module: &naga::Module) -> Vec<(String, u32, u32)> {
    module
        .global_variables
        .iter()
        .filter_map(|(_, v)| {
            v.binding
                .as_ref()
                .map(|b| (v.name.clone().unwrap_or_default(), b.group, b.binding))
        })
        .collect()
}

fn invalid_shader_message(result: wgpu_noise::Result<String>) -> String {
    match result {
        Err(NoiseError::InvalidShader(message)) => message,
        Err(other) => panic!("expected InvalidShader, got {other:?}"),
        Ok(_) => panic!("expected InvalidShader, the shader was accepted"),
    }
}

#[test]
fn lookup_textures_are_declared_at_the_group_the_caller_chooses() {
    for group in 1..=3 {
        let source = shader_source(group, USER_SHADER).unwrap();
        let mut noise: Vec<_> = resources(&parse(&source))
            .into_iter()
            .filter(|(name, _, _)| name.starts_with("wgpu_noise_"))
            .collect();
        noise.sort_by_key(|r| r.2);
        let expected: Vec<_> = [
            "wgpu_noise_hash_grad3",
            "wgpu_noise_grad4",
            "wgpu_noise_perm",
            "wgpu_noise_simplex4_table",
        ]
        .iter()
        .enumerate()
        .map(|(binding, name)| (name.to_string(), group, binding as u32))
        .collect();
        assert_eq!(noise, expected, "group {group}");
    }
}

#[test]
fn users_own_binding_at_group_0_is_left_where_the_user_put_it() {
    let source = shader_source(2, USER_SHADER).unwrap();
    let user: Vec<_> = resources(&parse(&source))
        .into_iter()
        .filter(|r| r.0 == "params")
        .collect();
    assert_eq!(user, [("params".to_string(), 0, 0)]);
}

#[test]
fn noise_at_the_same_group_and_binding_as_a_user_resource_is_rejected_by_validation() {
    // The collision the configurable group exists to avoid: naga refuses two resources
    // at (0, 0), so the error surfaces at composition time instead of in wgpu.
    let message = invalid_shader_message(shader_source(0, USER_SHADER));
    eprintln!("{message}");
    assert!(!message.contains('\n'), "one line: {message}");
}

#[test]
fn redefining_a_noise_function_is_an_error_naming_the_line_of_the_users_source() {
    let user = "// my shader\n\nfn simplex3(p: vec3<f32>) -> f32 { return p.x; }\n";
    let message = invalid_shader_message(shader_source(1, user));
    eprintln!("{message}");
    assert!(message.starts_with("line 3 of your shader"), "{message}");
    assert!(message.contains("simplex3"), "{message}");
    assert!(!message.contains('\n'), "one line: {message}");
}

#[test]
fn a_type_error_in_the_users_shader_names_its_line() {
    let user = "\n@fragment\nfn fs() -> @location(0) vec4<f32> {\n    let n = simplex3(vec2<f32>(1.0, 2.0));\n    return vec4<f32>(n);\n}\n";
    let message = invalid_shader_message(shader_source(1, user));
    eprintln!("{message}");
    assert!(message.starts_with("line 4 of your shader"), "{message}");
}

#[test]
fn every_declared_name_really_collides_when_the_user_declares_it() {
    let names = declared_names();
    for expected in [
        "classic2",
        "classic3",
        "classic4",
        "simplex2",
        "simplex3",
        "simplex4",
        "wgpu_noise_perm",
    ] {
        assert!(
            names.iter().any(|n| n == expected),
            "{expected} missing from {names:?}"
        );
    }
    eprintln!("{} declared names: {names:?}", names.len());
    for name in &names {
        let user = format!("const {name}: f32 = 1.0;\n");
        let message = invalid_shader_message(shader_source(1, &user));
        assert!(
            message.starts_with("line 1 of your shader"),
            "{name}: {message}"
        );
    }
    // And a name outside the list is free.
    shader_source(1, "const my_own_name: f32 = 1.0;\n").unwrap();
}

#[test]
fn leading_directives_are_moved_above_the_noise_functions() {
    let user = "// directives must come first in WGSL\ndiagnostic(off, derivative_uniformity);\nenable f16;\n\nconst half_one: f16 = 1.0h;\n@fragment\nfn fs() -> @location(0) vec4<f32> {\n    return vec4<f32>(simplex2(vec2<f32>(0.5, 0.25)) + f32(half_one));\n}\n";
    // Prepending naively is what the helper exists for: naga rejects it.
    let naive = format!("{}\n{user}", wgpu_noise::shader::noise_functions_wgsl(1));
    assert!(
        naga::front::wgsl::parse_str(&naive).is_err(),
        "a directive after declarations should be rejected"
    );

    let source = shader_source(1, user).unwrap();
    let first_lines: Vec<&str> = source.lines().take(2).collect();
    assert_eq!(
        first_lines,
        ["diagnostic(off, derivative_uniformity);", "enable f16;"]
    );
    parse(&source);
}

#[test]
fn line_numbers_stay_those_of_the_users_source_when_directives_are_moved() {
    let user = "enable f16;\n\nfn broken() -> f32 { return undefined_name; }\n";
    let message = invalid_shader_message(shader_source(1, user));
    eprintln!("{message}");
    assert!(message.starts_with("line 3 of your shader"), "{message}");
}
