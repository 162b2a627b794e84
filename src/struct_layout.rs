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
