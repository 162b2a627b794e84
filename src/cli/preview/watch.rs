//! `preview --graph FILE`: the graph file, watched for edits. Each change is read, checked
//! and lowered; a good one replaces the graph drawn, a bad one is reported and the last
//! good graph stays (live editing in any text editor). The panel's graph editor replaces
//! the last good graph the same way ([`lower`], [`GraphWatch::adopt`]); a graph typed there
//! first has no file to watch.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::graph::{Graph, GraphError, Program};
use anyhow::{anyhow, Result};

/// How often the file is looked at (its size and modification time; it is read only when
/// those change).
pub const POLL_PERIOD: Duration = Duration::from_millis(200);

/// The tile periods of a preview graph: the preview does not tile graphs.
const UNTILED: [f32; 4] = [0.0; 4];

/// What a look at the file found.
#[derive(Debug)]
pub enum Reload {
    /// Not time to look yet, or the file is as it was.
    Unchanged,
    /// A changed file with a good graph, lowered for the view's dimensions.
    Loaded(Program),
    /// A changed file that cannot be drawn: why (the last good graph stays).
    Failed(String),
}

/// The watched file (if the graph came from one) and its last good graph.
pub struct GraphWatch {
    path: Option<PathBuf>,
    /// The size and modification time last seen, and the text last read: a change of the
    /// first is a reason to read, a change of the second a reason to reload.
    stamp: Option<(u64, SystemTime)>,
    text: String,
    graph: Graph,
    /// The last good graph's text (the file's, or the panel editor's it was adopted from).
    graph_text: String,
    /// When [`GraphWatch::look`] next looks at the file.
    pub next_look: Instant,
}

impl GraphWatch {
    /// Reads the graph at `path` and lowers it for `dims`: the graph the window opens with.
    pub fn open(path: &Path, dims: usize) -> Result<(GraphWatch, Program)> {
        let fail = |e: String| anyhow!("--graph {}: {e}", path.display());
        let stamp = stamp(path);
        let text = crate::graph::read_file(path).map_err(|e| fail(e.to_string()))?;
        let graph = Graph::from_json(&text).map_err(|e| fail(e.to_string()))?;
        let program = graph
            .program(dims, UNTILED)
            .map_err(|e| fail(e.to_string()))?;
        let watch = GraphWatch {
            path: Some(path.to_path_buf()),
            stamp,
            graph_text: text.clone(),
            text,
            graph,
            next_look: Instant::now() + POLL_PERIOD,
        };
        Ok((watch, program))
    }

    /// A graph typed in the panel's editor (no file), lowered for `dims`.
    pub fn typed(text: &str, dims: usize) -> Result<(GraphWatch, Program), String> {
        let (graph, program) = lower(text, dims)?;
        let watch = GraphWatch {
            path: None,
            stamp: None,
            text: text.to_string(),
            graph,
            graph_text: text.to_string(),
            next_look: Instant::now(),
        };
        Ok((watch, program))
    }

    /// The file's name, for the window title ("editor" for a typed graph).
    pub fn name(&self) -> String {
        match &self.path {
            Some(path) => path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            ),
            None => "editor".to_string(),
        }
    }

    /// The file as given on the command line, for messages.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The file's text as last read (a typed graph's text).
    pub fn text(&self) -> &str {
        &self.text
    }

    /// When the file is next looked at (`None`: no file).
    pub fn next_look(&self) -> Option<Instant> {
        self.path.as_ref().map(|_| self.next_look)
    }

    /// The last good graph's text: what is drawn (a share link's graph, the iso view's
    /// key).
    pub fn graph_text(&self) -> &str {
        &self.graph_text
    }

    /// Makes `graph` (the panel editor's `text`, lowered and drawn) the last good graph.
    pub fn adopt(&mut self, graph: Graph, text: &str) {
        self.graph = graph;
        self.graph_text = text.to_string();
    }

    /// The last good graph lowered for `dims` (a dimension key).
    pub fn program(&self, dims: usize) -> Result<Program, String> {
        self.graph.program(dims, UNTILED).map_err(|e| e.to_string())
    }

    /// The last good graph on the CPU in `dims` dimensions with the lookups of `seed` (the
    /// window's), for the readout.
    pub fn sampler(&self, dims: usize, seed: u64) -> Result<crate::graph::Sampler, String> {
        self.graph.sampler(dims, seed).map_err(|e| e.to_string())
    }

    /// Looks at the file if it is time to: a changed text is checked and lowered for
    /// `dims`, and becomes the last good graph only if both succeed.
    pub fn look(&mut self, dims: usize) -> Reload {
        let Some(path) = self.path.clone() else {
            return Reload::Unchanged;
        };
        let now = Instant::now();
        if now < self.next_look {
            return Reload::Unchanged;
        }
        self.next_look = now + POLL_PERIOD;
        let stamp = stamp(&path);
        if stamp.is_some() && stamp == self.stamp {
            return Reload::Unchanged;
        }
        let text = match crate::graph::read_file(&path) {
            Ok(text) => text,
            // Editors that save by rename leave a moment without the file: look again
            // next time rather than report it.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Reload::Unchanged,
            Err(e) => {
                self.stamp = stamp;
                return Reload::Failed(e.to_string());
            }
        };
        self.stamp = stamp;
        if text == self.text {
            return Reload::Unchanged;
        }
        self.text = text;
        match lower(&self.text, dims) {
            Ok((graph, program)) => {
                self.graph = graph;
                self.graph_text = self.text.clone();
                Reload::Loaded(program)
            }
            Err(why) => Reload::Failed(why),
        }
    }
}

/// Checks and lowers a graph's text for `dims`.
pub fn lower(text: &str, dims: usize) -> Result<(Graph, Program), String> {
    lower_graph(text, dims).map_err(|e| e.to_string())
}

/// [`lower`], the error with its JSON path (the editor marks the node it names).
pub fn lower_graph(text: &str, dims: usize) -> Result<(Graph, Program), GraphError> {
    let graph = Graph::from_json(text)?;
    let program = graph.program(dims, UNTILED)?;
    Ok((graph, program))
}

/// The file's size and modification time, if it can be read.
fn stamp(path: &Path) -> Option<(u64, SystemTime)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}
