//! A graph file's JSON read into serde_json's [`Value`], refusing what `Value` lets
//! through: a key written twice in one object (`Value` keeps the last) and nesting deeper
//! than any graph within [`MAX_DEPTH`] can be (serde_json's own limit is 128, with a message
//! of its own). Every problem, a syntax error too, names the JSON path where it was found.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use super::spec::MAX_DEPTH;
use super::GraphError;

/// Deepest nesting of JSON objects and arrays a graph file may have: the file and its
/// `nodes` (2), and a chain of [`MAX_DEPTH`] nodes written in place, each perhaps inside a
/// `displacement` array (2 each), with room to spare.
pub const MAX_NESTING: usize = 2 * MAX_DEPTH + 4;

/// Where a value is: the way down from the file, for its JSON path.
#[derive(Clone, Copy)]
enum At<'a> {
    Root,
    Key(&'a str, &'a At<'a>),
    Index(usize, &'a At<'a>),
}

impl At<'_> {
    /// `nodes.out.displacement[1].type`.
    fn path(&self) -> String {
        match self {
            At::Root => String::new(),
            At::Key(key, parent) => match parent.path() {
                p if p.is_empty() => key.to_string(),
                p => format!("{p}.{key}"),
            },
            At::Index(i, parent) => format!("{}[{i}]", parent.path()),
        }
    }
}

/// What stopped the reading.
enum Found {
    /// A syntax error, first met at this path.
    Syntax(String),
    /// A refusal of this reader's own.
    Refused(GraphError),
}

/// Reads one value at `at`, `depth` arrays and objects deep (the file's object is 1).
struct Reader<'a> {
    at: &'a At<'a>,
    depth: usize,
    found: &'a RefCell<Option<Found>>,
}

impl<'a> Reader<'a> {
    fn child<'b>(&'b self, at: &'b At<'b>) -> Reader<'b> {
        Reader {
            at,
            depth: self.depth + 1,
            found: self.found,
        }
    }

    /// Notes where `e` was first met (the innermost value that saw it) and passes it on.
    fn blame<E>(&self, at: &At, e: E) -> E {
        let mut found = self.found.borrow_mut();
        if found.is_none() {
            *found = Some(Found::Syntax(at.path()));
        }
        e
    }

    fn refuse<E: de::Error>(&self, at: &At, message: String) -> E {
        *self.found.borrow_mut() = Some(Found::Refused(GraphError {
            path: at.path(),
            message,
        }));
        E::custom("refused")
    }

    fn enter<E: de::Error>(&self) -> Result<(), E> {
        if self.depth > MAX_NESTING {
            return Err(self.refuse(
                self.at,
                format!(
                    "the graph is deeper than {MAX_DEPTH} nodes (JSON nested more than \
                     {MAX_NESTING} levels)"
                ),
            ));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Reader<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Reader<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        self.enter()?;
        let mut items = Vec::new();
        loop {
            let at = At::Index(items.len(), self.at);
            match seq.next_element_seed(self.child(&at)) {
                Ok(Some(v)) => items.push(v),
                Ok(None) => return Ok(Value::Array(items)),
                Err(e) => return Err(self.blame(&at, e)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        self.enter()?;
        let mut map = Map::new();
        loop {
            let key: String = match access.next_key() {
                Ok(Some(key)) => key,
                Ok(None) => return Ok(Value::Object(map)),
                Err(e) => return Err(self.blame(self.at, e)),
            };
            let at = At::Key(&key, self.at);
            if map.contains_key(&key) {
                return Err(self.refuse(
                    &at,
                    "written twice (each key once in an object)".to_string(),
                ));
            }
            let v = match access.next_value_seed(self.child(&at)) {
                Ok(v) => v,
                Err(e) => return Err(self.blame(&at, e)),
            };
            map.insert(key, v);
        }
    }
}

/// `text` as JSON: the file's value, or the first problem with its JSON path.
pub fn parse(text: &str) -> Result<Value, GraphError> {
    let found = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let reader = Reader {
        at: &At::Root,
        depth: 1,
        found: &found,
    };
    let read = reader
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v));
    read.map_err(|e| match found.into_inner() {
        Some(Found::Refused(error)) => error,
        Some(Found::Syntax(path)) => GraphError {
            path,
            message: format!("not valid JSON: {e}"),
        },
        None => GraphError {
            path: String::new(),
            message: format!("not valid JSON: {e}"),
        },
    })
}
