//! The match manager: two competitors (wuzi in-process or any Gomocup program) play games
//! from openings, each opening twice with colours swapped, until a game count or an SPRT
//! decision, on several threads at once.
//!
//! - [`side`]: a side as the user writes it (`time=100,vct=off` or `cmd=./pbrain-x,...`).
//! - [`player`]: the [`player::Competitor`] both kinds are, and wuzi in-process.
//! - [`external`]: a Gomocup program as a child process.
//! - [`game`]: one game, its clocks and referee.
//! - [`openings`]: opening files and generated openings.
//! - [`stats`]: Elo and SPRT, pure arithmetic.
//! - [`spsa`]: tuning knobs by many short matches, the arithmetic.
//! - [`tournament`]: several engines, every pair of them (or the first against each other)
//!   playing the same openings.

pub mod external;
pub mod game;
pub mod openings;
pub mod player;
pub mod side;
pub mod spsa;
pub mod stats;
pub mod tournament;

use game::{play_game, GameSetup, Outcome};
use openings::BalancedOpenings;
use player::{competitor, Log};
use serde::Serialize;
use side::SideSpec;
use stats::{Decision, Pentanomial, Sprt, Tally};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wuzi_gomoku::record::{RecordedMove, SgfGame};
use wuzi_gomoku::{Player, Point, Rule};

/// Where the openings come from.
#[derive(Clone)]
pub enum OpeningSource {
    /// From a file, in the order to use them (already shuffled for `random`); cycled when
    /// the match needs more.
    List(Vec<Vec<Point>>),
    /// Generated balanced openings from this seed.
    Generated(u64),
}

/// Everything a match needs.
pub struct MatchConfig {
    pub a: SideSpec,
    pub b: SideSpec,
    pub size: usize,
    pub rule: Rule,
    /// The most games to play (rounded up to whole pairs).
    pub games: usize,
    pub sprt: Option<Sprt>,
    pub concurrency: usize,
    pub tolerance: Option<Duration>,
    pub draw_after: Option<usize>,
    pub openings: OpeningSource,
    pub log: Option<Log>,
    /// Set (by Ctrl-C) to stop: games in progress end without counting.
    pub abort: Arc<AtomicBool>,
}

/// One finished game, as reported.
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    /// 1-based game number; games 2k-1 and 2k share an opening.
    pub number: usize,
    pub black: String,
    pub white: String,
    /// True when engine A had Black.
    pub a_black: bool,
    pub result: Outcome,
    /// "A", "B", or `None` for a draw.
    pub winner: Option<&'static str>,
    pub reason: String,
    /// True when the loser lost by its program's fault (a crash, a timeout, an illegal move,
    /// garbage), not over the board.
    pub forfeit: bool,
    /// Opening stones, then moves, in Gomocup `x,y`.
    pub moves: Vec<String>,
    pub opening_stones: usize,
    #[serde(skip)]
    pub record: Vec<RecordedMove>,
}

impl GameReport {
    /// A's score in half points: 0, 1 or 2.
    pub fn a_half_points(&self) -> u32 {
        match self.winner {
            Some("A") => 2,
            Some(_) => 0,
            None => 1,
        }
    }

    pub fn to_sgf(&self, size: usize, rule: Rule, event: &str) -> String {
        SgfGame {
            size,
            rule_number: external::rule_number(rule),
            black: self.black.clone(),
            white: self.white.clone(),
            event: event.to_string(),
            number: self.number,
            winner: match self.result {
                Outcome::BlackWins => Some(Player::First),
                Outcome::WhiteWins => Some(Player::Second),
                Outcome::Draw => None,
            },
            reason: self.reason.clone(),
            moves: self.record.clone(),
        }
        .to_sgf()
    }
}

/// The state of a match, after each game.
#[derive(Clone, Debug, Serialize)]
pub struct Standing {
    pub tally: Tally,
    /// A's games as Black and as White: with a first-move advantage, where it wins and
    /// loses.
    pub a_as_black: Tally,
    pub a_as_white: Tally,
    pub pairs: Pentanomial,
    /// The LLR and its bounds, with SPRT.
    pub llr: Option<f64>,
    pub bounds: Option<(f64, f64)>,
    pub decision: Option<Decision>,
    /// When the SPRT decided: the games counted then and the LLR that crossed a bound. Games
    /// still in flight are counted afterwards (the decision stands), so the final `llr` may
    /// lie back inside the bounds.
    pub decided: Option<(u32, f64)>,
    /// The games cap (whole pairs).
    pub games_cap: usize,
}

impl Standing {
    /// A's Elo and its 95% error: from the pairs when every finished game has its partner,
    /// from single games otherwise.
    pub fn elo(&self) -> (Option<f64>, Option<f64>) {
        let pairs = self.pairs.pairs();
        if pairs > 0 && 2 * pairs == self.tally.games() {
            self.pairs.elo()
        } else {
            self.tally.elo()
        }
    }
}

/// The end of a match.
pub struct MatchResult {
    pub standing: Standing,
    /// Finished games, by number.
    pub games: Vec<GameReport>,
    /// True when Ctrl-C ended it.
    pub interrupted: bool,
    /// True when the generator could make no more balanced openings, so fewer games were
    /// played than asked for.
    pub openings_ran_out: bool,
}

/// Counts and pair bookkeeping shared by the worker threads.
struct Shared {
    standing: Standing,
    games: Vec<GameReport>,
    /// A's half points of a pair's first finished game, by pair index.
    half_pairs: std::collections::HashMap<usize, u32>,
}

impl Shared {
    fn new(games_cap: usize, sprt: Option<Sprt>) -> Shared {
        Shared {
            standing: Standing {
                tally: Tally::default(),
                a_as_black: Tally::default(),
                a_as_white: Tally::default(),
                pairs: Pentanomial::default(),
                llr: sprt.map(|_| 0.0),
                bounds: sprt.map(|s| s.bounds()),
                decision: sprt.map(|_| Decision::Continue),
                decided: None,
                games_cap,
            },
            games: Vec::new(),
            half_pairs: Default::default(),
        }
    }
}

/// Names the sides so that A and B never share one.
fn names(a: &SideSpec, b: &SideSpec) -> (String, String) {
    if a.name == b.name {
        (format!("{} (A)", a.name), format!("{} (B)", b.name))
    } else {
        (a.name.clone(), b.name.clone())
    }
}

/// Plays the match; `on_game` sees every finished game and the standing after it.
pub fn run_match(
    config: &MatchConfig,
    on_game: &(dyn Fn(&GameReport, &Standing) + Sync),
) -> MatchResult {
    let pairs_cap = config.games.div_ceil(2).max(1);
    let games_cap = pairs_cap.saturating_mul(2);
    let (name_a, name_b) = names(&config.a, &config.b);
    let shared = Mutex::new(Shared::new(games_cap, config.sprt));
    let supply = OpeningSupply::new(config);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let ran_out = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, 64) {
            scope.spawn(|| loop {
                if stop.load(Ordering::Relaxed) || config.abort.load(Ordering::Relaxed) {
                    return;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= games_cap {
                    return;
                }
                let Some(opening) = supply.opening(index / 2) else {
                    ran_out.store(true, Ordering::Relaxed);
                    return;
                };
                let Some(report) = play_one(config, [&name_a, &name_b], index, &opening, "") else {
                    return;
                };
                let mut s = shared.lock().unwrap_or_else(|e| e.into_inner());
                record(&mut s, &report, index / 2, config.sprt);
                if s.standing.decision.is_some_and(|d| d != Decision::Continue) {
                    stop.store(true, Ordering::Relaxed);
                }
                on_game(&report, &s.standing);
                s.games.push(report);
            });
        }
    });
    let mut shared = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    shared.games.sort_by_key(|g| g.number);
    // Unpaired games (a capped or interrupted match) are judged game by game.
    if let Some(sprt) = config.sprt {
        let undecided = shared.standing.decision == Some(Decision::Continue);
        if undecided && !shared.half_pairs.is_empty() {
            let llr = sprt.llr_games(&shared.standing.tally);
            shared.standing.llr = Some(llr);
            let decision = sprt.decide_games(&shared.standing.tally);
            shared.standing.decision = Some(decision);
            if decision != Decision::Continue {
                shared.standing.decided = Some((shared.standing.tally.games(), llr));
            }
        }
    }
    MatchResult {
        standing: shared.standing,
        games: shared.games,
        interrupted: config.abort.load(Ordering::Relaxed),
        openings_ran_out: ran_out.load(Ordering::Relaxed),
    }
}

/// Openings by pair index, from the file or generated on demand (then kept, so both games
/// of a pair get the same one whichever thread asks first).
struct OpeningSupply<'a> {
    source: &'a OpeningSource,
    generated: Mutex<Generated>,
}

/// The generated openings so far, and whether the generator has run out: once it has, no
/// later request tries again (another try could succeed and play one pair of a round only).
struct Generated {
    maker: BalancedOpenings,
    made: Vec<Vec<Point>>,
    exhausted: bool,
}

impl<'a> OpeningSupply<'a> {
    fn new(config: &'a MatchConfig) -> OpeningSupply<'a> {
        let seed = match config.openings {
            OpeningSource::Generated(seed) => seed,
            OpeningSource::List(_) => 0,
        };
        OpeningSupply {
            source: &config.openings,
            generated: Mutex::new(Generated {
                maker: BalancedOpenings::new(config.size, config.rule, seed),
                made: Vec::new(),
                exhausted: false,
            }),
        }
    }

    /// `None` when no more openings can be made.
    fn opening(&self, pair: usize) -> Option<Vec<Point>> {
        match self.source {
            OpeningSource::List(list) => list.get(pair % list.len().max(1)).cloned(),
            OpeningSource::Generated(_) => {
                let mut g = self.generated.lock().unwrap_or_else(|e| e.into_inner());
                while g.made.len() <= pair && !g.exhausted {
                    match g.maker.next_opening() {
                        Some(next) => g.made.push(next),
                        None => g.exhausted = true,
                    }
                }
                g.made.get(pair).cloned()
            }
        }
    }
}

/// Plays game `index` (0-based; A has Black in even games) from `opening`; `None` when it
/// was interrupted and does not count. The engines' log lines are labelled `game 3 A (name)`
/// after `log_prefix` (a tournament's pairing).
fn play_one(
    config: &MatchConfig,
    [name_a, name_b]: [&String; 2],
    index: usize,
    opening: &[Point],
    log_prefix: &str,
) -> Option<GameReport> {
    let a_black = index.is_multiple_of(2);
    let make = |spec: &SideSpec, who: &str, name: &str| {
        let label = format!("{log_prefix}game {} {who} ({name})", index + 1);
        competitor(spec, config.abort.clone(), config.log.clone(), label)
    };
    let mut a = make(&config.a, "A", name_a);
    let mut b = make(&config.b, "B", name_b);
    let (black_spec, white_spec) = if a_black {
        (&config.a, &config.b)
    } else {
        (&config.b, &config.a)
    };
    let setup = GameSetup {
        size: config.size,
        rule: config.rule,
        opening,
        sides: [black_spec, white_spec],
        tolerance: config.tolerance,
        draw_after: config.draw_after,
    };
    let played = if a_black {
        play_game(&setup, [a.as_mut(), b.as_mut()])
    } else {
        play_game(&setup, [b.as_mut(), a.as_mut()])
    };
    if played.end.aborted {
        return None;
    }
    let (black, white) = if a_black {
        (name_a, name_b)
    } else {
        (name_b, name_a)
    };
    let a_won = |w: Player| (w == Player::First) == a_black;
    Some(GameReport {
        number: index + 1,
        black: black.clone(),
        white: white.clone(),
        a_black,
        result: played.end.outcome(),
        winner: played.end.winner.map(|w| if a_won(w) { "A" } else { "B" }),
        reason: played.end.reason.clone(),
        forfeit: played.end.forfeit,
        moves: played.moves.iter().map(|m| m.point.to_gomocup()).collect(),
        opening_stones: opening.len(),
        record: played.moves,
    })
}

/// Counts a game, completes its pair if the other game is in, and re-runs the SPRT.
fn record(s: &mut Shared, report: &GameReport, pair: usize, sprt: Option<Sprt>) {
    let points = report.a_half_points();
    s.standing.tally.add(points);
    if report.a_black {
        s.standing.a_as_black.add(points);
    } else {
        s.standing.a_as_white.add(points);
    }
    match s.half_pairs.remove(&pair) {
        Some(first) => s.standing.pairs.add(first, points),
        None => {
            s.half_pairs.insert(pair, points);
        }
    }
    if let Some(sprt) = sprt {
        s.standing.llr = Some(sprt.llr_pairs(&s.standing.pairs));
        // A decision stands: games still in flight when it came are counted, not re-judged.
        if s.standing.decision == Some(Decision::Continue) {
            let decision = sprt.decide_pairs(&s.standing.pairs);
            s.standing.decision = Some(decision);
            if decision != Decision::Continue {
                s.standing.decided = s.standing.llr.map(|llr| (s.standing.tally.games(), llr));
            }
        }
    }
}
