//! Keyboard: egui key events mapped to `hooke::render::input` keys and fed to the `ViewerInput`.

use eframe::egui;
use hooke::render::input::Key;

use crate::app::Viewer;

impl Viewer {
    /// Feeds this frame's key presses and releases (not repeats) to the `ViewerInput` and acts on
    /// what it asks.
    pub(crate) fn handle_keys(&mut self, ui: &egui::Ui) {
        let events = ui.input(|i| i.events.clone());
        for event in events {
            if let egui::Event::Key {
                key,
                pressed,
                repeat: false,
                ..
            } = event
            {
                let Some(key) = map_key(key) else { continue };
                if pressed {
                    if let Some(action) = self.input.key_pressed(key) {
                        self.act(action);
                    }
                } else {
                    self.input.key_released(key);
                }
            }
        }
    }
}

fn map_key(key: egui::Key) -> Option<Key> {
    Some(match key {
        egui::Key::Space => Key::Space,
        egui::Key::S => Key::S,
        egui::Key::R => Key::R,
        egui::Key::ArrowLeft => Key::Left,
        egui::Key::ArrowRight => Key::Right,
        egui::Key::ArrowUp => Key::Up,
        egui::Key::ArrowDown => Key::Down,
        egui::Key::Num1 => Key::Digit(1),
        egui::Key::Num2 => Key::Digit(2),
        egui::Key::Num3 => Key::Digit(3),
        egui::Key::Num4 => Key::Digit(4),
        egui::Key::Num5 => Key::Digit(5),
        egui::Key::Num6 => Key::Digit(6),
        egui::Key::Num7 => Key::Digit(7),
        egui::Key::Num8 => Key::Digit(8),
        egui::Key::Num9 => Key::Digit(9),
        egui::Key::Num0 => Key::Digit(0),
        egui::Key::Minus => Key::Minus,
        egui::Key::Equals => Key::Equals,
        egui::Key::F1 => Key::Function(1),
        egui::Key::F2 => Key::Function(2),
        egui::Key::F3 => Key::Function(3),
        egui::Key::F4 => Key::Function(4),
        egui::Key::T => Key::T,
        _ => return None,
    })
}
