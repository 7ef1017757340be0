"""The real model in the window: loaded and run off the GUI thread, with progress, rerun after edits.

Loading (dequantising) takes a second or two and a run a fraction of a second; both happen
on one worker thread, never on the GUI thread. An edit to a real head changes the scenario
at once (the heatmaps follow from its q, k, v); the runner then reruns the model from the
edited layer on and reports the new prediction. Jobs that a newer one makes pointless are
dropped; runs are kept by their changes, so undo brings back exactly the earlier prediction.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from PySide6.QtCore import QObject, Signal

from ..core import llama, session as sessions
from ..core.scenario import ScenarioError


class ModelRunner(QObject):
    """Runs the model for one window; models once loaded are kept for the whole session."""

    _loaded_models: dict = {}          # (path, file stamp) -> Model: loaded once per session
    progress = Signal(str, int, int)   # what is happening, done, of how many
    loaded = Signal(object, object, object)  # model, encoded text, its run (no changes)
    ran = Signal(object)               # a run for the scenario's current changes
    failed = Signal(str)               # a message for the user
    restored = Signal(object, object, object, object, object)  # model, encoded text, run, session, source
    mismatch = Signal(object, object, object)  # a session whose model is missing or other: (session, why, source)
    # From the worker thread; handled on the GUI thread, which then tells everyone at once.
    _worker_loaded = Signal(object, object, object)
    _worker_ran = Signal(object)
    _worker_failed = Signal(str)
    _worker_restored = Signal(object, object, object, object, object, object)
    _worker_mismatch = Signal(object, object, object)

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.model: llama.Model | None = None
        self.model_path = None
        self.baseline: llama.Run | None = None  # the model as it is, for before → after
        self.latest: llama.Run | None = None
        self.busy = False
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="attnviz-model")
        self._wanted = None      # the changes the newest request asked for
        self._waiting = []       # callbacks for the run of the current changes
        self._worker_ran.connect(self._done)
        self._worker_loaded.connect(self._loaded)
        self._worker_failed.connect(self._failed)
        self._worker_restored.connect(self._restored)
        self._worker_mismatch.connect(self._mismatched)
        document.changed.connect(self.follow)

    # ------------------------------------------------------------- a new text

    def start(self, text: str, path=None) -> None:
        """Load the model (once; again for another file) and run it on `text`, off the GUI thread."""
        self.busy = True
        self._pool.submit(self._start, text, path)

    def _start(self, text, path) -> None:
        try:
            if self.model is None or str(path or "") != str(self.model_path or ""):
                self.model = self._load(path)
                self.model_path = path
            encoded = llama.encode(self.model, text)
            self.progress.emit("run", 0, 1)
            result = llama.run(self.model, encoded.ids)
        except ScenarioError as e:
            self._worker_failed.emit(str(e))
            return
        except MemoryError:
            self._worker_failed.emit("not enough memory to run the model")
            return
        except Exception as e:  # noqa: BLE001 (a worker's error must reach the user, not vanish)
            self._worker_failed.emit(f"the model could not run ({type(e).__name__}: {e})")
            return
        self._worker_loaded.emit(self.model, encoded, result)
        self._remember_identity()

    def _remember_identity(self) -> None:
        """Work out the model file's SHA-256 now, on the worker, so that saving the session (or its
        crash copy) does not wait for it."""
        try:
            sessions.identity(self.model)
        except ScenarioError:
            pass  # said when a session is saved

    def start_session(self, session, source=None) -> None:
        """Run a saved session again (its model, text and every change), off the GUI thread."""
        self.busy = True
        self._pool.submit(self._start_session, session, source)

    def _start_session(self, session, source) -> None:
        def load(path):
            model = self._load(path)
            self.model, self.model_path = model, path
            self.progress.emit("run", 0, 1)
            return model
        try:
            model, encoded, baseline, result = sessions.restore(session, load)
        except sessions.ModelMismatch as e:
            self._worker_mismatch.emit(session, e, source)
            return
        except ScenarioError as e:
            self._worker_failed.emit(str(e))
            return
        except MemoryError:
            self._worker_failed.emit("not enough memory to run the model")
            return
        except Exception as e:  # noqa: BLE001 (a worker's error must reach the user, not vanish)
            self._worker_failed.emit(f"the model could not run ({type(e).__name__}: {e})")
            return
        self._worker_restored.emit(model, encoded, baseline, result, session, source)

    def _restored(self, model, encoded, baseline, result, session, source) -> None:
        self.baseline, self.latest = baseline, result
        self.busy = False
        self.restored.emit(model, encoded, result, session, source)
        self.ran.emit(result)

    def _mismatched(self, session, message, source) -> None:
        self.busy = False
        self.mismatch.emit(session, message, source)

    def identity(self):
        """The loaded model file's identity, for a session file (its SHA-256 once per file)."""
        return sessions.identity(self.model)

    def _load(self, path) -> llama.Model:
        from ..core.files import stamp
        key = (str(path or llama.bundled_model() or ""), stamp(path or llama.bundled_model() or ""))
        if key not in self._loaded_models:
            self.progress.emit("load", 0, 1)
            self._loaded_models[key] = llama.load(path, progress=lambda done, total: self.progress.emit("load", done, total))
        return self._loaded_models[key]

    def _loaded(self, model, encoded, result) -> None:
        self.baseline = self.latest = result
        self.busy = False
        self.loaded.emit(model, encoded, result)

    def _failed(self, message) -> None:
        self.busy = False
        self.failed.emit(message)

    # ------------------------------------------------------------- edits

    def follow(self) -> None:
        """The scenario changed: when its model changes differ from the last run, run again."""
        live = self.document.scenario.live
        if live is None or self.model is None or live.model is not self.model:
            return
        if self.latest is not None and self.latest.ids == live.ids and \
                llama._same_changes_all(self.latest.changes, live.changes):
            return
        self._request(live)

    def _request(self, live) -> None:
        self._wanted = live.changes
        if not self.busy:
            self.busy = True
            self.progress.emit("run", 0, 1)
            self._pool.submit(self._rerun, live.ids, live.changes)

    def _rerun(self, ids, changes) -> None:
        try:
            if not changes and self.baseline is not None and self.baseline.ids == ids:
                result = self.baseline  # undone back to the model as it is: exactly its own prediction
            else:
                after = self.latest if self.latest is not None and self.latest.ids == ids else None
                result = llama.run(self.model, ids, changes, after=after)
        except MemoryError:
            self._worker_failed.emit("not enough memory to run the model")
            return
        except Exception as e:  # noqa: BLE001
            self._worker_failed.emit(f"the model could not run ({type(e).__name__}: {e})")
            return
        self._worker_ran.emit(result)

    def _done(self, result) -> None:
        self.latest = result
        self.busy = False
        live = self.document.scenario.live
        if live is not None and live.model is self.model and not llama._same_changes_all(result.changes, live.changes):
            self._request(live)  # edited again meanwhile: run for the newest changes
            return
        self.ran.emit(result)
        waiting, self._waiting = self._waiting, []
        for callback in waiting:
            callback(result)

    def current(self) -> llama.Run | None:
        """The run of the scenario's current changes, when it has finished."""
        live = self.document.scenario.live
        if self.latest is None or live is None or not llama._same_changes_all(self.latest.changes, live.changes):
            return None
        return self.latest

    def when_ready(self, callback) -> None:
        """Call `callback(run)` with the run of the current changes, now or when it finishes."""
        result = self.current()
        if result is not None and not self.busy:
            callback(result)
        else:
            self._waiting.append(callback)
            self.follow()

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
