"""Qt's item roles and alignments as plain ints, for data() methods that Qt calls thousands of
times a second: PySide6 passes the role as an int, and comparing it with Qt's enum members costs
microseconds each (two hundred times an int comparison)."""
from PySide6.QtCore import Qt

DISPLAY = int(Qt.DisplayRole.value)
EDIT = int(Qt.EditRole.value)
TOOLTIP = int(Qt.ToolTipRole.value)
ALIGNMENT = int(Qt.TextAlignmentRole.value)
FOREGROUND = int(Qt.ForegroundRole.value)
BACKGROUND = int(Qt.BackgroundRole.value)
FONT = int(Qt.FontRole.value)
RIGHT = int((Qt.AlignRight | Qt.AlignVCenter).value)
LEFT = int((Qt.AlignLeft | Qt.AlignVCenter).value)
