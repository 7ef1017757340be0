"""d_k is written as a textbook writes it wherever a label can show rich text."""
from PySide6.QtWidgets import QApplication, QLabel

from attnviz.gui.common.markup import rich
from attnviz.gui.steps.stages import NUMBERS

SCORE, SCALE, MASKING, SOFTMAX, OUTPUT = NUMBERS  # the guided steps, in order



def test_rich_text_sets_the_maths_subscripts_and_escapes_everything_else():
    assert rich("÷√d_k with W_q and Q_i K_iᵀ") == "÷√d<sub>k</sub> with W<sub>q</sub> and Q<sub>i</sub> K<sub>i</sub>ᵀ"
    assert rich("n_kv_heads, v_labels, layer7_weights") == "n_kv_heads, v_labels, layer7_weights"
    # written together as a product, as the lessons do: each name its subscript
    assert rich("Q_iK_iᵀ, Y′ = YW_o, K_j V_j") == \
        "Q<sub>i</sub>K<sub>i</sub>ᵀ, Y′ = YW<sub>o</sub>, K<sub>j</sub> V<sub>j</sub>"
    assert rich("d_kv, MAX_K, W_O") == "d_kv, MAX_K, W_O"  # no maths name there
    assert rich("<b>d_k</b> & x") == "&lt;b&gt;d<sub>k</sub>&lt;/b&gt; &amp; x"  # a token may be "<b>"


def test_the_guided_scale_step_and_the_maths_views_show_d_k_with_a_subscript(window):
    while window.document.stage != SCALE:
        window.classroom.next_action.trigger()
    QApplication.processEvents()
    guide = window.findChild(QLabel, "guideLabel").text()
    assert "√d<sub>k</sub> = √4" in guide and "d_k" not in guide
    window.parts.maths.widget()
    explained = [label.text() for label in window.findChildren(QLabel) if "√d<sub>k</sub>" in label.text()]
    assert len(explained) >= 3 and not any("d_k" in text for text in explained)
