//! The shipped graphs, the editor's presets menu on the desktop and the page.

use super::Editor;

/// Every shipped graph (`examples/graphs/`), by name, in the menu's order.
pub const PRESETS: &[(&str, &str)] = &[
    (
        "terrain",
        include_str!("../../examples/graphs/terrain.json"),
    ),
    ("clouds", include_str!("../../examples/graphs/clouds.json")),
    ("marble", include_str!("../../examples/graphs/marble.json")),
    ("wood", include_str!("../../examples/graphs/wood.json")),
    ("caves", include_str!("../../examples/graphs/caves.json")),
    (
        "cellular-pairs",
        include_str!("../../examples/graphs/cellular-pairs.json"),
    ),
    ("island", include_str!("../../examples/graphs/island.json")),
    ("jitter", include_str!("../../examples/graphs/jitter.json")),
    ("mosaic", include_str!("../../examples/graphs/mosaic.json")),
    (
        "mountains",
        include_str!("../../examples/graphs/mountains.json"),
    ),
    (
        "plateaus",
        include_str!("../../examples/graphs/plateaus.json"),
    ),
    ("slice", include_str!("../../examples/graphs/slice.json")),
    ("strata", include_str!("../../examples/graphs/strata.json")),
    (
        "supersimplex",
        include_str!("../../examples/graphs/supersimplex.json"),
    ),
    ("tiles", include_str!("../../examples/graphs/tiles.json")),
    ("waves", include_str!("../../examples/graphs/waves.json")),
];

/// The presets menu: picking a graph puts its text in `editor` (an edit, as typing it
/// would be). Returns whether one was picked. The button and each entry are named in
/// `named` (`presets`, `preset.NAME`), the hosts' layout for their tests.
pub fn presets_menu(
    ui: &mut egui::Ui,
    editor: &mut Editor,
    named: &mut Vec<(String, egui::Rect)>,
) -> bool {
    let mut picked = false;
    let menu = ui.menu_button("presets", |ui| {
        for &(name, text) in PRESETS {
            let entry = ui.button(name);
            named.push((format!("preset.{name}"), entry.rect));
            if entry.clicked() {
                editor.set_text(text.to_string());
                picked = true;
                ui.close();
            }
        }
    });
    named.push(("presets".to_string(), menu.response.rect));
    picked
}
