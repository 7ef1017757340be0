"""The wording a teacher asked for (issue 25), read where the class sees it: in the window, in
Japanese and in English."""
from PySide6.QtWidgets import QLabel, QToolButton

from attnviz.gui.common.i18n import install_language
from attnviz.gui.heads.heatmap import mask_legend


def labels(window) -> list[str]:
    return [w.text() for w in window.findChildren(QLabel)]


def open_every_maths_view(window, qtbot):
    window.parts.bring_forward(window.parts.maths_dock)
    tabs = window.parts.maths.widget()
    for i in range(tabs.count()):  # each view is made when first shown
        tabs.setCurrentIndex(i)
        qtbot.wait(10)


def test_the_japanese_wording_of_the_maths_views(window, qtbot):
    install_language("ja")
    open_every_maths_view(window, qtbot)
    texts = "\n".join(labels(window))
    assert "eˣ が大きくなりすぎて計算があふれる（オーバーフローする）こともなくなります" in texts
    assert "各行の重みがほぼ 1 つのキーに集中します" in texts
    # seed-demo's 動物 × 食べ物 plane: the grammar words have no arrow of their own
    assert "「が」「を」「。」「は」「だった」はこの平面では原点にあります。" in texts
    assert "あふれ（オーバーフロー）なくなります" not in texts and "重みを 1 つのキーに置きます" not in texts


def test_the_japanese_wording_of_the_window(window, qtbot):
    install_language("ja")
    assert window.menus.real_model_action.text().startswith("本物のモデル")
    assert mask_legend("window") == "見えない位置\n（マスク）" and mask_legend("causal") == "マスク\n（未来）"
    assert any(" のクエリ「それ」" in t for t in labels(window))  # 「0: 意味ヘッド のクエリ「それ」」, spaced
    window.classroom.set_presentation(True)
    toggle = window.findChild(QToolButton, "presentationControlsToggle")
    if toggle.text() == "操作パネルを隠す（H）":
        toggle.click()
    assert toggle.text() == "操作パネルを表示（H）"
    window.classroom.set_presentation(False)


def test_the_english_help_menu_names_the_english_pairs(window):
    assert "“dog bites man” and “man bites dog”" in window.menus.compare_orders_action.text()
    assert "“&bank”" in window.menus.compare_hashi_action.text()
    install_language("ja")
    assert "猫が座った と 座ったが猫" in window.menus.compare_orders_action.text()  # Japanese: the Japanese pair


def test_the_english_softmax_view_says_why_the_max_is_subtracted_in_plain_words(window, qtbot):
    open_every_maths_view(window, qtbot)
    explanation = next(t for t in labels(window) if t.startswith("softmax(x) ="))
    assert "Before taking eˣ" in explanation and "can no longer overflow" in explanation and "e^x" not in explanation
