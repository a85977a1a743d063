//! The set of MCP change-notification types a registry declares, a host
//! delivers and a listen asks for (docs/BEHAVIOUR.md §15): a leaf, so that
//! the registry can hold its declaration without depending on the
//! subscription decisions.

/// A set of MCP change-notification types.
///
/// A registry declares the two resource types it lets the host deliver
/// ([`ResourcesBuilder::notifications`](crate::ResourcesBuilder::notifications));
/// a host serving `subscriptions/listen` through [`Resources::request`]
/// names the tool and prompt types it delivers itself
/// ([`RequestOptions::host_notifications`](crate::RequestOptions::host_notifications));
/// a [`SubscriptionDecision`] says which types a client asked for and
/// which were honored.
///
/// cbindgen:ignore
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct NotificationTypes {
    /// `notifications/resources/updated` for subscribed URIs (the
    /// capability's `subscribe`; the filter's `resourceSubscriptions`).
    pub resource_updates: bool,
    /// `notifications/resources/list_changed` (the capability's
    /// `listChanged`; the filter's `resourcesListChanged`).
    pub resources_list_changed: bool,
    /// `notifications/tools/list_changed` (the host's, never the library's).
    pub tools_list_changed: bool,
    /// `notifications/prompts/list_changed` (the host's, never the
    /// library's).
    pub prompts_list_changed: bool,
}

/// cbindgen:ignore
impl NotificationTypes {
    /// No type at all.
    pub const NONE: NotificationTypes = NotificationTypes {
        resource_updates: false,
        resources_list_changed: false,
        tools_list_changed: false,
        prompts_list_changed: false,
    };
    /// The two resource types.
    pub const RESOURCES: NotificationTypes = NotificationTypes {
        resource_updates: true,
        resources_list_changed: true,
        tools_list_changed: false,
        prompts_list_changed: false,
    };
    /// Bit of `resource_updates` in [`bits`](Self::bits) (the C ABI's
    /// `MCPR_NOTIFY_RESOURCE_UPDATES`).
    pub const RESOURCE_UPDATES_BIT: u32 = 1;
    /// Bit of `resources_list_changed` (`MCPR_NOTIFY_RESOURCES_LIST_CHANGED`).
    pub const RESOURCES_LIST_CHANGED_BIT: u32 = 2;
    /// Bit of `tools_list_changed` (`MCPR_NOTIFY_TOOLS_LIST_CHANGED`).
    pub const TOOLS_LIST_CHANGED_BIT: u32 = 4;
    /// Bit of `prompts_list_changed` (`MCPR_NOTIFY_PROMPTS_LIST_CHANGED`).
    pub const PROMPTS_LIST_CHANGED_BIT: u32 = 8;

    /// The set as bits (see the `*_BIT` constants).
    pub fn bits(self) -> u32 {
        [
            (self.resource_updates, Self::RESOURCE_UPDATES_BIT),
            (
                self.resources_list_changed,
                Self::RESOURCES_LIST_CHANGED_BIT,
            ),
            (self.tools_list_changed, Self::TOOLS_LIST_CHANGED_BIT),
            (self.prompts_list_changed, Self::PROMPTS_LIST_CHANGED_BIT),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .fold(0, |bits, (_, bit)| bits | bit)
    }

    /// The set of `bits`, or `None` when a bit names no type.
    pub fn from_bits(bits: u32) -> Option<NotificationTypes> {
        if bits & !0xF != 0 {
            return None;
        }
        Some(NotificationTypes {
            resource_updates: bits & Self::RESOURCE_UPDATES_BIT != 0,
            resources_list_changed: bits & Self::RESOURCES_LIST_CHANGED_BIT != 0,
            tools_list_changed: bits & Self::TOOLS_LIST_CHANGED_BIT != 0,
            prompts_list_changed: bits & Self::PROMPTS_LIST_CHANGED_BIT != 0,
        })
    }

    /// Only the two resource types of this set.
    pub fn resources_only(self) -> NotificationTypes {
        NotificationTypes {
            tools_list_changed: false,
            prompts_list_changed: false,
            ..self
        }
    }
}
