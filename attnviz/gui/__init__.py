"""The Qt layer: reads attnviz.core, never the other way round."""
from .main_window import MainWindow

__all__ = ["MainWindow"]
