//! Version macros of the header (`MCPR_VERSION_MAJOR`, `_MINOR`, `_PATCH`):
//! the version the header was generated from, for compile-time checks. A
//! test holds them to the crate version (`Cargo.toml`), and the C suite to
//! `mcpr_version()`, the version of the library loaded at run time.

/// Major version of the header (the crate version's first number). Before
/// 1.0, a change of `MCPR_VERSION_MINOR` may change the ABI.
pub const MCPR_VERSION_MAJOR: u32 = 0;
/// Minor version of the header (the crate version's second number).
pub const MCPR_VERSION_MINOR: u32 = 1;
/// Patch version of the header (the crate version's third number).
pub const MCPR_VERSION_PATCH: u32 = 0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_macros_match_the_crate_version() {
        assert_eq!(
            MCPR_VERSION_MAJOR.to_string(),
            env!("CARGO_PKG_VERSION_MAJOR")
        );
        assert_eq!(
            MCPR_VERSION_MINOR.to_string(),
            env!("CARGO_PKG_VERSION_MINOR")
        );
        assert_eq!(
            MCPR_VERSION_PATCH.to_string(),
            env!("CARGO_PKG_VERSION_PATCH")
        );
    }
}
