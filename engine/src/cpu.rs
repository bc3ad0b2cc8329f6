//! The x86-64 instructions beyond the baseline target that the hottest code is also compiled
//! with: popcnt, BMI1 (`andn`, `blsr`, `tzcnt`), BMI2 (shifts by a register without `cl`) and
//! lzcnt; SSE4.1 for the move picker's maximum; and AVX2 for the network's 16-lane sums.
//! Such code comes in two copies, one compiled with them and taken when the CPU has them,
//! and a portable one (the evaluation in three: a middle one compiled with popcnt alone, for
//! CPUs with popcnt but not the BMI set).

#[cfg(target_arch = "x86_64")]
static BIT_INSTRUCTIONS: std::sync::LazyLock<bool> = std::sync::LazyLock::new(|| {
    std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
});

/// Whether the CPU has popcnt, BMI1, BMI2 and lzcnt (checked once: std's check tests its
/// cache once a feature, four times each call).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_bit_instructions() -> bool {
    *BIT_INSTRUCTIONS
}

#[cfg(target_arch = "x86_64")]
static SSE41: std::sync::LazyLock<bool> =
    std::sync::LazyLock::new(|| std::is_x86_feature_detected!("sse4.1"));

/// Whether the CPU has SSE4.1 (whose `pmaxsd` takes the maximum of four scores at once;
/// SSE2 needs four instructions for it).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_sse41() -> bool {
    *SSE41
}

#[cfg(target_arch = "x86_64")]
static POPCNT: std::sync::LazyLock<bool> =
    std::sync::LazyLock::new(|| std::is_x86_feature_detected!("popcnt"));

/// Whether the CPU has popcnt (checked once), for the evaluation's middle copy on CPUs
/// without all of [`has_bit_instructions`].
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_popcnt() -> bool {
    *POPCNT
}

#[cfg(target_arch = "x86_64")]
static AVX2: std::sync::LazyLock<bool> =
    std::sync::LazyLock::new(|| std::is_x86_feature_detected!("avx2"));

/// Whether the CPU has AVX2 (sixteen `i16` lanes a register, where the baseline's SSE2 has
/// eight), for the network's accumulator updates and output.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_avx2() -> bool {
    *AVX2
}
