//! Quoting text in messages (`text`): bounded, escaped, on one line.

use wgpu_noise::text::{one_line, quote_prefix, QUOTE_BYTES};

#[test]
fn quotes_are_bounded_and_escaped() {
    assert_eq!(quote_prefix("abc"), "\"abc\"");
    assert_eq!(quote_prefix("a\nb\u{1b}"), "\"a\\nb\\u{1b}\"");
    let long = "é".repeat(100);
    let q = quote_prefix(&long);
    assert!(q.len() <= QUOTE_BYTES + 2 + "…".len(), "{q}");
    assert!(q.ends_with('…'));
}

#[test]
fn one_line_escapes_and_keeps_both_ends() {
    assert_eq!(one_line("nodes.a\nb.source", 100), "nodes.a\\nb.source");
    assert_eq!(one_line("plain", 100), "plain");
    let long = format!("nodes.{}.source", "x".repeat(10_000));
    let s = one_line(&long, 64);
    assert!(s.len() <= 64 + "…".len(), "{s}");
    assert!(s.starts_with("nodes.x") && s.ends_with("x.source"), "{s}");
}
