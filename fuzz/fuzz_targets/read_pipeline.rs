//! The read pipeline driven by scripted callbacks, inline and on an
//! executor: the harness and its invariants are shared with the property
//! test `tests/read_drivers.rs` (`tests/pipeline_script/mod.rs`), so that
//! both hold the two drivers to byte-identical results on every script.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../tests/pipeline_script/mod.rs"]
mod pipeline_script;

fuzz_target!(init: pipeline_script::allow_scripted_panics(), |data: &[u8]| {
    let _ = pipeline_script::run(data);
});
