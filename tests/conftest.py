import os

# Before any QApplication exists: CI has no display.
os.environ["QT_QPA_PLATFORM"] = "offscreen"
