//! Game ids: 128 random bits, written as 22 URL-safe base64 characters, so that a game can be
//! opened only by whoever was given its id (sequential ids let anyone guess the next game).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

/// Characters in a game id: 128 bits in base64 without padding.
pub const ID_LEN: usize = 22;

/// A fresh id from the operating system's random source.
pub fn new_game_id() -> Result<String, getrandom::Error> {
    let mut bits = [0u8; 16];
    getrandom::fill(&mut bits)?;
    Ok(URL_SAFE_NO_PAD.encode(bits))
}

/// Whether `s` has the shape of an id (it may still name no game). Lets a malformed id be
/// refused without touching the store.
pub fn is_well_formed(s: &str) -> bool {
    s.len() == ID_LEN
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && URL_SAFE_NO_PAD.decode(s).is_ok_and(|bits| bits.len() == 16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_long_url_safe_and_distinct() {
        let ids: Vec<String> = (0..1000).map(|_| new_game_id().unwrap()).collect();
        assert!(ids.iter().all(|id| is_well_formed(id)), "{ids:?}");
        assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len());
    }

    #[test]
    fn malformed_ids_are_recognised() {
        for bad in [
            "",
            "1",
            "2",
            "abc",
            "AAAAAAAAAAAAAAAAAAAAA",
            "AAAAAAAAAAAAAAAAAAAAA+",
        ] {
            assert!(!is_well_formed(bad), "{bad}");
        }
        // 22 characters whose last one carries bits beyond the 128.
        assert!(!is_well_formed("AAAAAAAAAAAAAAAAAAAAAB"));
        assert!(is_well_formed("AAAAAAAAAAAAAAAAAAAAAA"));
    }
}
