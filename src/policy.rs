//! The host's resource policy: discovery, visibility and read permission.

use crate::definition::ResourceDefinition;
use crate::error::CallbackError;
use crate::plan::ResourceTarget;
use crate::scope::CallContext;

/// The outcome of a visibility check for one target.
///
/// cbindgen:ignore
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Visibility {
    /// Whether the caller may know the target exists. Hidden targets are
    /// outside the selection and never reported.
    pub visible: bool,
    /// Whether an issue about this target may name its URI (when the URI is
    /// at most 256 bytes). Only the final visibility decision counts.
    pub disclose_issue_uri: bool,
}

/// cbindgen:ignore
impl Visibility {
    /// Visible, URI not disclosed in issues.
    pub const VISIBLE: Visibility = Visibility {
        visible: true,
        disclose_issue_uri: false,
    };
    /// Visible, URI disclosed in issues.
    pub const DISCLOSED: Visibility = Visibility {
        visible: true,
        disclose_issue_uri: true,
    };
    /// Hidden.
    pub const HIDDEN: Visibility = Visibility {
        visible: false,
        disclose_issue_uri: false,
    };
}

/// The host's policy. All three methods are required. They may be called
/// concurrently from many reads and listings on any thread, and should
/// honour the call context's cancellation and remaining time.
///
/// Return [`CallbackError::Unavailable`] to deny `discover` or `read`; any
/// other error from any method, and any error from `visibility`, fails the
/// whole call with kind `policy`.
pub trait ResourcePolicy: Send + Sync {
    /// May the caller discover this definition (reads and listings)?
    fn discover(
        &self,
        call: &CallContext,
        definition: &ResourceDefinition,
    ) -> Result<(), CallbackError>;

    /// Is this target visible to the caller, and may issues name its URI?
    fn visibility(
        &self,
        call: &CallContext,
        target: &ResourceTarget,
    ) -> Result<Visibility, CallbackError>;

    /// May the caller read this (visible) target?
    fn read(&self, call: &CallContext, target: &ResourceTarget) -> Result<(), CallbackError>;

    /// Whether `discover` returns `Ok(())` at once for every caller and
    /// definition, doing nothing else (true for [`AllowAll`]). A listing
    /// then reads the clock for its deadline every few candidates instead
    /// of between every two `discover` calls, since no host code runs in
    /// between. Default `false`: return `true` only for such a policy.
    fn discover_is_trivial(&self) -> bool {
        false
    }
}

/// A policy for resources every caller may see: every definition is
/// discoverable, every target visible and readable, and issues do not name
/// URIs. For public catalogues, examples and tests; a host with per-caller
/// access rules implements [`ResourcePolicy`] itself.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AllowAll;

impl ResourcePolicy for AllowAll {
    fn discover(&self, _: &CallContext, _: &ResourceDefinition) -> Result<(), CallbackError> {
        Ok(())
    }

    fn visibility(&self, _: &CallContext, _: &ResourceTarget) -> Result<Visibility, CallbackError> {
        Ok(Visibility::VISIBLE)
    }

    fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
        Ok(())
    }

    fn discover_is_trivial(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn allow_all_allows_everything_and_discloses_nothing() {
        let call = CallContext::detached(Duration::from_secs(1));
        let def = ResourceDefinition::from_json(r#"{"uri":"x://a","name":"a"}"#).unwrap();
        let target = ResourceTarget::new("x://a", "", None).unwrap();
        assert!(AllowAll.discover(&call, &def).is_ok());
        let v = AllowAll.visibility(&call, &target).unwrap();
        assert!(v.visible && !v.disclose_issue_uri);
        assert!(AllowAll.read(&call, &target).is_ok());
    }

    #[test]
    fn only_allow_all_declares_a_trivial_discover() {
        struct Host;
        impl ResourcePolicy for Host {
            fn discover(
                &self,
                _: &CallContext,
                _: &ResourceDefinition,
            ) -> Result<(), CallbackError> {
                Err(CallbackError::Unavailable)
            }
            fn visibility(
                &self,
                _: &CallContext,
                _: &ResourceTarget,
            ) -> Result<Visibility, CallbackError> {
                Ok(Visibility::HIDDEN)
            }
            fn read(&self, _: &CallContext, _: &ResourceTarget) -> Result<(), CallbackError> {
                Ok(())
            }
        }
        assert!(AllowAll.discover_is_trivial());
        assert!(!Host.discover_is_trivial());
    }
}
