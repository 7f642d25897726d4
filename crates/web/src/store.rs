//! Games kept in memory: a capped map with idle expiry, and their JSON view.

use serde::Serialize;
use std::collections::HashMap;
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
    /// Live search progress for the page (server-sent events).
    pub progress: broadcast::Sender<PageEvent>,
}

/// A server-sent event for the page: `progress` (the search's latest depth) or `queue` (the
/// request's place while it waits for a search slot).
#[derive(Clone, Debug)]
pub struct PageEvent {
    pub kind: &'static str,
    pub data: String,
}

/// Games by their random id (see [`crate::ids`]); nothing lists them.
pub struct Store {
    games: HashMap<String, Game>,
    max_games: usize,
    idle: Duration,
}

impl Store {
    pub fn new(max_games: usize, idle: Duration) -> Store {
        Store {
            games: HashMap::new(),
            max_games,
            idle,
        }
    }

    /// Adds a game under `id`, first dropping the idle ones; false when the store is full
    /// (or, never in practice, the random id is taken).
    pub fn insert(&mut self, id: &str, game: Game) -> bool {
        let idle = self.idle;
        self.games
            .retain(|_, g| g.thinking || g.last_used.elapsed() < idle);
        if self.games.len() >= self.max_games || self.games.contains_key(id) {
            return false;
        }
        self.games.insert(id.to_string(), game);
        true
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
    /// The AI's colour, or null when it does not play.
    pub ai: Option<&'static str>,
    pub time_ms: u64,
    pub moves: Vec<String>,
    /// The first moves that are a loaded record's opening stones.
    pub opening: usize,
    pub to_move: &'static str,
    pub result: Option<&'static str>,
    pub reason: Option<&'static str>,
    pub forbidden: Vec<String>,
    /// The five (or more) that ended the game, for the page to highlight.
    pub winning_line: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis: Option<serde_json::Value>,
}

impl GameView {
    pub fn new(id: &str, game: &Game) -> GameView {
        let b = &game.board;
        let n = b.size();
        let name = |p: &Point| p.to_human(n);
        let mut probe = b.clone();
        let forbidden = if b.result().is_none() && b.side_to_move() == Player::First {
            probe
                .forbidden_points()
                .iter()
                .map(|(p, _)| name(p))
                .collect()
        } else {
            Vec::new()
        };
        GameView {
            id: id.to_string(),
            rule: b.rule().name(),
            size: n,
            ai: game.ai.map(colour),
            time_ms: game.time_ms,
            moves: b.moves().iter().map(name).collect(),
            opening: game.opening,
            to_move: colour(b.side_to_move()),
            result: b.result().map(|r| r.winner.map_or("draw", colour)),
            reason: b.result().map(|r| r.reason.name()),
            forbidden,
            winning_line: winning_line(b).iter().map(name).collect(),
            analysis: None,
        }
    }
}

pub fn parse_rule(name: &str) -> Result<Rule, String> {
    name.parse()
}
