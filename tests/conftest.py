import os
import tempfile

# Before any QApplication exists: CI has no display.
os.environ["QT_QPA_PLATFORM"] = "offscreen"
# Autosaves and error logs of test runs go to a throwaway folder, never the user's.
os.environ.setdefault("ATTNVIZ_DATA_DIR", tempfile.mkdtemp(prefix="attnviz-test-data-"))
