"""AttnViz: see and edit attention in a Transformer, offline."""
__version__ = "0.1.0"
