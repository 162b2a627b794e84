//! The node view: the editor's graph drawn as nodes (frames with a header, one row per
//! parameter, ports as circles) joined by wires (Bézier curves from an output port on the
//! right to an input port on the left). It takes an `egui::Ui` and the model and returns
//! what the user asked for ([`Action`]); the caller applies it. Pan by dragging the
//! background, move a node by its header, wire by dragging from an output port to an input
//! port, unwire by clicking a wired input port, add a node from the background's
//! right-click menu.

use egui::{Color32, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use serde_json::Value;

use super::model::{
    axis_value, is_input, node_size, param_rows, type_names, Edit, EditorNode, GraphModel, AXES,
    HEADER_HEIGHT, NODE_WIDTH, ROW_HEIGHT, THUMBNAIL_ROW,
};
use super::thumbs::{Thumbnails, THUMBNAIL_SIZE};
use crate::graph::nodes::{node_type, Param, ParamKind};

/// Width of a row's parameter name; the widget takes the rest.
const LABEL_WIDTH: f32 = 78.0;
const PORT_RADIUS: f32 = 5.0;
/// An axis's port in a per-axis parameter's second row: smaller, inside the frame.
const AXIS_PORT_RADIUS: f32 = 4.0;
/// The axes' names, as a per-axis parameter's widgets show them.
const AXIS_NAMES: [&str; AXES] = ["x", "y", "z", "w"];
/// How near a port a wire dropped counts as dropped on it, in points.
const DROP_REACH: f32 = 12.0;
/// A number whose range spans at most this gets a slider; a wider one a drag value.
const SLIDER_SPAN: f64 = 1000.0;

/// What the user did in the node view.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    Edit(Edit),
    Undo,
    Redo,
}

/// The node view's own state between frames (what the graph is not: pan, selection, a wire
/// being dragged, the add menu's filter).
#[derive(Clone, Debug, Default)]
pub struct NodeView {
    /// The graph's origin on the canvas, in points from its top-left corner.
    pan: Vec2,
    selected: Option<String>,
    /// The node whose output port a wire is being dragged from.
    wiring: Option<String>,
    /// The add menu's filter text.
    filter: String,
    /// Where the add menu was opened, in graph coordinates (the new node goes there).
    menu_at: Pos2,
}

/// Where one node's parts are on the canvas.
struct Placed {
    frame: Rect,
    header: Rect,
    output: Pos2,
    /// Each parameter's row, and its input port if it takes a node.
    rows: Vec<(&'static Param, Rect, Option<Pos2>)>,
    /// Each axis of each per-axis parameter: its cell in the parameter's second row.
    axes: Vec<AxisCell>,
    /// The thumbnail's row, under the parameters.
    thumbnail: Rect,
}

/// What every node of one pass is drawn with.
struct Scene<'a> {
    painter: &'a egui::Painter,
    canvas: Rect,
    model: &'a GraphModel,
    /// The node an error names, marked red.
    fault: Option<&'a str>,
    thumbnails: &'a Thumbnails,
}

/// One axis of a per-axis parameter on the node view: its widget's cell and its port (a
/// wire dropped there gives that axis alone).
struct AxisCell {
    param: &'static Param,
    axis: usize,
    cell: Rect,
    port: Pos2,
}

fn place(node: &EditorNode, origin: Pos2) -> Placed {
    let min = origin + Vec2::from(node.place);
    let params: &[Param] = node_type(&node.type_name).map_or(&[], |t| t.params);
    let frame = Rect::from_min_size(min, Vec2::from(node_size(&node.type_name)));
    let header = Rect::from_min_size(min, Vec2::new(NODE_WIDTH, HEADER_HEIGHT));
    let (mut rows, mut axes) = (Vec::new(), Vec::new());
    let mut top = min.y + HEADER_HEIGHT;
    for p in params {
        let row = Rect::from_min_size(Pos2::new(min.x, top), Vec2::new(NODE_WIDTH, ROW_HEIGHT));
        let port = is_input(&node.type_name, p.name).then(|| Pos2::new(min.x, row.center().y));
        rows.push((p, row, port));
        top += ROW_HEIGHT;
        if param_rows(&p.kind) == 2 {
            let width = (NODE_WIDTH - 12.0) / AXES as f32;
            for axis in 0..AXES {
                let left = min.x + 6.0 + width * axis as f32;
                let cell = Rect::from_min_size(
                    Pos2::new(left, top + 1.0),
                    Vec2::new(width - 2.0, ROW_HEIGHT - 2.0),
                );
                let port = Pos2::new(left + AXIS_PORT_RADIUS + 1.0, cell.center().y);
                axes.push(AxisCell {
                    param: p,
                    axis,
                    cell,
                    port,
                });
            }
            top += ROW_HEIGHT;
        }
    }
    let thumbnail =
        Rect::from_min_size(Pos2::new(min.x, top), Vec2::new(NODE_WIDTH, THUMBNAIL_ROW));
    Placed {
        frame,
        header,
        output: Pos2::new(frame.max.x, header.center().y),
        rows,
        axes,
        thumbnail,
    }
}

/// A wire from an output port at `from` to an input port at `to`.
fn wire(painter: &egui::Painter, from: Pos2, to: Pos2, stroke: Stroke) {
    let bend = ((to.x - from.x).abs() / 2.0).max(40.0);
    painter.add(egui::epaint::CubicBezierShape::from_points_stroke(
        [from, from + Vec2::X * bend, to - Vec2::X * bend, to],
        false,
        Color32::TRANSPARENT,
        stroke,
    ));
}

impl NodeView {
    /// The selected node.
    pub fn selected(&self) -> Option<&str> {
        self.selected.as_deref()
    }

    /// Draws the toolbar and the canvas for `model` (`fault`: the node an error names,
    /// marked red; `thumbnails`: each node's picture and cost) in the rest of `ui`; names
    /// the widgets' rectangles in `named` (the preview's layout hook) and returns the
    /// user's actions.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        model: &GraphModel,
        fault: Option<&str>,
        thumbnails: &Thumbnails,
        named: &mut Vec<(String, Rect)>,
    ) -> Vec<Action> {
        let mut actions = Vec::new();
        let graph = model.graph();
        if self
            .selected
            .as_ref()
            .is_some_and(|s| model.node(s).is_none())
        {
            self.selected = None;
        }
        // The toolbar's place comes first, its buttons after the canvas: a node selected
        // there enables them in the same frame.
        let toolbar = ui
            .allocate_exact_size(
                Vec2::new(ui.available_width(), ui.spacing().interact_size.y),
                Sense::hover(),
            )
            .0;
        let (canvas, background) =
            ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
        named.push(("node_canvas".to_string(), canvas));
        let painter = ui.painter_at(canvas);
        painter.rect_filled(canvas, 0.0, ui.visuals().extreme_bg_color);
        if background.dragged() && self.wiring.is_none() {
            self.pan += background.drag_delta();
        }
        let origin = canvas.min + self.pan;
        if background.secondary_clicked() {
            self.filter.clear();
            let at = background.interact_pointer_pos().unwrap_or(canvas.center());
            self.menu_at = (at - origin).to_pos2();
        }
        if background.clicked() {
            self.selected = None;
        }
        self.add_menu(&background, named, &mut actions);

        let placed: Vec<Placed> = graph.nodes.iter().map(|n| place(n, origin)).collect();
        // A press on an output port starts a wire (by place rather than by egui's hit test,
        // which gives the press to the header or the background the port sits on).
        let pressed = ui.input(|i| {
            i.pointer
                .primary_pressed()
                .then(|| i.pointer.press_origin())
        });
        if let Some(at) = pressed.flatten().filter(|p| canvas.contains(*p)) {
            let mut ports = graph.nodes.iter().zip(&placed).rev();
            if let Some((node, _)) = ports.find(|(_, p)| p.output.distance(at) <= DROP_REACH) {
                self.wiring = Some(node.name.clone());
            }
        }
        let output_of = |name: &str| {
            graph
                .nodes
                .iter()
                .position(|n| n.name == name)
                .map(|i| placed[i].output)
        };
        let wire_stroke = Stroke::new(2.0, ui.visuals().widgets.active.fg_stroke.color);
        // The wires into ports on the frames' left edges under the nodes; those into an
        // axis's port, inside its frame, over them (below).
        let draw_wires = |axes: bool| {
            for (node, at) in graph.nodes.iter().zip(&placed) {
                for w in node
                    .wires()
                    .into_iter()
                    .filter(|w| w.axis.is_some() == axes)
                {
                    let to = match w.axis {
                        None => at
                            .rows
                            .iter()
                            .find(|(p, ..)| p.name == w.param)
                            .and_then(|(.., port)| *port),
                        Some(axis) => at
                            .axes
                            .iter()
                            .find(|c| c.param.name == w.param && c.axis == axis)
                            .map(|c| c.port),
                    };
                    if let (Some(from), Some(to)) = (output_of(w.from), to) {
                        wire(&painter, from, to, wire_stroke);
                    }
                }
            }
        };
        draw_wires(false);

        let pointer = ui.input(|i| i.pointer.latest_pos());
        let scene = Scene {
            painter: &painter,
            canvas,
            model,
            fault,
            thumbnails,
        };
        for (node, at) in graph.nodes.iter().zip(&placed) {
            self.node(ui, &scene, node, at, named, &mut actions);
        }
        draw_wires(true);

        if let Some(from) = &self.wiring {
            if let (Some(start), Some(end)) = (output_of(from), pointer) {
                wire(&painter, start, end, wire_stroke);
            }
            if ui.input(|i| !i.pointer.any_down() && !i.pointer.any_pressed()) {
                // Dropped: onto the nearest input port within reach, if any (a per-axis
                // parameter's axis port: that axis alone).
                let target = pointer.and_then(|end| {
                    graph
                        .nodes
                        .iter()
                        .zip(&placed)
                        .flat_map(|(n, at)| {
                            let whole = at
                                .rows
                                .iter()
                                .filter_map(move |(p, _, port)| Some((n, p.name, None, (*port)?)));
                            let axes = at
                                .axes
                                .iter()
                                .map(move |c| (n, c.param.name, Some(c.axis), c.port));
                            whole.chain(axes)
                        })
                        .filter(|(.., port)| port.distance(end) <= DROP_REACH)
                        .min_by(|a, b| a.3.distance(end).total_cmp(&b.3.distance(end)))
                });
                if let Some((to, param, axis, _)) = target {
                    if to.name != *from {
                        let (to, param) = (to.name.clone(), param.to_string());
                        actions.push(Action::Edit(match axis {
                            None => Edit::Connect {
                                from: from.clone(),
                                to,
                                param,
                            },
                            Some(axis) => Edit::SetAxis {
                                node: to,
                                param,
                                axis,
                                value: Value::from(from.as_str()),
                            },
                        }));
                    }
                }
                self.wiring = None;
            }
        }
        let toolbar_ui = egui::UiBuilder::new()
            .max_rect(toolbar)
            .layout(egui::Layout::left_to_right(egui::Align::Center));
        ui.scope_builder(toolbar_ui, |ui| {
            let mut button = |ui: &mut egui::Ui, name: &str, text: &str, enabled: bool| {
                let r = ui.add_enabled(enabled, egui::Button::new(text));
                named.push((name.to_string(), r.rect));
                r.clicked()
            };
            if button(ui, "node_undo", "undo", model.can_undo()) {
                actions.push(Action::Undo);
            }
            if button(ui, "node_redo", "redo", model.can_redo()) {
                actions.push(Action::Redo);
            }
            let selected = self.selected.clone();
            if button(ui, "node_delete", "delete", selected.is_some()) {
                if let Some(name) = selected.clone() {
                    actions.push(Action::Edit(Edit::Delete { name }));
                }
            }
            let not_output = selected.as_ref().filter(|s| **s != graph.output);
            if button(ui, "node_output", "make output", not_output.is_some()) {
                if let Some(name) = not_output.cloned() {
                    actions.push(Action::Edit(Edit::SetOutput { name }));
                }
            }
            ui.label(
                egui::RichText::new(
                    "right-click: add · drag a port onto a port: wire · Ctrl+Z / Ctrl+Shift+Z · Delete",
                )
                .small()
                .weak(),
            );
        });
        if ui.rect_contains_pointer(canvas) && !ui.ctx().egui_wants_keyboard_input() {
            actions.extend(self.shortcut(ui, model));
        }

        actions
    }

    /// The toolbar's keys, taken while the pointer is over the canvas and no text box has
    /// the keyboard: Ctrl+Z undo, Ctrl+Shift+Z or Ctrl+Y redo, Delete (or Backspace) the
    /// selected node.
    fn shortcut(&self, ui: &egui::Ui, model: &GraphModel) -> Option<Action> {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let key = |modifiers: Modifiers, key: Key| {
            ui.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(modifiers, key)))
        };
        // Ctrl+Shift+Z before Ctrl+Z, which would also match it.
        let redo =
            key(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z) || key(Modifiers::COMMAND, Key::Y);
        if redo {
            return model.can_redo().then_some(Action::Redo);
        }
        if key(Modifiers::COMMAND, Key::Z) {
            return model.can_undo().then_some(Action::Undo);
        }
        if key(Modifiers::NONE, Key::Delete) || key(Modifiers::NONE, Key::Backspace) {
            let name = self.selected.clone()?;
            return Some(Action::Edit(Edit::Delete { name }));
        }
        None
    }

    /// The background's right-click menu: a filter and the node types it matches.
    fn add_menu(
        &mut self,
        background: &egui::Response,
        named: &mut Vec<(String, Rect)>,
        actions: &mut Vec<Action>,
    ) {
        background.context_menu(|ui| {
            ui.label("add a node");
            let filter = ui.add(
                egui::TextEdit::singleline(&mut self.filter)
                    .hint_text("type to filter")
                    .desired_width(150.0),
            );
            named.push(("add_filter".to_string(), filter.rect));
            if !ui.memory(|m| m.has_focus(filter.id)) && self.filter.is_empty() {
                filter.request_focus();
            }
            // Of a fixed size, so that the menu stays where it is while the filter shortens
            // the list.
            egui::ScrollArea::vertical()
                .max_height(260.0)
                .auto_shrink([false, false])
                .show(ui, |ui| {
                    let wanted = self.filter.to_lowercase();
                    for type_name in type_names().filter(|t| t.contains(wanted.trim())) {
                        let r = ui.button(type_name);
                        if ui.is_rect_visible(r.rect) {
                            named.push((format!("add.{type_name}"), r.rect));
                        }
                        if r.clicked() {
                            actions.push(Action::Edit(Edit::Add {
                                type_name: type_name.to_string(),
                                place: self.menu_at.into(),
                            }));
                            ui.close();
                        }
                    }
                });
        });
    }

    /// One node: its frame, header (drag to move, click to select), output port (drag to
    /// wire), a row per parameter with its input port and widget, and its thumbnail.
    fn node(
        &mut self,
        ui: &mut egui::Ui,
        scene: &Scene<'_>,
        node: &EditorNode,
        at: &Placed,
        named: &mut Vec<(String, Rect)>,
        actions: &mut Vec<Action>,
    ) {
        let Scene {
            painter,
            canvas,
            model,
            fault,
            ..
        } = *scene;
        let visuals = ui.visuals().clone();
        let name = &node.name;
        let output = model.graph().output == *name;
        let selected = self.selected.as_deref() == Some(name);
        painter.rect_filled(at.frame, 4.0, visuals.window_fill);
        let stroke = if fault == Some(name.as_str()) {
            Stroke::new(2.5, Color32::RED)
        } else if selected {
            Stroke::new(2.0, visuals.selection.stroke.color)
        } else {
            visuals.window_stroke
        };
        painter.rect_stroke(at.frame, 4.0, stroke, StrokeKind::Outside);
        let header_fill = if output {
            visuals.selection.bg_fill
        } else {
            visuals.faint_bg_color
        };
        painter.rect_filled(at.header, 4.0, header_fill);
        let title = if output {
            format!("{name} · {} (output)", node.type_name)
        } else {
            format!("{name} · {}", node.type_name)
        };
        painter.text(
            at.header.left_center() + Vec2::X * 6.0,
            egui::Align2::LEFT_CENTER,
            title,
            egui::TextStyle::Button.resolve(ui.style()),
            visuals.strong_text_color(),
        );
        // Short of the output port, which a press there must reach.
        let header = ui.interact(
            at.header.with_max_x(at.header.max.x - DROP_REACH),
            ui.scope_id().with(("node", name)),
            Sense::click_and_drag(),
        );
        named.push((format!("node.{name}"), at.header));
        if header.clicked() || header.drag_started() {
            self.selected = Some(name.clone());
        }
        if header.dragged() && self.wiring.is_none() {
            let place = Vec2::from(node.place) + header.drag_delta();
            actions.push(Action::Edit(Edit::Move {
                name: name.clone(),
                place: place.into(),
            }));
        }

        let port_rect = |c: Pos2| Rect::from_center_size(c, Vec2::splat(2.0 * DROP_REACH));
        let out = ui.interact(
            port_rect(at.output),
            ui.scope_id().with(("out", name)),
            Sense::click_and_drag(),
        );
        named.push((format!("port.{name}.out"), port_rect(at.output)));
        if out.hovered() {
            ui.ctx().set_cursor_icon(egui::CursorIcon::Crosshair);
        }
        painter.circle_filled(at.output, PORT_RADIUS, visuals.widgets.active.bg_fill);

        let mut rows = ui.new_child(
            egui::UiBuilder::new()
                .max_rect(at.frame)
                .id_salt(("rows", name)),
        );
        rows.set_clip_rect(canvas.intersect(ui.clip_rect()));
        rows.spacing_mut().slider_width = NODE_WIDTH - LABEL_WIDTH - 64.0;
        for (param, row, port) in &at.rows {
            let key = param.name;
            let value = node.params.get(key);
            let wired = value.and_then(Value::as_str).filter(|_| port.is_some());
            if let Some(port) = port {
                let r = ui.interact(
                    port_rect(*port),
                    ui.scope_id().with(("in", name, key)),
                    Sense::click(),
                );
                named.push((format!("port.{name}.{key}"), port_rect(*port)));
                if r.clicked() && wired.is_some() {
                    actions.push(Action::Edit(Edit::Set {
                        node: name.clone(),
                        param: key.to_string(),
                        value: Value::Null,
                    }));
                }
                let fill = if wired.is_some() {
                    visuals.widgets.active.bg_fill
                } else {
                    visuals.widgets.inactive.bg_fill
                };
                painter.circle_filled(*port, PORT_RADIUS, fill);
            }
            let label = Rect::from_min_size(
                row.min + Vec2::X * 10.0,
                Vec2::new(LABEL_WIDTH - 10.0, ROW_HEIGHT),
            );
            rows.put(label, egui::Label::new(egui::RichText::new(key).small()));
            let cell = Rect::from_min_max(
                Pos2::new(row.min.x + LABEL_WIDTH, row.min.y + 1.0),
                Pos2::new(row.max.x - 6.0, row.max.y - 1.0),
            );
            let set = |value: Value| {
                Action::Edit(Edit::Set {
                    node: name.clone(),
                    param: key.to_string(),
                    value,
                })
            };
            let response = if let Some(from) = wired {
                rows.put(cell, egui::Label::new(format!("from {from}")))
            } else {
                match param_widget(&mut rows, cell, param.kind, value) {
                    (response, Some(new)) => {
                        actions.push(set(new));
                        response
                    }
                    (response, None) => response,
                }
            };
            named.push((format!("param.{name}.{key}"), response.rect));
        }
        for cell in &at.axes {
            axis_cell(ui, &mut rows, scene, node, cell, named, actions);
        }
        thumbnail_row(ui, scene, node, at.thumbnail, named);
    }
}

/// One axis of a per-axis parameter of `node` in its `cell`: a port (a wire dropped there
/// gives that axis alone; a click on a wired one gives it back the parameter's default) and
/// a drag value for its number, or the name of the node it reads. Empty where one node
/// gives the whole parameter (the row above says so).
fn axis_cell(
    ui: &egui::Ui,
    rows: &mut egui::Ui,
    scene: &Scene<'_>,
    node: &EditorNode,
    cell: &AxisCell,
    named: &mut Vec<(String, Rect)>,
    actions: &mut Vec<Action>,
) {
    let ParamKind::HybridPerAxis { lo, hi, default } = cell.param.kind else {
        return;
    };
    let (name, key, axis) = (&node.name, cell.param.name, cell.axis);
    let value = node.params.get(key);
    if value.is_some_and(Value::is_string) {
        return;
    }
    let now = axis_value(value, axis, default);
    let from = now.as_str();
    let set = |value: Value| {
        Action::Edit(Edit::SetAxis {
            node: name.clone(),
            param: key.to_string(),
            axis,
            value,
        })
    };
    let id = format!("{name}.{key}.{axis}");
    let port_rect = Rect::from_center_size(cell.port, Vec2::splat(2.0 * AXIS_PORT_RADIUS + 4.0));
    let port = ui.interact(port_rect, ui.scope_id().with(("axis", &id)), Sense::click());
    named.push((format!("port.{id}"), port_rect));
    if port.clicked() && from.is_some() {
        actions.push(set(Value::from(default)));
    }
    let visuals = ui.visuals();
    let fill = match from {
        Some(_) => visuals.widgets.active.bg_fill,
        None => visuals.widgets.inactive.bg_fill,
    };
    scene
        .painter
        .circle_filled(cell.port, AXIS_PORT_RADIUS, fill);
    let widget = Rect::from_min_max(
        Pos2::new(cell.port.x + AXIS_PORT_RADIUS + 3.0, cell.cell.min.y),
        cell.cell.max,
    );
    let response = match from {
        Some(from) => rows.put(
            widget,
            egui::Label::new(egui::RichText::new(from).small()).truncate(),
        ),
        None => {
            let mut v = now.as_f64().unwrap_or(default);
            let speed = (v.abs() * 0.01).max(0.01);
            let r = rows.put(
                widget,
                egui::DragValue::new(&mut v).range(lo..=hi).speed(speed),
            );
            if r.changed() {
                actions.push(set(Value::from(v)));
            }
            r
        }
    };
    let response = response.on_hover_text(format!("{key} along {}", AXIS_NAMES[axis]));
    named.push((format!("param.{id}"), response.rect));
}

/// A node's own cost as its thumbnail row shows it, in ns per sample. The sub-graph's cost
/// less its inputs' is two timings' difference: a node that costs next to nothing comes out
/// a little either side of 0, shown as about 0.
fn own_text(own: f64) -> String {
    if own < 0.05 {
        "own ≈ 0".to_string()
    } else {
        format!("own {own:.1}")
    }
}

/// Node `node`'s thumbnail in `row`: the picture of its sub-graph on the left (on whole
/// pixels, so that its texels are the screen's), its cost and clock on the right, the
/// cost's meaning in the tooltip.
fn thumbnail_row(
    ui: &mut egui::Ui,
    scene: &Scene<'_>,
    node: &EditorNode,
    row: Rect,
    named: &mut Vec<(String, Rect)>,
) {
    let name = &node.name;
    let ppp = ui.ctx().pixels_per_point();
    let corner = ((row.min + Vec2::new(8.0, 4.0)).to_vec2() * ppp).round() / ppp;
    let picture = Rect::from_min_size(corner.to_pos2(), Vec2::splat(THUMBNAIL_SIZE as f32));
    let thumbnail = scene.thumbnails.get(name);
    let text_colour = ui.visuals().text_color();
    let small = egui::TextStyle::Small.resolve(ui.style());
    let lines = match thumbnail {
        Some(t) => {
            match (&t.texture, &t.filled.values) {
                (Some(texture), _) => {
                    let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
                    scene
                        .painter
                        .image(texture.id(), picture, uv, Color32::WHITE);
                }
                (None, Err(_)) => {
                    scene.painter.rect_filled(picture, 0.0, Color32::DARK_RED);
                }
                (None, Ok(_)) => {}
            }
            match (&t.filled.values, t.filled.cost) {
                (Err(why), _) => vec![format!("not drawn: {why}")],
                (Ok(_), Some(cost)) => {
                    let own = scene
                        .thumbnails
                        .own_cost(scene.model.graph(), name)
                        .map_or_else(|| "own: ?".to_string(), own_text);
                    vec![
                        format!("{:.1} ns/sample", cost.ns_per_sample),
                        own,
                        cost.clock.name().to_string(),
                    ]
                }
                (Ok(_), None) => vec!["cost: ?".to_string()],
            }
        }
        None => {
            scene
                .painter
                .rect_filled(picture, 0.0, ui.visuals().faint_bg_color);
            vec!["drawing…".to_string()]
        }
    };
    let text_at = Pos2::new(picture.max.x + 8.0, picture.min.y);
    let text_rect = Rect::from_min_max(text_at, Pos2::new(row.max.x - 4.0, picture.max.y));
    scene
        .painter
        .with_clip_rect(text_rect.intersect(scene.canvas))
        .text(
            text_at,
            egui::Align2::LEFT_TOP,
            lines.join("\n"),
            small,
            text_colour,
        );
    named.push((format!("thumb.{name}"), picture));
    let hover = picture.union(text_rect);
    ui.interact(
        hover.intersect(scene.canvas),
        ui.scope_id().with(("thumbnail", name)),
        Sense::hover(),
    )
    .on_hover_text(format!(
        "{COST_HELP}{}",
        thumbnail
            .and_then(|t| t.filled.cost)
            .map_or_else(String::new, |c| format!(
                "\n\nthis node's clock: {}",
                c.clock.why()
            ))
    ));
}

/// The thumbnail's tooltip: what the picture and the numbers are.
const COST_HELP: &str =
    "the node's sub-graph (the nodes it reads, with it as the output) on the plane from \
         the origin, coloured with the view's ramp over -1..1. Its cost: ns per sample of \
         that sub-graph; own: the sub-graph's less the own costs of the nodes below it, each \
         once (the own costs of a sub-graph add up to its cost; times vary with other \
         work, so own may come out low or negative); the clock: GPU timestamps where the adapter has them, else the SIMD \
         CPU evaluator timed on the host.";

/// The widget of a parameter of `kind` whose value is `value` (`None`: its default) in
/// `cell`; the new value when the user changed it.
fn param_widget(
    ui: &mut egui::Ui,
    cell: Rect,
    kind: ParamKind,
    value: Option<&Value>,
) -> (egui::Response, Option<Value>) {
    let number = |ui: &mut egui::Ui, lo: f64, hi: f64, default: Option<f64>| {
        let mut v = value
            .and_then(Value::as_f64)
            .or(default)
            .unwrap_or(0f64.clamp(lo, hi));
        let r = if hi - lo <= SLIDER_SPAN {
            ui.put(cell, egui::Slider::new(&mut v, lo..=hi))
        } else {
            let speed = (v.abs() * 0.01).max(0.01);
            ui.put(
                cell,
                egui::DragValue::new(&mut v).range(lo..=hi).speed(speed),
            )
        };
        let changed = r.changed().then(|| Value::from(v));
        (r, changed)
    };
    match kind {
        ParamKind::Number { lo, hi, default } | ParamKind::Hybrid { lo, hi, default } => {
            if value.is_some_and(|v| !v.is_number()) {
                return shown(ui, cell, value);
            }
            number(ui, lo, hi, default)
        }
        ParamKind::Integer { lo, hi, default } => {
            let mut v = value.and_then(Value::as_f64).map_or(default, |v| v as i64);
            let r = if (hi - lo) as f64 <= SLIDER_SPAN {
                ui.put(cell, egui::Slider::new(&mut v, lo..=hi))
            } else {
                ui.put(cell, egui::DragValue::new(&mut v).range(lo..=hi))
            };
            let changed = r.changed().then(|| Value::from(v));
            (r, changed)
        }
        ParamKind::Choice { names, default } => {
            let now = value.and_then(Value::as_str).or(default).unwrap_or("");
            let mut picked = None;
            let r = ui
                .scope_builder(egui::UiBuilder::new().max_rect(cell), |ui| {
                    egui::ComboBox::from_id_salt(ui.scope_id().with("choice"))
                        .width(cell.width() - 8.0)
                        .selected_text(now)
                        .show_ui(ui, |ui| {
                            for name in names {
                                if ui.selectable_label(*name == now, *name).clicked() {
                                    picked = Some(Value::from(*name));
                                }
                            }
                        })
                        .response
                })
                .inner;
            (r, picked.filter(|p| p.as_str() != Some(now)))
        }
        ParamKind::Input
        | ParamKind::Inputs { .. }
        | ParamKind::HybridPerAxis { .. }
        | ParamKind::HybridPair { .. }
        | ParamKind::Points { .. } => shown(ui, cell, value),
    }
}

/// A value the node view does not edit (arrays, points, an unwired input): shown as its
/// JSON, edited in the JSON text.
fn shown(ui: &mut egui::Ui, cell: Rect, value: Option<&Value>) -> (egui::Response, Option<Value>) {
    let text = match value {
        Some(v) => v.to_string(),
        None => "default".to_string(),
    };
    let r = ui
        .put(
            cell,
            egui::Label::new(egui::RichText::new(text).small().monospace()).truncate(),
        )
        .on_hover_text("edit it in the JSON text");
    (r, None)
}
