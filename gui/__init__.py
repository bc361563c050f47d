"""The desktop app (PySide6): pages per step, widgets, and the controller that owns the current Plan."""
