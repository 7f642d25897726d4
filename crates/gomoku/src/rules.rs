//! The three rule sets and what counts as a five under each.

use std::fmt;
use std::str::FromStr;
use wuzi_search::Player;

/// Which rule decides what wins and what is forbidden.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rule {
    /// Five or more in a row wins, for both colours.
    #[default]
    Freestyle,
    /// Exactly five wins, for both colours; six or more is just stones.
    Standard,
    /// White wins with five or more; Black only with exactly five, and Black's double-three,
    /// double-four and overline lose (unless the same move makes an exact five).
    Renju,
}

impl Rule {
    pub const ALL: [Rule; 3] = [Rule::Freestyle, Rule::Standard, Rule::Renju];

    /// True when `colour` needs exactly five (six or more does not win).
    pub fn exact_five(self, colour: Player) -> bool {
        match self {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => colour == Player::First,
        }
    }

    /// True when `colour` has forbidden moves under this rule.
    pub fn has_fouls(self, colour: Player) -> bool {
        self == Rule::Renju && colour == Player::First
    }

    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rule {
    type Err = String;

    fn from_str(s: &str) -> Result<Rule, String> {
        match s.to_ascii_lowercase().as_str() {
            "freestyle" | "free" => Ok(Rule::Freestyle),
            "standard" | "exact" | "exactly-five" => Ok(Rule::Standard),
            "renju" => Ok(Rule::Renju),
            _ => Err(format!(
                "unknown rule \"{s}\" (expected freestyle, standard or renju)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for r in Rule::ALL {
            assert_eq!(r.name().parse::<Rule>().unwrap(), r);
        }
        assert!("gomoku".parse::<Rule>().is_err());
        assert!(Rule::Renju.exact_five(Player::First));
        assert!(!Rule::Renju.exact_five(Player::Second));
        assert!(Rule::Standard.exact_five(Player::Second));
    }
}
