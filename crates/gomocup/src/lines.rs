//! Reading protocol text a line at a time, for both ends: the engine reads its manager's
//! commands ([`crate::run`]) and `wuzi match` reads an external engine's replies. Either end
//! may be careless: lines end in `\r\n`, `\n` or `\r` alone (engines written for Windows), text
//! may not be UTF-8 (an `INFO folder` path in a Windows code page, a Latin-1 `MESSAGE`), and a
//! line may never end.

use std::io::{BufRead, ErrorKind};

/// The longest line kept: the rest of a longer line is dropped, so the other end can neither
/// fill this one's memory nor hold it waiting for the end of the line. Far longer than any
/// command, move or message.
pub const MAX_LINE: usize = 64 * 1024;

/// One line as read: trimmed, never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    /// The line was longer than [`MAX_LINE`] bytes: `text` is its start only.
    pub cut: bool,
}

/// The first `chars` characters of `text`, and whether that left some out: a long line is
/// quoted by its start.
pub fn start_of(text: &str, chars: usize) -> (&str, bool) {
    match text.char_indices().nth(chars) {
        Some((cut, _)) => (&text[..cut], true),
        None => (text, false),
    }
}

/// `text` with each control character shown as `?`: text quoted from the other end goes out
/// again (in a protocol reply, on a terminal, into a record), where a NUL or a carriage
/// return would break the line and an escape sequence would act.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// Reads `reader` a line at a time and hands each line to `take`, as soon as its `\r` or `\n`
/// arrives (a reply must not wait for more output). A `\r\n` ends a line and then an empty
/// one; empty lines (after trimming) are skipped. Bytes that are not UTF-8 are replaced, not
/// fatal. A line longer than [`MAX_LINE`] is handed over cut as soon as that is known, and
/// the rest of it dropped. Stops when the input ends or fails (handing over a last line
/// without an end), or when `take` returns false (nobody listens).
pub fn read_lines(mut reader: impl BufRead, mut take: impl FnMut(Line) -> bool) {
    let mut bytes: Vec<u8> = Vec::new();
    // Past the cut of an over-long line: its bytes are dropped until its end.
    let mut dropping = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) => break,
            Ok(buf) => buf,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let end = buf.iter().position(|&b| b == b'\r' || b == b'\n');
        let body = &buf[..end.unwrap_or(buf.len())];
        let mut cut_now = false;
        if !dropping {
            let room = MAX_LINE - bytes.len();
            bytes.extend_from_slice(&body[..body.len().min(room)]);
            cut_now = body.len() > room;
        }
        let used = end.map_or(buf.len(), |i| i + 1);
        reader.consume(used);
        if cut_now {
            dropping = end.is_none();
            if !hand_over(&mut bytes, true, &mut take) {
                return;
            }
        } else if end.is_some() {
            // After a cut `bytes` is empty, so the end of a dropped line hands nothing over.
            dropping = false;
            if !hand_over(&mut bytes, false, &mut take) {
                return;
            }
        }
    }
    hand_over(&mut bytes, false, &mut take);
}

/// Gives `take` the line in `bytes` unless it is empty, and empties `bytes`; false when
/// `take` wants no more.
fn hand_over(bytes: &mut Vec<u8>, cut: bool, take: &mut impl FnMut(Line) -> bool) -> bool {
    let text = String::from_utf8_lossy(bytes).trim().to_string();
    bytes.clear();
    text.is_empty() || take(Line { text, cut })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::collection::vec;
    use proptest::prelude::*;
    use proptest::sample::select;
    use std::cell::Cell;
    use std::io::{Cursor, Read};
    use std::rc::Rc;

    /// Every line `read_lines` gives for `bytes`, read through a buffer of `capacity` bytes.
    fn read_in_chunks(bytes: &[u8], capacity: usize) -> Vec<Line> {
        let mut lines = Vec::new();
        let reader = std::io::BufReader::with_capacity(capacity, bytes);
        read_lines(reader, |l| {
            lines.push(l);
            true
        });
        lines
    }

    fn read_all(bytes: &[u8]) -> Vec<Line> {
        read_in_chunks(bytes, 8 * 1024)
    }

    fn texts(lines: &[Line]) -> Vec<&str> {
        lines.iter().map(|l| l.text.as_str()).collect()
    }

    /// An engine that printed without ever ending its line made the manager keep all of it
    /// (memory without bound) and wait for its end (a time-out, not the garbage it is).
    #[test]
    fn a_line_too_long_is_cut_and_the_rest_of_it_dropped() {
        let mut endless = vec![b'x'; 5 * MAX_LINE / 2];
        endless.extend_from_slice(b"\n7,7\n");
        let cut = Line {
            text: "x".repeat(MAX_LINE),
            cut: true,
        };
        let lines = read_all(&endless);
        assert_eq!(
            lines.len(),
            2,
            "{:?}",
            lines.iter().map(|l| l.text.len()).collect::<Vec<_>>()
        );
        assert_eq!(lines[0], cut);
        assert_eq!(texts(&lines[1..]), ["7,7"]);
        assert!(!lines[1].cut);
        assert_eq!(read_all(&endless[..3 * MAX_LINE / 2]), [cut]);
        // Exactly MAX_LINE bytes is a whole line.
        let whole = read_all(&endless[..MAX_LINE]);
        assert_eq!(whole.len(), 1);
        assert!(!whole[0].cut);
    }

    #[test]
    fn lines_are_trimmed_and_cut_at_cr_and_lf() {
        assert_eq!(
            texts(&read_all(b"OK\r\n\r\n  7,7 \rMESSAGE hi\n\nDEBUG x")),
            ["OK", "7,7", "MESSAGE hi", "DEBUG x"]
        );
    }

    /// A Latin-1 `MESSAGE` ended the output there: the engine lost as if it had crashed.
    #[test]
    fn a_line_that_is_not_utf8_is_read_with_its_bytes_replaced() {
        assert_eq!(
            texts(&read_all(b"MESSAGE caf\xe9\n7,7\n")),
            ["MESSAGE caf\u{fffd}", "7,7"]
        );
    }

    /// Gives its bytes, then fails as a pipe would that has nothing more to give yet, and
    /// notes that it was asked for more: a line handed over after that was held back.
    struct ThenFails {
        bytes: Cursor<Vec<u8>>,
        asked_past_the_end: Rc<Cell<bool>>,
    }

    impl Read for ThenFails {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.fill_buf()?;
            self.bytes.read(buf)
        }
    }

    impl BufRead for ThenFails {
        fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
            if self.bytes.position() as usize == self.bytes.get_ref().len() {
                self.asked_past_the_end.set(true);
                return Err(std::io::Error::new(ErrorKind::WouldBlock, "nothing yet"));
            }
            self.bytes.fill_buf()
        }

        fn consume(&mut self, amount: usize) {
            self.bytes.consume(amount);
        }
    }

    /// Both readers waited for a `\n`, so the reply of an engine ending its lines with `\r`
    /// alone was held until a later `\n` (or 64 KB, or the end): the engine lost on time.
    #[test]
    fn a_line_ended_by_cr_alone_is_handed_over_before_more_input_comes() {
        let asked_past_the_end = Rc::new(Cell::new(false));
        let reader = ThenFails {
            bytes: Cursor::new(b"7,7\r".to_vec()),
            asked_past_the_end: asked_past_the_end.clone(),
        };
        let mut lines = Vec::new();
        read_lines(reader, |l| {
            lines.push((l.text, asked_past_the_end.get()));
            true
        });
        assert_eq!(lines, [("7,7".to_string(), false)]);
    }

    #[test]
    fn reading_stops_when_nobody_listens() {
        let mut lines = Vec::new();
        read_lines(&b"a\nb\nc\n"[..], |l| {
            lines.push(l);
            lines.len() < 2
        });
        assert_eq!(texts(&lines), ["a", "b"]);
    }

    /// A line an engine might print, as bytes: a move (on a small board, on any, huge,
    /// negative, mangled), a protocol word with any text, garbage, bytes that are not UTF-8,
    /// or a line around [`MAX_LINE`] long.
    fn output_line() -> impl Strategy<Value = Vec<u8>> {
        let text = |s: BoxedStrategy<String>| s.prop_map(String::into_bytes);
        prop_oneof![
            6 => text((0usize..9, 0usize..9).prop_map(|(x, y)| format!("{x},{y}")).boxed()),
            2 => text((0usize..40, 0usize..40).prop_map(|(x, y)| format!("{x}, {y}")).boxed()),
            2 => text(select(vec![
                "18446744073709551616,1", "99999999999999999999,0", "-1,5", "5,-1", "+3,4",
                "3,4,1", "3;4", ",", "7,", ",7", "1e3,2", "７,７", "0x7,7", "4294967296,0",
            ]).prop_map(String::from).boxed()),
            4 => text(
                (
                    select(vec!["MESSAGE", "message", "DEBUG", "ERROR", "UNKNOWN", "OK", "ok"]),
                    "\\PC{0,12}",
                )
                    .prop_map(|(w, t)| format!("{w} {t}"))
                    .boxed()
            ),
            2 => text("\\PC{0,20}".boxed()),
            2 => vec(any::<u8>(), 0..12),
            1 => (MAX_LINE - 2..MAX_LINE + 3, prop::bool::ANY).prop_map(|(n, digits)| {
                vec![if digits { b'7' } else { b'x' }; n]
            }),
        ]
    }

    /// A whole output: lines, each ended by `\n`, `\r\n`, `\r` or nothing (run into the next).
    pub(crate) fn output() -> impl Strategy<Value = Vec<u8>> {
        vec(
            (output_line(), select(vec!["\n", "\n", "\r\n", "\r", ""])),
            0..16,
        )
        .prop_map(|lines| {
            let mut out = Vec::new();
            for (line, end) in lines {
                out.extend(line);
                out.extend(end.as_bytes());
            }
            out
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        /// Whatever the other end prints, however the pipe splits it, the lines read are
        /// exactly its pieces between `\r`s and `\n`s, each cut at [`MAX_LINE`] bytes (and
        /// marked cut when it was longer), read as UTF-8 with bad bytes replaced, trimmed,
        /// empty ones skipped.
        #[test]
        fn lines_are_the_pieces_between_line_ends_cut_at_max_line(
            bytes in output(),
            capacity in prop_oneof![1usize..16, Just(8 * 1024)],
        ) {
            let lines = read_in_chunks(&bytes, capacity);
            for line in &lines {
                prop_assert!(!line.text.is_empty() && line.text.trim() == line.text);
                prop_assert!(!line.text.contains(['\r', '\n']));
                prop_assert!(line.text.chars().count() <= MAX_LINE);
            }
            let expected: Vec<Line> = bytes
                .split(|&b| b == b'\r' || b == b'\n')
                .filter_map(|piece| {
                    let kept = &piece[..piece.len().min(MAX_LINE)];
                    let text = String::from_utf8_lossy(kept).trim().to_string();
                    let cut = piece.len() > MAX_LINE;
                    (!text.is_empty()).then_some(Line { text, cut })
                })
                .collect();
            prop_assert_eq!(lines, expected);
        }
    }
}
