//! Keyed hashes of identifiers in events (docs/BEHAVIOUR.md §19): a URI an
//! event may not name, and every list scope key, appear only as
//! HMAC-SHA256 under a key of the registry, cut to 128 bits.
//!
//! The key: HKDF-SHA256 (no salt, info `mcp-resources event hash v1`) of
//! the host's event key, else of its cursor key, else of 32 random bytes
//! made when the registry is built. Replicas configured with the same key
//! give the same hashes, and a host holding the key (or the registry)
//! computes the hash of any URI it wants to find in its logs
//! (`Resources::event_hash`, `mcpr_resources_event_hash`).

use std::fmt;

use hkdf::Hkdf;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use zeroize::Zeroizing;

/// The HKDF info label of the event hash key.
const INFO: &[u8] = b"mcp-resources event hash v1";

/// The keyed hash of an identifier in an event: the first 16 bytes of
/// HMAC-SHA256 under the registry's event hash key.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct EventHash(pub [u8; 16]);

impl EventHash {
    /// The 32 lowercase hex digits of the hash.
    pub fn to_hex(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for EventHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for EventHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EventHash({self})")
    }
}

/// Computes [`EventHash`]es under one registry's key.
#[derive(Clone)]
pub(crate) struct EventHasher {
    mac: Hmac<Sha256>,
}

impl EventHasher {
    /// The hasher of `key` (the host's event or cursor key), or of a
    /// random key when the host set neither.
    pub(crate) fn new(key: Option<&[u8]>) -> EventHasher {
        let random;
        let ikm: &[u8] = match key {
            Some(k) => k,
            None => {
                let mut k = Zeroizing::new([0u8; 32]);
                rand::RngCore::fill_bytes(&mut rand::rngs::OsRng, &mut *k);
                random = k;
                &*random
            }
        };
        let mut derived = Zeroizing::new([0u8; 32]);
        Hkdf::<Sha256>::new(None, ikm)
            .expand(INFO, &mut *derived)
            .expect("32 bytes is a valid HKDF-SHA256 length");
        EventHasher {
            mac: Hmac::<Sha256>::new_from_slice(&*derived).expect("HMAC takes any key length"),
        }
    }

    /// The hash of `bytes`.
    pub(crate) fn hash(&self, bytes: &[u8]) -> EventHash {
        let mut mac = self.mac.clone();
        mac.update(bytes);
        let full = mac.finalize().into_bytes();
        let mut out = [0u8; 16];
        out.copy_from_slice(&full[..16]);
        EventHash(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documented construction, computed independently.
    #[test]
    fn the_hash_is_hmac_sha256_under_the_hkdf_derived_key_cut_to_16_bytes() {
        let key = [7u8; 32];
        let mut k = [0u8; 32];
        Hkdf::<Sha256>::new(None, &key)
            .expand(INFO, &mut k)
            .unwrap();
        let mut mac = Hmac::<Sha256>::new_from_slice(&k).unwrap();
        mac.update(b"doc://a");
        let want = mac.finalize().into_bytes();
        let got = EventHasher::new(Some(&key)).hash(b"doc://a");
        assert_eq!(&got.0[..], &want[..16]);
        assert_eq!(got.to_hex().len(), 32);
    }

    #[test]
    fn the_same_key_agrees_and_random_keys_differ() {
        let a = EventHasher::new(Some(b"a shared key of the fleet, 32 b."));
        let b = EventHasher::new(Some(b"a shared key of the fleet, 32 b."));
        assert_eq!(a.hash(b"x://1"), b.hash(b"x://1"));
        assert_ne!(a.hash(b"x://1"), a.hash(b"x://2"));
        assert_ne!(
            EventHasher::new(None).hash(b"x://1"),
            EventHasher::new(None).hash(b"x://1")
        );
    }
}
