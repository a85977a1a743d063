//! One read pipeline, two drivers (docs/ARCHITECTURE.md): every script of
//! the read-pipeline harness (`pipeline_script`, shared with the
//! `read_pipeline` fuzz target) is read inline and on an executor, and the
//! two results must be byte for byte identical apart from the warning
//! identity; each must also hold the pipeline's invariants, and every
//! table must be released with the registry.

mod pipeline_script;

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn every_script_reads_the_same_inline_and_on_an_executor(
        data in proptest::collection::vec(any::<u8>(), 0..160),
    ) {
        pipeline_script::allow_scripted_panics();
        let _ = pipeline_script::run(&data);
    }
}

/// The committed fuzz seeds, each through both drivers.
#[test]
fn the_fuzz_seeds_read_the_same_inline_and_on_an_executor() {
    pipeline_script::allow_scripted_panics();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/read_pipeline");
    let mut ended = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the seed corpus") {
        let path = entry.expect("a seed").path();
        ended.push(pipeline_script::run(
            &std::fs::read(&path).expect("a readable seed"),
        ));
    }
    // The seeds reach complete and partial bundles and failed reads.
    use pipeline_script::Ended;
    assert!(ended.contains(&Ended::Complete), "{ended:?}");
    assert!(ended.contains(&Ended::Partial), "{ended:?}");
    assert!(
        ended.iter().any(|e| matches!(e, Ended::Failed(_))),
        "{ended:?}"
    );
}
