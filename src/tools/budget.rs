//! The budget of an embedding: the URIs of one tool result share the
//! budgets of one read (docs/BEHAVIOUR.md §16).
//!
//! A tool result is one message, bounded as a read result is: at most
//! `max_payload_bytes` of payload, `max_items` items and
//! `max_encoded_bytes` minus the 8 KiB wire reserve and the 256-byte
//! envelope of JSON. Each URI is read under the registry's limits lowered
//! to what the URIs before it left ([`Limits::within`]), so the read's own
//! admission decides what fits (the same `budget_exceeded` issues, the same
//! partial report), and what it used is charged afterwards. A URI whose
//! share cannot hold a read at all (the rules between limits: the report's
//! reserves, the wire reserve, one item) is over budget as a whole.
//!
//! The lowered encoded limit leaves room for what the embedding adds to
//! each item (the block wrapper, at most [`WRAPPER_BYTES`]) and for every
//! copy of the items it writes (`copies`: 1 for blocks only, 2 when the
//! items are also the tool's structured content), so that the items of a
//! read, wrapped and copied, never exceed what is left.

use crate::limits::{Limits, CONFIG_OVERHEAD_BYTES, WIRE_RESERVE_BYTES};

/// What an embedded resource block adds to its item:
/// `{"type":"resource","resource":` … `}` and a separator.
pub(crate) const WRAPPER_BYTES: u64 = 31;

/// What is left of an embedding's budgets.
pub(crate) struct Budget {
    payload_left: u64,
    encoded_left: u64,
    items_left: usize,
    copies: u64,
}

impl Budget {
    /// The budgets of one read, for an embedding writing its items `copies`
    /// times.
    pub(crate) fn new(limits: &Limits, copies: u64) -> Budget {
        Budget {
            payload_left: limits.max_payload_bytes,
            encoded_left: Self::total_encoded(limits),
            items_left: limits.max_items,
            copies: copies.max(1),
        }
    }

    /// The encoded bytes the whole embedding may use.
    pub(crate) fn total_encoded(limits: &Limits) -> u64 {
        limits.max_encoded_bytes - WIRE_RESERVE_BYTES - CONFIG_OVERHEAD_BYTES
    }

    /// The limits the next URI is read under, or `None` when what is left
    /// cannot hold a read.
    pub(crate) fn limits_for(&self, limits: &Limits) -> Option<Limits> {
        if self.items_left == 0 {
            return None;
        }
        // Every item and the warning may be wrapped.
        let items = limits.max_items.min(self.items_left) as u64 + 1;
        let room = self
            .encoded_left
            .checked_sub(items.saturating_mul(WRAPPER_BYTES))?
            / self.copies;
        limits.within(
            self.payload_left,
            room.saturating_add(WIRE_RESERVE_BYTES),
            self.items_left,
        )
    }

    /// Charges what one URI used: application payload bytes, application
    /// items and the encoded bytes written for it.
    pub(crate) fn charge(&mut self, payload: u64, items: usize, encoded: u64) {
        self.payload_left = self.payload_left.saturating_sub(payload);
        self.items_left = self.items_left.saturating_sub(items);
        self.encoded_left = self.encoded_left.saturating_sub(encoded);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{Limit, ResourceLimits};

    #[test]
    fn the_first_uri_of_a_blocks_only_embedding_keeps_the_registry_budgets_but_room_for_wrappers() {
        let limits = Limits::default();
        let b = Budget::new(&limits, 1);
        let l = b.limits_for(&limits).unwrap();
        assert_eq!(l.max_payload_bytes, limits.max_payload_bytes);
        assert_eq!(l.max_items, limits.max_items);
        assert_eq!(
            l.max_encoded_bytes,
            limits.max_encoded_bytes - CONFIG_OVERHEAD_BYTES - 65 * WRAPPER_BYTES
        );
        // Never raised.
        assert!(l.max_item_bytes == limits.max_item_bytes);
    }

    #[test]
    fn two_copies_halve_the_encoded_share() {
        let limits = Limits::default();
        let l = Budget::new(&limits, 2).limits_for(&limits).unwrap();
        let room = (Budget::total_encoded(&limits) - 65 * WRAPPER_BYTES) / 2;
        assert_eq!(l.max_encoded_bytes, room + WIRE_RESERVE_BYTES);
    }

    #[test]
    fn what_is_used_lowers_the_next_share_until_none_is_left() {
        let limits = ResourceLimits::new()
            .with(Limit::MaxItems, 3)
            .resolve()
            .unwrap();
        let mut b = Budget::new(&limits, 1);
        b.charge(1000, 2, 5000);
        let l = b.limits_for(&limits).unwrap();
        assert_eq!(l.max_items, 1);
        assert_eq!(l.max_payload_bytes, limits.max_payload_bytes - 1000);
        b.charge(0, 1, 0);
        assert!(b.limits_for(&limits).is_none());
        let mut b = Budget::new(&limits, 1);
        b.charge(limits.max_payload_bytes - limits.report_payload_bytes, 0, 0);
        assert!(
            b.limits_for(&limits).is_none(),
            "no payload left past the report's reserve"
        );
        let mut b = Budget::new(&limits, 1);
        b.charge(0, 0, Budget::total_encoded(&limits) - 1000);
        assert!(b.limits_for(&limits).is_none(), "no room for a report");
    }
}
