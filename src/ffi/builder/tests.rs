use super::*;
use crate::ffi::all::*;
use std::sync::atomic::{AtomicUsize, Ordering};

unsafe extern "C-unwind" fn resolve_nothing(
    _: *mut c_void,
    _: *const mcpr_call,
    _: *const mcpr_match,
    _: *mut mcpr_plan_builder,
) -> mcpr_cb_result {
    MCPR_CB_OK
}

unsafe extern "C-unwind" fn read_nothing(
    _: *mut c_void,
    _: *const mcpr_call,
    _: *const mcpr_target,
    _: *mut mcpr_payload_builder,
) -> mcpr_cb_result {
    MCPR_CB_OK
}

unsafe extern "C-unwind" fn size_nothing(
    _: *mut c_void,
    _: *const mcpr_target,
    _: u64,
    _: bool,
    _: *mut u64,
) -> mcpr_cb_result {
    MCPR_CB_OK
}

/// Releases run by [`count_release`] (this test's tables only).
static RELEASES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C-unwind" fn count_release(_: *mut c_void) {
    RELEASES.fetch_add(1, Ordering::SeqCst);
}

fn table(user_data: usize) -> mcpr_binding_callbacks {
    mcpr_binding_callbacks {
        struct_size: std::mem::size_of::<mcpr_binding_callbacks>(),
        user_data: user_data as *mut c_void,
        resolve: Some(resolve_nothing),
        read: Some(read_nothing),
        release: None,
        complete: None,
        size_hint: None,
    }
}

#[test]
fn adds_share_a_table_copy_only_when_every_field_is_equal_and_there_is_no_release() {
    let mut cache = HandlerCache::default();
    let first = cache.handler(&table(1)).ok().expect("a complete table");
    let again = cache.handler(&table(1)).ok().expect("a complete table");
    assert!(
        Arc::ptr_eq(&first, &again),
        "an equal table shares the copy"
    );
    // Any field that differs gets a copy of its own.
    let other_data = cache.handler(&table(2)).ok().expect("a complete table");
    assert!(!Arc::ptr_eq(&first, &other_data));
    let mut sized = table(2);
    sized.size_hint = Some(size_nothing);
    let other_field = cache.handler(&sized).ok().expect("a complete table");
    assert!(!Arc::ptr_eq(&other_data, &other_field));
    // A table with a release is copied at every add, so that its release
    // runs once per add.
    let mut releasing = table(3);
    releasing.release = Some(count_release);
    let r1 = cache.handler(&releasing).ok().expect("a complete table");
    let r2 = cache.handler(&releasing).ok().expect("a complete table");
    assert!(!Arc::ptr_eq(&r1, &r2));
    drop((r1, r2, cache));
    assert_eq!(RELEASES.load(Ordering::SeqCst), 2);
    // A refused table (no resolve) is refused, not served from the cache.
    let mut cache = HandlerCache::default();
    cache.handler(&table(4)).ok().expect("a complete table");
    let mut incomplete = table(4);
    incomplete.resolve = None;
    assert!(cache.handler(&incomplete).is_err());
}
