//! The learned evaluation's tables, per rule: one value per pattern code for each colour in
//! each role (to move, or waiting), and a tempo term. The weights are fitted by `wuzi tune`
//! from wuzi's own games and embedded in the binary (one text file per rule, versioned).
//!
//! File format (text, `#` comments and blank lines skipped):
//! ```text
//! wuzi-weights 1
//! rule renju
//! tempo <black to move> <white to move>
//! <table> <code> <value>      table: black-mover, black-waiter, white-mover, white-waiter,
//!                             black-attack, black-defence, white-attack, white-defence
//! ```
//! The last four are the move-ordering policy: a candidate's priority for the colour to move
//! is `attack[its code] + defence[the opponent's code there]`.
//! Codes not listed are worth 0.

use super::codes::{renju_black_dead, shapes_of, CODES};
use crate::rules::Rule;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The table a colour's codes are read from while that colour is to move.
pub const MOVER: usize = 0;
/// ... and while the other colour is to move.
pub const WAITER: usize = 1;
/// The policy table of the point's code for the side to move...
pub const ATTACK: usize = 0;
/// ... and of its code for the opponent.
pub const DEFENCE: usize = 1;
const TABLE_NAMES: [&str; 8] = [
    "black-mover",
    "black-waiter",
    "white-mover",
    "white-waiter",
    "black-attack",
    "black-defence",
    "white-attack",
    "white-defence",
];
/// Values beyond this are refused: a point worth more than a five means a broken fit.
pub const MAX_VALUE: i32 = 30_000;
const VERSION: &str = "wuzi-weights 1";

/// A rule's evaluation tables. The evaluation from the side to move's view is
/// `tempo[stm] + sum(tables[stm][MOVER][code]) - sum(tables[opp][WAITER][code])` over the
/// empty points, each colour's code read with that colour's shapes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub rule: Rule,
    pub tempo: [i32; 2],
    /// `[colour][role][code]`.
    pub tables: [[[i32; CODES]; 2]; 2],
    /// `[colour to move][ATTACK or DEFENCE][code]`.
    pub policy: [[[i32; CODES]; 2]; 2],
}

impl Weights {
    /// All zeros.
    pub fn zero(rule: Rule) -> Weights {
        Weights {
            rule,
            tempo: [0; 2],
            tables: [[[0; CODES]; 2]; 2],
            policy: [[[0; CODES]; 2]; 2],
        }
    }

    /// Parses a weights file; an error names the 1-based line.
    pub fn parse(text: &str) -> Result<Weights, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
            .filter(|(_, l)| !l.is_empty());
        let mut next = |what: &str| {
            lines
                .next()
                .ok_or_else(|| format!("weights: the file ends before the {what} line"))
        };
        let (n, head) = next("version")?;
        if head != VERSION {
            return Err(format!(
                "weights line {n}: expected \"{VERSION}\", got \"{head}\""
            ));
        }
        let (n, rule_line) = next("rule")?;
        let rule = match rule_line.strip_prefix("rule ") {
            Some(r) => r
                .trim()
                .parse::<Rule>()
                .map_err(|e| format!("weights line {n}: {e}"))?,
            None => return Err(format!("weights line {n}: expected \"rule <name>\"")),
        };
        let mut w = Weights::zero(rule);
        let (n, tempo) = next("tempo")?;
        let t: Vec<&str> = tempo.split_whitespace().collect();
        match t.as_slice() {
            ["tempo", b, wh] => {
                w.tempo = [value(n, b)?, value(n, wh)?];
            }
            _ => {
                return Err(format!(
                    "weights line {n}: expected \"tempo <black> <white>\""
                ))
            }
        }
        for (n, line) in lines {
            let f: Vec<&str> = line.split_whitespace().collect();
            let [table, code, v] = f.as_slice() else {
                return Err(format!(
                    "weights line {n}: expected \"<table> <code> <value>\""
                ));
            };
            let t = TABLE_NAMES
                .iter()
                .position(|name| name == table)
                .ok_or_else(|| format!("weights line {n}: unknown table \"{table}\""))?;
            let code: usize = code.parse().ok().filter(|&c| c < CODES).ok_or_else(|| {
                format!("weights line {n}: \"{code}\" is not a code below {CODES}")
            })?;
            let v = value(n, v)?;
            match t {
                0..=3 => w.tables[t / 2][t % 2][code] = v,
                _ => w.policy[(t - 4) / 2][t % 2][code] = v,
            }
        }
        w.clear_dead_codes();
        Ok(w)
    }

    /// Under renju a point Black may not play is worth nothing to Black (see
    /// [`renju_black_dead`]); a fit or a file cannot say otherwise.
    pub fn clear_dead_codes(&mut self) {
        if self.rule != Rule::Renju {
            return;
        }
        for code in 0..CODES {
            if shapes_of(code).is_some_and(renju_black_dead) {
                self.tables[0][MOVER][code] = 0;
                self.tables[0][WAITER][code] = 0;
            }
        }
    }

    /// The file text (non-zero entries only, each with its shapes as a comment).
    pub fn to_text(&self, header: &str) -> String {
        let mut s = String::new();
        for line in header.lines() {
            let _ = writeln!(s, "# {line}");
        }
        let _ = writeln!(s, "{VERSION}\nrule {}", self.rule.name());
        let _ = writeln!(s, "tempo {} {}", self.tempo[0], self.tempo[1]);
        for (t, name) in TABLE_NAMES.iter().enumerate() {
            for code in 0..CODES {
                let v = match t {
                    0..=3 => self.tables[t / 2][t % 2][code],
                    _ => self.policy[(t - 4) / 2][t % 2][code],
                };
                if v != 0 {
                    let shapes = shapes_of(code)
                        .map(|s| s.map(|x| x.name()).join(" "))
                        .unwrap_or_default();
                    let _ = writeln!(s, "{name} {code} {v} # {shapes}");
                }
            }
        }
        s
    }
}

fn value(line: usize, text: &str) -> Result<i32, String> {
    text.parse::<i32>()
        .ok()
        .filter(|v| v.abs() <= MAX_VALUE)
        .ok_or_else(|| {
            format!("weights line {line}: \"{text}\" is not a whole number within ±{MAX_VALUE}")
        })
}

const EMBEDDED: [(Rule, &str); 3] = [
    (Rule::Freestyle, include_str!("weights/freestyle.txt")),
    (Rule::Standard, include_str!("weights/standard.txt")),
    (Rule::Renju, include_str!("weights/renju.txt")),
];

/// The embedded weights of a rule, parsed once. A broken embedded file is a build defect
/// (a test parses every one), so it falls back to zeros rather than stopping the engine.
pub fn embedded(rule: Rule) -> &'static Weights {
    static PARSED: OnceLock<Vec<Weights>> = OnceLock::new();
    let all = PARSED.get_or_init(|| {
        EMBEDDED
            .iter()
            .map(|(r, text)| {
                Weights::parse(text)
                    .ok()
                    .filter(|w| w.rule == *r)
                    .unwrap_or_else(|| Weights::zero(*r))
            })
            .collect()
    });
    let i = EMBEDDED.iter().position(|(r, _)| *r == rule).unwrap_or(0);
    &all[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_files_parse_and_name_their_rule() {
        for (rule, text) in EMBEDDED {
            let w = Weights::parse(text).unwrap_or_else(|e| panic!("{rule:?}: {e}"));
            assert_eq!(w.rule, rule);
        }
    }

    #[test]
    fn text_round_trips_and_bad_files_are_errors() {
        let mut w = Weights::zero(Rule::Renju);
        w.tempo = [12, -3];
        w.tables[1][WAITER][77] = -40;
        w.tables[0][MOVER][5] = 9;
        w.policy[1][DEFENCE][1000] = 300;
        let text = w.to_text("test");
        assert_eq!(Weights::parse(&text), Ok(w));
        for bad in [
            "",
            "wuzi-weights 2\nrule renju\ntempo 0 0",
            "wuzi-weights 1\nrule go\ntempo 0 0",
            "wuzi-weights 1\nrule renju\ntempo 0",
            "wuzi-weights 1\nrule renju\ntempo 0 0\nblack-mover 1001 3",
            "wuzi-weights 1\nrule renju\ntempo 0 0\nblue-mover 1 3",
            "wuzi-weights 1\nrule renju\ntempo 0 0\nblack-mover 1 99999999",
            "wuzi-weights 1\nrule renju\ntempo 0 0\nblack-mover 1",
        ] {
            assert!(Weights::parse(bad).is_err(), "{bad}");
        }
    }
}
