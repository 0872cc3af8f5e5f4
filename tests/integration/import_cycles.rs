//! The files of `src/` depend on each other one way. A file depends on another when it names an
//! item defined there: in a `use` line, in a path written out in code (`crate::a::b::f()`), in a
//! macro call or an attribute; a path through a `pub use` re-export counts as naming the file that
//! defines the item, and unit tests (`#[cfg(test)]`) do not count. The checks:
//!
//! - no import cycle between files, in the library and in the `hooke` command;
//! - the layers: `model/` (what a simulation is) needs neither backend, nor the renderer, nor
//!   anything built on top of it; the GPU World, the CPU reference and the renderer do not reach
//!   into each other.
//!
//! A failure lists every cycle (or forbidden dependency) with the path that makes each edge.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

/// A module's path inside its crate: `["gpu", "world"]` for `src/gpu/world/mod.rs`.
type ModPath = Vec<String>;

/// One crate's files by module path, and the `pub use` re-exports of each module.
struct Crate {
    /// Module path -> file (relative to the repository root, for messages).
    files: BTreeMap<ModPath, PathBuf>,
    /// (module, exported name) -> the absolute path it re-exports.
    reexports: BTreeMap<(ModPath, String), ModPath>,
    /// Every reference found, per file: (absolute path named, as written).
    references: BTreeMap<PathBuf, Vec<(ModPath, String)>>,
}

/// The dependencies between a crate's files: (from, to) -> the path that makes the edge.
type Edges = BTreeMap<(PathBuf, PathBuf), String>;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The module path of a file of the crate rooted at `dir` (`lib.rs`/`main.rs` are the root).
fn module_path(dir: &Path, file: &Path) -> ModPath {
    let relative = file.strip_prefix(dir).expect("file inside its crate");
    let mut path: ModPath = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        path.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        path.pop();
    }
    path
}

fn rust_files(dir: &Path, skip: Option<&Path>, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if Some(path.as_path()) == skip {
            continue;
        }
        if path.is_dir() {
            rust_files(&path, skip, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .meta
                .require_list()
                .is_ok_and(|list| list.tokens.to_string().contains("test"))
    })
}

fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item;
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// Collects the references and re-exports of one file.
struct FileVisitor<'a> {
    /// The module the visitor is in (the file's, then inline modules').
    module: ModPath,
    references: Vec<(ModPath, String)>,
    reexports: &'a mut BTreeMap<(ModPath, String), ModPath>,
}

impl FileVisitor<'_> {
    /// The absolute path of `segments` written in the current module: from the crate's root
    /// after `crate`, else from the current module (a path into another crate, `std::..`, then
    /// names no file of this crate and resolves to the current file, which is no edge).
    fn absolute(&self, segments: &[String]) -> Option<ModPath> {
        let mut base = self.module.clone();
        let mut rest = segments;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                base.clear();
                rest = &rest[1..];
            }
            Some("super" | "self") => {
                while let Some(first) = rest.first() {
                    match first.as_str() {
                        "super" => {
                            base.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
            }
            Some(_) => {}
            None => return None,
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    fn reference(&mut self, segments: &[String]) {
        if let Some(path) = self.absolute(segments) {
            self.references.push((path, segments.join("::")));
        }
    }

    /// Every path a `use` tree names, as segments (a glob names its module).
    fn use_paths(
        tree: &syn::UseTree,
        prefix: &mut Vec<String>,
        out: &mut Vec<(Vec<String>, String)>,
    ) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                Self::use_paths(&p.tree, prefix, out);
                prefix.pop();
            }
            syn::UseTree::Name(n) => {
                let mut path = prefix.clone();
                path.push(n.ident.to_string());
                out.push((path, n.ident.to_string()));
            }
            syn::UseTree::Rename(r) => {
                let mut path = prefix.clone();
                path.push(r.ident.to_string());
                out.push((path, r.rename.to_string()));
            }
            syn::UseTree::Glob(_) => out.push((prefix.clone(), "*".into())),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    Self::use_paths(tree, prefix, out);
                }
            }
        }
    }

    /// Paths in tokens that start at `crate`, `super` or `self`: `crate :: a :: b` token runs
    /// (in code, macro calls and attributes alike; doc comments are string literals).
    fn token_paths(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Group(group) => self.token_paths(group.stream()),
                TokenTree::Ident(ident)
                    if ["crate", "super", "self"].contains(&ident.to_string().as_str()) =>
                {
                    let mut segments = vec![ident.to_string()];
                    let mut j = i + 1;
                    while let (
                        Some(TokenTree::Punct(a)),
                        Some(TokenTree::Punct(b)),
                        Some(TokenTree::Ident(next)),
                    ) = (tokens.get(j), tokens.get(j + 1), tokens.get(j + 2))
                    {
                        if a.as_char() != ':' || b.as_char() != ':' {
                            break;
                        }
                        segments.push(next.to_string());
                        j += 3;
                    }
                    if segments.len() > 1 {
                        self.reference(&segments);
                    }
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

impl FileVisitor<'_> {
    /// The items of a file or an inline module: `use` lines and inline modules by their
    /// structure, every other item by the paths in its tokens; unit tests left out.
    fn items(&mut self, items: &[syn::Item]) {
        for item in items {
            if is_cfg_test(item_attrs(item)) {
                continue;
            }
            match item {
                syn::Item::Use(item) => self.use_item(item),
                syn::Item::Mod(module) => {
                    self.module.push(module.ident.to_string());
                    if let Some((_, items)) = &module.content {
                        self.items(items);
                    }
                    self.module.pop();
                }
                other => self.token_paths(other.to_token_stream()),
            }
        }
    }

    fn use_item(&mut self, item: &syn::ItemUse) {
        let mut paths = Vec::new();
        Self::use_paths(&item.tree, &mut Vec::new(), &mut paths);
        let exported = !matches!(item.vis, syn::Visibility::Inherited);
        for (segments, name) in paths {
            if exported {
                if let (Some(path), false) = (self.absolute(&segments), name == "*") {
                    self.reexports.insert((self.module.clone(), name), path);
                }
            } else {
                self.reference(&segments);
            }
        }
    }
}

impl Crate {
    /// Reads the crate whose root file is in `dir`, leaving out the folder `skip`.
    fn read(dir: &Path, skip: Option<&Path>) -> Crate {
        let mut paths = Vec::new();
        rust_files(dir, skip, &mut paths);
        let root = repository();
        let mut krate = Crate {
            files: BTreeMap::new(),
            reexports: BTreeMap::new(),
            references: BTreeMap::new(),
        };
        for path in paths {
            let module = module_path(dir, &path);
            let text = std::fs::read_to_string(&path).expect("source file");
            let file = syn::parse_file(&text)
                .unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
            let mut visitor = FileVisitor {
                module: module.clone(),
                references: Vec::new(),
                reexports: &mut krate.reexports,
            };
            visitor.items(&file.items);
            let name = path
                .strip_prefix(&root)
                .expect("inside the repository")
                .to_path_buf();
            krate.references.insert(name.clone(), visitor.references);
            krate.files.insert(module, name);
        }
        krate
    }

    /// The file that defines what `path` names: the deepest module file on the path, following a
    /// re-export where the path names an item re-exported by a module.
    fn defining_file(&self, path: &[String], depth: usize) -> Option<&PathBuf> {
        let mut module: ModPath = Vec::new();
        for segment in path {
            let mut next = module.clone();
            next.push(segment.clone());
            if self.files.contains_key(&next) {
                module = next;
                continue;
            }
            let key = (module.clone(), segment.clone());
            if let (Some(target), true) = (self.reexports.get(&key), depth < 16) {
                if target.as_slice() != path {
                    return self.defining_file(target, depth + 1);
                }
            }
            break;
        }
        self.files.get(&module)
    }

    fn edges(&self) -> Edges {
        let mut edges = Edges::new();
        for (from, references) in &self.references {
            for (path, written) in references {
                if let Some(to) = self.defining_file(path, 0) {
                    if to != from {
                        edges
                            .entry((from.clone(), to.clone()))
                            .or_insert_with(|| written.clone());
                    }
                }
            }
        }
        edges
    }
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn cycles(edges: &Edges) -> Vec<Vec<PathBuf>> {
    struct Tarjan<'a> {
        next: BTreeMap<&'a PathBuf, Vec<&'a PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        on_stack: BTreeSet<&'a PathBuf>,
        found: Vec<Vec<PathBuf>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a PathBuf) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.next.get(v).cloned().unwrap_or_default() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut tarjan = Tarjan {
        next: BTreeMap::new(),
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        found: Vec::new(),
    };
    for (from, to) in edges.keys() {
        tarjan.next.entry(from).or_default().push(to);
    }
    let nodes: Vec<&PathBuf> = tarjan.next.keys().copied().collect();
    for v in nodes {
        if !tarjan.index.contains_key(v) {
            tarjan.visit(v);
        }
    }
    tarjan.found
}

fn describe_cycles(edges: &Edges) -> String {
    let mut text = String::new();
    for component in cycles(edges) {
        let members: BTreeSet<&PathBuf> = component.iter().collect();
        text += &format!("\ncycle of {} files:\n", component.len());
        for ((from, to), written) in edges {
            if members.contains(from) && members.contains(to) {
                text += &format!("  {} -> {} ({written})\n", from.display(), to.display());
            }
        }
    }
    text
}

fn library() -> Crate {
    let src = repository().join("src");
    Crate::read(&src, Some(&src.join("bin")))
}

#[test]
fn the_library_has_no_import_cycle() {
    let cycles = describe_cycles(&library().edges());
    assert!(
        cycles.is_empty(),
        "files of src/ that import each other:{cycles}"
    );
}

#[test]
fn the_command_has_no_import_cycle() {
    let command = Crate::read(&repository().join("src/bin/hooke"), None);
    let cycles = describe_cycles(&command.edges());
    assert!(
        cycles.is_empty(),
        "files of src/bin/hooke/ that import each other:{cycles}"
    );
}

/// Folders of `src/` and the folders they must not depend on.
const FORBIDDEN: &[(&str, &[&str])] = &[
    (
        "src/model",
        &[
            "src/cpu",
            "src/gpu",
            "src/render",
            "src/population",
            "src/creatures",
            "src/scene",
            "src/builders",
            "src/simulation.rs",
            "src/control",
        ],
    ),
    (
        "src/gpu",
        &["src/cpu", "src/render", "src/population", "src/creatures"],
    ),
    (
        "src/cpu",
        &["src/gpu", "src/render", "src/population", "src/creatures"],
    ),
    ("src/render", &["src/cpu", "src/population"]),
];

#[test]
fn the_backends_and_the_model_depend_one_way() {
    let mut found = String::new();
    for ((from, to), written) in library().edges() {
        for (folder, forbidden) in FORBIDDEN {
            let bad = forbidden.iter().find(|f| to.starts_with(f));
            if let (true, Some(bad)) = (from.starts_with(folder), bad) {
                found += &format!(
                    "\n  {} -> {} ({written}): {folder} must not depend on {bad}",
                    from.display(),
                    to.display()
                );
            }
        }
    }
    assert!(found.is_empty(), "dependencies against the layers:{found}");
}

/// The checks above see what they should: a cycle made on purpose is found.
#[test]
fn a_cycle_between_two_files_is_found() {
    let a = PathBuf::from("src/a.rs");
    let b = PathBuf::from("src/b.rs");
    let c = PathBuf::from("src/c.rs");
    let mut edges = Edges::new();
    edges.insert((a.clone(), b.clone()), "crate::b::B".into());
    edges.insert((b.clone(), c.clone()), "crate::c::C".into());
    assert!(cycles(&edges).is_empty());
    edges.insert((c.clone(), a.clone()), "crate::a::A".into());
    assert_eq!(cycles(&edges), vec![vec![a, b, c]]);
}

/// Paths are resolved to the file that defines the item, through re-exports.
#[test]
fn a_path_through_a_reexport_names_the_defining_file() {
    let library = library();
    let world = library.defining_file(&["CpuWorld".to_string()], 0);
    assert_eq!(world, Some(&PathBuf::from("src/cpu/world.rs")));
    let error = library.defining_file(&["error".into(), "Error".into()], 0);
    assert_eq!(error, Some(&PathBuf::from("src/error.rs")));
}
