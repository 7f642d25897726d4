//! A tournament of several engines: every pair of them (a round robin, as Gomocup plays its
//! leagues) or the first against each of the others (a gauntlet, to measure one engine
//! against a field). Each pairing is a match of its own (the same openings, each played with
//! both colours), and the pairings take turns: the games of one opening are played in every
//! pairing before the next opening starts, so a tournament stopped early is still even.
//!
//! From all the games, [`super::stats::ratings`] gives each engine one Elo on a common scale.

use super::stats::{ratings, Tally};
use super::{play_one, record, GameReport, MatchConfig, OpeningSource, OpeningSupply, Shared};
use super::{player::Log, side::SideSpec, Standing};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wuzi_gomoku::Rule;

/// Everything a tournament needs.
pub struct TournamentConfig {
    /// Two or more engines.
    pub engines: Vec<SideSpec>,
    /// The first engine against each of the others only.
    pub gauntlet: bool,
    /// Games of each pairing (rounded up to whole pairs).
    pub games: usize,
    pub size: usize,
    pub rule: Rule,
    pub concurrency: usize,
    pub tolerance: Option<Duration>,
    pub draw_after: Option<usize>,
    pub openings: OpeningSource,
    pub log: Option<Log>,
    /// Set (by Ctrl-C) to stop: games in progress end without counting.
    pub abort: Arc<AtomicBool>,
}

impl TournamentConfig {
    /// Games of each pairing: `games` rounded up to whole pairs.
    pub fn games_a_pairing(&self) -> usize {
        self.games.div_ceil(2).max(1).saturating_mul(2)
    }

    /// Games of the whole tournament.
    pub fn games_in_all(&self) -> usize {
        let pairings = pairings(self.engines.len(), self.gauntlet).len();
        self.games_a_pairing().saturating_mul(pairings)
    }
}

/// The engines that meet, by index into [`TournamentConfig::engines`]: every pair in a round
/// robin, the first with each other in a gauntlet.
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    let mut list = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            if !gauntlet || a == 0 {
                list.push((a, b));
            }
        }
    }
    list
}

/// Each engine's name, made unique by its place in the list (`wuzi time=100 #2`) where two
/// share one.
pub fn labels(engines: &[SideSpec]) -> Vec<String> {
    let mut labels: Vec<String> = Vec::with_capacity(engines.len());
    for (i, e) in engines.iter().enumerate() {
        let shared = engines.iter().filter(|o| o.name == e.name).count() > 1;
        let mut label = match shared {
            true => format!("{} #{}", e.name, i + 1),
            false => e.name.clone(),
        };
        // A name that is itself an earlier label (`a #2` after two engines named `a`) is
        // numbered on until it is one engine's.
        let mut k = 2;
        while labels.contains(&label) {
            label = format!("{} #{}", e.name, i + k);
            k += 1;
        }
        labels.push(label);
    }
    labels
}

/// One pairing's match: `a` and `b` index the engines, `a` is the match's engine A.
pub struct PairingResult {
    pub a: usize,
    pub b: usize,
    pub standing: Standing,
    /// Finished games, by number (numbered within the pairing).
    pub games: Vec<GameReport>,
}

/// An engine's games over the whole tournament and its rating.
#[derive(Clone, Debug, Serialize)]
pub struct EngineStanding {
    pub label: String,
    pub tally: Tally,
    /// Of its losses, those by its program's fault (crash, timeout, illegal move, garbage).
    pub forfeits: u32,
    /// Elo on the tournament's scale, whose mean over the engines is 0.
    pub elo: f64,
}

/// The end of a tournament.
pub struct TournamentResult {
    pub pairings: Vec<PairingResult>,
    /// By the engines' order in the config.
    pub engines: Vec<EngineStanding>,
    /// True when Ctrl-C ended it.
    pub interrupted: bool,
    /// True when no more balanced openings could be generated.
    pub openings_ran_out: bool,
    /// True when the games played link every engine to every other (through the engines
    /// between them): only then are all the ratings on one scale. A tournament stopped
    /// early may have played only some pairings.
    pub connected: bool,
}

/// Plays the tournament; `on_game` sees every finished game with its pairing's index (into
/// [`pairings`]) and that pairing's standing after it.
pub fn run_tournament(
    config: &TournamentConfig,
    on_game: &(dyn Fn(usize, &GameReport, &Standing) + Sync),
) -> TournamentResult {
    let names = labels(&config.engines);
    let list = pairings(config.engines.len(), config.gauntlet);
    let matches: Vec<MatchConfig> = list
        .iter()
        .map(|&(a, b)| MatchConfig {
            a: config.engines[a].clone(),
            b: config.engines[b].clone(),
            size: config.size,
            rule: config.rule,
            games: config.games,
            sprt: None,
            concurrency: config.concurrency,
            tolerance: config.tolerance,
            draw_after: config.draw_after,
            openings: config.openings.clone(),
            log: config.log.clone(),
            abort: config.abort.clone(),
        })
        .collect();
    let games_cap = config.games_a_pairing();
    let shared: Vec<Mutex<Shared>> = list
        .iter()
        .map(|_| Mutex::new(Shared::new(games_cap, None)))
        .collect();
    let Some(first) = matches.first() else {
        return finish(config, &names, list, shared, false);
    };
    let supply = OpeningSupply::new(first);
    let next = AtomicUsize::new(0);
    let ran_out = AtomicBool::new(false);
    let total = config.games_in_all();
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, 64) {
            scope.spawn(|| loop {
                if config.abort.load(Ordering::Relaxed) {
                    return;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= total {
                    return;
                }
                let (round, pairing, colour) = scheduled(index, list.len());
                let Some(opening) = supply.opening(round) else {
                    ran_out.store(true, Ordering::Relaxed);
                    return;
                };
                let (a, b) = list[pairing];
                let game_names = [&names[a], &names[b]];
                let game = 2 * round + colour;
                let prefix = format!("pairing {} ", pairing + 1);
                let played = play_one(&matches[pairing], game_names, game, &opening, &prefix);
                let Some(report) = played else {
                    return;
                };
                let mut s = shared[pairing].lock().unwrap_or_else(|e| e.into_inner());
                record(&mut s, &report, round, None);
                on_game(pairing, &report, &s.standing);
                s.games.push(report);
            });
        }
    });
    finish(
        config,
        &names,
        list,
        shared,
        ran_out.load(Ordering::Relaxed),
    )
}

/// The `index`-th game a tournament of `pairings` pairings starts: (round, pairing, colour).
/// Two games (one opening, both colours) of each pairing in turn.
fn scheduled(index: usize, pairings: usize) -> (usize, usize, usize) {
    let (slot, colour) = (index / 2, index % 2);
    (slot / pairings, slot % pairings, colour)
}

/// Where game `number` (1-based, as reported) of `pairing` comes in the order the games are
/// started, counting from 0: the inverse of the schedule, for writing records in that order.
pub fn game_order(pairings: usize, pairing: usize, number: usize) -> usize {
    let game = number - 1;
    ((game / 2) * pairings + pairing) * 2 + game % 2
}

/// Sorts each pairing's games and sums every engine's games and rating.
fn finish(
    config: &TournamentConfig,
    names: &[String],
    list: Vec<(usize, usize)>,
    shared: Vec<Mutex<Shared>>,
    openings_ran_out: bool,
) -> TournamentResult {
    let pairings: Vec<PairingResult> = list
        .into_iter()
        .zip(shared)
        .map(|((a, b), s)| {
            let mut s = s.into_inner().unwrap_or_else(|e| e.into_inner());
            s.games.sort_by_key(|g| g.number);
            PairingResult {
                a,
                b,
                standing: s.standing,
                games: s.games,
            }
        })
        .collect();
    let results: Vec<(usize, usize, Tally)> = pairings
        .iter()
        .map(|p| (p.a, p.b, p.standing.tally))
        .collect();
    let elo = ratings(names.len(), &results);
    let connected = linked(names.len(), &results);
    let engines = names
        .iter()
        .enumerate()
        .map(|(i, label)| {
            let mut tally = Tally::default();
            for &(a, b, t) in &results {
                if a == i {
                    tally.wins += t.wins;
                    tally.losses += t.losses;
                    tally.draws += t.draws;
                } else if b == i {
                    tally.wins += t.losses;
                    tally.losses += t.wins;
                    tally.draws += t.draws;
                }
            }
            let lost_by_fault = |p: &PairingResult, loser: &str| {
                p.games
                    .iter()
                    .filter(|g| g.forfeit && g.winner.is_some_and(|w| w != loser))
                    .count() as u32
            };
            let forfeits = pairings
                .iter()
                .map(|p| match (p.a == i, p.b == i) {
                    (true, _) => lost_by_fault(p, "A"),
                    (_, true) => lost_by_fault(p, "B"),
                    _ => 0,
                })
                .sum();
            EngineStanding {
                label: label.clone(),
                tally,
                forfeits,
                elo: elo[i],
            }
        })
        .collect();
    TournamentResult {
        pairings,
        engines,
        interrupted: config.abort.load(Ordering::Relaxed),
        openings_ran_out,
        connected,
    }
}

/// Whether the pairings that played a game link all `players` into one group.
fn linked(players: usize, results: &[(usize, usize, Tally)]) -> bool {
    let mut group: Vec<usize> = (0..players).collect();
    fn root(group: &mut [usize], mut i: usize) -> usize {
        while group[i] != i {
            group[i] = group[group[i]];
            i = group[i];
        }
        i
    }
    for &(a, b, t) in results {
        if t.games() > 0 {
            let (ra, rb) = (root(&mut group, a), root(&mut group, b));
            group[ra] = rb;
        }
    }
    let first = root(&mut group, 0);
    (0..players).all(|i| root(&mut group, i) == first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_order_of_a_game_undoes_the_schedule() {
        for pairings in 1..6 {
            for index in 0..200 {
                let (round, pairing, colour) = scheduled(index, pairings);
                let number = 2 * round + colour + 1;
                assert_eq!(game_order(pairings, pairing, number), index);
            }
        }
    }

    #[test]
    fn a_round_robin_pairs_everyone_once_and_a_gauntlet_the_first_with_the_rest() {
        assert_eq!(pairings(3, false), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(4, true), [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(pairings(4, false).len(), 6);
        assert!(pairings(1, false).is_empty());
    }

    #[test]
    fn the_ratings_share_a_scale_only_when_the_games_link_everyone() {
        let game = Tally {
            wins: 1,
            losses: 0,
            draws: 0,
        };
        let none = Tally::default();
        assert!(linked(3, &[(0, 1, game), (1, 2, game)]));
        assert!(!linked(3, &[(0, 1, game), (1, 2, none)]));
        assert!(!linked(4, &[(0, 1, game), (2, 3, game)]));
        assert!(linked(1, &[]));
    }

    #[test]
    fn shared_names_are_told_apart_by_place() {
        let spec = |s: &str| s.parse::<SideSpec>().unwrap();
        let engines = [spec("depth=1"), spec("depth=2"), spec("depth=1")];
        assert_eq!(
            labels(&engines),
            ["wuzi depth=1 #1", "wuzi depth=2", "wuzi depth=1 #3"]
        );
        // A name that is another's label still gives every engine a label of its own.
        let engines = [
            spec("nodes=2000,name=a"),
            spec("nodes=3000,name=a"),
            spec("nodes=4000,name='a #2'"),
        ];
        let got = labels(&engines);
        assert_eq!(got[..2], ["a #1", "a #2"]);
        assert!(!got[..2].contains(&got[2]), "{got:?}");
    }
}
