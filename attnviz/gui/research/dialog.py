"""The research workbench (File → Compare two prompts…, and the Research menu): patching between
two prompts, the logit lens, direct logit attribution, a sweep of every head and the head types,
each computed off the GUI thread with progress and Cancel, by the same functions as `attnviz
patch`, `lens`, `attribute`, `sweep` and `heads` (core/research). A cell of a map clicked puts
that patch or ablation in the window, live: its heads, steps and next token. Each tab's last result
saves as CSV, the table `--format csv` prints."""
from __future__ import annotations

import dataclasses

import numpy as np
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...core import lm
from ...core.lm.tokens import shown_label
from ...core.messages import QT_TR_NOOP
from ...core.research import attribution, continuation, head_types, lens, patch, sweep
from ...core.research.answer import one_token
from ...core.scenario import ScenarioError
from ..common.background import BackgroundDialog
from ..common.cells import NumberItem
from ..common.i18n import Retranslated, describe, tr
from ..look import colormaps
from .map import LayerMap

TABS = ("patch", "lens", "attribute", "sweep", "heads", "explain")
PROMPT, TARGET = "The capital of France is", " Paris, and the capital of Italy is Rome."
CLEAN, CORRUPTED = "The Eiffel Tower is in the city of", "The Colosseum is in the city of"
TEXT, TOKEN = "When Mary and John went to the store, John gave a drink to", " Mary"


class WorkbenchDialog(Retranslated, BackgroundDialog):
    """One workbench a window; `applied(model, encoded, result, baseline, layer, head)` when a
    cell asks for its patch or ablation to be shown in the window."""

    applied = Signal(object, object, object, object, int, int)

    def __init__(self, model_of, text: str | None = None, parent=None):
        super().__init__(parent)
        self.setWindowFlag(Qt.Window)
        self.setObjectName("workbench")
        self.model_of = model_of   # model_of(cancelled) -> lm.Model, on the worker thread
        self.last = {}             # tab -> what its last result was made from (for a click)
        self.tabs = QTabWidget(objectName="workbenchTabs")
        self.layout_.insertWidget(0, self.tabs, 1)
        self.cancel_button.clicked.disconnect()
        self.cancel_button.clicked.connect(self.stop_work)
        self._build_patch()
        self._build_text_tab("lens", text)
        self._build_text_tab("attribute", text)
        self._build_text_tab("sweep", text)
        self._build_heads()
        self._build_explain()
        self.tabs.currentChanged.connect(self._tab_shown)
        self.resize(1100, 820)
        self.progress.hide()
        self.cancel_button.hide()
        self.retranslate()

    # ------------------------------------------------------------- the tabs

    def _build_patch(self) -> None:
        page, form = self._page("patch")
        self.clean, self.corrupted = QLineEdit(CLEAN, objectName="clean"), QLineEdit(CORRUPTED, objectName="corrupted")
        self.answer, self.against = QLineEdit(" Paris", objectName="answer"), QLineEdit(" Rome", objectName="against")
        self.by = QComboBox(objectName="patchBy")
        self.by.addItems(["", "", ""])
        for row in ("clean", "corrupted", "answer", "against", "by"):
            form.addRow(QLabel(objectName=f"{row}Label"), getattr(self, row))
        self._finish_page(page, "patch")

    def _build_text_tab(self, tab: str, text: str | None) -> None:
        page, form = self._page(tab)
        edit = QLineEdit(text or TEXT, objectName=f"{tab}Text")
        token = QLineEdit(TOKEN, objectName=f"{tab}Token")
        setattr(self, f"{tab}_text", edit)
        setattr(self, f"{tab}_token", token)
        form.addRow(QLabel(objectName=f"{tab}TextLabel"), edit)
        form.addRow(QLabel(objectName=f"{tab}TokenLabel"), token)
        ids, no_bos = QCheckBox(objectName=f"{tab}Ids"), QCheckBox(objectName=f"{tab}NoBos")
        row = QHBoxLayout()
        row.addWidget(ids)
        row.addWidget(no_bos)
        row.addStretch(1)
        form.addRow("", row)
        setattr(self, f"{tab}_ids", ids)
        setattr(self, f"{tab}_no_bos", no_bos)
        if tab == "sweep":
            self.mean = QCheckBox(objectName="sweepMean")
            form.addRow("", self.mean)
        self._finish_page(page, tab, table=tab == "lens")

    def _build_heads(self) -> None:
        page, form = self._page("heads")
        self.pick = QComboBox(objectName="headsPick")
        self.pick.addItems([""] * len(head_types.TYPES))
        self.pick.currentIndexChanged.connect(self._pick_heads)
        form.addRow(QLabel(objectName="headsPickLabel"), self.pick)
        self._finish_page(page, "heads", table=True)
        self.definitions = QLabel(objectName="headsDefinitions", wordWrap=True)
        page.layout().addWidget(self.definitions)

    def _build_explain(self) -> None:
        page, form = self._page("explain")
        self.prompt, self.target = QLineEdit(PROMPT, objectName="prompt"), QLineEdit(TARGET, objectName="target")
        form.addRow(QLabel(objectName="promptLabel"), self.prompt)
        form.addRow(QLabel(objectName="targetLabel"), self.target)
        self._finish_page(page, "explain", table=True)

    def _page(self, tab: str):
        page = QWidget(objectName=f"{tab}Page")
        layout = QVBoxLayout(page)
        form = QFormLayout()
        layout.addLayout(form)
        self.tabs.addTab(page, "")
        return page, form

    def _finish_page(self, page: QWidget, tab: str, table: bool = False) -> None:
        row = QHBoxLayout()
        button = QPushButton(objectName=f"{tab}Run")
        button.clicked.connect(lambda: self.run(tab))
        summary = QLabel(objectName=f"{tab}Summary", wordWrap=True, textInteractionFlags=Qt.TextSelectableByMouse)
        save = QPushButton(objectName=f"{tab}Save", enabled=False)  # once the tab has a result
        save.clicked.connect(lambda: self.save_table(tab))
        row.addWidget(button)
        row.addWidget(save)
        row.addWidget(summary, 1)
        page.layout().addLayout(row)
        view = QTableWidget(objectName=f"{tab}Table") if table else LayerMap()
        if table:
            view.setEditTriggers(QTableWidget.NoEditTriggers)
        else:
            view.setObjectName(f"{tab}Map")
            view.chosen.connect(lambda r, c: self._chosen(tab, r, c))
        page.layout().addWidget(view, 1)
        setattr(self, f"{tab}_run", button)
        setattr(self, f"{tab}_save", save)
        setattr(self, f"{tab}_summary", summary)
        setattr(self, f"{tab}_view", view)

    def show_tab(self, tab: str) -> None:
        self.tabs.setCurrentIndex(TABS.index(tab))
        self._tab_shown(TABS.index(tab))

    def _tab_shown(self, index: int) -> None:
        """Enter runs the tab shown."""
        for i, tab in enumerate(TABS):
            getattr(self, f"{tab}_run").setDefault(i == index)

    # ------------------------------------------------------------- running

    def run(self, tab: str) -> None:
        """The tab's inputs checked here (one line in its summary when wrong), the work off the thread."""
        if tab == "patch":
            texts = (self.clean.text(), self.corrupted.text())
            args = (texts, self.answer.text(), self.against.text(), ("head", "position", "attention")[
                self.by.currentIndex()])
        elif tab == "heads":
            texts, args = (), ()
        elif tab == "explain":
            texts = (self.prompt.text(), self.prompt.text() + self.target.text())
            args = (self.prompt.text(), self.target.text())
        else:
            texts, args = None, None
        try:
            if args is None:
                source, texts = self._source(tab)
                args = (source, getattr(self, f"{tab}_token").text(), tab == "sweep" and self.mean.isChecked())
            for text in texts:
                lm.check_text(text)
        except lm.ModelError as e:
            self._say(tab, e)
            return
        self.working_tab = tab
        getattr(self, f"{tab}_summary").clear()
        self.start(getattr(self, f"_work_{tab}"), *args)

    def _source(self, tab: str):
        """(what the tab's model reads: (text, ids, bos), the texts to check first): the text, or
        token ids typed as 1, 2, 3 (checked against the vocabulary when the model is there)."""
        text = getattr(self, f"{tab}_text").text()
        bos = not getattr(self, f"{tab}_no_bos").isChecked()
        if not getattr(self, f"{tab}_ids").isChecked():
            return (text, None, bos), (text,)
        parts = text.replace(",", " ").split()
        if not parts or not all(p.isascii() and p.isdigit() and len(p) <= 9 for p in parts):
            raise lm.ModelError(QT_TR_NOOP("'{0}' is not token ids: give them as 1, 2, 3"), text[:40])
        return (None, tuple(int(p) for p in parts), bos), ()

    @staticmethod
    def _encoded(model, source):
        text, ids, bos = source
        return lm.encode_ids(model, ids) if ids is not None else lm.encode(model, text, bos=bos)

    def stop_work(self) -> None:
        """Cancel: the work stops at its next step; the dialog and its last results stay."""
        self._stop.set()
        self._run += 1
        self._finished()
        self.message.setText(tr("Cancelled"))

    def _model(self, step):
        step(0, 1)
        return self.model_of(lambda: self._stop.is_set())

    def _work_patch(self, step, texts, answer, against, by):
        model = self._model(step)
        encoded = [lm.encode(model, t) for t in texts]
        a, b = (one_token(model, t) for t in (answer, against))
        if len(encoded[0].ids) != len(encoded[1].ids):
            raise lm.ModelError(tr("the clean prompt is {0} tokens ({1}) and the corrupted one {2} ({3}): patching "
                                   "needs prompts as long in tokens").format(
                len(encoded[0].ids), " | ".join(encoded[0].labels), len(encoded[1].ids), " | ".join(encoded[1].labels)))
        clean, corrupted = (lm.run(model, e.ids) for e in encoded)
        found = patch.patch(model, clean, corrupted, a, b, by, progress=step)
        return "patch", (model, encoded, clean, corrupted, found)

    def _work_lens(self, step, source, token, _):
        model = self._model(step)
        encoded = self._encoded(model, source)
        followed = one_token(model, token) if token else None
        lens.check_length(len(encoded.ids))  # before the model runs
        result = lm.run(model, encoded.ids)
        return "lens", (model, encoded, result, lens.logit_lens(model, result, 5, followed))

    def _work_attribute(self, step, source, token, _):
        model = self._model(step)
        encoded = self._encoded(model, source)
        result = lm.run(model, encoded.ids)
        return "attribute", (model, encoded, result, attribution.head_attribution(model, result,
                                                                                 one_token(model, token)))

    def _work_sweep(self, step, source, token, mean):
        model = self._model(step)
        encoded = self._encoded(model, source)
        t = one_token(model, token)
        result = lm.run(model, encoded.ids)
        return "sweep", (model, encoded, result, sweep.sweep(model, result, t, mean, progress=step))

    def _work_heads(self, step):
        model = self._model(step)
        return "heads", (model, head_types.head_types(model, progress=step))

    def _work_explain(self, step, prompt, target):
        model = self._model(step)
        return "explain", (model, *continuation.explained(model, prompt, target))

    def _work_apply(self, step, model, encoded, changes, baseline, layer, head, stream=None):
        result = lm.run(model, encoded.ids, changes, after=baseline, patch=stream)
        return "apply", (model, encoded, result, baseline, layer, head)

    def progress_text(self, done: int, total: int) -> str:
        return tr("Working: layer {0} of {1}").format(done, total)

    def show_failure(self, message: str) -> None:
        self.message.setText(message)
        getattr(self, f"{self.working_tab}_summary").setText(message)

    def _say(self, tab: str, error) -> None:
        getattr(self, f"{tab}_summary").setText(describe(error))

    # ------------------------------------------------------------- results

    def show_result(self, result) -> None:
        kind, payload = result
        self.message.clear()
        if kind == "apply":
            self.applied.emit(*payload)
            return
        self.last[kind] = payload
        getattr(self, f"_show_{kind}")(*payload)
        getattr(self, f"{kind}_save").setEnabled(True)

    def save_table(self, tab: str, path: str | None = None) -> None:
        """The tab's last result as CSV (asked where, unless `path`): its long-form table, the one the
        API's to_csv and the research commands' --format csv write."""
        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, tr("Save the table"), f"{tab}.csv", tr("CSV files (*.csv)"))
        if not path:
            return
        path = path if path.lower().endswith(".csv") else path + ".csv"  # the dialog may return a bare name
        try:
            labelled(tab, self.last[tab]).to_csv(path)
        except ScenarioError as e:
            self._say(tab, e)
            return
        self.message.setText(tr("Saved {0}").format(path))

    def _show_patch(self, model, encoded, clean, corrupted, found) -> None:
        c = model.config
        heads = found.by == "head"
        columns = [str(h) for h in range(c.n_heads)] if heads else list(encoded[1].labels)
        rows = [str(layer) for layer in range(c.n_layers)]
        self.patch_view.set_values(found.restored, rows, columns, tip=lambda r, col, v: tr(
            "layer {0}, {1}: restores {2:.1%} of the logit difference").format(
                r, tr("head {0}").format(col) if heads else columns[col], v) + (
            "\n" + tr("Click: show the corrupted prompt with this patch")))
        best = np.unravel_index(np.argmax(found.restored), found.restored.shape)
        self.patch_summary.setText(tr("Logit difference {0} − {1}: clean {2:.2f}, corrupted {3:.2f}. Most restored: "
                                      "layer {4}, {5} ({6:.0%}). Rows: layers; columns: {7}.").format(
            _token(model, found.answer), _token(model, found.against), found.clean, found.corrupted,
            best[0], tr("head {0}").format(best[1]) if heads else columns[best[1]], found.restored[best],
            tr("heads") if heads else tr("positions")))

    def _show_lens(self, model, encoded, result, found) -> None:
        table = self.lens_view
        layers, n = found.ids.shape[:2]
        table.clear()
        table.setRowCount(layers)
        table.setColumnCount(n)
        table.setHorizontalHeaderLabels(list(encoded.labels))
        table.setVerticalHeaderLabels([tr("after layer {0}").format(layer) for layer in range(layers)])
        for layer in range(layers):
            for pos in range(n):
                table.setItem(layer, pos, _lens_item(model, found, layer, pos))
        table.resizeColumnsToContents()
        table.resizeRowsToContents()
        table.scrollToBottom()
        text = tr("The likeliest token (and its probability) if the model stopped after each layer: its final norm "
                  "and unembedding read the residual stream there. The last row is the model's own prediction.")
        if found.rank is not None:
            ranks = " ".join(str(int(r)) for r in found.rank[:, -1])
            text += " " + tr("Rank of {0} at the last position, layer by layer: {1}").format(
                _token(model, found.token), ranks)
        self.lens_summary.setText(text)

    def _show_attribute(self, model, encoded, result, found) -> None:
        c = model.config
        values = np.concatenate([found.heads, found.mlps[:, None]], axis=1)
        columns = [str(h) for h in range(c.n_heads)] + [tr("MLP")]
        self.attribute_view.set_values(values, [str(layer) for layer in range(c.n_layers)], columns,
                                       tip=lambda r, col, v: tr("layer {0}, {1}: {2:+.3f} to the logit").format(
                                           r, tr("head {0}").format(col) if col < c.n_heads else tr("MLP"), v))
        self.attribute_summary.setText(tr(
            "Each head's and each MLP's direct contribution to the logit of {0} ({1:.2f}) at the last position; "
            "the embedding gives {2:+.2f}. The final norm's scale is frozen at its value on this text (the usual "
            "approximation): the parts then add up to the logit exactly, but changing a part would change that "
            "scale too. Rows: layers; columns: heads, then the MLP.").format(
                _token(model, found.token), found.logit, found.embedding))

    def _show_sweep(self, model, encoded, result, found) -> None:
        c = model.config
        self.sweep_view.set_values(found.delta_logp, [str(layer) for layer in range(c.n_layers)],
                                   [str(h) for h in range(c.n_heads)], tip=lambda r, col, v: tr(
                                       "layer {0}, head {1} {2}: log p changes by {3:+.3f}").format(
                                       r, col, tr("at its mean") if found.mean else tr("off"), v)
                                   + "\n" + tr("Click: show the text with this head ablated"))
        worst = np.unravel_index(np.argmin(found.delta_logp), found.delta_logp.shape)
        text = tr("log p of {0} is {1:.2f}; setting each head to its mean in turn changes it by the map's number. "
                  "Most harmful: layer {2}, head {3} ({4:+.2f}). Rows: layers; columns: heads.") if found.mean else \
            tr("log p of {0} is {1:.2f}; switching each head off in turn changes it by the map's number. Most "
               "harmful: layer {2}, head {3} ({4:+.2f}). Rows: layers; columns: heads.")
        self.sweep_summary.setText(text.format(_token(model, found.token), found.logp, worst[0], worst[1],
                                               found.delta_logp[worst]))

    def _show_heads(self, model, found) -> None:
        table = self.heads_view
        c = model.config
        table.setSortingEnabled(False)
        table.clear()
        table.setColumnCount(2 + len(head_types.TYPES))
        table.setHorizontalHeaderLabels([tr("layer"), tr("head"), *(type_name(t) for t in head_types.TYPES)])
        table.setRowCount(c.n_layers * c.n_heads)
        for row, (layer, head) in enumerate((layer, head) for layer in range(c.n_layers) for head in range(c.n_heads)):
            table.setItem(row, 0, NumberItem(layer, 0))
            table.setItem(row, 1, NumberItem(head, 0))
            for i, kind in enumerate(head_types.TYPES):
                table.setItem(row, 2 + i, NumberItem(float(found.scores[kind][layer, head]), 2))
        table.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        table.setSortingEnabled(True)
        self._pick_heads()
        self.heads_summary.setText(tr("Scores of every head on {0} random tokens repeated once: each a share of the "
                                      "query's attention, from 0 to 1.").format(len(found.ids) // 2))

    def _show_explain(self, model, whole, found) -> None:
        table = self.explain_view
        table.clear()
        table.setColumnCount(4)
        table.setHorizontalHeaderLabels([tr("token"), tr("probability"), tr("rank"), tr("the model's likeliest")])
        table.setRowCount(len(found.target))
        cmap = colormaps.get("viridis")
        for row, token in enumerate(found.target):
            p = float(found.p[row])
            rivals = "  ".join(f"{_token(model, int(i))} {q:.2f}"
                               for i, q in zip(found.rivals[row], found.rivals_p[row]))
            items = (QTableWidgetItem(_token(model, token)), NumberItem(p, 3), NumberItem(found.rank[row], 0),
                     QTableWidgetItem(rivals))
            items[1].setBackground(cmap.color(p))
            items[1].setForeground(cmap.text_color(p))
            for column, item in enumerate(items):
                table.setItem(row, column, item)
        table.horizontalHeader().setSectionResizeMode(3, QHeaderView.Stretch)
        table.resizeColumnsToContents()
        surprise = int(np.argmin(found.p))
        self.explain_summary.setText(tr("The model reads the prompt and the continuation; each token of the "
                                        "continuation with the probability and rank the model gave it there. Least "
                                        "expected: {0} ({1:.1%}, rank {2}).").format(
            _token(model, found.target[surprise]), float(found.p[surprise]), int(found.rank[surprise])))

    def _pick_heads(self) -> None:
        """"Show induction heads" (or another type): sorted by that score, the strongest marked."""
        if "heads" not in self.last:
            return
        column = 2 + self.pick.currentIndex()
        table = self.heads_view
        table.sortItems(column, Qt.DescendingOrder)
        for row in range(table.rowCount()):
            strong = table.item(row, column).value >= 0.4
            for col in range(table.columnCount()):
                table.item(row, col).setBackground(QColor(255, 214, 170) if strong else QColor(0, 0, 0, 0))
        table.scrollToTop()

    # ------------------------------------------------------------- a click

    def _chosen(self, tab: str, row: int, column: int) -> None:
        if tab not in self.last or self.working:
            return
        if tab == "patch":
            model, encoded, clean, corrupted, found = self.last[tab]
            changes = patch.changes_of(model, clean, corrupted, found.by, row, column)
            head = column if found.by == "head" else 0
            self.start(self._work_apply, model, encoded[1], changes, corrupted, row, head,
                       patch.stream_patch(clean, found.by, row, column))
        elif tab == "sweep":
            model, encoded, result, found = self.last[tab]
            change = sweep.ablation(model, result, row, column, found.mean)
            self.start(self._work_apply, model, encoded, ((row, column, change),), result, row, column)
        elif tab == "attribute":
            model, encoded, result, found = self.last[tab]
            if column < model.config.n_heads:
                self.applied.emit(model, encoded, result, result, row, column)

    # ------------------------------------------------------------- language

    def retranslate(self) -> None:
        self.setWindowTitle(tr("Research workbench"))
        self.retranslate_work()
        for i, name in enumerate((tr("Compare two prompts"), tr("Logit lens"), tr("Attribution"),
                                  tr("Sweep every head"), tr("Head types"), tr("Explain a continuation"))):
            self.tabs.setTabText(i, name)
        labels = {"clean": tr("Clean prompt:"), "corrupted": tr("Corrupted prompt:"),
                  "answer": tr("Answer (clean):"), "against": tr("Against (corrupted):"), "by": tr("Patch:")}
        for row, text in labels.items():
            self.findChild(QLabel, f"{row}Label").setText(text)
        for i, text in enumerate((tr("each head's output"), tr("the residual stream at each position"),
                                  tr("each layer's attention output at each position"))):
            self.by.setItemText(i, text)
        for tab in ("lens", "attribute", "sweep"):
            self.findChild(QLabel, f"{tab}TextLabel").setText(tr("Text:"))
            self.findChild(QLabel, f"{tab}TokenLabel").setText(tr("Token:") if tab != "lens" else tr("Follow token:"))
            getattr(self, f"{tab}_ids").setText(tr("The text is token ids (1, 2, 3)"))
            getattr(self, f"{tab}_no_bos").setText(tr("Without the BOS token the model puts first"))
            getattr(self, f"{tab}_token").setToolTip(tr("One token: its text, a leading space written as a space "
                                                        "(' Paris'), or its id (#7042)"))
        self.mean.setText(tr("Set each head to its mean over the positions (mean ablation) instead of zero"))
        self.findChild(QLabel, "headsPickLabel").setText(tr("Show:"))
        self.findChild(QLabel, "promptLabel").setText(tr("Prompt:"))
        self.findChild(QLabel, "targetLabel").setText(tr("Continuation:"))
        for i, kind in enumerate(head_types.TYPES):
            self.pick.setItemText(i, tr("{0} heads").format(type_name(kind)))
        self.definitions.setText(" ".join(tr("{0}: {1}.").format(f"<b>{type_name(k)}</b>",
                                                                   tr(head_types.DEFINITIONS[k]))
                                          for k in head_types.TYPES))
        for tab, text in (("patch", tr("Patch every head")), ("lens", tr("Read every layer")),
                          ("attribute", tr("Attribute")), ("sweep", tr("Sweep every head")),
                          ("heads", tr("Find head types")), ("explain", tr("Explain"))):
            getattr(self, f"{tab}_run").setText(text)
            getattr(self, f"{tab}_save").setText(tr("Save as CSV…"))
            getattr(self, f"{tab}_save").setToolTip(tr("The result as a table: a row per cell, a column per "
                                                       "axis and value"))


def labelled(tab: str, payload):
    """A tab's result with its text's token labels, for the table's token column."""
    model, *made, found = payload
    if tab == "heads":
        tokens = lm.encode_ids(model, found.ids).labels
    else:
        encoded = made[0][0] if tab == "patch" else made[0]  # patching: the clean prompt's
        tokens = encoded.labels
    return dataclasses.replace(found, tokens=tuple(tokens))


def _lens_item(model, found, layer: int, pos: int) -> QTableWidgetItem:
    """A lens cell: the likeliest token and its probability, coloured by it; the top 5 (and the
    followed token's rank) in its tooltip."""
    top = [(shown_label(lm.token_text(model, int(i))), float(p)) for i, p in zip(found.ids[layer, pos],
                                                                                  found.p[layer, pos])]
    cmap = colormaps.get("viridis")
    item = QTableWidgetItem(f"{top[0][0]}\n{top[0][1]:.2f}")
    item.setBackground(cmap.color(top[0][1]))
    item.setForeground(cmap.text_color(top[0][1]))
    tip = "\n".join(f"{t}  {p:.3f}" for t, p in top)
    if found.rank is not None:
        tip += "\n" + tr("{0}: rank {1}").format(_token(model, found.token),
                                                 int(found.rank[layer, pos]))
    item.setToolTip(tip)
    return item


def _token(model, token: int) -> str:
    """A token as the window labels tokens: a leading space as ·."""
    return shown_label(lm.token_text(model, token))


def type_name(kind: str) -> str:
    return {"previous": tr("previous-token"), "induction": tr("induction"), "duplicate": tr("duplicate-token"),
            "sink": tr("sink"), "local": tr("local")}[kind]

