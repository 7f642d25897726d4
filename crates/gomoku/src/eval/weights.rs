//! The learned evaluation's tables, per rule: one value per pattern code for each colour in
//! each role (to move, or waiting), and a tempo term; and the move-ordering policy (see
//! [`Policy`]). The weights are fitted by `wuzi tune` from wuzi's own games and embedded in the
//! binary (one text file per rule, versioned).
//!
//! File format (text, `#` comments and blank lines skipped):
//! ```text
//! wuzi-weights 4
//! rule renju
//! tempo <black to move> <white to move>
//! <table> <index> <value>     table: black-mover, black-waiter, white-mover, white-waiter,
//!                             black-attack, black-defence, white-attack, white-defence
//!                             (index: a code); black-near-them, black-near-us,
//!                             white-near-them, white-near-us (index below 224), black-combo,
//!                             white-combo (index below 784), black-local, white-local
//!                             (index below 49), black-state-attack, black-state-defence,
//!                             white-state-attack, white-state-defence (index below 448)
//! end <number of table lines>
//! ```
//! The tables from `black-attack` on are the move-ordering policy, by the colour to move.
//! From version 3 on, `tempo` and the evaluation tables (`*-mover`, `*-waiter`) are in
//! sixteenths of an evaluation unit ([`EVAL_FRACTION`]). The most common codes (quiet points
//! far from threats) occur a hundred times in a position, so whole units were too coarse a
//! grid for them: one unit on one of them moves the evaluation by a hundred.
//! Entries not listed are worth 0; from version 4 on an entry listed twice is an error, and the
//! file closes with an `end` line that counts the table lines, so a file cut short (a copy
//! that stopped, an editor that lost its tail) is an error instead of a quietly weaker
//! evaluation. Version 1 files (no near or combo tables), version 2 files (whole evaluation
//! units) and version 3 files (no `end` line) still load.
use super::codes::{code_of, renju_black_dead, shapes_of, CODES};
use super::policy::{Policy, CLASSES, COMBOS, LOCAL, NEARS, STATE_ENTRIES};
use crate::pattern::Shape;
use crate::rules::Rule;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::ops::RangeInclusive;
use std::sync::{Arc, OnceLock};

/// The table a colour's codes are read from while that colour is to move.
pub const MOVER: usize = 0;
/// ... and while the other colour is to move.
pub const WAITER: usize = 1;
const TABLE_NAMES: [&str; 20] = [
    "black-mover",
    "black-waiter",
    "white-mover",
    "white-waiter",
    "black-attack",
    "black-defence",
    "white-attack",
    "white-defence",
    "black-near-them",
    "black-near-us",
    "white-near-them",
    "white-near-us",
    "black-combo",
    "white-combo",
    "black-local",
    "white-local",
    "black-state-attack",
    "black-state-defence",
    "white-state-attack",
    "white-state-defence",
];

/// How many entries table `t` of [`TABLE_NAMES`] has.
fn table_len(t: usize) -> usize {
    match t {
        0..=7 => CODES,
        8..=11 => NEARS,
        12..=13 => COMBOS,
        14..=15 => LOCAL,
        _ => STATE_ENTRIES,
    }
}

/// The shape groups [`Weights::scale_shape`] scales: a code belongs to the group of its
/// strongest line shape.
pub const SCALABLE_SHAPES: RangeInclusive<Shape> = Shape::One..=Shape::Four;

/// The group of `code` for [`Weights::scale_shape`]: its strongest shape, if that is one of
/// [`SCALABLE_SHAPES`] and the code has no overline.
fn shape_group(code: usize) -> Option<Shape> {
    let shapes = shapes_of(code)?;
    let strongest = shapes.into_iter().max()?;
    (SCALABLE_SHAPES.contains(&strongest) && !shapes.contains(&Shape::Overline))
        .then_some(strongest)
}

/// `value` times `factor`, rounded to nearest (halves away from zero) and held within the
/// evaluation tables' range.
fn scaled(value: i32, factor: f64) -> i32 {
    let limit = f64::from(MAX_VALUE * EVAL_FRACTION);
    (f64::from(value) * factor).round().clamp(-limit, limit) as i32
}

/// Values beyond this are refused: a point worth more than a five means a broken fit (in
/// whole units; [`EVAL_FRACTION`] times this for the evaluation tables).
pub const MAX_VALUE: i32 = 30_000;
/// The evaluation tables and tempo are kept in this fraction of an evaluation unit: the
/// evaluation is their sum divided by it, rounded to nearest (a shift).
pub const EVAL_FRACTION_BITS: u32 = 4;
pub const EVAL_FRACTION: i32 = 1 << EVAL_FRACTION_BITS;
const VERSION: &str = "wuzi-weights 4";
/// Older versions this one reads (versions 1 and 2 in whole evaluation units; none of them
/// has an `end` line).
const OLD_VERSIONS: [&str; 3] = ["wuzi-weights 1", "wuzi-weights 2", "wuzi-weights 3"];
/// The last version without an `end` line (its tables already in sixteenths,
/// [`EVAL_FRACTION`]).
const LAST_WITHOUT_END: &str = "wuzi-weights 3";

/// A rule's evaluation tables. The evaluation from the side to move's view is
/// `tempo[stm] + sum(tables[stm][code][MOVER]) - sum(tables[opp][code][WAITER])` over the
/// empty points, each colour's code read with that colour's shapes, divided by
/// [`EVAL_FRACTION`] and rounded to nearest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub rule: Rule,
    /// In sixteenths of a unit, as the tables.
    pub tempo: [i32; 2],
    /// `[colour][code][role]` (role `MOVER` or `WAITER`), in sixteenths of a unit.
    pub tables: [[[i32; 2]; CODES]; 2],
    /// The move-ordering policy.
    pub policy: Policy,
}

/// The board the tables are fitted on: self-play games are 15x15 (`wuzi selfplay`).
pub const FITTED_SIZE: usize = 15;

impl Weights {
    /// The tempo to play with on a `size` board, in sixteenths, by the colour to move.
    ///
    /// Every empty point far from the stones has the same code (room for five in every
    /// direction: four "one" lines), and its mover and waiter values differ a little (in the
    /// freestyle tables, 18 sixteenths for Black to move). Fitted on 15x15, that difference is
    /// part of the side to move's edge; summed over the extra open points of a larger board it
    /// grew with the board (after h8, White's best reply -126 on 15x15, -323 on 20x20). So the
    /// tempo takes it back for every point the board has beyond (or short of) 15x15, and any
    /// position scores as it would on the board the tables know. Worth +86 ± 19 Elo on 20x20
    /// (docs/measurements.md); on 15x15 the tempo is the fitted one.
    pub fn tempo_on(&self, size: usize) -> [i32; 2] {
        let open = code_of([Shape::One; 4]);
        let extra = (size * size) as i32 - (FITTED_SIZE * FITTED_SIZE) as i32;
        [0, 1].map(|me| {
            let edge = self.tables[me][open][MOVER] - self.tables[1 - me][open][WAITER];
            self.tempo[me] - extra * edge
        })
    }

    /// All zeros.
    pub fn zero(rule: Rule) -> Weights {
        Weights {
            rule,
            tempo: [0; 2],
            tables: [[[0; 2]; CODES]; 2],
            policy: Policy::zero(),
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
                .ok_or_else(|| format!("the file ends before the {what} line"))
        };
        let (n, head) = next("version")?;
        if head != VERSION && !OLD_VERSIONS.contains(&head) {
            return Err(format!(
                "weights line {n}: expected \"{VERSION}\", got \"{head}\""
            ));
        }
        // What a file's evaluation value is in sixteenths.
        let eval_step = if head == VERSION || head == LAST_WITHOUT_END {
            1
        } else {
            EVAL_FRACTION
        };
        let needs_end = head == VERSION;
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
                w.tempo = [eval_value(n, b, eval_step)?, eval_value(n, wh, eval_step)?];
            }
            _ => {
                return Err(format!(
                    "weights line {n}: expected \"tempo <black> <white>\""
                ))
            }
        }
        // The line each entry was given on, to refuse a second one.
        let mut given: HashMap<(usize, usize), usize> = HashMap::new();
        let mut end = None;
        for (n, line) in lines {
            if let Some(count) = end_line(line) {
                if !needs_end {
                    return Err(format!(
                        "weights line {n}: an end line in a \"{head}\" file (new in \"{VERSION}\")"
                    ));
                }
                if end.is_some() {
                    return Err(format!("weights line {n}: a second end line"));
                }
                let count: usize = count.parse().map_err(|_| {
                    format!("weights line {n}: expected \"end <number of table lines>\"")
                })?;
                end = Some((n, count));
                continue;
            }
            if let Some((end_n, _)) = end {
                return Err(format!(
                    "weights line {n}: a table line after the end line (line {end_n})"
                ));
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            let [table, code, v] = f.as_slice() else {
                return Err(format!(
                    "weights line {n}: expected \"<table> <index> <value>\""
                ));
            };
            let t = TABLE_NAMES
                .iter()
                .position(|name| name == table)
                .ok_or_else(|| format!("weights line {n}: unknown table \"{table}\""))?;
            let len = table_len(t);
            let code: usize = code.parse().ok().filter(|&c| c < len).ok_or_else(|| {
                format!("weights line {n}: \"{code}\" is not an index below {len}")
            })?;
            // Versions before 4 loaded a repeated entry (the last one counted): they still do.
            if let Some(first) = given.insert((t, code), n).filter(|_| needs_end) {
                return Err(format!(
                    "weights line {n}: {table} {code} was already given on line {first}"
                ));
            }
            *w.entry(t, code) = if t < 4 {
                eval_value(n, v, eval_step)?
            } else {
                value(n, v)?
            };
        }
        if needs_end {
            match end {
                None => {
                    return Err(format!(
                        "the file ends before its end line, after {} table lines: \
                         it was cut short",
                        given.len()
                    ))
                }
                Some((n, count)) if count != given.len() => {
                    return Err(format!(
                        "weights line {n}: the end line counts {count} table lines, the file \
                         has {}",
                        given.len()
                    ))
                }
                Some(_) => {}
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
                self.tables[0][code] = [0; 2];
            }
        }
    }

    /// Multiplies every side-to-move (`MOVER`) and waiting-side (`WAITER`) table value by a
    /// factor, rounded to the nearest sixteenth (halves away from zero) and held within the
    /// file's range. A fit lands near, not on, the balance between the two sums that plays
    /// best; this is the step that moves it (`wuzi tune --mover-factor`, `--waiter-factor`).
    pub fn scale_sides(&mut self, mover: f64, waiter: f64) {
        for colour in self.tables.iter_mut() {
            for values in colour.iter_mut() {
                for (role, factor) in [(MOVER, mover), (WAITER, waiter)] {
                    values[role] = scaled(values[role], factor);
                }
            }
        }
    }

    /// Multiplies one role's values (`MOVER` or `WAITER`, both colours) for the codes whose
    /// strongest line shape is `shape` (and, if `second` is given, whose second strongest
    /// line shape is that one: `open-three+open-two`, a point making two threats), rounded as
    /// [`Weights::scale_sides`] rounds. The finer step of the same balance: a match-tuned
    /// factor per shape group (`wuzi tune --shape-factor`). Only the groups
    /// [`SCALABLE_SHAPES`] name are scaled; a code with a four-four, an open four, a five or
    /// an overline decides the game within a move or two, so the search, not its value,
    /// settles it.
    pub fn scale_shape(&mut self, role: usize, shape: Shape, second: Option<Shape>, factor: f64) {
        for colour in self.tables.iter_mut() {
            for (code, values) in colour.iter_mut().enumerate() {
                let second_matches = second.is_none() || shapes_of(code).map(|c| c[2]) == second;
                if shape_group(code) == Some(shape) && second_matches {
                    values[role] = scaled(values[role], factor);
                }
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
        let mut copy = self.clone();
        let mut entries = 0;
        for (t, name) in TABLE_NAMES.iter().enumerate() {
            for i in 0..table_len(t) {
                let v = *copy.entry(t, i);
                if v == 0 {
                    continue;
                }
                let what = match t {
                    0..=7 => shapes_of(i)
                        .map(|s| s.map(|x| x.name()).join(" "))
                        .unwrap_or_default(),
                    8..=11 => {
                        let n = i / CLASSES;
                        format!(
                            "distance {}{}{}, class {}",
                            n % 4 + 1,
                            if n % 4 == 3 { "+" } else { "" },
                            if n >= 4 { " on a line" } else { "" },
                            i % CLASSES
                        )
                    }
                    12..=13 => {
                        format!(
                            "attack class {}, defence class {}",
                            i / CLASSES,
                            i % CLASSES
                        )
                    }
                    14..=15 => format!("{} of ours, {} of theirs around", i / 7, i % 7),
                    _ => format!(
                        "threat level ours {}, theirs {}, class {}",
                        i / CLASSES / 4,
                        i / CLASSES % 4,
                        i % CLASSES
                    ),
                };
                let _ = writeln!(s, "{name} {i} {v} # {what}");
                entries += 1;
            }
        }
        let _ = writeln!(s, "end {entries}");
        s
    }

    /// Entry `i` of table `t` of [`TABLE_NAMES`].
    fn entry(&mut self, t: usize, i: usize) -> &mut i32 {
        match t {
            0..=3 => &mut self.tables[t / 2][i][t % 2],
            4..=7 => &mut self.policy.codes[(t - 4) / 2][t % 2][i],
            8..=11 => &mut self.policy.near[(t - 8) / 2][t % 2][i],
            12..=13 => &mut self.policy.combo[t - 12][i],
            14..=15 => &mut self.policy.local[t - 14][i],
            _ => &mut self.policy.state[(t - 16) / 2][t % 2][i],
        }
    }
}

/// What follows `end` on an end line, if the line is one.
fn end_line(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("end")?;
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then(|| rest.trim())
}

/// An evaluation value of a file line, in sixteenths (`step`: what one of the file's
/// values is in sixteenths).
fn eval_value(line: usize, text: &str, step: i32) -> Result<i32, String> {
    bounded(line, text, step, MAX_VALUE * EVAL_FRACTION)
}

/// A policy value of a file line.
fn value(line: usize, text: &str) -> Result<i32, String> {
    bounded(line, text, 1, MAX_VALUE)
}

/// A file value times `step`, refused beyond `limit` (in the scaled units).
fn bounded(line: usize, text: &str, step: i32, limit: i32) -> Result<i32, String> {
    text.parse::<i32>()
        .ok()
        .and_then(|v| v.checked_mul(step))
        .filter(|v| (-limit..=limit).contains(v))
        .ok_or_else(|| {
            format!(
                "weights line {line}: \"{text}\" is not a whole number within ±{}",
                limit / step
            )
        })
}

/// The embedded weights files, by rule.
pub(super) const EMBEDDED: [(Rule, &str); 3] = [
    (Rule::Freestyle, include_str!("weights/freestyle.txt")),
    (Rule::Standard, include_str!("weights/standard.txt")),
    (Rule::Renju, include_str!("weights/renju.txt")),
];

/// The embedded weights of a rule, parsed once and shared by every board. A broken embedded
/// file is a build defect (a test parses every one), so it falls back to zeros rather than
/// stopping the engine.
pub fn embedded(rule: Rule) -> Arc<Weights> {
    static PARSED: OnceLock<Vec<Arc<Weights>>> = OnceLock::new();
    let all = PARSED.get_or_init(|| {
        EMBEDDED
            .iter()
            .map(|(r, text)| {
                Arc::new(
                    Weights::parse(text)
                        .ok()
                        .filter(|w| w.rule == *r)
                        .unwrap_or_else(|| Weights::zero(*r)),
                )
            })
            .collect()
    });
    let i = EMBEDDED.iter().position(|(r, _)| *r == rule).unwrap_or(0);
    Arc::clone(&all[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{DEFENCE, LAST_US};

    const FREESTYLE: &str = include_str!("weights/freestyle.txt");

    /// The real file's lines (0-based) that are not blank or comments: the version, rule and
    /// tempo lines, then the table entries.
    fn content_lines() -> Vec<usize> {
        (FREESTYLE.lines().enumerate())
            .filter(|(_, l)| !l.split('#').next().unwrap_or("").trim().is_empty())
            .map(|(i, _)| i)
            .collect()
    }

    fn with_line(i: usize, new: Option<&str>) -> String {
        let mut lines: Vec<&str> = FREESTYLE.lines().collect();
        match new {
            Some(line) => lines[i] = line,
            None => drop(lines.remove(i)),
        }
        lines.join("\n")
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

        /// Any text, alone or after a valid head: weights or an error, never a panic.
        #[test]
        fn no_text_makes_the_weights_parser_panic(
            text in "\\PC{0,200}",
            lines in proptest::collection::vec(
                "(black|white)-(mover|waiter|combo|local|near-us) -?[0-9]{1,12} -?[0-9]{1,12}",
                0..6,
            ),
        ) {
            let _ = Weights::parse(&text);
            for version in [3, 4] {
                let head = format!("wuzi-weights {version}\nrule renju\ntempo 0 0\n");
                let _ = Weights::parse(&format!("{head}{text}"));
                let _ = Weights::parse(&format!("{head}{}", lines.join("\n")));
                let _ = Weights::parse(&format!("{head}{}\nend {}", lines.join("\n"), lines.len()));
                let _ = Weights::parse(&format!("{head}end {text}"));
            }
        }
    }

    proptest::proptest! {
        // Each case parses the 8,300-line file three times: 64 cases took 3 to 4 s in debug.
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(32))]

        /// The real file with one field of one line replaced by a number out of range or by
        /// something that is no number: an error. With any one line deleted: an error too
        /// (the end line counts the table lines).
        #[test]
        fn a_broken_copy_of_a_real_file_is_an_error(
            at in proptest::prelude::any::<proptest::sample::Index>(),
            field in 0usize..3,
            bad in proptest::sample::select(vec![
                "99999999999", "2147483648", "-2147483649", "480001", "-480001", "x", "1.5",
                "0x10", "1e3", "½", "--1", "",
            ]),
            cut in proptest::prelude::any::<proptest::sample::Index>(),
        ) {
            let content = content_lines();
            let i = content[at.index(content.len())];
            let line = FREESTYLE.lines().nth(i).unwrap();
            let mut fields: Vec<&str> = line.split('#').next().unwrap().split_whitespace().collect();
            let field = field.min(fields.len() - 1);
            fields[field] = bad;
            let broken = fields.join(" ");
            proptest::prop_assert!(Weights::parse(&with_line(i, Some(&broken))).is_err(), "{}", broken);
            proptest::prop_assert!(Weights::parse(&with_line(i, None)).is_err(), "line {}", i + 1);
            // Cut anywhere (at a character boundary) before its last line: an error.
            let last_line = FREESTYLE.trim_end().rfind('\n').unwrap();
            let mut end = cut.index(last_line + 1);
            while !FREESTYLE.is_char_boundary(end) {
                end -= 1;
            }
            proptest::prop_assert!(Weights::parse(&FREESTYLE[..end]).is_err(), "cut at {}", end);
        }
    }

    /// The property test deletes one of some 8,300 lines, so it almost never tries the three
    /// a file cannot do without.
    #[test]
    fn a_real_file_without_its_version_rule_or_tempo_line_is_an_error() {
        let first_word = |i: usize| FREESTYLE.lines().nth(i)?.split_whitespace().next();
        let head = &content_lines()[..3];
        let words: Vec<_> = head.iter().map(|&i| first_word(i)).collect();
        assert_eq!(words, [Some("wuzi-weights"), Some("rule"), Some("tempo")]);
        for (&i, word) in head.iter().zip(words) {
            let without = Weights::parse(&with_line(i, None));
            assert!(without.is_err(), "without the {word:?} line");
        }
    }

    #[test]
    fn embedded_files_parse_and_name_their_rule() {
        for (rule, text) in EMBEDDED {
            let w = Weights::parse(text).unwrap_or_else(|e| panic!("{rule:?}: {e}"));
            assert_eq!(w.rule, rule);
        }
    }

    #[test]
    fn scaling_the_sides_rounds_each_value_and_leaves_the_rest() {
        let mut w = Weights::zero(Rule::Freestyle);
        w.tempo = [5, 5];
        w.tables[0][3][MOVER] = 32;
        w.tables[0][3][WAITER] = 100;
        w.tables[1][9][WAITER] = -49;
        w.tables[1][10][WAITER] = MAX_VALUE * EVAL_FRACTION;
        w.policy.codes[1][DEFENCE][1000] = 300;
        let mut scaled = w.clone();
        scaled.scale_sides(1.0, 0.97);
        assert_eq!(scaled.tables[0][3], [32, 97]);
        assert_eq!(scaled.tables[1][9][WAITER], -48); // -47.53
        scaled.scale_sides(0.5, 0.5);
        assert_eq!(scaled.tables[0][3], [16, 49]); // 48.5 rounds away from zero
        assert_eq!(scaled.tables[1][9][WAITER], -24);
        scaled.scale_sides(1.0, 4.0);
        assert_eq!(scaled.tables[1][10][WAITER], MAX_VALUE * EVAL_FRACTION);
        assert_eq!((scaled.tempo, &scaled.policy), (w.tempo, &w.policy));
    }

    #[test]
    fn scaling_a_shape_group_touches_its_codes_in_one_role_only() {
        let mut w = Weights::zero(Rule::Renju);
        let code_with = |shapes: [Shape; 4]| (0..CODES).find(|&c| shapes_of(c) == Some(shapes));
        use Shape::{None as N, *};
        let open_three = code_with([N, One, Two, OpenThree]).unwrap();
        let two = code_with([N, N, One, Two]).unwrap();
        let open_four = code_with([N, N, OpenThree, OpenFour]).unwrap();
        let overline = code_with([N, N, Overline, OpenThree]).unwrap();
        for code in [open_three, two, open_four, overline] {
            w.tables[0][code] = [100, 100];
            w.tables[1][code] = [-33, -33];
        }
        w.scale_shape(WAITER, OpenThree, Option::None, 0.94);
        assert_eq!(w.tables[0][open_three], [100, 94]);
        assert_eq!(w.tables[1][open_three], [-33, -31]); // -31.02
        for code in [two, open_four, overline] {
            assert_eq!(
                (w.tables[0][code], w.tables[1][code]),
                ([100, 100], [-33, -33])
            );
        }
        assert_eq!(shape_group(open_four), Option::None);
        assert_eq!(shape_group(two), Some(Two));
        // A second shape narrows the group to the codes with that second strongest line.
        let double = code_with([N, N, OpenTwo, OpenThree]).unwrap();
        w.tables[0][double] = [100, 100];
        w.scale_shape(MOVER, OpenThree, Some(OpenTwo), 1.5);
        assert_eq!(w.tables[0][double], [150, 100]);
        assert_eq!(w.tables[0][open_three], [100, 94], "second strongest a two");
    }

    #[test]
    fn text_round_trips_and_bad_files_are_errors() {
        let mut w = Weights::zero(Rule::Renju);
        w.tempo = [12, -3];
        w.tables[1][77][WAITER] = -40;
        w.tables[0][5][MOVER] = 9;
        w.policy.codes[1][DEFENCE][1000] = 300;
        w.policy.near[0][LAST_US][7] = -12;
        w.policy.combo[1][COMBOS - 1] = 5;
        w.policy.local[0][48] = 7;
        w.policy.state[1][DEFENCE][447] = -2;
        let text = w.to_text("test");
        assert_eq!(Weights::parse(&text), Ok(w));
        let old = "wuzi-weights 1\nrule renju\ntempo 0 0\nwhite-attack 7 3";
        assert_eq!(Weights::parse(old).map(|w| w.policy.codes[1][0][7]), Ok(3));
        // Version 2 evaluation values are whole units; the policy's are not scaled.
        let old = "wuzi-weights 2\nrule renju\ntempo 2 -1\nwhite-waiter 7 3\nwhite-combo 7 3";
        let w = Weights::parse(old).unwrap();
        assert_eq!(w.tempo, [32, -16]);
        assert_eq!(w.tables[1][7][WAITER], 48);
        assert_eq!(w.policy.combo[1][7], 3);
        // Version 3 has no end line; version 4 must end with one that counts its table lines.
        let v3 = "wuzi-weights 3\nrule renju\ntempo 0 0\nwhite-waiter 7 3";
        assert_eq!(Weights::parse(v3).map(|w| w.tables[1][7][WAITER]), Ok(3));
        let v3_twice = format!("{v3}\nwhite-waiter 7 5");
        assert_eq!(
            Weights::parse(&v3_twice).map(|w| w.tables[1][7][WAITER]),
            Ok(5)
        );
        let v4 = "wuzi-weights 4\nrule renju\ntempo 0 0\nwhite-waiter 7 3\nend 1\n# done";
        assert_eq!(Weights::parse(v4).map(|w| w.tables[1][7][WAITER]), Ok(3));
        let empty = "wuzi-weights 4\nrule renju\ntempo 0 0\nend 0";
        assert_eq!(Weights::parse(empty), Ok(Weights::zero(Rule::Renju)));
        let errors = [
            (
                "wuzi-weights 4\nrule renju\ntempo 0 0\nwhite-waiter 7 3",
                "cut short",
            ),
            (
                "wuzi-weights 4\nrule renju\ntempo 0 0\nwhite-waiter 7 3\nend 2",
                "counts 2",
            ),
            (
                "wuzi-weights 4\nrule renju\ntempo 0 0\nend 0\nwhite-waiter 7 3",
                "after the end",
            ),
            (
                "wuzi-weights 4\nrule renju\ntempo 0 0\nend 0\nend 0",
                "second end",
            ),
            (
                "wuzi-weights 4\nrule renju\ntempo 0 0\nend",
                "expected \"end",
            ),
            (
                "wuzi-weights 4\nrule renju\ntempo 0 0\nend 0 1",
                "expected \"end",
            ),
            ("wuzi-weights 3\nrule renju\ntempo 0 0\nend 0", "new in"),
            (
                "wuzi-weights 4\nrule renju\ntempo 0 0\nwhite-waiter 7 3\nwhite-waiter 7 4\nend 2",
                "line 5: white-waiter 7 was already given on line 4",
            ),
        ];
        for (bad, why) in errors {
            let error = Weights::parse(bad).expect_err(bad);
            assert!(error.contains(why), "{bad}: {error}");
        }
        for bad in [
            "",
            "wuzi-weights 5\nrule renju\ntempo 0 0\nend 0",
            "wuzi-weights 3\nrule renju\ntempo 0 0\nblack-mover 1 480001",
            "wuzi-weights 2\nrule renju\ntempo 0 30001",
            "wuzi-weights 3\nrule renju\ntempo 0 -2147483648",
            "wuzi-weights 3\nrule renju\ntempo 0 0\nwhite-combo 1 -2147483648",
            "wuzi-weights 2\nrule renju\ntempo 0 0\nblack-near-us 224 1",
            "wuzi-weights 2\nrule renju\ntempo 0 0\nwhite-local 49 1",
            "wuzi-weights 2\nrule renju\ntempo 0 0\nwhite-state-defence 448 1",
            "wuzi-weights 2\nrule renju\ntempo 0 0\nwhite-combo 784 1",
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
