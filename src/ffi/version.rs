//! Versions: the header's (`MCPR_VERSION_MAJOR`, `_MINOR`, `_PATCH`, the
//! version the header was generated from, for compile-time checks) and the
//! library's (`mcpr_version()`, the version of the library loaded at run
//! time). A test holds the macros to the crate version (`Cargo.toml`), and
//! the C suite to `mcpr_version()`.

use std::os::raw::c_char;

use super::boundary::guard;

/// Major version of the header (the crate version's first number). Before
/// 1.0, a change of `MCPR_VERSION_MINOR` may change the ABI.
///
/// \ingroup errors
pub const MCPR_VERSION_MAJOR: u32 = 0;
/// Minor version of the header (the crate version's second number).
///
/// \ingroup errors
pub const MCPR_VERSION_MINOR: u32 = 1;
/// Patch version of the header (the crate version's third number).
///
/// \ingroup errors
pub const MCPR_VERSION_PATCH: u32 = 0;

/// The library's version (the crate version, `"MAJOR.MINOR.PATCH"`), for
/// comparing the library a program runs with against the header it was
/// compiled with (`MCPR_VERSION_MAJOR`, `MCPR_VERSION_MINOR`,
/// `MCPR_VERSION_PATCH`).
///
/// \return A static NUL-terminated string, never NULL and never to be freed.
/// \note Thread-safe: any thread.
///
/// \ingroup errors
#[no_mangle]
pub extern "C" fn mcpr_version() -> *const c_char {
    guard(|| {
        const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
        VERSION.as_ptr().cast()
    })
}

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
