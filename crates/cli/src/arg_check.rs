//! Checks of command-line values whose refusal clap's ranged parsers word badly: an open
//! range there reads "0 is not in 1..18446744073709551615".

use std::fmt::Display;
use std::str::FromStr;

/// A count or amount that must be 1 or more (`--games 0` once played a pair of games anyway).
pub fn at_least_one<T>(text: &str) -> Result<T, String>
where
    T: FromStr + PartialOrd + From<u8>,
    T::Err: Display,
{
    match text.parse::<T>() {
        Ok(n) if n < T::from(1) => Err("must be 1 or more".into()),
        Ok(n) => Ok(n),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::at_least_one;

    #[test]
    fn zero_and_junk_are_refused_in_words() {
        assert_eq!(at_least_one::<u64>("0"), Err("must be 1 or more".into()));
        assert_eq!(at_least_one::<u32>("7"), Ok(7));
        assert_eq!(
            at_least_one::<usize>("18446744073709551615"),
            Ok(usize::MAX)
        );
        assert!(at_least_one::<u32>("-1").is_err());
        assert!(at_least_one::<u64>("x").is_err());
    }
}
