//! Untrusted text in messages (a line of `sample`'s input, a graph file's names and values):
//! quoted in part, with control characters escaped, so that an error stays one short line
//! whatever it quotes.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Bytes of untrusted text quoted in a message, at most.
pub const QUOTE_BYTES: usize = 40;

/// `text` cut to its first `max` bytes (on a character boundary), and whether it was cut.
pub fn prefix(text: &str, max: usize) -> (&str, bool) {
    if text.len() <= max {
        return (text, false);
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (&text[..end], true)
}

/// `text` quoted as Rust writes a string (control characters, quotes and backslashes
/// escaped), cut to its first [`QUOTE_BYTES`] bytes and marked with `…` when longer.
pub fn quote_prefix(text: &str) -> String {
    match prefix(text, QUOTE_BYTES) {
        (all, false) => format!("{all:?}"),
        (head, true) => format!("{head:?}…"),
    }
}

/// `text` with its control characters escaped (`\n`, `\u{1b}`) and, when that is longer
/// than `max` bytes, its middle left out (`…`): one line of bounded length that keeps both
/// ends (a JSON path's first name and its last key).
pub fn one_line(text: &str, max: usize) -> Cow<'_, str> {
    let escaped: Cow<str> = if text.chars().any(char::is_control) {
        let mut s = String::with_capacity(text.len() + 8);
        for c in text.chars() {
            if c.is_control() {
                let _ = write!(s, "{}", c.escape_debug());
            } else {
                s.push(c);
            }
        }
        Cow::Owned(s)
    } else {
        Cow::Borrowed(text)
    };
    if escaped.len() <= max {
        return escaped;
    }
    let half = max / 2;
    let (head, _) = prefix(&escaped, half);
    let mut start = escaped.len() - half;
    while !escaped.is_char_boundary(start) {
        start += 1;
    }
    Cow::Owned(format!("{head}…{}", &escaped[start..]))
}
