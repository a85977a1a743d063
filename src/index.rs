//! The selection indexes: exact URIs in a hash table keyed by the
//! definitions' own text, templates by prefix, suffix and segment trie.

use rustc_hash::FxHashMap;

use crate::binding::ResourceBinding;
use crate::template::{RequestShape, Segment, Template};

/// Exact URIs to binding indices. The keys are the definitions' own URIs
/// (no copy is made): the table stores indices and hashes the URI of the
/// binding an index names.
pub(crate) struct ExactIndex {
    table: hashbrown::HashTable<u32>,
}

fn hash_uri(uri: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(uri)
}

impl ExactIndex {
    pub(crate) fn with_capacity(n: usize) -> Self {
        ExactIndex {
            table: hashbrown::HashTable::with_capacity(n),
        }
    }

    fn uri(bindings: &[ResourceBinding], i: u32) -> &str {
        bindings[i as usize].definition().uri_or_template()
    }

    /// Adds binding `i`; `false` when its URI is already present.
    pub(crate) fn insert(&mut self, bindings: &[ResourceBinding], i: usize) -> bool {
        let i = u32::try_from(i).expect("fewer than 2^32 bindings");
        let uri = Self::uri(bindings, i);
        let hash = hash_uri(uri);
        match self.table.entry(
            hash,
            |&j| Self::uri(bindings, j) == uri,
            |&j| hash_uri(Self::uri(bindings, j)),
        ) {
            hashbrown::hash_table::Entry::Occupied(_) => false,
            hashbrown::hash_table::Entry::Vacant(v) => {
                v.insert(i);
                true
            }
        }
    }

    pub(crate) fn get(&self, bindings: &[ResourceBinding], uri: &str) -> Option<usize> {
        self.table
            .find(hash_uri(uri), |&j| Self::uri(bindings, j) == uri)
            .map(|&j| j as usize)
    }
}

/// Templates indexed by prefix (scheme + authority), literal suffix and a
/// segment trie, so that selection cost does not grow with the number of
/// templates.
#[derive(Default)]
pub(crate) struct TemplateIndex {
    by_prefix: FxHashMap<String, FxHashMap<String, FxHashMap<usize, Node>>>,
}

#[derive(Default)]
struct Node {
    literal: FxHashMap<String, Node>,
    variable: Option<Box<Node>>,
    terminal: Vec<usize>,
}

impl TemplateIndex {
    pub(crate) fn insert(&mut self, t: &Template, binding: usize) {
        let mut node = self
            .by_prefix
            .entry(t.prefix().to_string())
            .or_default()
            .entry(t.suffix().to_string())
            .or_default()
            .entry(t.segments().len())
            .or_default();
        for seg in t.segments() {
            node = match seg {
                Segment::Literal(l) => node.literal.entry(l.clone()).or_default(),
                Segment::Variable(_) => node.variable.get_or_insert_with(Default::default),
            };
        }
        node.terminal.push(binding);
    }

    /// Writes up to two matching bindings into `out`; returns how many
    /// matched (capped at 2).
    pub(crate) fn find(&self, shape: &RequestShape<'_>, out: &mut [usize; 2]) -> usize {
        let Some(root) = self
            .by_prefix
            .get(shape.prefix)
            .and_then(|m| m.get(shape.suffix))
            .and_then(|m| m.get(&shape.segment_count()))
        else {
            return 0;
        };
        let mut n = 0;
        Self::walk(root, Some(shape.path), out, &mut n);
        n
    }

    /// `rest` is the unconsumed path (`None` once every segment is consumed).
    fn walk(node: &Node, rest: Option<&str>, out: &mut [usize; 2], n: &mut usize) {
        if *n >= 2 {
            return;
        }
        let Some(rest) = rest else {
            for &b in &node.terminal {
                if *n < 2 {
                    out[*n] = b;
                    *n += 1;
                }
            }
            return;
        };
        let (first, tail) = match rest.find('/') {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        if let Some(next) = node.literal.get(first) {
            Self::walk(next, tail, out, n);
        }
        if !first.is_empty() {
            if let Some(next) = &node.variable {
                Self::walk(next, tail, out, n);
            }
        }
    }
}
