"""Softmax in three places (seed 003, §4.3): inside attention, in the prediction of the next token, and
behind sampling's temperature, which only divides the logits by T before softmax. Three panels side by
side, each bars with their numbers: (1) the selected query's scores → weights in the active head of the
scenario shown; (2) an example's logits of four candidate next tokens → probabilities; (3) the same
logits ÷ T for T = 0.5, 1 and 2, sharper to flatter. Every number is core/explorers.py's.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ...core.explain import fmt
from ...core.explorers import Distribution, distribution, next_token_example, temperature_examples
from ..common.i18n import head_label, tr
from .canvas import Block, Type, bar, colour_of, column, grid, row, space, text, wrapped
from .drawn import DrawnView

PANEL_GAP = 1.5   # between the panels, in ems
LABEL_SHARE = 0.3  # a panel's labels take at most this share of its width (a longer one is shortened)
LEAST_BAR = 2.5   # ems: with less room for the bars the type is too large for the screen
BAR = ("#21918c", "#35b7ad")  # the bars (light look, dark look): the softmax view's weights' colour
DECIMALS = 2      # weights and probabilities, as the heatmaps write them (それ → 魚 0.68)


class SoftmaxPlacesView(DrawnView):
    """The three places softmax appears, side by side; the first follows the window's head and query."""

    def __init__(self, document, parent=None):
        super().__init__(document, "places", parent)
        self.setObjectName("softmaxPlacesView")
        self.attention: Distribution | None = None  # None: a file of weights only, no scores
        self.masked = 0  # keys the mask hides from the query
        self.caption = ""
        self.retranslate()

    def retranslate(self):
        self.explanation.setText(tr(
            "Softmax turns any numbers into shares that are all positive and add up to 1. It works in three "
            "places: inside attention, in the prediction of the next token, and behind sampling's temperature, "
            "which only divides the logits by T before softmax: a low T gives a sharp distribution (the top "
            "choice nearly always), a high T a flat one (more variety)."))
        self.canvas.refit()

    def refresh(self):
        d = self.document
        self.attention = None
        if not d.scenario.weights_only:
            row_ = np.asarray(d.result.heads[d.active_head].masked[d.query], dtype=float)
            self.attention = distribution(d.scenario.tokens, row_)
            self.masked = int(np.isneginf(row_).sum())
            self.caption = tr("The scores x of {0} → its weights w ({1})").format(
                d.scenario.tokens[d.query], head_label(d.scenario, d.active_head))
        self.retranslate()

    # ------------------------------------------------------------- the drawing

    def _lay_out(self, size: float) -> Block:
        t, bold = self.canvas.type(size), self.canvas.type(size, bold=True)
        gap = size * PANEL_GAP
        width = (self.canvas.width() - 2 * gap) / 3
        return row([self._in_attention(t, bold, width), self._next_token(t, bold, width),
                    self._temperature(t, bold, width)], gap=gap, top=True)

    def _panel(self, t: Type, bold: Type, width: float, title: str, caption: str, formula: str,
               body: list[Block]) -> Block:
        """A panel's title, what it shows, its formula on a line of its own (never broken), then its bars."""
        head = [wrapped(bold, title, width), wrapped(t, caption, width)] + ([text(t, formula)] if formula else [])
        return column([*head, space(height=t.pixels * 0.3), *body], gap=t.pixels * 0.3, align="l")

    def _in_attention(self, t: Type, bold: Type, width: float) -> Block:
        title = tr("1. Inside attention")
        if self.attention is None:
            return self._panel(t, bold, width, title, tr("This file holds the model's weights only: there are no "
                                                          "scores to put through softmax."), "", [])
        a = self.attention
        body = [bars(self, t, bold, width, a, (tr("key"), "x", "w"))]
        if a.left_out:
            body.append(wrapped(t, tr("and {0} more keys, together {1}").format(
                a.left_out, fmt(a.left_out_share, DECIMALS, fixed=True)), width))
        if self.masked:
            body.append(wrapped(t, tr("{0} keys hidden by the mask (−∞): weight 0").format(self.masked), width))
        return self._panel(t, bold, width, title, self.caption, "w = softmax(x)", body)

    def _next_token(self, t: Type, bold: Type, width: float) -> Block:
        caption = tr("An example: the logits z of four candidates for the next token after “The cat” → their "
                     "probabilities p")
        example = translated(next_token_example())
        return self._panel(t, bold, width, tr("2. Predicting the next token"), caption, "p = softmax(z)",
                           [bars(self, t, bold, width, example, (tr("next token"), "z", "p"))])

    def _temperature(self, t: Type, bold: Type, width: float) -> Block:
        examples = [(temperature, translated(d)) for temperature, d in temperature_examples()]
        widths = column_widths(bold, width, [d for _, d in examples], ("", "z / T", "p"))
        body = []
        for temperature, d in examples:
            body.append(text(bold, temperature_heading(temperature)))
            body.append(bars(self, t, bold, width, d, ("", "z / T", "p"), widths, header=temperature == examples[0][0]))
        return self._panel(t, bold, width, tr("3. The temperature when sampling"),
                           tr("The same logits z, divided by T before softmax"), "p = softmax(z / T)", body)


def temperature_heading(temperature: float) -> str:
    if temperature < 1:
        return tr("T = {0}: sharper, the top choice").format(fmt(temperature, 2))
    if temperature > 1:
        return tr("T = {0}: flatter, more variety").format(fmt(temperature, 2))
    return tr("T = {0}: the logits as they are").format(fmt(temperature, 2))


def translated(d: Distribution) -> Distribution:
    """The example's candidates in the interface's language (core marks them for translation)."""
    return replace(d, labels=tuple(tr(label) for label in d.labels))


def column_widths(t: Type, width: float, distributions: list[Distribution], headers) -> list[float]:
    """[label, input, bar, output] widths for bars in `width`, measured in `t` (the bold type: the largest
    output's row is bold): the labels at most LABEL_SHARE of it, the
    numbers as wide as their widest, the bars the rest (at least LEAST_BAR ems: else the drawing is too
    wide for its room and a smaller type is tried)."""
    labels = [t.width(s) for d in distributions for s in d.labels] + [t.width(headers[0])]
    inputs = [t.width(fmt(x, DECIMALS)) for d in distributions for x in d.inputs] + [t.width(headers[1])]
    outputs = [t.width(fmt(1.0, DECIMALS, fixed=True)), t.width(headers[2])]
    label_w = min(max(labels), LABEL_SHARE * width)
    gaps = 3 * t.pixels * 0.6
    bar_w = max(LEAST_BAR * t.pixels, width - label_w - max(inputs) - max(outputs) - gaps)
    return [label_w, max(inputs), bar_w, max(outputs)]


def bars(view, t: Type, bold: Type, width: float, d: Distribution, headers, widths=None,
         header: bool = True) -> Block:
    """One softmax as bars: each item's label, its input, its bar and its output (the largest in bold)."""
    label_w, input_w, bar_w, output_w = widths or column_widths(bold, width, [d], headers)
    colour = colour_of(view, *BAR)
    rows = [[text(t, headers[0], most=label_w), text(t, headers[1]), None, text(t, headers[2])]] if header else []
    for i, (label, x, p) in enumerate(zip(d.labels, d.inputs, d.outputs)):
        ink = bold if i == d.top else t
        rows.append([text(ink, label, most=label_w), text(ink, fmt(x, DECIMALS)),
                     bar(bar_w, t.line * 0.7, float(p), colour), text(ink, fmt(p, DECIMALS, fixed=True))])
    return grid(rows, gap_x=t.pixels * 0.6, gap_y=t.pixels * 0.25, align="lrlr",
                widths=[label_w, input_w, bar_w, output_w])
