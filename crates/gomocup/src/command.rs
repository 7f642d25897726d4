//! One protocol line as a command: parsing only, no state.

use wuzi_gomoku::{Point, MAX_SIZE};

/// A command from the manager. Multi-line commands (`BOARD`, `YXBOARD`, `SWAP2BOARD`) open a
/// block that the following `X,Y[,F]` lines and `DONE` fill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Start(usize),
    RectStart(usize, usize),
    Restart,
    Begin,
    Turn(Point),
    Play(Point),
    Takeback(Point),
    Board,
    YxBoard,
    Swap2Board,
    Info(String, String),
    About,
    End,
    Stop,
    ShowForbid,
    NBest(usize),
    HashClear,
    /// A line of a block: `X,Y` or `X,Y,F`.
    Stone(Point, Option<u8>),
    Done,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not a command this engine knows (the reply is `UNKNOWN`).
    Unknown(String),
    /// A known command with bad arguments (the reply is `ERROR`).
    Malformed(String),
}

/// `X,Y` with both numbers in range for any supported board.
pub fn parse_point(text: &str) -> Result<Point, String> {
    let (x, y) = text
        .split_once(',')
        .ok_or_else(|| format!("\"{text}\" is not X,Y"))?;
    let number = |s: &str| -> Result<usize, String> {
        let v: usize = s
            .trim()
            .parse()
            .map_err(|_| format!("\"{text}\" is not X,Y"))?;
        if v >= MAX_SIZE {
            return Err(format!("{text} is off every board this engine supports"));
        }
        Ok(v)
    };
    Ok(Point::new(number(x)?, number(y)?))
}

fn one_number(args: &str, name: &str) -> Result<usize, ParseError> {
    args.trim().parse().map_err(|_| {
        ParseError::Malformed(format!("{name} needs a number, got \"{}\"", args.trim()))
    })
}

fn point_arg(args: &str, name: &str) -> Result<Point, ParseError> {
    parse_point(args.trim()).map_err(|e| ParseError::Malformed(format!("{name}: {e}")))
}

/// `START N`, or Yixin-Board's `START W H` (also `W,H`): two equal numbers are a square
/// board, two different ones a rectangle (refused as `RECTSTART W,H` is).
fn start(args: &str) -> Result<Command, ParseError> {
    let numbers: Vec<&str> = args
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .collect();
    match numbers[..] {
        [w, h] => match (one_number(w, "START")?, one_number(h, "START")?) {
            (w, h) if w == h => Ok(Command::Start(w)),
            (w, h) => Ok(Command::RectStart(w, h)),
        },
        _ => Ok(Command::Start(one_number(args, "START")?)),
    }
}

/// Parses a non-empty line. Command words are case-insensitive.
pub fn parse(line: &str) -> Result<Command, ParseError> {
    let line = line.trim();
    let (word, args) = match line.split_once(char::is_whitespace) {
        Some((w, a)) => (w, a.trim()),
        None => (line, ""),
    };
    let word_upper = word.to_ascii_uppercase();
    let no_args = |c: Command| {
        if args.is_empty() {
            Ok(c)
        } else {
            Err(ParseError::Malformed(format!(
                "{word_upper} takes no arguments"
            )))
        }
    };
    match word_upper.as_str() {
        "START" => start(args),
        "RECTSTART" => {
            let (w, h) = args
                .split_once(',')
                .ok_or_else(|| ParseError::Malformed("RECTSTART needs W,H".into()))?;
            Ok(Command::RectStart(
                one_number(w, "RECTSTART")?,
                one_number(h, "RECTSTART")?,
            ))
        }
        "RESTART" => no_args(Command::Restart),
        "BEGIN" => no_args(Command::Begin),
        "TURN" => Ok(Command::Turn(point_arg(args, "TURN")?)),
        "PLAY" => Ok(Command::Play(point_arg(args, "PLAY")?)),
        "TAKEBACK" => Ok(Command::Takeback(point_arg(args, "TAKEBACK")?)),
        "BOARD" => no_args(Command::Board),
        "YXBOARD" => no_args(Command::YxBoard),
        "SWAP2BOARD" => no_args(Command::Swap2Board),
        "DONE" => no_args(Command::Done),
        "ABOUT" => no_args(Command::About),
        "END" => no_args(Command::End),
        "STOP" | "YXSTOP" => no_args(Command::Stop),
        "YXSHOWFORBID" => no_args(Command::ShowForbid),
        "YXHASHCLEAR" => no_args(Command::HashClear),
        "YXNBEST" => Ok(Command::NBest(one_number(args, "YXNBEST")?)),
        "INFO" => {
            // Even a bare `INFO` is an `Info` (with an empty key): the session answers an
            // `INFO` it cannot use with a `MESSAGE`, never an `ERROR` (see `Session::info`).
            let (key, value) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
            Ok(Command::Info(
                key.to_ascii_lowercase(),
                value.trim().to_string(),
            ))
        }
        _ if word.starts_with(|c: char| c.is_ascii_digit()) => {
            let mut parts = line.split(',').map(str::trim);
            let (x, y, f) = (parts.next(), parts.next(), parts.next());
            if parts.next().is_some() {
                return Err(ParseError::Malformed(format!("\"{line}\" is not X,Y[,F]")));
            }
            let p = parse_point(&format!("{},{}", x.unwrap_or(""), y.unwrap_or("")))
                .map_err(ParseError::Malformed)?;
            let f = match f {
                None => None,
                Some(f) => Some(
                    f.parse::<u8>()
                        .ok()
                        .filter(|f| (1..=3).contains(f))
                        .ok_or_else(|| {
                            ParseError::Malformed(format!("field \"{f}\" is not 1, 2 or 3"))
                        })?,
                ),
            };
            Ok(Command::Stone(p, f))
        }
        _ => Err(ParseError::Unknown(format!(
            "command \"{word}\" is not known"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Point::new` asserts below 22: a manager's coordinate past every board is an error
    /// before it gets there.
    #[test]
    fn coordinates_past_every_board_are_errors() {
        for bad in [
            "22,0",
            "0,22",
            "21,99",
            "99999999999999999999,0",
            "18446744073709551616,1",
        ] {
            assert!(parse_point(bad).is_err(), "{bad}");
            assert!(parse(&format!("TURN {bad}")).is_err(), "{bad}");
            assert!(parse(&format!("{bad},1")).is_err(), "{bad}");
        }
        assert_eq!(parse_point("21,21"), Ok(Point::new(21, 21)));
    }

    #[test]
    fn commands_and_arguments() {
        assert_eq!(parse("START 15"), Ok(Command::Start(15)));
        assert_eq!(parse("start 20\r"), Ok(Command::Start(20)));
        assert_eq!(parse("RECTSTART 20,15"), Ok(Command::RectStart(20, 15)));
        // Yixin-Board sends the width and the height, at every move.
        assert_eq!(parse("START 15 15"), Ok(Command::Start(15)));
        assert_eq!(parse("start 20  20\r"), Ok(Command::Start(20)));
        assert_eq!(parse("START 15,15"), Ok(Command::Start(15)));
        assert_eq!(parse("START 20 15"), Ok(Command::RectStart(20, 15)));
        assert_eq!(parse("TURN 7,8"), Ok(Command::Turn(Point::new(7, 8))));
        assert_eq!(
            parse("10,11,2"),
            Ok(Command::Stone(Point::new(10, 11), Some(2)))
        );
        assert_eq!(parse("10,11"), Ok(Command::Stone(Point::new(10, 11), None)));
        assert_eq!(
            parse("INFO TIMEOUT_TURN 5000"),
            Ok(Command::Info("timeout_turn".into(), "5000".into()))
        );
        // Answered with a MESSAGE by the session, not refused here with an ERROR.
        assert_eq!(parse("INFO"), Ok(Command::Info("".into(), "".into())));
        assert_eq!(parse("yxstop"), Ok(Command::Stop));
        assert_eq!(parse("YXNBEST 3"), Ok(Command::NBest(3)));
    }

    #[test]
    fn bad_lines() {
        assert!(matches!(parse("HELLO"), Err(ParseError::Unknown(_))));
        for line in [
            "START",
            "START x",
            "START 15 x",
            "START 15 15 15",
            "TURN 7",
            "TURN a,b",
            "TURN 99,1",
            "10,11,7",
            "1,2,3,4",
            "RECTSTART 20",
            "BEGIN now",
        ] {
            assert!(
                matches!(parse(line), Err(ParseError::Malformed(_))),
                "{line}"
            );
        }
    }
}
