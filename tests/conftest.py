import json
import os
import tempfile

# Before any QApplication exists: CI has no display. The offscreen screen is a classroom
# projector's, 1920 × 1080, so full-screen presentation is laid out as in front of a class.
_SCREEN = os.path.join(tempfile.mkdtemp(prefix="attnviz-test-screen-"), "screen.json")
with open(_SCREEN, "w") as _f:
    json.dump({"screens": [{"name": "projector", "x": 0, "y": 0, "width": 1920, "height": 1080,
                            "logicalDpi": 96, "dpr": 1}]}, _f)
os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={_SCREEN}"
# Autosaves and error logs of test runs go to a throwaway folder, never the user's.
os.environ.setdefault("ATTNVIZ_DATA_DIR", tempfile.mkdtemp(prefix="attnviz-test-data-"))
