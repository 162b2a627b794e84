//! The "keep in sync" check of uniform structs (`struct_layout`) tells layouts apart by
//! size, member order, member names and offsets.

use wgpu_noise::struct_layout::wgsl_struct_layout;

#[repr(C)]
struct Pair {
    a: f32,
    b: u32,
    _padding: [u32; 2],
}

#[test]
fn the_layouts_agree_only_when_every_member_sits_at_the_same_offset_in_a_struct_of_the_same_size() {
    let rust = wgpu_noise::rust_struct_layout!(Pair: a, b);
    let wgsl = |body: &str| wgsl_struct_layout(&format!("struct Pair {{ {body} }}"), "Pair");
    assert_eq!(wgsl("a: f32, b: u32, pad0: u32, pad1: u32"), rust);
    // WGSL rounds a uniform struct up to its alignment only: 8 bytes, not the 16 Rust has.
    assert_ne!(wgsl("a: f32, b: u32"), rust, "size");
    assert_ne!(wgsl("b: u32, a: f32, pad0: u32, pad1: u32"), rust, "order");
    assert_ne!(wgsl("a: f32, c: u32, pad0: u32, pad1: u32"), rust, "name");
    assert_ne!(wgsl("a: f32, b: vec2<u32>"), rust, "offset");
}
