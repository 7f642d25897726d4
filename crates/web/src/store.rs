//! Games kept in memory: a capped map with idle expiry, and their JSON view.

use serde::Serialize;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;
use wuzi_gomoku::{winning_line, Board, Player, Point, Rule};

/// One game: its position and settings. `thinking` is set while a search runs for it, so
/// that nothing else changes it meanwhile.
pub struct Game {
    pub board: Board,
    pub ai: Option<Player>,
    pub time_ms: u64,
    /// How many of the game's first moves are a record's opening stones (placed by a match
    /// manager, not played): the page's review leaves them out.
    pub opening: usize,
    pub last_used: Instant,
    pub thinking: bool,
    /// The client address that created it (see [`Store::insert`]).
    pub owner: IpAddr,
    /// Live search progress for the page (server-sent events).
    pub progress: broadcast::Sender<PageEvent>,
    /// Stops the analysis reporting on this game's stream: the next one supersedes it (a page
    /// stepping through a game leaves each position's analysis behind).
    pub analysis_stop: Arc<AtomicBool>,
}

/// A server-sent event for the page: `progress` (the search's latest depth) or `queue` (the
/// request's place while it waits for a search slot).
#[derive(Clone, Debug)]
pub struct PageEvent {
    pub kind: &'static str,
    pub data: String,
}

/// How long a client's game must lie untouched before its next new game may replace it.
pub const REPLACEABLE_AFTER: Duration = Duration::from_secs(10 * 60);

/// Why a new game was not kept.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The server keeps as many games as it may, each used within [`REPLACEABLE_AFTER`]: the
    /// one left alone longest may be replaced after this long.
    Full(Duration),
    /// This client keeps as many games as it may, each used within [`REPLACEABLE_AFTER`]:
    /// the first may be replaced after this long.
    ClientFull(Duration),
}

/// Games by their random id (see [`crate::ids`]); nothing lists them.
pub struct Store {
    games: HashMap<String, Game>,
    max_games: usize,
    /// The most games one client address keeps (see [`Store::insert`]).
    per_client: usize,
    idle: Duration,
}

impl Store {
    pub fn new(max_games: usize, per_client: usize, idle: Duration) -> Store {
        Store {
            games: HashMap::new(),
            max_games,
            per_client: per_client.max(1),
            idle,
        }
    }

    /// Adds a game under `id`, first dropping the idle ones. A client that already keeps
    /// `per_client` games gives up the one it used least recently, if that one has been left
    /// alone for [`REPLACEABLE_AFTER`] (a player starting game after game is never refused),
    /// else the new game is refused: one address cannot fill the store for everyone, and
    /// players who share an address (behind NAT) never lose a game they are playing.
    pub fn insert(&mut self, id: &str, game: Game) -> Result<(), Refused> {
        let idle = self.idle;
        self.games
            .retain(|_, g| g.thinking || g.last_used.elapsed() < idle);
        if self.games.contains_key(id) {
            // Never in practice: 128 random bits.
            return Err(Refused::Full(Duration::ZERO));
        }
        let owner = game.owner;
        let owned = self.games.values().filter(|g| g.owner == owner).count();
        if owned >= self.per_client {
            // With every game thinking, one of them may go once left alone for the whole
            // time, at the earliest.
            match self.longest_unused(|g| g.owner == owner) {
                Some((old, idle)) if idle >= REPLACEABLE_AFTER => {
                    self.games.remove(&old);
                }
                other => {
                    let idle = other.map_or(Duration::ZERO, |(_, idle)| idle);
                    return Err(Refused::ClientFull(REPLACEABLE_AFTER - idle));
                }
            }
        }
        if self.games.len() >= self.max_games {
            self.make_way(owner, owned)?;
        }
        self.games.insert(id.to_string(), game);
        Ok(())
    }

    /// Frees a place in a full store for a new game of `owner`, who keeps `owned` games: the
    /// game left alone longest, whoever's it is, once it has been for [`REPLACEABLE_AFTER`];
    /// else the least recently used game of the address that keeps the most, if it keeps more
    /// than `owner` will. So a few addresses that fill the store (and keep their games in use)
    /// lock nobody out: a newcomer always takes the place of one of theirs. A game dropped so
    /// is started again by its page at its next move, from the moves it holds.
    fn make_way(&mut self, owner: IpAddr, owned: usize) -> Result<(), Refused> {
        let oldest = self.longest_unused(|_| true);
        let idle = oldest.as_ref().map_or(Duration::ZERO, |&(_, idle)| idle);
        let victim = match oldest {
            Some((old, idle)) if idle >= REPLACEABLE_AFTER => Some(old),
            _ => {
                let mut counts: HashMap<IpAddr, usize> = HashMap::new();
                for g in self.games.values() {
                    *counts.entry(g.owner).or_default() += 1;
                }
                let most = counts
                    .iter()
                    .filter(|&(&holder, _)| holder != owner)
                    .map(|(_, &count)| count)
                    .max()
                    .unwrap_or(0);
                // Of the addresses that keep the most (more than `owner` will), the game
                // left alone longest.
                (most > owned + 1)
                    .then(|| self.longest_unused(|g| g.owner != owner && counts[&g.owner] == most))
                    .flatten()
                    .map(|(id, _)| id)
            }
        };
        match victim {
            Some(id) => {
                self.games.remove(&id);
                Ok(())
            }
            None => Err(Refused::Full(REPLACEABLE_AFTER.saturating_sub(idle))),
        }
    }

    /// Of the games `of` picks that no search holds, the one left alone longest: its id and
    /// how long it has been left alone (read once, so that a wait worked out from it cannot
    /// underflow).
    fn longest_unused(&self, of: impl Fn(&Game) -> bool) -> Option<(String, Duration)> {
        self.games
            .iter()
            .filter(|(_, g)| !g.thinking && of(g))
            .min_by_key(|(_, g)| g.last_used)
            .map(|(id, g)| (id.clone(), g.last_used.elapsed()))
    }

    pub fn remove(&mut self, id: &str) {
        self.games.remove(id);
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut Game> {
        let g = self.games.get_mut(id)?;
        g.last_used = Instant::now();
        Some(g)
    }
}

pub(crate) fn colour(p: Player) -> &'static str {
    match p {
        Player::First => "black",
        Player::Second => "white",
    }
}

/// The game as the API shows it (`wuzi show --json`'s meanings).
#[derive(Serialize)]
pub struct GameView {
    pub id: String,
    pub rule: &'static str,
    pub size: usize,
    /// The AI's colour, or "none" when it does not play (the value a new game takes).
    pub ai: &'static str,
    pub time_ms: u64,
    pub moves: Vec<String>,
    /// The first moves that are a loaded record's opening stones.
    pub opening: usize,
    pub to_move: &'static str,
    pub result: Option<&'static str>,
    pub reason: Option<&'static str>,
    pub forbidden: Vec<String>,
    /// Renju, whoever is to move: Black's forbidden points as the stones stand, each with its
    /// foul (`{"point":"h8","foul":"double-three"}`).
    pub fouls: Vec<serde_json::Value>,
    /// Renju, Black to move, and every empty point is forbidden: the game cannot go on.
    pub no_legal_move: bool,
    /// The five (or more) that ended the game, for the page to highlight.
    pub winning_line: Vec<String>,
    /// The AI is choosing its move (the request that asked for it gets the answer; a page
    /// reloaded meanwhile waits for it to end).
    pub thinking: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis: Option<serde_json::Value>,
}

impl GameView {
    pub fn new(id: &str, game: &Game) -> GameView {
        let b = &game.board;
        let n = b.size();
        let name = |p: &Point| p.to_human(n);
        let mut probe = b.clone();
        let fouls = if b.result().is_none() {
            probe.forbidden_points()
        } else {
            Vec::new()
        };
        let forbidden = if b.side_to_move() == Player::First {
            fouls.iter().map(|(p, _)| name(p)).collect()
        } else {
            Vec::new()
        };
        GameView {
            id: id.to_string(),
            rule: b.rule().name(),
            size: n,
            ai: game.ai.map_or("none", colour),
            time_ms: game.time_ms,
            moves: b.moves().iter().map(name).collect(),
            opening: game.opening,
            to_move: colour(b.side_to_move()),
            result: b.result().map(|r| r.winner.map_or("draw", colour)),
            reason: b.result().map(|r| r.reason.name()),
            no_legal_move: probe.no_legal_move(),
            forbidden,
            fouls: fouls
                .iter()
                .map(|(p, f)| serde_json::json!({ "point": name(p), "foul": f.name() }))
                .collect(),
            winning_line: winning_line(b).iter().map(name).collect(),
            thinking: game.thinking,
            analysis: None,
        }
    }
}

pub fn parse_rule(name: &str) -> Result<Rule, String> {
    name.parse()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    fn game_of(owner: u8) -> Game {
        Game {
            board: Board::new(15, Rule::Freestyle).unwrap(),
            ai: None,
            time_ms: 100,
            opening: 0,
            last_used: Instant::now(),
            thinking: false,
            owner: IpAddr::V4(Ipv4Addr::new(10, 0, 0, owner)),
            progress: broadcast::channel(1).0,
            analysis_stop: Arc::default(),
        }
    }

    fn minutes(m: u64) -> Duration {
        Duration::from_secs(60 * m)
    }

    /// A game last used `ago`.
    fn used(owner: u8, ago: Duration) -> Game {
        Game {
            last_used: Instant::now() - ago,
            ..game_of(owner)
        }
    }

    #[test]
    fn one_client_replaces_its_own_long_unused_game_and_never_fills_the_store() {
        let mut store = Store::new(5, 2, Duration::from_secs(3600));
        assert_eq!(store.insert("a1", used(1, minutes(30))), Ok(()));
        assert_eq!(store.insert("a2", used(1, minutes(20))), Ok(()));
        // The third replaces the one left alone longest, a1.
        assert_eq!(store.insert("a3", game_of(1)), Ok(()));
        assert!(store.games.contains_key("a2") && !store.games.contains_key("a1"));
        // a2 (20 minutes) makes way too; then both are in use, and a flood is refused.
        assert_eq!(store.insert("a4", game_of(1)), Ok(()));
        assert!(!store.games.contains_key("a2"));
        for i in 0..50 {
            // a3 may be replaced once left alone for 10 minutes: nearly all of them to come.
            let refused = store.insert(&format!("f{i}"), game_of(1));
            assert!(
                matches!(refused, Err(Refused::ClientFull(wait)) if wait > minutes(9)),
                "{refused:?}"
            );
        }
        assert!(store.games.contains_key("a3") && store.games.contains_key("a4"));
        // The others still find room, until the store is full.
        for (id, owner) in [("b1", 2), ("b2", 2), ("c1", 3)] {
            assert_eq!(store.insert(id, game_of(owner)), Ok(()), "{id}");
        }
        // Full, nothing idle for 10 minutes: a newcomer takes the place of the game left
        // alone longest of those who keep the most (two each): a3.
        assert_eq!(store.insert("d1", game_of(4)), Ok(()));
        assert!(!store.games.contains_key("a3"));
        assert_eq!(store.games.len(), 5);
        // A game being searched is never the one replaced, however old.
        for g in store
            .games
            .values_mut()
            .filter(|g| g.owner == game_of(2).owner)
        {
            g.last_used -= minutes(60);
            g.thinking = true;
        }
        assert_eq!(
            store.insert("b3", game_of(2)),
            Err(Refused::ClientFull(REPLACEABLE_AFTER))
        );
        assert!(store.games.contains_key("b1") && store.games.contains_key("b2"));
    }

    /// A few addresses that fill the store used to lock everyone else out for the hours
    /// games may lie idle: a game left alone for 10 minutes makes way, whoever's it is.
    #[test]
    fn a_full_store_gives_up_its_longest_unused_game() {
        let mut store = Store::new(3, 2, Duration::from_secs(3600));
        assert_eq!(store.insert("a1", used(1, minutes(5))), Ok(()));
        assert_eq!(store.insert("a2", used(1, minutes(12))), Ok(()));
        assert_eq!(store.insert("b1", used(2, minutes(11))), Ok(()));
        // The newcomer takes a2's place, the longest unused; then nothing is old enough.
        assert_eq!(store.insert("c1", game_of(3)), Ok(()));
        assert!(!store.games.contains_key("a2"));
        assert_eq!(store.insert("c2", game_of(3)), Ok(()), "b1 makes way");
        // Now a1 (5 minutes), c1 and c2: address 3 keeps two, more than a newcomer's one.
        assert_eq!(store.insert("d1", game_of(4)), Ok(()));
        assert!(!store.games.contains_key("c1"), "{:?}", store.games.keys());
        // One each: the next newcomer waits for a1.
        let full = store.insert("e1", game_of(5));
        assert!(
            matches!(full, Err(Refused::Full(wait)) if wait > minutes(4) && wait < minutes(6)),
            "a1 may go in five minutes: {full:?}"
        );
    }

    /// Addresses that fill the store and keep every game in use (a read every few minutes)
    /// kept newcomers out for as long as they went on: a newcomer takes the place of the
    /// least recently used game of whoever keeps the most.
    #[test]
    fn a_newcomer_takes_a_place_from_whoever_keeps_the_most() {
        let mut store = Store::new(6, 10, Duration::from_secs(3600));
        for (i, ago) in [3, 1, 2, 4].into_iter().enumerate() {
            assert_eq!(
                store.insert(&format!("a{i}"), used(1, minutes(ago))),
                Ok(())
            );
        }
        assert_eq!(store.insert("b0", used(2, minutes(9))), Ok(()));
        assert_eq!(store.insert("b1", used(2, minutes(9))), Ok(()));
        // Full, nothing idle for 10 minutes: address 1 keeps four, and gives up a3 (4 min).
        assert_eq!(store.insert("c0", game_of(3)), Ok(()));
        assert!(!store.games.contains_key("a3"), "{:?}", store.games.keys());
        // A game being searched is never taken.
        store.games.get_mut("a0").unwrap().thinking = true;
        assert_eq!(store.insert("c1", game_of(3)), Ok(()));
        assert!(store.games.contains_key("a0") && !store.games.contains_key("a2"));
        // Two each now (a0 a1, b0 b1, c0 c1): the oldest of them, b0 or b1 (9 minutes), goes.
        assert_eq!(store.insert("d0", game_of(4)), Ok(()));
        assert_eq!(
            store.games.keys().filter(|k| k.starts_with('b')).count(),
            1,
            "{:?}",
            store.games.keys()
        );
    }
}
