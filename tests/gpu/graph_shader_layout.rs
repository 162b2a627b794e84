//! The generated graph shaders' uniform and workgroup size are the Rust side's, read back
//! by naga (no GPU involved).

use wgpu_noise::field::FieldOutput;
use wgpu_noise::gpu::graph::{graph_output_wgsl, GraphEntry, GraphFillParams, GRAPH_WORKGROUP};
use wgpu_noise::gpu::LookupVariant;

/// The uniform and workgroup size of the generated graph shaders, read back by naga,
/// are the Rust side's: `GraphFillParams`'s size and member offsets, and
/// [`GRAPH_WORKGROUP`] for every entry point of every output.
#[test]
fn the_graph_shaders_uniform_and_workgroup_size_are_the_rust_sides() {
    let graph = wgpu_noise::graph::Graph::from_json(
        r#"{"version": 1, "output": "n", "nodes": {"n": {"type": "simplex"}}}"#,
    )
    .unwrap();
    let program = graph.program(3, [0.0; 4]).unwrap();
    let rust =
        wgpu_noise::rust_struct_layout!(GraphFillParams: offset, step, origin, extent, stride);
    for output in [FieldOutput::Value, FieldOutput::Gradient, FieldOutput::Curl] {
        let source = graph_output_wgsl(&program, LookupVariant::Textures, output);
        assert_eq!(
            wgpu_noise::struct_layout::wgsl_struct_layout(&source, "GraphFillParams"),
            rust,
            "{output:?}"
        );
        let module = naga::front::wgsl::parse_str(&source).expect("graph shader parses");
        let names: Vec<&str> = module
            .entry_points
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        assert_eq!(
            names,
            [
                GraphEntry::Fill(output).name(),
                GraphEntry::Points(output).name()
            ],
            "{output:?}"
        );
        for entry in &module.entry_points {
            assert_eq!(
                entry.workgroup_size,
                [GRAPH_WORKGROUP, 1, 1],
                "{}",
                entry.name
            );
        }
    }
}
