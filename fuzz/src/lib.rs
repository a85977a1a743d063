//! Helpers shared by the fuzz targets in `fuzz_targets/`: a reader that
//! turns fuzz input into decisions, and the panic hook that lets a target
//! script callback panics (which the library must contain) while every
//! other panic still aborts the fuzzer.

use std::sync::Once;

/// Reads decisions from fuzz input; past its end every read is zero, so
/// every input is a complete script.
pub struct Input<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Input<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Input { data, pos: 0 }
    }

    /// The next byte (zero past the end).
    pub fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    /// A value below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    /// A little-endian `u16`.
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.byte(), self.byte()])
    }

    /// One of `options`.
    pub fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[self.below(options.len())]
    }

    /// Everything not read yet.
    pub fn rest(&mut self) -> &'a [u8] {
        let start = self.pos.min(self.data.len());
        self.pos = self.data.len();
        &self.data[start..]
    }
}

/// The payload of a panic a target scripts inside a host callback.
pub struct ScriptedPanic;

/// Panics with [`ScriptedPanic`] (the hook installed by
/// [`allow_scripted_panics`] stays quiet for it).
pub fn scripted_panic() -> ! {
    std::panic::panic_any(ScriptedPanic)
}

/// Installs a panic hook that ignores [`ScriptedPanic`] payloads (the
/// library catches them) and hands every other panic to the previous hook,
/// which under libFuzzer aborts the process: a real panic is a crash.
/// Call it from the target's `init`.
pub fn allow_scripted_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if info.payload().downcast_ref::<ScriptedPanic>().is_none() {
                previous(info);
            }
        }));
    });
}

/// A binding handler for targets that never read: `resolve` plans the
/// requested URI alone, `read` answers `Unavailable`.
pub struct NoBodies;

impl mcp_resources::ResourceHandler for NoBodies {
    fn resolve(
        &self,
        _: &mcp_resources::CallContext,
        m: &mcp_resources::ResourceMatch,
    ) -> Result<mcp_resources::ResourceReadPlan, mcp_resources::CallbackError> {
        mcp_resources::ResourceReadPlan::single_for(m).map_err(mcp_resources::CallbackError::failed)
    }

    fn read(
        &self,
        _: &mcp_resources::CallContext,
        _: &mcp_resources::ResourceTarget,
    ) -> Result<mcp_resources::ResourcePayload, mcp_resources::CallbackError> {
        Err(mcp_resources::CallbackError::Unavailable)
    }
}
