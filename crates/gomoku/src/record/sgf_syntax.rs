//! SGF's syntax, game-independent: `(;PROP[value]...;...)` collections of game trees, read
//! into nodes of properties with where each started, so that every later complaint can say
//! "line 3, column 12". Variations are kept only along the main line (the first child of
//! every node), which is what a game record means.

use std::fmt;

/// A place in the text, 1-based, for error messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub line: usize,
    pub column: usize,
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// What is wrong with a record, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub span: Span,
    pub message: String,
}

impl RecordError {
    pub fn new(span: Span, message: impl Into<String>) -> RecordError {
        RecordError {
            span,
            message: message.into(),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.span, self.message)
    }
}

impl std::error::Error for RecordError {}

/// One property: its identifier (`B`, `SZ`, ...) and its values, unescaped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    pub ident: String,
    pub values: Vec<String>,
    pub span: Span,
}

/// One node (`;...`) of the main line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Node {
    pub properties: Vec<Property>,
    pub span: Span,
}

impl Node {
    /// The first value of `ident`, when the node has it.
    pub fn get(&self, ident: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.ident == ident)
    }
}

/// The main line of one game tree, its root first.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub span: Span,
}

struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    span: Span,
}

impl Cursor<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        if c == '\n' {
            self.span.line += 1;
            self.span.column = 1;
        } else {
            self.span.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, RecordError> {
        Err(RecordError::new(self.span, message))
    }
}

/// Reads every game tree of a collection. Text before the first `(` is ignored (files often
/// start with a byte-order mark or a note); anything else out of place is an error.
#[cfg(test)]
pub fn parse_collection(text: &str) -> Result<Vec<Tree>, RecordError> {
    match parse_trees(text) {
        (trees, None) => Ok(trees),
        (_, Some(error)) => Err(error),
    }
}

/// The games of a collection in order, as far as they read: the trees before the first
/// that does not, and that one's error. A file cut short, or one bad game appended to a
/// match's record, leaves the games before it readable.
pub fn parse_trees(text: &str) -> (Vec<Tree>, Option<RecordError>) {
    let mut cursor = Cursor {
        chars: text.chars().peekable(),
        span: Span { line: 1, column: 1 },
    };
    let mut trees = Vec::new();
    while cursor.peek().is_some_and(|c| c != '(') {
        cursor.bump();
    }
    loop {
        cursor.skip_space();
        let next = match cursor.peek() {
            None => break,
            Some('(') => parse_tree(&mut cursor),
            Some(c) => cursor.error(format!("expected `(` to start a game, found `{c}`")),
        };
        match next {
            Ok(tree) => trees.push(tree),
            Err(error) => return (trees, Some(error)),
        }
    }
    if trees.is_empty() {
        let error = RecordError::new(cursor.span, "no game found (an SGF game starts with `(;`)");
        return (trees, Some(error));
    }
    (trees, None)
}

/// Reads `( sequence tree* )`, keeping the first variation's nodes after the sequence.
/// Nested variations are followed with a stack of open trees, not by recursion, and the main
/// line grows in one list, so that a record nested thousands deep is read (or refused) in
/// linear time without exhausting the thread's stack.
fn parse_tree(cursor: &mut Cursor) -> Result<Tree, RecordError> {
    /// A tree being read: where it starts, how many nodes it has, whether they belong to the
    /// main line, and whether a variation has begun in it (no node may follow one).
    struct Open {
        span: Span,
        nodes: usize,
        on_main_line: bool,
        has_variation: bool,
    }
    let span = cursor.span;
    cursor.bump(); // `(`
    let mut main_line = Vec::new();
    let mut stack = vec![Open {
        span,
        nodes: 0,
        on_main_line: true,
        has_variation: false,
    }];
    loop {
        cursor.skip_space();
        let top = stack.last_mut().expect("an open tree");
        match cursor.peek() {
            Some(';') if !top.has_variation => {
                let node_span = cursor.span;
                cursor.bump();
                let properties = parse_properties(cursor)?;
                top.nodes += 1;
                if top.on_main_line {
                    main_line.push(Node {
                        properties,
                        span: node_span,
                    });
                }
            }
            Some(';') => return cursor.error("a node after a variation; expected `(` or `)`"),
            Some('(') => {
                // Only the first variation of a main-line tree continues the main line.
                let on_main_line = top.on_main_line && !top.has_variation;
                top.has_variation = true;
                let span = cursor.span;
                cursor.bump();
                stack.push(Open {
                    span,
                    nodes: 0,
                    on_main_line,
                    has_variation: false,
                });
            }
            Some(')') => {
                cursor.bump();
                let done = stack.pop().expect("an open tree");
                // A tree may hold only variations (each checked as it closed).
                if done.nodes == 0 && !done.has_variation {
                    return Err(RecordError::new(done.span, "a game with no nodes: `()`"));
                }
                if stack.is_empty() {
                    return Ok(Tree {
                        nodes: main_line,
                        span,
                    });
                }
            }
            Some(c) => return cursor.error(format!("unexpected `{c}` (expected `;`, `(` or `)`)")),
            None => {
                return Err(RecordError::new(
                    top.span,
                    "this game is never closed with `)`",
                ))
            }
        }
    }
}

fn parse_properties(cursor: &mut Cursor) -> Result<Vec<Property>, RecordError> {
    let mut properties = Vec::new();
    // The identifiers so far, to refuse a repeated one without comparing each with each.
    let mut seen = std::collections::HashSet::new();
    loop {
        cursor.skip_space();
        let span = cursor.span;
        let mut ident = String::new();
        while let Some(c) = cursor.peek().filter(char::is_ascii_alphabetic) {
            cursor.bump();
            // FF[3] allowed lower-case letters inside identifiers (`GaMe`); they do not count.
            if c.is_ascii_uppercase() {
                ident.push(c);
            }
        }
        if ident.is_empty() {
            return match cursor.peek() {
                Some(';' | '(' | ')') | None => Ok(properties),
                Some('[') => cursor.error("a value `[...]` without a property name before it"),
                Some(c) => cursor.error(format!("unexpected `{c}` in a node")),
            };
        }
        let mut values = Vec::new();
        loop {
            cursor.skip_space();
            if cursor.peek() != Some('[') {
                break;
            }
            values.push(parse_value(cursor, &ident)?);
        }
        if values.is_empty() {
            return Err(RecordError::new(
                span,
                format!("property {ident} has no value `[...]`"),
            ));
        }
        if !seen.insert(ident.clone()) {
            return Err(RecordError::new(
                span,
                format!(
                    "property {ident} appears twice in one node (SGF allows one: give all its \
                     values in it, {ident}[..][..])"
                ),
            ));
        }
        properties.push(Property {
            ident,
            values,
            span,
        });
    }
}

/// Reads `[...]`: `\` escapes the next character, and a `\` before a line break removes both.
fn parse_value(cursor: &mut Cursor, ident: &str) -> Result<String, RecordError> {
    let span = cursor.span;
    cursor.bump(); // `[`
    let mut value = String::new();
    loop {
        match cursor.bump() {
            None => {
                return Err(RecordError::new(
                    span,
                    format!("the value of {ident} is never closed with `]`"),
                ))
            }
            Some(']') => return Ok(value),
            Some('\\') => match cursor.bump() {
                Some('\r') if cursor.peek() == Some('\n') => {
                    cursor.bump();
                }
                Some('\n' | '\r') | None => {}
                Some(c) => value.push(c),
            },
            Some(c) => value.push(c),
        }
    }
}

/// SGF text escapes `]` and `\`.
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_nodes_properties_and_escapes() {
        let trees =
            parse_collection("\u{feff}(;FF[4]C[a\\]b\\\\c\\\nd];B[hh]\n;W[ii]C[x])").unwrap();
        assert_eq!(trees.len(), 1);
        let nodes = &trees[0].nodes;
        assert_eq!(nodes.len(), 3);
        assert_eq!(nodes[0].get("C").unwrap().values, vec!["a]b\\cd"]);
        assert_eq!(nodes[2].get("W").unwrap().values, vec!["ii"]);
        assert_eq!(nodes[2].span, Span { line: 3, column: 1 });
    }

    #[test]
    fn follows_the_first_variation() {
        let trees = parse_collection("(;SZ[15];B[hh](;W[ii];B[jj])(;W[aa]))(;B[cc])").unwrap();
        assert_eq!(trees.len(), 2);
        let moves: Vec<_> = trees[0].nodes[1..]
            .iter()
            .map(|n| n.properties[0].values[0].clone())
            .collect();
        assert_eq!(moves, vec!["hh", "ii", "jj"]);
    }

    #[test]
    fn errors_say_where() {
        let error = parse_collection("(;SZ[15]\n;B[hh").unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 2, column 3: the value of B is never closed with `]`"
        );
        let error = parse_collection("(;SZ[15];B[hh]").unwrap_err();
        assert!(
            error.to_string().contains("never closed with `)`"),
            "{error}"
        );
        assert!(parse_collection("").is_err());
        assert!(parse_collection("(;B)").is_err());
        assert!(parse_collection("(;[aa])").is_err());
        assert!(parse_collection("(;B[aa]) x").is_err());
        assert!(parse_collection("()").is_err());
        let error = parse_collection("(;FF[4]AB[hh]AB[ii])").unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 1, column 14: property AB appears twice in one node (SGF allows one: give \
             all its values in it, AB[..][..])"
        );
    }

    #[test]
    fn deep_nesting_is_read_without_recursion() {
        // Deeper than any thread's stack would allow one call per level.
        let depth = 200_000;
        let text = format!("(;SZ[15]{}{})", "(;C[x]".repeat(depth), ")".repeat(depth));
        let trees = parse_collection(&text).unwrap();
        assert_eq!(trees[0].nodes.len(), depth + 1);
        let error = parse_collection(&format!("(;SZ[15]{}", "(".repeat(depth))).unwrap_err();
        assert!(error.to_string().contains("never closed"), "{error}");
        let error = parse_collection(&format!("(;SZ[15]{}", "()".repeat(3))).unwrap_err();
        assert!(error.to_string().contains("no nodes"), "{error}");
        // A sequence may be empty when variations follow it.
        let trees = parse_collection("(;GM[4]SZ[15]((;B[hh];W[ii])(;B[aa])))").unwrap();
        assert_eq!(trees[0].nodes.len(), 3);
    }
}
