//! `INFO`: the manager's settings (time, memory, limits, rule, threads). `INFO` has no reply
//! of its own, so a value that cannot be used gets a `MESSAGE`, never an `ERROR`.

use super::*;

impl Session {
    pub(super) fn info(&mut self, key: &str, value: &str) -> Outcome {
        // A number past every limit (more digits than 64 bits hold) is as good as the
        // largest: no limit is that long.
        let whole = |v: &str| match v.parse::<u64>() {
            Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Ok(u64::MAX),
            parsed => parsed,
        };
        let number = whole(value);
        // Managers send negative values: a clock overrun within their tolerance, Yixin-Board's
        // `max_node -1` for "no limit".
        let negative = value
            .strip_prefix('-')
            .is_some_and(|v| whole(v).is_ok_and(|v| v > 0));
        // `INFO` has no reply of its own: a value it ignores gets a `MESSAGE`, never an
        // `ERROR`, which a manager reads as the reply to the `TURN` it sends next (Piskvork
        // forfeits the engine for it).
        let bad = || {
            Outcome::reply(format!(
                "MESSAGE INFO {key}: \"{value}\" is not a whole number of 0 or more; ignored"
            ))
        };
        match key {
            "timeout_turn" => match number {
                Ok(v) => self.timeout_turn = Some(v),
                Err(_) => return bad(),
            },
            "timeout_match" => match number {
                Ok(v) => self.timeout_match = (v > 0).then_some(v),
                Err(_) => return bad(),
            },
            "time_left" => {
                match number {
                    Ok(v) => self.time_left = (v < UNLIMITED_MS).then_some(v),
                    // The clock has run out: answer at once.
                    Err(_) if negative => self.time_left = Some(0),
                    Err(_) => return bad(),
                }
                self.time_left_sent = true;
            }
            "max_memory" => match number {
                Ok(0) => self.set_table_bytes(DEFAULT_TABLE_BYTES),
                // Half for the tables: the rest is the program, its board and buffers.
                Ok(v) => self.set_table_bytes((v / 2).min(1 << 30) as usize),
                Err(_) => return bad(),
            },
            "max_depth" => match number {
                Ok(v) => self.max_depth = (v > 0).then_some(v.min(200) as u32),
                Err(_) if negative => self.max_depth = None,
                Err(_) => return bad(),
            },
            "max_node" => match number {
                Ok(v) => self.max_node = (v > 0).then_some(v),
                Err(_) if negative => self.max_node = None,
                Err(_) => return bad(),
            },
            // A rule is a set of bits, not a limit: no rule is past 64 bits.
            "rule" => match value.parse::<u64>() {
                Ok(v) => {
                    let set = self.set_rule(v);
                    let repeated = self.last_rule_value.replace(v) == Some(v);
                    // A rule it cannot play: the engine is refused (an `ERROR` at once).
                    let deferred = match set {
                        Ok(deferred) => deferred,
                        Err(e) => return error(e),
                    };
                    let mut notes = Vec::new();
                    if repeated {
                        // Said already.
                    } else if v == 2 {
                        // The protocol's bit 2 is "continuous game"; Yixin-Board sends 2 for
                        // renju.
                        notes.push("MESSAGE INFO rule 2 is taken as renju".to_string());
                    } else if v & 2 != 0 && wuzi_gomoku::record::rule_from_number(v).is_some() {
                        // Bit 2 with others: a continuous game asked for, which wuzi does not
                        // play (nor take its boards' field 3); the other bits are kept.
                        let pending = self.board().is_some_and(|b| b.rule() != self.rule);
                        let plays = if pending {
                            "the next game plays"
                        } else {
                            "playing"
                        };
                        notes.push(format!(
                            "MESSAGE INFO rule {v}: continuous game (2) is not supported; \
                             {plays} {}",
                            self.rule
                        ));
                    }
                    notes.extend(deferred.map(|m| format!("MESSAGE {m}")));
                    if !notes.is_empty() {
                        return Outcome {
                            replies: notes,
                            ..Outcome::default()
                        };
                    }
                }
                Err(_) => return bad(),
            },
            "thread_num" => match number {
                Ok(v) => {
                    let threads = (v as usize).clamp(1, MAX_THREADS);
                    if threads != self.threads {
                        self.threads = threads;
                        self.rebuild_engine();
                    }
                }
                Err(_) => return bad(),
            },
            "game_type" | "folder" | "evaluate" | "hash_size" => {}
            "" => return Outcome::reply("MESSAGE INFO without a key is not used; ignored"),
            _ => return Outcome::reply(format!("MESSAGE INFO {key} is not used; ignored")),
        }
        Outcome::default()
    }

    /// A new size rebuilds the engine; the same size keeps it, and what its table knows (a
    /// manager may repeat its settings every game, or every move).
    fn set_table_bytes(&mut self, bytes: usize) {
        if bytes != self.table_bytes {
            self.table_bytes = bytes;
            self.rebuild_engine();
        }
    }

    /// A new engine on the same position, for new memory or thread settings.
    pub(super) fn rebuild_engine(&mut self) {
        if let Some(board) = self.board().cloned() {
            self.replace_engine(board);
        }
    }

    /// Bits: 1 exactly five, 2 continuous game (some GUIs send 2 for renju), 4 renju,
    /// 8 caro. The rule takes effect now if no stone is on the board, else at the next
    /// START, RESTART, BOARD, YXBOARD or BEGIN: then, the first time it is sent (a manager
    /// may repeat its settings every move), the text of a message saying so. A rule it
    /// cannot play is an error, and the rule stays as it was.
    fn set_rule(&mut self, value: u64) -> Result<Option<String>, String> {
        let in_play = self.board().map(|b| b.rule());
        let rule = match wuzi_gomoku::record::rule_from_number(value) {
            Some(rule) => rule,
            None => {
                let keeping = match in_play {
                    Some(playing) if playing != self.rule => {
                        format!(
                            "this game goes on under {playing}, the next under {}",
                            self.rule
                        )
                    }
                    _ => format!("keeping {}", self.rule),
                };
                return Err(format!(
                    "rule {value} is not supported (freestyle 0, standard 1, renju 2 or 4); \
                     {keeping}"
                ));
            }
        };
        let new = rule != self.rule;
        self.rule = rule;
        let (Some(n), Some(playing)) = (self.size, in_play) else {
            return Ok(None);
        };
        if playing == rule {
            // Managers repeat their settings every game: nothing to start again.
            return Ok(None);
        }
        if self.board().is_some_and(|b| b.stone_count() == 0) {
            self.start(n);
            return Ok(None);
        }
        Ok(new.then(|| {
            format!(
                "INFO rule {value} ({rule}) takes effect at the next START, RESTART, BOARD, \
                 YXBOARD or BEGIN; this game goes on under {playing}"
            )
        }))
    }
}
