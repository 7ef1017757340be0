"""The views a teacher can present, one record each: the command line's id (`attnviz screenshot
--presentation --view ID`), the label the keys' overlay shows, and the key that presents it.
The presentation's keys, the `?` overlay and the command line all read VIEWS. No Qt: the labels
are marked for translation, and the overlay translates them.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...core.messages import QT_TR_NOOP


@dataclass(frozen=True)
class PresentedView:
    id: str                       # the command line's --view
    label: str                    # QT_TR_NOOP-marked: the overlay translates it
    key: str                      # the key that presents it (QKeySequence text)
    maths_tab: int | None = None  # a maths view: its tab in the maths panel (maths/dock.py's order)


VIEWS = (
    PresentedView("heads", QT_TR_NOOP("The heads (V: one big ↔ all side by side)"), "1"),
    PresentedView("steps", QT_TR_NOOP("One query, step by step"), "2"),
    PresentedView("geometry", QT_TR_NOOP("Geometry: q and k as arrows"), "3", maths_tab=0),
    PresentedView("sqrt-dk", QT_TR_NOOP("Why divide by √dₖ"), "4", maths_tab=1),
    PresentedView("softmax", QT_TR_NOOP("Softmax"), "5", maths_tab=2),
    PresentedView("kernel", QT_TR_NOOP("Attention as a kernel"), "6", maths_tab=3),
    PresentedView("lines", QT_TR_NOOP("Lines from token to token"), "7", maths_tab=5),
    PresentedView("before-after", QT_TR_NOOP("Before / after an edit"), "8", maths_tab=4),
    PresentedView("layer", QT_TR_NOOP("The layer: X to O"), "9"),
    PresentedView("overview", QT_TR_NOOP("Overview: every layer × head"), "0"),
    # Letters (every digit is taken): W for the matrix W of x·W, M for softMax. Free of the tools' P I E L Z T,
    # the lesson's S B R A N J Q, H, V, C and ?.
    PresentedView("linear", QT_TR_NOOP("x·W: a vector times a matrix (q, k, v from x)"), "W", maths_tab=6),
    PresentedView("softmax-places", QT_TR_NOOP("Softmax in three places (attention, next token, temperature)"),
                  "M", maths_tab=7),
    # A pair of sentences side by side: the scenario shown and its pair's other one (猫が座った ↔
    # 座ったが猫, はし beside ご飯 ↔ beside 川), else the built-in pairs; C again shows the next.
    PresentedView("compare", QT_TR_NOOP("Compare two sentences (C: next, Esc: back)"), "C"),
)
BY_ID = {v.id: v for v in VIEWS}
IDS = tuple(BY_ID)
FIRST = VIEWS[0].id  # presenting starts here


def cycled(current: str, step: int) -> str:
    """Tab / Shift+Tab: the next (or previous) view, round the list."""
    return IDS[(IDS.index(current) + step) % len(IDS)]
