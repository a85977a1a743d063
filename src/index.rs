//! The selection indexes: exact URIs in a hash table keyed by the
//! definitions' own text; templates by root (prefix, suffix, segment
//! count), group (which segments are variables) and literal segments, in
//! flat tables.

use crate::binding::ResourceBinding;
use crate::template::{RequestShape, TemplateRef};

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

/// Templates indexed so that selection cost does not grow with their
/// number.
///
/// Templates are grouped by prefix (scheme + authority), suffix, segment
/// count and which segments are variables (a *group*); inside a group a
/// template is known by its literal segments, so one hash lookup per group
/// finds the template a URI matches, if any. The groups of one prefix,
/// suffix and count form a list under a *root*. Two templates in one group
/// with the same literals have the same shape (they match the same URIs),
/// which the index refuses.
///
/// Flat: roots, groups and templates are records in two hash tables and
/// one vector, keyed by text they find in the templates themselves (through
/// the binding indices they hold); registering a template allocates
/// nothing of its own.
#[derive(Default)]
pub(crate) struct TemplateIndex {
    /// Keyed by (prefix, suffix, segment count).
    roots: hashbrown::HashTable<Root>,
    groups: Vec<Group>,
    /// Keyed by (group, literal segments).
    entries: hashbrown::HashTable<Entry>,
}

/// No group.
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Root {
    /// Its key's hash (see [`widen`]): growing the table rehashes without
    /// visiting templates.
    hash: u32,
    /// A binding whose template has the root's prefix, suffix and count.
    binding: u32,
    /// The root's first group; each group names the next.
    first: u32,
}

#[derive(Clone, Copy)]
struct Group {
    /// A binding whose template has the group's variable segments.
    binding: u32,
    next: u32,
}

#[derive(Clone, Copy)]
struct Entry {
    /// Its key's hash (see [`widen`]).
    hash: u32,
    group: u32,
    binding: u32,
}

/// The table hash of a key whose 32-bit hash is `h`. Entries keep `h`, so
/// that growing a table needs no template (they are scattered on the heap).
#[inline]
fn widen(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// 32 bits of a finished hash.
#[inline]
fn narrow(h: u64) -> u32 {
    (h >> 32) as u32
}

/// The template of binding `i` (only template bindings are indexed).
fn template(bindings: &[ResourceBinding], i: u32) -> TemplateRef<'_> {
    bindings[i as usize]
        .definition()
        .template()
        .expect("indexed bindings have templates")
}

fn hash_root(prefix: &str, suffix: &str, segments: usize) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write(prefix.as_bytes());
    h.write_u8(0xff);
    h.write(suffix.as_bytes());
    h.write_usize(segments);
    h.finish()
}

/// Whether a template's segment is a variable (`{name}`).
fn is_variable(segment: &str) -> bool {
    segment.as_bytes().first() == Some(&b'{')
}

/// Hashes a group and the literal segments of `segments` (those at which
/// `variable` is false), each followed by a byte no UTF-8 text holds.
fn hash_entry<'a>(group: u32, segments: impl Iterator<Item = (&'a str, bool)>) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write_u32(group);
    for (segment, variable) in segments {
        if !variable {
            h.write(segment.as_bytes());
            h.write_u8(0xff);
        }
    }
    h.finish()
}

/// The segments of a template, each with whether it is a variable.
fn template_segments(t: TemplateRef<'_>) -> impl Iterator<Item = (&str, bool)> + Clone {
    t.path_segments().map(|s| (s, is_variable(s)))
}

/// The segments of a request path, each with whether the group's template
/// has a variable there.
fn request_segments<'a>(
    segments: &'a [&'a str],
    group: TemplateRef<'a>,
) -> impl Iterator<Item = (&'a str, bool)> + Clone {
    segments
        .iter()
        .zip(group.path_segments())
        .map(|(s, g)| (*s, is_variable(g)))
}

/// Request paths split into at most this many segments stay on the stack.
const STACK_SEGMENTS: usize = 32;

impl TemplateIndex {
    /// An empty index with room for `n` templates.
    pub(crate) fn with_capacity(n: usize) -> Self {
        TemplateIndex {
            roots: hashbrown::HashTable::with_capacity(n),
            groups: Vec::with_capacity(n),
            entries: hashbrown::HashTable::with_capacity(n),
        }
    }

    fn root(
        &self,
        bindings: &[ResourceBinding],
        prefix: &str,
        suffix: &str,
        count: usize,
    ) -> Option<&Root> {
        let short = narrow(hash_root(prefix, suffix, count));
        self.roots.find(widen(short), |r| {
            // Templates are visited only when the stored hash agrees.
            r.hash == short && {
                let t = template(bindings, r.binding);
                t.segment_count() == count && t.prefix() == prefix && t.suffix() == suffix
            }
        })
    }

    /// Adds template `t` of binding `binding`, given `bindings`;
    /// `Err(other)` when binding `other` already has a template of the same
    /// shape (nothing is added).
    pub(crate) fn insert(
        &mut self,
        bindings: &[ResourceBinding],
        t: TemplateRef<'_>,
        binding: usize,
    ) -> Result<(), usize> {
        let binding = u32::try_from(binding).expect("fewer than 2^32 bindings");
        let (prefix, suffix, count) = (t.prefix(), t.suffix(), t.segment_count());
        // The root, made below if new (its binding is the one being added).
        // One probe serves both the lookup and the update.
        let short_root = narrow(hash_root(prefix, suffix, count));
        let root = self.roots.find_mut(widen(short_root), |r| {
            // Templates are visited only when the stored hash agrees.
            r.hash == short_root && {
                let o = template(bindings, r.binding);
                o.segment_count() == count && o.prefix() == prefix && o.suffix() == suffix
            }
        });
        let first = root.as_ref().map_or(NONE, |r| r.first);
        // The group with the same variable segments, made if new.
        let mut group = first;
        while group != NONE {
            let g = template(bindings, self.groups[group as usize].binding);
            let same = g
                .path_segments()
                .zip(t.path_segments())
                .all(|(a, b)| is_variable(a) == is_variable(b));
            if same {
                break;
            }
            group = self.groups[group as usize].next;
        }
        if group == NONE {
            group = u32::try_from(self.groups.len()).expect("fewer than 2^32 groups");
            self.groups.push(Group {
                binding,
                next: first,
            });
            match root {
                Some(r) => r.first = group,
                None => {
                    let root = Root {
                        hash: short_root,
                        binding,
                        first: group,
                    };
                    self.roots
                        .insert_unique(widen(short_root), root, |r| widen(r.hash));
                }
            }
        }
        let short = narrow(hash_entry(group, template_segments(t)));
        let entry = self.entries.entry(
            widen(short),
            |e| {
                e.hash == short
                    && e.group == group
                    && template_segments(template(bindings, e.binding))
                        .zip(template_segments(t))
                        .all(|(a, b)| a.1 || a.0 == b.0)
            },
            |e| widen(e.hash),
        );
        match entry {
            hashbrown::hash_table::Entry::Occupied(e) => Err(e.get().binding as usize),
            hashbrown::hash_table::Entry::Vacant(v) => {
                v.insert(Entry {
                    hash: short,
                    group,
                    binding,
                });
                Ok(())
            }
        }
    }

    /// Writes up to two matching bindings into `out`; returns how many
    /// matched (capped at 2).
    pub(crate) fn find(
        &self,
        bindings: &[ResourceBinding],
        shape: &RequestShape<'_>,
        out: &mut [usize; 2],
    ) -> usize {
        let count = shape.segment_count();
        let Some(root) = self.root(bindings, shape.prefix, shape.suffix, count) else {
            return 0;
        };
        let mut on_stack = [""; STACK_SEGMENTS];
        let on_heap: Vec<&str>;
        let segments: &[&str] = if count <= STACK_SEGMENTS {
            for (slot, s) in on_stack.iter_mut().zip(shape.segments()) {
                *slot = s;
            }
            &on_stack[..count]
        } else {
            on_heap = shape.segments().collect();
            &on_heap
        };
        let mut n = 0;
        let mut group = root.first;
        while group != NONE && n < 2 {
            let g = self.groups[group as usize];
            let gt = template(bindings, g.binding);
            // A variable matches a non-empty segment only.
            let fits =
                request_segments(segments, gt).all(|(s, variable)| !variable || !s.is_empty());
            if fits {
                let short = narrow(hash_entry(group, request_segments(segments, gt)));
                let found = self.entries.find(widen(short), |e| {
                    e.hash == short
                        && e.group == group
                        && template_segments(template(bindings, e.binding))
                            .zip(segments)
                            .all(|(a, s)| a.1 || a.0 == *s)
                });
                if let Some(e) = found {
                    out[n] = e.binding as usize;
                    n += 1;
                }
            }
            group = g.next;
        }
        n
    }
}
