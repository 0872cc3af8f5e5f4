//! Broken files made from good ones: one edit at a node of a JSON document (a number that is
//! negative, zero, tiny, huge or past `u32`; a value of the wrong type; a field or element
//! removed, duplicated or added; a token JSON cannot hold, such as `NaN` or `1e999`), or the
//! text cut short. The node is picked from every node of the document, so deep fields
//! (a body's builder parameters, an obstacle's shape) are as likely as the top level.

use proptest::prelude::*;
use serde_json::{json, Value};

/// One step of a path into a JSON document.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Step {
    /// A field of an object.
    Key(String),
    /// An element of an array.
    Index(usize),
    /// Not a step: the string the edit wrote at the end of the path (an error may name the
    /// element by quoting it, as a missing image file's name).
    Wrote(String),
}

/// What an edit does at the node it picks.
#[derive(Clone, Debug)]
pub(super) enum Mutation {
    /// The node becomes this float.
    Float(f64),
    /// The node becomes this integer.
    Integer(i64),
    /// The node becomes this unsigned integer.
    Unsigned(u64),
    /// The node becomes a value of another type: a string, a bool, null, [] or {}.
    WrongType(u8),
    /// The node is removed from its object or array.
    Remove,
    /// An array node gets its first element again at the end (or an element when empty).
    Duplicate,
    /// An object node gets a field no type has.
    UnknownField,
    /// The node becomes a token JSON does not allow (`NaN`, `Infinity`, `1e999`, ...).
    Token(&'static str),
    /// The text is cut after this fraction of its bytes.
    Truncate(f64),
}

/// An edit: the node `at` (modulo the number of nodes) and what happens to it.
#[derive(Clone, Debug)]
pub(super) struct Edit {
    /// Which node, in document order.
    pub(super) at: usize,
    /// What happens there.
    pub(super) mutation: Mutation,
}

const FLOATS: &[f64] = &[
    -1.0,
    0.0,
    -0.0,
    0.5,
    1.0,
    3.0,
    1e-300,
    5e-324,
    1e12,
    4_294_967_296.0,
    1e308,
    -1e308,
    -1e6,
];
const INTEGERS: &[i64] = &[
    -1,
    0,
    1,
    2,
    3,
    7,
    65_535,
    4_294_967_295,
    4_294_967_296,
    i64::MAX,
    i64::MIN,
];
const TOKENS: &[&str] = &[
    "NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "-1e999",
    "01",
    ".5",
    "1e",
    "nul",
];

/// Any edit.
pub(super) fn edit() -> impl Strategy<Value = Edit> {
    let mutation = prop_oneof![
        3 => prop::sample::select(FLOATS).prop_map(Mutation::Float),
        3 => prop::sample::select(INTEGERS).prop_map(Mutation::Integer),
        1 => Just(Mutation::Unsigned(u64::MAX)),
        2 => (0u8..5).prop_map(Mutation::WrongType),
        2 => Just(Mutation::Remove),
        1 => Just(Mutation::Duplicate),
        1 => Just(Mutation::UnknownField),
        1 => prop::sample::select(TOKENS).prop_map(Mutation::Token),
        1 => (0.0..1.0f64).prop_map(Mutation::Truncate),
    ];
    (any::<usize>(), mutation).prop_map(|(at, mutation)| Edit { at, mutation })
}

/// Every node's path, in document order (the root first).
pub(super) fn paths(value: &Value) -> Vec<Vec<Step>> {
    let mut out = Vec::new();
    walk(value, &mut Vec::new(), &mut out);
    out
}

fn walk(value: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(here.clone());
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                here.push(Step::Key(k.clone()));
                walk(v, here, out);
                here.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                here.push(Step::Index(i));
                walk(v, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

const TOKEN_MARK: &str = "@@token@@";

/// The document `doc` with `edit` applied, as text, and the path of the node it edited.
pub(super) fn apply(doc: &Value, edit: &Edit) -> (String, Vec<Step>) {
    let mut doc = doc.clone();
    let all = paths(&doc);
    let path = all[edit.at % all.len()].clone();
    if let Mutation::Truncate(frac) = edit.mutation {
        let text = serde_json::to_string_pretty(&doc).unwrap();
        let mut cut = (text.len() as f64 * frac) as usize;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        return (text[..cut].to_owned(), Vec::new());
    }
    if matches!(edit.mutation, Mutation::Remove) {
        remove(&mut doc, &path);
    } else {
        let node = node_mut(&mut doc, &path);
        *node = replaced(node.take(), &edit.mutation);
    }
    let mut text = serde_json::to_string_pretty(&doc).unwrap();
    if let Mutation::Token(token) = edit.mutation {
        text = text.replace(&format!("\"{TOKEN_MARK}\""), token);
    }
    let mut path = path;
    if let Mutation::WrongType(0) = edit.mutation {
        path.push(Step::Wrote("text".to_owned()));
    }
    (text, path)
}

fn replaced(old: Value, mutation: &Mutation) -> Value {
    match mutation {
        Mutation::Float(x) => json!(x),
        Mutation::Integer(i) => json!(i),
        Mutation::Unsigned(u) => json!(u),
        Mutation::WrongType(k) => [
            json!("text"),
            json!(true),
            Value::Null,
            json!([]),
            json!({}),
        ][*k as usize]
            .clone(),
        Mutation::Duplicate => match old {
            Value::Array(mut items) => {
                items.push(items.first().cloned().unwrap_or(json!(0)));
                Value::Array(items)
            }
            other => json!([other]),
        },
        Mutation::UnknownField => match old {
            Value::Object(mut map) => {
                map.insert("no_such_field".into(), json!(1));
                Value::Object(map)
            }
            other => other,
        },
        Mutation::Token(_) => json!(TOKEN_MARK),
        Mutation::Remove | Mutation::Truncate(_) => unreachable!("handled by apply"),
    }
}

fn node_mut<'a>(doc: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(doc, |node, step| match step {
        Step::Key(k) => &mut node[k.as_str()],
        Step::Index(i) => &mut node[*i],
        Step::Wrote(_) => node,
    })
}

fn remove(doc: &mut Value, path: &[Step]) {
    let Some((last, parent)) = path.split_last() else {
        *doc = Value::Null;
        return;
    };
    match (node_mut(doc, parent), last) {
        (Value::Object(map), Step::Key(k)) => {
            map.remove(k);
        }
        (Value::Array(items), Step::Index(i)) => {
            items.remove(*i);
        }
        _ => unreachable!("a path follows the document"),
    }
}
