//! `docs/code-layout.md` lists every file under `src/` and `shaders/`, and nothing that is
//! not there; no module uses a layer above its own; no file under `src/` has tests.

use std::path::Path;

/// The folders whose every file the layout lists.
const LISTED_FOLDERS: [&str; 2] = ["src", "shaders"];

/// Every file under `folder` (relative to `root`), as repository paths with `/` separators.
fn files_under(root: &Path, folder: &str) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending = vec![root.join(folder)];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
                .path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(root).expect("under the root");
                let parts: Vec<String> = relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                files.push(parts.join("/"));
            }
        }
    }
    files.sort();
    files
}

/// The backticked spans of `doc` that name a path under one of [`LISTED_FOLDERS`].
fn listed_paths(doc: &str) -> Vec<&str> {
    doc.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            !span.contains(char::is_whitespace)
                && LISTED_FOLDERS
                    .iter()
                    .any(|folder| span.starts_with(&format!("{folder}/")))
        })
        .collect()
}

#[test]
fn every_source_file_is_listed_in_code_layout() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc_path = root.join("docs/code-layout.md");
    let doc = std::fs::read_to_string(&doc_path)
        .unwrap_or_else(|e| panic!("{}: {e}", doc_path.display()));

    let unlisted: Vec<String> = LISTED_FOLDERS
        .iter()
        .flat_map(|folder| files_under(root, folder))
        .filter(|file| !doc.contains(&format!("`{file}`")))
        .collect();
    let missing: Vec<&str> = listed_paths(&doc)
        .into_iter()
        .filter(|path| !root.join(path).exists())
        .collect();

    assert!(
        unlisted.is_empty() && missing.is_empty(),
        "docs/code-layout.md is out of date.\n\
         Files not listed (add each, in backticks, with a line on what it is): {unlisted:#?}\n\
         Listed paths that do not exist (remove or rename them): {missing:#?}"
    );
}

/// One layer of `docs/code-layout.md`'s "Layers" list: its number (1 is the lowest) and the
/// paths (files, or folders ending in `/`) it holds.
struct Layer {
    number: usize,
    name: String,
    paths: Vec<String>,
}

/// The layers section of `doc`: lines `N. name: `path`, `path`, …`.
fn layers(doc: &str) -> Vec<Layer> {
    let section = doc
        .split("\n## Layers\n")
        .nth(1)
        .expect("docs/code-layout.md has a \"## Layers\" section");
    let section = section.split("\n## ").next().unwrap_or(section);
    section
        .lines()
        .filter_map(|line| {
            let (number, rest) = line.split_once(". ")?;
            let number: usize = number.trim().parse().ok()?;
            let (name, paths) = rest.split_once(':')?;
            let paths = paths
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect();
            Some(Layer {
                number,
                name: name.trim().to_string(),
                paths,
            })
        })
        .collect()
}

/// The layer of `file`: the one whose path is the longest match (a file, or a folder it is
/// under).
fn layer_of<'a>(layers: &'a [Layer], file: &str) -> Option<&'a Layer> {
    layers
        .iter()
        .flat_map(|layer| layer.paths.iter().map(move |path| (layer, path)))
        .filter(|(_, path)| file == *path || (path.ends_with('/') && file.starts_with(*path)))
        .max_by_key(|(_, path)| path.len())
        .map(|(layer, _)| layer)
}

/// The module path of a source file: `src/graph/spec.rs` → `graph::spec`,
/// `src/graph/mod.rs` → `graph`, a crate root → nothing.
fn module_of(file: &str) -> Vec<String> {
    let path = file.strip_prefix("src/").expect("a file under src/");
    let path = path.strip_suffix(".rs").expect("a Rust file");
    let mut parts: Vec<String> = path.split('/').map(str::to_string).collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The file that defines module `module`, if there is one.
fn file_of(root: &Path, module: &[String]) -> Option<String> {
    if module.is_empty() {
        return None;
    }
    let joined = module.join("/");
    [format!("src/{joined}.rs"), format!("src/{joined}/mod.rs")]
        .into_iter()
        .find(|candidate| root.join(candidate).is_file())
}

/// The source of a file without comments (no file has unit tests:
/// [`no_source_file_has_unit_tests`]).
fn code_of(source: &str) -> String {
    source
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `use` trees written out as paths: `a::{b, c::{d, self}}` → `a::b`, `a::c::d`, `a::c`.
fn expand_use(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        return vec![path.trim_end_matches("::self").to_string()];
    };
    let prefix = tree[..open].trim_end_matches("::");
    let inner = &tree[open + 1..tree.rfind('}').expect("a closing brace")];
    // Split at the top-level commas.
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .flat_map(|part| {
            expand_use(part)
                .into_iter()
                .map(move |rest| match rest.as_str() {
                    "self" => prefix.to_string(),
                    _ => format!("{prefix}::{rest}"),
                })
        })
        .collect()
}

/// The paths `code` names that start at `crate`, `super` or `self`: every `use` item, and
/// every inline `crate::…`/`super::…` path. `pub use` in a module root (a re-export of
/// the module's own parts) is left out.
fn paths_named(code: &str, is_module_root: bool) -> Vec<String> {
    let mut paths = Vec::new();
    let mut rest_of_code = String::new();
    let mut remaining = code;
    while let Some(at) = find_use(remaining) {
        rest_of_code.push_str(&remaining[..at.start]);
        let statement = &remaining[at.start..];
        let end = statement.find(';').expect("a use statement ends with ';'");
        let reexport = statement.starts_with("pub");
        let tree = statement[..end].split_once("use ").expect("a use").1;
        if !(reexport && is_module_root) {
            paths.extend(expand_use(&tree.split_whitespace().collect::<String>()));
        }
        remaining = &statement[end + 1..];
    }
    rest_of_code.push_str(remaining);
    let bytes = rest_of_code.as_bytes();
    for start in ["crate::", "super::"] {
        for (at, _) in rest_of_code.match_indices(start) {
            let before = at.checked_sub(1).map(|i| bytes[i]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
                continue;
            }
            let path: String = rest_of_code[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            paths.push(path.trim_end_matches(':').to_string());
        }
    }
    paths
        .into_iter()
        .filter(|p| p.starts_with("crate::") || p.starts_with("super::") || p.starts_with("self::"))
        .collect()
}

/// Where the next `use` statement of `code` starts (after `pub`, `pub(crate)` … too).
fn find_use(code: &str) -> Option<std::ops::Range<usize>> {
    let mut offset = 0;
    for line in code.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let statement = trimmed
            .strip_prefix("pub(crate) ")
            .or_else(|| trimmed.strip_prefix("pub(super) "))
            .or_else(|| trimmed.strip_prefix("pub "))
            .unwrap_or(trimmed);
        if statement.starts_with("use ") {
            return Some(offset + indent..offset + line.len());
        }
        offset += line.len();
    }
    None
}

/// Where a path named in a file leads.
#[derive(Debug, PartialEq)]
enum Target {
    /// The deepest module along the path that is a file.
    File(String),
    /// An item of the crate root: a re-export (`crate::FlagField`), whose module it hides.
    Root,
}

/// Where `path`, named in `file`, leads.
fn target_of(root: &Path, file: &str, path: &str) -> Target {
    let mut module = module_of(file);
    let mut found = None;
    for (n, segment) in path.split("::").enumerate() {
        match segment {
            "crate" if n == 0 => module.clear(),
            "self" if n == 0 => {}
            // `super` of `a/b.rs` (module `a::b`) and of `a/mod.rs` (module `a`) alike.
            "super" => {
                module.pop();
            }
            _ => {
                module.push(segment.to_string());
                match file_of(root, &module) {
                    Some(next) => found = Some(next),
                    None => break,
                }
                continue;
            }
        }
        found = file_of(root, &module);
    }
    found.map_or(Target::Root, Target::File)
}

/// The library has no unit-test target (`test = false` in Cargo.toml: its tests are the
/// suites under `tests/`, which reach its internals through `test-hooks`), so a test under
/// `src/` would never be compiled or run.
#[test]
fn no_source_file_has_unit_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let with_tests: Vec<String> = files_under(root, "src")
        .into_iter()
        .filter(|file| file.ends_with(".rs"))
        .filter(|file| {
            let source = std::fs::read_to_string(root.join(file)).expect("a source file");
            source.contains("#[cfg(test)]") || source.contains("#[test]")
        })
        .collect();
    assert!(
        with_tests.is_empty(),
        "these files have tests, which never run (the library has no unit-test target): \
         move them to a module of a suite under tests/: {with_tests:#?}"
    );
}

#[test]
fn no_module_uses_a_layer_above_its_own() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/code-layout.md")).expect("the layout");
    let layers = layers(&doc);
    assert!(layers.len() >= 5, "the layers section lists the layers");
    let mut unplaced = Vec::new();
    let mut upward = Vec::new();
    let mut through_root = Vec::new();
    for file in files_under(root, "src") {
        if !file.ends_with(".rs") || file == "src/lib.rs" {
            continue;
        }
        let Some(layer) = layer_of(&layers, &file) else {
            unplaced.push(file);
            continue;
        };
        let source = std::fs::read_to_string(root.join(&file)).expect("a source file");
        let is_module_root = file.ends_with("/mod.rs") || file == "src/main.rs";
        for path in paths_named(&code_of(&source), is_module_root) {
            let target = match target_of(root, &file, &path) {
                Target::File(target) => target,
                // The top layer (the binary) may use the root's re-exports.
                Target::Root if layer.number == layers.len() => continue,
                Target::Root => {
                    through_root.push(format!("{file} uses {path}"));
                    continue;
                }
            };
            let Some(target_layer) = layer_of(&layers, &target) else {
                unplaced.push(target);
                continue;
            };
            if target_layer.number > layer.number {
                upward.push(format!(
                    "{file} ({}) uses {path} in {target} ({})",
                    layer.name, target_layer.name
                ));
            }
        }
    }
    unplaced.sort();
    unplaced.dedup();
    assert!(
        unplaced.is_empty() && upward.is_empty() && through_root.is_empty(),
        "Files in no layer of docs/code-layout.md: {unplaced:#?}\n\
         Paths from a layer to one above it: {upward:#?}\n\
         Paths through the crate root's re-exports (name the module instead): {through_root:#?}"
    );
}

#[test]
fn the_layer_check_reads_paths_as_rust_does() {
    assert_eq!(
        expand_use("crate::cpu::{lookup::{self, Cpu}, real::Real as R}"),
        [
            "crate::cpu::lookup",
            "crate::cpu::lookup::Cpu",
            "crate::cpu::real::Real"
        ]
    );
    assert_eq!(module_of("src/graph/mod.rs"), ["graph"]);
    assert_eq!(module_of("src/graph/spec.rs"), ["graph", "spec"]);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target = |file: &str, path: &str| target_of(root, file, path);
    let file = |path: &str| Target::File(path.to_string());
    assert_eq!(
        target("src/graph/spec.rs", "super::nodes::Param"),
        file("src/graph/nodes.rs")
    );
    assert_eq!(
        target("src/graph/mod.rs", "self::spec::GraphSpec"),
        file("src/graph/spec.rs")
    );
    assert_eq!(
        target("src/cpu/simd/mod.rs", "super::lookup::Cpu"),
        file("src/cpu/lookup.rs")
    );
    assert_eq!(
        target("src/cpu/simd/lanes.rs", "super::super::lattice"),
        file("src/cpu/lattice.rs")
    );
    assert_eq!(
        target("src/cpu/simd/lanes.rs", "super::F"),
        file("src/cpu/simd/mod.rs")
    );
    assert_eq!(
        target("src/cpu/simd/lanes.rs", "crate::field::FlagField"),
        file("src/field.rs")
    );
    assert_eq!(
        target("src/cpu/simd/lanes.rs", "crate::FlagField"),
        Target::Root
    );
    let paths = paths_named(
        "use crate::a::{b, c};\npub use self::d::E;\nfn f() { crate::g::h(); x_crate::no(); }",
        true,
    );
    assert_eq!(paths, ["crate::a::b", "crate::a::c", "crate::g::h"]);
}
