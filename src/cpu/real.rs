//! The scalar type the CPU reference is generic over: `f64` reproduces Gustavson's Java
//! code, `f32` mirrors the WGSL shaders.

use std::fmt::Debug;
use std::ops::{Add, Div, Mul, Neg, Sub};

/// A floating-point scalar (`f32` or `f64`) with the few operations the noise code uses.
///
/// Constants enter through [`Real::lit`], which rounds an `f64` literal once to the
/// target precision, exactly as a WGSL `const` of type `f32` is rounded.
pub trait Real:
    Copy
    + PartialOrd
    + Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// A literal rounded to this precision.
    fn lit(v: f64) -> Self;
    /// Largest whole number not above `self` (a true floor, also at negative integers).
    fn floor(self) -> Self;
    /// The nearest whole number, halves to even (WGSL's `round`).
    fn round_ties_even(self) -> Self;
    /// The larger of two values (`other` when `self` is NaN, as WGSL's `max` may do).
    fn max(self, other: Self) -> Self;
    /// An unsigned integer, converted exactly (the gradients and offsets are small).
    fn from_u32(v: u32) -> Self;
    /// Widens to `f64`.
    fn to_f64(self) -> f64;
    /// The absolute value.
    fn abs(self) -> Self;
    /// Sine (radians).
    fn sin(self) -> Self;
    /// Cosine (radians).
    fn cos(self) -> Self;
    /// The value clamped to `[lo, hi]`.
    fn clamp(self, lo: Self, hi: Self) -> Self;
    /// `self` to the power `e`.
    fn powf(self, e: Self) -> Self;
    /// The natural logarithm.
    fn ln(self) -> Self;
    /// The largest coordinate magnitude the simplex skew takes without overflowing
    /// (2^124 for f32, `SIMPLEX_COORD_LIMIT` in shaders/simplex.wgsl; 2^1020 for f64): a
    /// 4D point's skewed coordinates sum to under 10× its largest coordinate.
    fn simplex_coord_limit() -> Self;
}

macro_rules! impl_real {
    ($t:ty, $limit:expr) => {
        impl Real for $t {
            #[inline(always)]
            fn lit(v: f64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn floor(self) -> Self {
                <$t>::floor(self)
            }
            #[inline(always)]
            fn round_ties_even(self) -> Self {
                <$t>::round_ties_even(self)
            }
            #[inline(always)]
            fn max(self, other: Self) -> Self {
                <$t>::max(self, other)
            }
            #[inline(always)]
            fn from_u32(v: u32) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn sin(self) -> Self {
                <$t>::sin(self)
            }
            #[inline(always)]
            fn cos(self) -> Self {
                <$t>::cos(self)
            }
            #[inline(always)]
            fn clamp(self, lo: Self, hi: Self) -> Self {
                <$t>::clamp(self, lo, hi)
            }
            #[inline(always)]
            fn powf(self, e: Self) -> Self {
                <$t>::powf(self, e)
            }
            #[inline(always)]
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            #[inline(always)]
            fn simplex_coord_limit() -> Self {
                $limit
            }
        }
    };
}

impl_real!(f32, F32_SIMPLEX_COORD_LIMIT);
impl_real!(f64, F64_SIMPLEX_COORD_LIMIT);

// Exact powers of two, so the f32 one equals the shader's constant.
const F32_SIMPLEX_COORD_LIMIT: f32 = 2.126_764_8e37; // 2^124
const F64_SIMPLEX_COORD_LIMIT: f64 = 1.123_558_209_288_947_4e307; // 2^1020
