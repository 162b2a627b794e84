//! Every shader parses and validates with naga, with no GPU involved; failures print
//! naga's diagnostics with the source location.

use wgpu_noise::shader;

fn validate(name: &str, source: &str) {
    let module = match naga::front::wgsl::parse_str(source) {
        Ok(m) => m,
        Err(e) => panic!("{name} does not parse:\n{}", e.emit_to_string_with_path(source, name)),
    };
    let mut validator = naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all());
    if let Err(e) = validator.validate(&module) {
        panic!("{name} does not validate:\n{}", e.emit_to_string_with_path(source, name));
    }
}

#[test]
fn lookup_module_validates_on_its_own() {
    validate("shaders/lookup.wgsl", shader::LOOKUP_WGSL);
}

#[test]
fn each_noise_family_validates_with_the_lookup_module() {
    validate("lookup + classic.wgsl", &format!("{}\n{}", shader::LOOKUP_WGSL, shader::CLASSIC_WGSL));
    validate("lookup + simplex.wgsl", &format!("{}\n{}", shader::LOOKUP_WGSL, shader::SIMPLEX_WGSL));
}

#[test]
fn the_fill_shader_validates() {
    validate("fill shader", &shader::fill_shader_wgsl());
}

#[test]
fn embedded_functions_validate_at_any_bind_group() {
    for group in [0, 1, 2, 3] {
        let source = shader::noise_functions_wgsl(group);
        assert_eq!(source.matches(&format!("@group({group})")).count(), 4, "all four lookup bindings move to group {group}");
        validate(&format!("noise functions at group {group}"), &source);
    }
}
