"""The formula above the step table: its type follows the widget's, in points (desk) or pixels (presenting)."""
from PySide6.QtGui import QFont

from attnviz.core.presets import open_named
from attnviz.gui.state.document import ScenarioDocument
from attnviz.gui.steps.formula import FormulaView


def test_the_formula_is_a_quarter_larger_than_its_widgets_type_in_points_or_in_pixels(qtbot):
    view = FormulaView(ScenarioDocument(open_named("seed-demo")[0]))
    qtbot.addWidget(view)
    font = QFont(view.font())
    font.setPixelSize(32)  # presenting: the stage gives its views pixel-sized type
    view.setFont(font)
    assert view.font_used().pixelSize() == 40
    font = QFont(view.font())
    font.setPointSizeF(16)  # the desk: points
    view.setFont(font)
    assert view.font_used().pointSizeF() == 20
