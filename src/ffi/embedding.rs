//! Embedding results (`mcpr_embedding_*`).

use std::sync::OnceLock;

use crate::tools::{EmbedOutcome, Embedding};

use super::boundary::{guard, mcpr_str};
use super::handle::{free_handle, handle_ref, Boxed, Handle};
use super::status::mcpr_status;

/// The content blocks `mcpr_embed` made, and what became of each URI.
/// Owned by the caller; free with `mcpr_embedding_free`. Immutable: safe to
/// read from any thread.
///
/// \ingroup read
pub struct mcpr_embedding {
    inner: Embedding,
    /// The private cause of each URI that gave nothing (empty otherwise).
    causes: Vec<String>,
    /// The whole `CallToolResult`, made when first asked for.
    tool_result: OnceLock<String>,
}

impl Handle for mcpr_embedding {
    type Kind = Boxed;
}

impl mcpr_embedding {
    pub(super) fn new(inner: Embedding) -> mcpr_embedding {
        let causes = inner
            .outcomes()
            .iter()
            .map(|o| match o {
                EmbedOutcome::Failed(f) => f.cause_text(),
                _ => String::new(),
            })
            .collect();
        mcpr_embedding {
            inner,
            causes,
            tool_result: OnceLock::new(),
        }
    }

    fn outcome(&self, i: usize) -> Option<&EmbedOutcome> {
        self.inner.outcomes().get(i)
    }
}

/// The content blocks as one JSON array (`[{"type":"resource",…},…]`), in
/// URI order: the `content` of a `CallToolResult`, or blocks to place among
/// your own.
///
/// \param embedding The embedding, or NULL.
/// \return Compact JSON, borrowed from `embedding` (valid until
///   `mcpr_embedding_free(embedding)`); empty when `embedding` is NULL.
/// \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
///   freed.
/// \note Thread-safe: an embedding is immutable; any thread may read it,
///   also concurrently.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embedding_blocks_json(embedding: *const mcpr_embedding) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(embedding) }.map_or(mcpr_str::empty(), |e| {
            mcpr_str::from_str(e.inner.blocks_json())
        })
    })
}

/// How many content blocks the embedding holds.
///
/// \param embedding The embedding, or NULL.
/// \return The number of blocks; 0 when `embedding` is NULL.
/// \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
///   freed.
/// \note Thread-safe (see `mcpr_embedding_blocks_json`).
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embedding_block_count(embedding: *const mcpr_embedding) -> usize {
    guard(|| unsafe { handle_ref(embedding) }.map_or(0, |e| e.inner.block_count()))
}

/// One content block's JSON object.
///
/// \param embedding The embedding, or NULL.
/// \param index The block's index, below `mcpr_embedding_block_count`.
/// \return Compact JSON, borrowed from `embedding` (valid until
///   `mcpr_embedding_free(embedding)`); empty when `embedding` is NULL or
///   `index` is out of range.
/// \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
///   freed.
/// \note Thread-safe (see `mcpr_embedding_blocks_json`).
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embedding_block(
    embedding: *const mcpr_embedding,
    index: usize,
) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(embedding) }
            .and_then(|e| e.inner.blocks().nth(index))
            .map_or(mcpr_str::empty(), mcpr_str::from_str)
    })
}

/// A whole MCP `CallToolResult` whose `content` is the embedding's blocks
/// (with `"resultType":"complete"` on 2026-07-28): send it as the
/// JSON-RPC `result` of the `tools/call`.
///
/// \param embedding The embedding, or NULL.
/// \return Compact JSON, borrowed from `embedding` (valid until
///   `mcpr_embedding_free(embedding)`; made on the first call); empty when
///   `embedding` is NULL.
/// \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
///   freed.
/// \note Thread-safe (see `mcpr_embedding_blocks_json`): concurrent first
///   calls make it once.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embedding_tool_result_json(
    embedding: *const mcpr_embedding,
) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(embedding) }.map_or(mcpr_str::empty(), |e| {
            mcpr_str::from_str(e.tool_result.get_or_init(|| e.inner.call_tool_result()))
        })
    })
}

/// How many URIs the embedding was given (the `uri_count` of `mcpr_embed`).
///
/// \param embedding The embedding, or NULL.
/// \return The number of URIs; 0 when `embedding` is NULL.
/// \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
///   freed.
/// \note Thread-safe (see `mcpr_embedding_blocks_json`).
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embedding_uri_count(embedding: *const mcpr_embedding) -> usize {
    guard(|| unsafe { handle_ref(embedding) }.map_or(0, |e| e.inner.outcomes().len()))
}

/// Why one URI gave what it gave, for the host: `MCPR_OK` when it gave
/// blocks, else the failure of its read or root checks (`MCPR_UNAVAILABLE`
/// for not found and root denials, `MCPR_INVALID_REQUEST` for an invalid
/// URI, `MCPR_BUDGET_EXCEEDED` when the embedding had no budget left for
/// it, `MCPR_POLICY`, ...). The client sees only the blocks: never tell it
/// which of these it was.
///
/// \param embedding The embedding, or NULL.
/// \param index The URI's index, below `mcpr_embedding_uri_count`.
/// \return The status; `MCPR_INVALID_ARGUMENT` when `embedding` is NULL or
///   `index` is out of range.
/// \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
///   freed.
/// \note Thread-safe (see `mcpr_embedding_blocks_json`).
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embedding_uri_status(
    embedding: *const mcpr_embedding,
    index: usize,
) -> mcpr_status {
    guard(
        || match unsafe { handle_ref(embedding) }.and_then(|e| e.outcome(index)) {
            None => mcpr_status::MCPR_INVALID_ARGUMENT,
            Some(EmbedOutcome::Failed(f)) => mcpr_status::of_kind(f.kind()),
            Some(_) => mcpr_status::MCPR_OK,
        },
    )
}

/// How many of the embedding's blocks one URI gave (its items, the warning
/// of a partial read included, and its links).
///
/// \param embedding The embedding, or NULL.
/// \param index The URI's index, below `mcpr_embedding_uri_count`.
/// \return The number of blocks; 0 for a URI that gave nothing, when
///   `embedding` is NULL and when `index` is out of range.
/// \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
///   freed.
/// \note Thread-safe (see `mcpr_embedding_blocks_json`).
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embedding_uri_block_count(
    embedding: *const mcpr_embedding,
    index: usize,
) -> usize {
    guard(
        || match unsafe { handle_ref(embedding) }.and_then(|e| e.outcome(index)) {
            Some(EmbedOutcome::Read { blocks, .. }) => *blocks,
            Some(EmbedOutcome::Linked) => 1,
            _ => 0,
        },
    )
}

/// How many of one URI's blocks are `resource_link` blocks: 1 for a URI
/// given as a link, the over-budget items given as links for a URI that
/// was read.
///
/// \param embedding The embedding, or NULL.
/// \param index The URI's index, below `mcpr_embedding_uri_count`.
/// \return The number of links; 0 when `embedding` is NULL and when
///   `index` is out of range.
/// \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
///   freed.
/// \note Thread-safe (see `mcpr_embedding_blocks_json`).
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embedding_uri_link_count(
    embedding: *const mcpr_embedding,
    index: usize,
) -> usize {
    guard(
        || match unsafe { handle_ref(embedding) }.and_then(|e| e.outcome(index)) {
            Some(EmbedOutcome::Read { links, .. }) => *links,
            Some(EmbedOutcome::Linked) => 1,
            _ => 0,
        },
    )
}

/// Whether one URI's read was partial (its first block is then the
/// diagnostic warning).
///
/// \param embedding The embedding, or NULL.
/// \param index The URI's index, below `mcpr_embedding_uri_count`.
/// \return True for a partial read; false otherwise, when `embedding` is
///   NULL and when `index` is out of range.
/// \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
///   freed.
/// \note Thread-safe (see `mcpr_embedding_blocks_json`).
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embedding_uri_is_partial(
    embedding: *const mcpr_embedding,
    index: usize,
) -> bool {
    guard(|| {
        matches!(
            unsafe { handle_ref(embedding) }.and_then(|e| e.outcome(index)),
            Some(EmbedOutcome::Read { partial: true, .. })
        )
    })
}

/// The private cause behind a URI that gave nothing, for the host's logs
/// only: never send it.
///
/// \param embedding The embedding, or NULL.
/// \param index The URI's index, below `mcpr_embedding_uri_count`.
/// \return The cause, borrowed from `embedding` (valid until
///   `mcpr_embedding_free(embedding)`); empty for a URI that gave blocks,
///   when there is none, when `embedding` is NULL and when `index` is out
///   of range.
/// \pre `embedding` is NULL or an embedding from `mcpr_embed`, not yet
///   freed.
/// \note Thread-safe (see `mcpr_embedding_blocks_json`).
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embedding_uri_cause(
    embedding: *const mcpr_embedding,
    index: usize,
) -> mcpr_str {
    guard(|| {
        unsafe { handle_ref(embedding) }
            .and_then(|e| e.causes.get(index))
            .map_or(mcpr_str::empty(), |c| mcpr_str::from_str(c))
    })
}

/// Frees an embedding.
///
/// \param embedding The embedding to free, or NULL (then nothing happens).
/// \pre `embedding` is NULL or an embedding from `mcpr_embed`, freed only
///   once; no thread uses it (or a string borrowed from it) afterwards.
/// \note Any thread may free it, once no other thread uses it.
///
/// \ingroup read
#[no_mangle]
pub unsafe extern "C" fn mcpr_embedding_free(embedding: *mut mcpr_embedding) {
    guard(|| unsafe { free_handle(embedding) })
}
