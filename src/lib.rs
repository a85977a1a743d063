//! # mcp-resources
//!
//! Safe MCP resource reads for servers written in Rust, C, C++, Go and Swift.
//! The host registers resources (exact URIs or URI templates) and a policy;
//! the library validates identifiers, selects the binding, asks the policy
//! before and after reading, reads bodies through host callbacks under
//! budgets and deadlines, returns partial bundles with a diagnostic report
//! when some items fail, and paginates listings with sealed (encrypted, authenticated), expiring cursors.
//!
//! The modules, layer by layer, are one table: docs/ARCHITECTURE.md,
//! "Layout" (tests/layout_table.rs keeps it complete). The C ABI lives in
//! `ffi` only, and the core never imports it (tests/import_graph.rs).

#![deny(missing_docs)]

mod asynccall;
pub mod binding;
pub mod cache;
pub mod call;
pub mod completer;
pub mod completion;
mod cursor;
pub mod definition;
mod description;
mod envelope;
pub mod error;
pub mod executor;
pub mod ffi;
#[cfg(feature = "fuzzing")]
#[doc(hidden)]
pub mod fuzzing;
pub mod identity;
mod index;
pub mod input;
mod jsonbytes;
pub mod jsonrpc;
mod jsonscan;
pub mod limits;
pub mod listing;
pub mod message;
mod notification_types;
pub mod observe;
pub mod plan;
pub mod policy;
mod prefetch;
pub mod protocol;
pub mod read;
pub mod registry;
pub mod report;
pub mod request;
pub mod result_meta;
pub mod scope;
pub mod sizing;
pub mod subscription;
pub mod template;
pub mod tools;
pub mod trace;

pub use asynccall::RequestStartError;
pub use binding::{ResourceBinding, ResourceHandler};
pub use cache::{CacheHints, CacheScope, RegistryCacheHints, ResultCache};
pub use call::CallOptions;
pub use completion::{
    CompleteOptions, CompleteParams, CompleteRef, CompletionRequest, CompletionResult,
    CompletionSink, ResourceCompleter,
};
pub use definition::ResourceDefinition;
pub use error::{CallbackError, Failure, FailureKind};
pub use executor::{Executor, ExecutorOptions, ExecutorStats};
pub use input::{
    ClientCapabilities, ElicitAction, InputKind, InputOptions, InputRequest, InputRequests,
    InputRequired, InputResponse, InputResponses, InvalidInput,
};
pub use limits::{Limit, Limits, ResourceLimits};
pub use listing::{ListOptions, Page};
pub use message::{MessageKind, Reply};
pub use observe::{
    CallEvent, CallMethod, CallbackKind, CallbackStats, DecisionEvent, DecisionPhase, DecisionRule,
    DecisionSubject, EventHash, Interests, IssueCounts, Observer, OutcomeMetrics, ResultSummary,
};
pub use plan::{
    PayloadBody, ResourceMatch, ResourcePayload, ResourceReadPlan, ResourceTarget, SharedBytes,
    SharedText, RESERVED_META_KEY,
};
pub use policy::{
    decide_per_item, AllowAll, PlanDecision, PlanQuestions, ResourcePolicy, TargetDecision,
    Visibility,
};
pub use protocol::{ProtocolRevision, UnknownRevision};
pub use read::{BundleItem, ReadOptions, ResourceBundle};
pub use registry::{Resources, ResourcesBuilder, Selection};
pub use report::{Issue, IssueCode};
pub use request::{RequestError, RequestMethod, RequestOptions, RequestParams, Response};
pub use result_meta::ResultMeta;
pub use scope::{CallContext, CallPhase, CancelToken, RequestData};
pub use subscription::{
    Delivery, ListChange, ListingFingerprint, NotificationTypes, Notifications, NotifyOptions,
    Subscriber, SubscriptionDecision, SubscriptionId, SubscriptionMethod,
};
pub use tools::{EmbedForm, EmbedOptions, EmbedOutcome, Embedding};
pub use trace::TraceContext;
