//! The "keep in sync" check of a `#[repr(C)]` uniform struct and the WGSL struct it
//! mirrors: both sides' byte size and `(member, offset)` list, the WGSL side read back by
//! naga (WGSL's layout rules), so a test compares them with one `assert_eq!`. Test-only
//! (the `test-hooks` feature); not API.

/// A struct's byte size and its members' names and byte offsets, in declaration order.
/// Explicit padding members (named `pad…` or `_pad…`) are left out: the size covers them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructLayout {
    pub size: usize,
    pub members: Vec<(String, usize)>,
}

fn is_padding(name: &str) -> bool {
    name.starts_with("pad") || name.starts_with("_pad")
}

/// The layout of struct `name` in the WGSL module `source`, as naga lays it out. Panics
/// (it is a test's check) when the source does not parse or has no such struct.
pub fn wgsl_struct_layout(source: &str, name: &str) -> StructLayout {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("the shader with struct {name} does not parse: {e}"));
    let (_, ty) = module
        .types
        .iter()
        .find(|(_, t)| t.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no struct {name} in the shader"));
    let naga::TypeInner::Struct { members, span } = &ty.inner else {
        panic!("{name} is no struct: {:?}", ty.inner);
    };
    StructLayout {
        size: *span as usize,
        members: members
            .iter()
            .map(|m| (m.name.clone().unwrap_or_default(), m.offset as usize))
            .filter(|(n, _)| !is_padding(n))
            .collect(),
    }
}

/// The layout of a Rust struct: `rust_struct_layout!(Type: member, member, …)` lists the
/// members (padding left out) and takes their offsets and the size from the compiler.
#[macro_export]
#[doc(hidden)]
macro_rules! rust_struct_layout {
    ($ty:ty: $($member:ident),* $(,)?) => {
        $crate::struct_layout::StructLayout {
            size: ::std::mem::size_of::<$ty>(),
            members: vec![$((
                stringify!($member).to_string(),
                ::std::mem::offset_of!($ty, $member),
            )),*],
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[repr(C)]
    struct Pair {
        a: f32,
        b: u32,
        _padding: [u32; 2],
    }

    #[test]
    fn the_layouts_agree_only_when_every_member_sits_at_the_same_offset_in_a_struct_of_the_same_size(
    ) {
        let rust = crate::rust_struct_layout!(Pair: a, b);
        let wgsl = |body: &str| wgsl_struct_layout(&format!("struct Pair {{ {body} }}"), "Pair");
        assert_eq!(wgsl("a: f32, b: u32, pad0: u32, pad1: u32"), rust);
        // WGSL rounds a uniform struct up to its alignment only: 8 bytes, not the 16 Rust has.
        assert_ne!(wgsl("a: f32, b: u32"), rust, "size");
        assert_ne!(wgsl("b: u32, a: f32, pad0: u32, pad1: u32"), rust, "order");
        assert_ne!(wgsl("a: f32, c: u32, pad0: u32, pad1: u32"), rust, "name");
        assert_ne!(wgsl("a: f32, b: vec2<u32>"), rust, "offset");
    }
}
