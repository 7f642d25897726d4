//! What the player asks for, independent of the key or mouse button that asked: the games'
//! state machines take these, so tests drive them without a terminal.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// One request of the player.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Up,
    Down,
    Left,
    Right,
    /// Play at the cursor.
    Place,
    /// Play at (column from the left, row from the top): a mouse click.
    PlaceAt(usize, usize),
    Undo,
    Hint,
    /// Grade every move of the game, as `wuzi review` does.
    Review,
    /// Turn the analysis on or off: the engine thinks for the side to move, the player
    /// plays both sides.
    Analyse,
    /// How many of the engine's best moves the analysis shows: 1, 3 or 5, in turn.
    MoreLines,
    NewGame,
    Save,
    SwapColours,
    ToggleHelp,
    Quit,
    /// Open the prompt for a move by name (`h8`): the letters would otherwise be commands.
    TypeMove,
    /// A character typed into the prompt.
    Text(char),
    /// The prompt's last character taken back.
    Erase,
    /// Esc: the prompt or the key list closed; otherwise, quit.
    Cancel,
    /// A key with no command: it only closes the key list ("any key hides them").
    Other,
}

/// The keys, as `?` lists them: (keys, what they do).
pub const KEYS: &[(&str, &str)] = &[
    ("arrows, hjkl", "move the cursor"),
    ("Enter, Space, click", "play at the cursor"),
    (":", "type a move (h8), Enter to play it"),
    ("u, Backspace", "undo (your move and the reply)"),
    ("t", "hint: what the engine would play"),
    ("r", "review: every move graded (?! ? ??)"),
    ("a", "analysis: you play both sides, wuzi thinks"),
    ("m", "analysis: 1, 3 or 5 best moves"),
    ("n", "new game (twice mid-game)"),
    ("s", "save the game (SGF)"),
    ("c", "swap colours"),
    ("?", "show these keys (any key hides them)"),
    (
        "q, Esc, Ctrl-C, Ctrl-D",
        "quit (Esc: twice mid-game; here it closes this list)",
    ),
];

/// The keys tic-tac-toe takes, as its `?` lists them: Gomoku's without the move prompt,
/// review, analysis and saving.
pub const TICTACTOE_KEYS: &[(&str, &str)] = &[
    ("arrows, hjkl", "move the cursor"),
    ("Enter, Space, click", "play at the cursor"),
    ("u, Backspace", "undo (your move and the reply)"),
    ("t", "hint: what the AI would play"),
    ("n", "new game"),
    ("c", "swap colours"),
    ("?", "show these keys (any key hides them)"),
    ("q, Esc, Ctrl-C, Ctrl-D", "quit (Esc here closes this list)"),
];

/// The request a key press makes, if any.
pub fn from_key(key: KeyEvent) -> Option<Input> {
    read_key(key, command)
}

/// The request a key press makes while the move prompt is open: every character is text.
pub fn from_typed_key(key: KeyEvent) -> Option<Input> {
    read_key(key, text)
}

/// What both key maps share: releases are ignored, Ctrl-C and Ctrl-D quit; `plain` maps the
/// rest.
fn read_key(key: KeyEvent, plain: fn(KeyCode) -> Option<Input>) -> Option<Input> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c' | 'd')).then_some(Input::Quit);
    }
    plain(key.code)
}

fn command(code: KeyCode) -> Option<Input> {
    Some(match code {
        KeyCode::Up | KeyCode::Char('k') => Input::Up,
        KeyCode::Down | KeyCode::Char('j') => Input::Down,
        KeyCode::Left | KeyCode::Char('h') => Input::Left,
        KeyCode::Right | KeyCode::Char('l') => Input::Right,
        KeyCode::Enter | KeyCode::Char(' ') => Input::Place,
        KeyCode::Char('u') | KeyCode::Backspace => Input::Undo,
        KeyCode::Char('t') => Input::Hint,
        KeyCode::Char('r') => Input::Review,
        KeyCode::Char('a') => Input::Analyse,
        KeyCode::Char('m') => Input::MoreLines,
        KeyCode::Char('n') => Input::NewGame,
        KeyCode::Char('s') => Input::Save,
        KeyCode::Char('c') => Input::SwapColours,
        KeyCode::Char('?') | KeyCode::F(1) => Input::ToggleHelp,
        KeyCode::Char('q') => Input::Quit,
        KeyCode::Esc => Input::Cancel,
        KeyCode::Char(':') => Input::TypeMove,
        _ => Input::Other,
    })
}

fn text(code: KeyCode) -> Option<Input> {
    Some(match code {
        KeyCode::Enter => Input::Place,
        KeyCode::Esc => Input::Cancel,
        KeyCode::Backspace => Input::Erase,
        KeyCode::Char(c) => Input::Text(c),
        _ => return None,
    })
}

/// Moves a cursor one step on a `width` x `height` board, stopping at the edges.
pub fn step(cursor: (usize, usize), input: Input, width: usize, height: usize) -> (usize, usize) {
    let (x, y) = cursor;
    match input {
        Input::Up => (x, y.saturating_sub(1)),
        Input::Down => (x, (y + 1).min(height - 1)),
        Input::Left => (x.saturating_sub(1), y),
        Input::Right => ((x + 1).min(width - 1), y),
        _ => cursor,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_steps() {
        let key = |code| from_key(KeyEvent::new(code, KeyModifiers::NONE));
        assert_eq!(key(KeyCode::Char('k')), Some(Input::Up));
        assert_eq!(key(KeyCode::Left), Some(Input::Left));
        assert_eq!(key(KeyCode::Enter), Some(Input::Place));
        assert_eq!(key(KeyCode::Char('r')), Some(Input::Review));
        assert_eq!(key(KeyCode::Char('a')), Some(Input::Analyse));
        assert_eq!(key(KeyCode::Char('x')), Some(Input::Other));
        assert_eq!(key(KeyCode::Tab), Some(Input::Other));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(from_key(ctrl_c), Some(Input::Quit));
        assert_eq!(step((0, 0), Input::Up, 3, 3), (0, 0));
        assert_eq!(step((0, 0), Input::Right, 3, 3), (1, 0));
        assert_eq!(step((2, 2), Input::Down, 3, 3), (2, 2));
    }

    #[test]
    fn the_move_prompt_takes_letters_as_text() {
        let typed = |code| from_typed_key(KeyEvent::new(code, KeyModifiers::NONE));
        assert_eq!(
            from_key(KeyEvent::new(KeyCode::Char(':'), KeyModifiers::NONE)),
            Some(Input::TypeMove)
        );
        assert_eq!(typed(KeyCode::Char('h')), Some(Input::Text('h')));
        assert_eq!(typed(KeyCode::Char('q')), Some(Input::Text('q')));
        assert_eq!(typed(KeyCode::Enter), Some(Input::Place));
        assert_eq!(typed(KeyCode::Backspace), Some(Input::Erase));
        assert_eq!(typed(KeyCode::Esc), Some(Input::Cancel));
        let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(from_typed_key(ctrl_c), Some(Input::Quit));
    }
}
