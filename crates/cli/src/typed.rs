//! The lines a player types in the line modes (`wuzi play --plain`, tic-tac-toe).

use std::io::{self, BufRead};

/// What the line modes say of a line that is not text.
pub const NOT_TEXT: &str = "That line is not text (UTF-8). Type a move, or help.";

/// The lines of `input` without their line ends: `Some(text)`, or `None` for a line that is
/// not UTF-8, so that a stray byte costs that line and not the game.
pub fn text_lines(input: impl BufRead) -> impl Iterator<Item = io::Result<Option<String>>> {
    input.split(b'\n').map(|line| {
        line.map(|mut bytes| {
            if bytes.last() == Some(&b'\r') {
                bytes.pop();
            }
            String::from_utf8(bytes).ok()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_is_not_text_is_one_none_and_the_rest_read_on() {
        let input: &[u8] = b"h8\r\n\xff\xfe\n\nquit";
        let lines: Vec<Option<String>> = text_lines(input).map(Result::unwrap).collect();
        assert_eq!(
            lines,
            [
                Some("h8".into()),
                None,
                Some(String::new()),
                Some("quit".into())
            ]
        );
    }
}
