//! The host's resource policy: discovery, visibility and read permission.

use crate::error::CallbackError;
use crate::plan::ResourceTarget;
use crate::registry::ResourceDefinition;
use crate::scope::CallContext;

/// The outcome of a visibility check for one target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Visibility {
    /// Whether the caller may know the target exists. Hidden targets are
    /// outside the selection and never reported.
    pub visible: bool,
    /// Whether an issue about this target may name its URI (when the URI is
    /// at most 256 bytes). Only the final visibility decision counts.
    pub disclose_issue_uri: bool,
}

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
}
