"""A lesson given from full screen: its scenes one after another (player.py), each scene's caption and
question under it (caption.py), the list of scenes to pick from and the blank screen (overlays.py)."""
