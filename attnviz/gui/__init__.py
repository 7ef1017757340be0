"""The Qt layer: reads attnviz.core, never the other way round."""

__all__ = ["MainWindow"]


def __getattr__(name):
    # The window (and everything it pulls in) only when asked for: `attnviz weights` uses
    # gui.i18n for the system's language without loading the window's modules.
    if name == "MainWindow":
        from .window.main_window import MainWindow
        return MainWindow
    raise AttributeError(name)
