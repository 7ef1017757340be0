"""A dialog whose contents are made off the GUI thread, with progress and Cancel.

The overview (every layer of a model) and the comparisons (a file, another layer) read and
compute for seconds on large models; the window keeps answering meanwhile. A subclass gives
the work, a function run on a worker thread that reports its steps, and what to show when it
is done. Closing the dialog, or Cancel, stops the work at its next step; a result that
arrives after that (or after the work was started again) is dropped.
"""
from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout

from ...core.scenario import ScenarioError
from .i18n import describe, tr


class Cancelled(Exception):
    """Raised inside the work by its step() once the dialog was closed or cancelled."""


class BackgroundDialog(QDialog):
    """Shows progress while work(step) runs on a worker thread, then show(result)."""

    failed = Signal(str)                     # the work could not be done: why, in the user's language
    _worker_step = Signal(int, int, int)     # run, done, total
    _worker_done = Signal(int, object)       # run, result
    _worker_failed = Signal(int, str)        # run, message

    def __init__(self, parent=None):
        super().__init__(parent)
        self.progress = QProgressBar(objectName="workProgress")
        self.message = QLabel(objectName="workMessage", wordWrap=True)
        self.cancel_button = QPushButton(objectName="cancelWork")
        self.cancel_button.clicked.connect(self.reject)
        self.layout_ = QVBoxLayout(self)
        self.layout_.addWidget(self.message)
        row = QHBoxLayout()
        row.addWidget(self.progress, 1)
        row.addWidget(self.cancel_button)
        self.layout_.addLayout(row)
        self._worker_step.connect(self._stepped)
        self._worker_done.connect(self._done)
        self._worker_failed.connect(self._failed)
        self.setAttribute(Qt.WA_DeleteOnClose)  # a closed dialog lets its data go
        self._run, self._stop, self._busy = 0, threading.Event(), False
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="attnviz-work")
        self.retranslate_work()

    # ------------------------------------------------------------- for subclasses

    def progress_text(self, done: int, total: int) -> str:
        return tr("Working: {0} of {1}").format(done, total)

    def show_result(self, result) -> None:
        raise NotImplementedError

    def show_failure(self, message: str) -> None:
        """By default the dialog says why; a subclass may close and let `failed` tell instead."""
        self.message.setText(message)

    # ------------------------------------------------------------- running

    @property
    def working(self) -> bool:
        return self._busy

    def start(self, work, *args) -> None:
        """Run work(step, *args) off the GUI thread (any earlier run is stopped and forgotten)."""
        self._stop.set()
        self._run += 1
        run, stop = self._run, threading.Event()
        self._stop = stop
        self._busy = True
        self.progress.setRange(0, 0)  # busy until the first step says how many there are
        self.progress.show()
        self.cancel_button.show()
        self.future = self._pool.submit(self._work, run, stop, work, args)

    def _work(self, run: int, stop: threading.Event, work, args) -> None:
        def step(done: int, total: int) -> None:
            if stop.is_set():
                raise Cancelled
            self._tell(stop, self._worker_step, run, done, total)
        try:
            result = work(step, *args)
            if not stop.is_set():
                self._tell(stop, self._worker_done, run, result)
        except Cancelled:
            pass
        except ScenarioError as e:
            self._tell(stop, self._worker_failed, run, describe(e))
        except MemoryError:
            self._tell(stop, self._worker_failed, run, tr("not enough memory for this"))
        except Exception as e:  # noqa: BLE001 (a worker's error must reach the user, not leave the dialog waiting)
            self._tell(stop, self._worker_failed, run, f"{type(e).__name__}: {e}")

    def _tell(self, stop: threading.Event, signal, *values) -> None:
        """Emit from the worker unless the dialog was closed (and deleted) meanwhile."""
        if not stop.is_set():
            try:
                signal.emit(*values)
            except RuntimeError:  # the dialog is gone
                pass

    def _stepped(self, run: int, done: int, total: int) -> None:
        if run == self._run:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
            self.message.setText(self.progress_text(done, total))

    def _done(self, run: int, result) -> None:
        if run == self._run:
            self._finished()
            self.show_result(result)

    def _failed(self, run: int, message: str) -> None:
        if run == self._run:
            self._finished()
            self.show_failure(message)
            self.failed.emit(message)

    def _finished(self) -> None:
        self._busy = False
        self.progress.hide()
        self.cancel_button.hide()

    def retranslate_work(self) -> None:
        self.cancel_button.setText(tr("Cancel"))

    def done(self, result: int) -> None:
        """Closed (Cancel, the close button, Escape): the work stops at its next step."""
        self._stop.set()
        self._pool.shutdown(wait=False, cancel_futures=True)
        super().done(result)
