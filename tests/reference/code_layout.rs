//! `docs/code-layout.md` lists every file under `src/` and `shaders/`, and nothing that is
//! not there.

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
