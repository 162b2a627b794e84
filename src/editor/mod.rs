//! The graph editor: the JSON text and the node view of one graph, kept in step both ways
//! (an edit of the text is read into the model, an edit on the node view writes the text),
//! and why the graph is not drawn, with the node at fault. No window, files or threads: it
//! takes an `egui::Ui` and returns whether the graph changed, so that the same code can run
//! in the browser.

#[cfg(feature = "bake")]
pub mod export;
#[cfg(feature = "gpu")]
pub mod iso;
pub mod isosurface;
pub mod model;
pub mod node_view;
pub mod orbit;
pub mod presets;
#[cfg(feature = "gpu")]
pub mod readout;
pub mod share;
#[cfg(feature = "gpu")]
pub mod terrain;
pub mod thumbs;
/// The GPU's clock the hosts time node costs with.
#[cfg(feature = "gpu")]
pub use crate::gpu::timer;

use crate::graph::GraphError;

use self::model::{EditorGraph, GraphModel};
use self::node_view::{Action, NodeView};
use self::thumbs::Thumbnails;

/// The graph editor's state.
pub struct Editor {
    /// The JSON text: what is compiled and drawn.
    pub text: String,
    /// Why the text is not drawn (the last good graph stays drawn).
    pub error: Option<String>,
    /// The node [`Editor::error`] is about.
    pub fault: Option<String>,
    /// The graph as nodes (read from the text, or edited on the node view).
    pub model: GraphModel,
    /// Why the text could not be read into the node view (not JSON, no `nodes`): the node
    /// view shows the last graph that could.
    pub unread: Option<String>,
    pub node_view: NodeView,
    /// Whether the node view is shown.
    pub nodes_shown: bool,
    /// Each node's thumbnail and cost, filled by the host ([`Thumbnails::wanted`]).
    pub thumbnails: Thumbnails,
}

impl Editor {
    /// An editor holding `text`.
    pub fn new(text: String) -> Editor {
        let (model, unread) = match GraphModel::from_json(&text) {
            Ok(model) => (model, None),
            Err(why) => (GraphModel::empty(), Some(why)),
        };
        Editor {
            text,
            error: None,
            fault: None,
            model,
            unread,
            node_view: NodeView::default(),
            nodes_shown: false,
            thumbnails: Thumbnails::default(),
        }
    }

    /// The text was edited: the model follows it where it can.
    pub fn text_edited(&mut self) {
        self.unread = self.model.read_text(&self.text).err();
    }

    /// The text replaced whole (a preset, a `--graph` file's edit): the model follows it,
    /// one step of the undo history.
    pub fn set_text(&mut self, text: String) {
        self.unread = self.model.replace_text(&text).err();
        self.text = text;
        self.set_error(None);
    }

    /// The graph's error (`None`: drawn), and the node it names.
    pub fn set_error(&mut self, error: Option<&GraphError>) {
        self.error = error.map(|e| e.to_string());
        self.fault = error
            .and_then(|e| self.model.node_at_fault(e))
            .map(str::to_string);
    }

    /// Shows the graph's JSON box in `ui`: a code editor that scrolls within `height`
    /// points (at least 3 rows) and fills them, so that a click anywhere in the box reaches
    /// the text, however short it is. Returns the text's response and the box on screen.
    pub fn show_text(
        &mut self,
        ui: &mut egui::Ui,
        id_salt: &str,
        height: f32,
    ) -> (egui::Response, egui::Rect) {
        let row = ui.text_style_height(&egui::TextStyle::Monospace);
        let height = height.max(3.0 * row);
        let scroll = egui::ScrollArea::vertical()
            .id_salt(id_salt)
            .max_height(height)
            .show(ui, |ui| {
                ui.add(
                    egui::TextEdit::multiline(&mut self.text)
                        .code_editor()
                        .desired_width(f32::INFINITY)
                        .min_size(egui::vec2(0.0, height)),
                )
            });
        (scroll.inner, scroll.inner_rect)
    }

    /// Shows the node view in `ui`; returns whether the graph changed (the text is written
    /// from the model then). An edit the model refuses is shown as the error.
    pub fn show_nodes(&mut self, ui: &mut egui::Ui, named: &mut Vec<(String, egui::Rect)>) -> bool {
        if let Some(why) = &self.unread {
            ui.colored_label(
                egui::Color32::YELLOW,
                format!("the text is not a graph's shape ({why}); showing the last one that was"),
            );
        }
        let actions = self.node_view.show(
            ui,
            &self.model,
            self.fault.as_deref(),
            &self.thumbnails,
            named,
        );
        let mut changed = false;
        for action in actions {
            let before = self.model.graph().clone();
            match action {
                Action::Undo => {
                    self.model.undo();
                }
                Action::Redo => {
                    self.model.redo();
                }
                Action::Edit(edit) => {
                    if let Err(why) = self.model.apply(edit) {
                        self.error = Some(why);
                    }
                }
            }
            changed |= drawn_differently(&before, self.model.graph());
        }
        if changed {
            self.text = self.model.to_json();
            self.unread = None;
        }
        changed
    }
}

/// Whether two graphs differ in more than their nodes' places (which the text does not hold).
fn drawn_differently(a: &EditorGraph, b: &EditorGraph) -> bool {
    a.output != b.output
        || a.nodes.len() != b.nodes.len()
        || a.nodes
            .iter()
            .zip(&b.nodes)
            .any(|(a, b)| a.name != b.name || a.type_name != b.type_name || a.params != b.params)
}
