"""The guide's banner above the heads during guided steps: which step, what it computes."""
from __future__ import annotations

from ..common.i18n import tr
from .stages import STAGES, stage


def banner(number: int, token: str, d_k: int) -> str:
    s = stage(number)
    return tr("Step {0} of {1} · {2}: {3}").format(s.number, len(STAGES), tr(s.title),
                                                 tr(s.explanation).format(token, d_k))
