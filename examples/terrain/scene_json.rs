//! Scene files a reader can scan: [`Scene::to_json_string`] (fields in declaration order), with
//! every object or array that fits on one line of [`WIDTH`] characters on one line, long lists
//! of numbers wrapped, and the fields that hold their defaults left out (absent options; a
//! mass's zero velocity and external force, and `fixed: false`). The walking robot's hand-made
//! part is then one line per mass, spring and actuator.

use hooke::Scene;

/// Longest line, characters.
const WIDTH: usize = 130;

/// `scene` as JSON, laid out as the module says.
pub(crate) fn scene_json(scene: &Scene) -> String {
    let pretty = scene.to_json_string();
    let mut lines = pretty.lines();
    let first = lines.next().unwrap_or("{}");
    let mut root = Node::read(first, &mut lines);
    root.drop_defaults();
    let mut out = String::new();
    root.write(0, &mut out);
    out.push('\n');
    out
}

/// One value of pretty-printed JSON (one value per line, a container's closing bracket on a
/// line of its own): its first line without the comma (key and scalar value, or key and
/// opening bracket), and the members of an object or array.
struct Node {
    head: String,
    members: Option<Vec<Node>>,
}

impl Node {
    /// The value starting at `line`, reading the lines of its members from `lines`.
    fn read<'a>(line: &str, lines: &mut impl Iterator<Item = &'a str>) -> Self {
        let head = line.trim().trim_end_matches(',').to_string();
        if !(head.ends_with('{') || head.ends_with('[')) {
            return Self {
                head,
                members: None,
            };
        }
        let mut members = Vec::new();
        while let Some(line) = lines.next() {
            if matches!(line.trim().trim_end_matches(','), "}" | "]") {
                break;
            }
            members.push(Self::read(line, lines));
        }
        Self {
            head,
            members: Some(members),
        }
    }

    /// The key of an object member.
    fn key(&self) -> Option<&str> {
        let (key, _) = self.head.split_once("\": ")?;
        key.strip_prefix('"')
    }

    fn close(&self) -> &'static str {
        if self.head.ends_with('{') {
            "}"
        } else {
            "]"
        }
    }

    /// Leaves out what deserialises to the same value when absent.
    fn drop_defaults(&mut self) {
        let Some(members) = &mut self.members else {
            return;
        };
        members.retain(|m| !m.head.ends_with(": null"));
        let is_mass = ["mass", "position"]
            .iter()
            .all(|k| members.iter().any(|m| m.key() == Some(k)));
        if is_mass {
            members.retain(|m| {
                let one = m.inline();
                !matches!(
                    one.as_str(),
                    "\"velocity\": [0.0, 0.0, 0.0]"
                        | "\"external_force\": [0.0, 0.0, 0.0]"
                        | "\"fixed\": false"
                )
            });
        }
        members.iter_mut().for_each(Self::drop_defaults);
    }

    /// The value on one line, a space after each comma.
    fn inline(&self) -> String {
        let Some(members) = &self.members else {
            return self.head.clone();
        };
        let inner: Vec<String> = members.iter().map(Self::inline).collect();
        match (self.close(), inner.is_empty()) {
            (close, true) => format!("{}{close}", self.head),
            ("}", false) => format!("{} {} }}", self.head, inner.join(", ")),
            (_, false) => format!("{}{}]", self.head, inner.join(", ")),
        }
    }

    /// Writes the value starting at column `indent`.
    fn write(&self, indent: usize, out: &mut String) {
        let one = self.inline();
        let members = match &self.members {
            Some(members) if indent + one.len() > WIDTH => members,
            _ => {
                out.push_str(&one);
                return;
            }
        };
        let pad = " ".repeat(indent + 2);
        out.push_str(&self.head);
        out.push('\n');
        let numbers = members
            .iter()
            .all(|m| m.members.is_none() && m.head.parse::<f64>().is_ok());
        if numbers {
            // Wrapped, as many to a line as fit.
            let mut line = pad.clone();
            for (i, m) in members.iter().enumerate() {
                let comma = if i + 1 < members.len() { "," } else { "" };
                if line.len() + m.head.len() + 2 > WIDTH && line.len() > pad.len() {
                    out.push_str(line.trim_end());
                    out.push('\n');
                    line.clone_from(&pad);
                }
                line.push_str(&m.head);
                line.push_str(comma);
                line.push(' ');
            }
            out.push_str(line.trim_end());
            out.push('\n');
        } else {
            for (i, m) in members.iter().enumerate() {
                out.push_str(&pad);
                m.write(indent + 2, out);
                out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
            }
        }
        out.push_str(&" ".repeat(indent));
        out.push_str(self.close());
    }
}
