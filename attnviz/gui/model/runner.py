"""The real model in the window: loaded and run off the GUI thread, with progress, rerun after edits.

Loading (dequantising) takes a second or two, tokenising a long text and a run a few seconds;
all happen on one worker thread, never on the GUI thread. A new text can be cancelled: the
worker stops at its next checkpoint (between layers loaded, words tokenised, layers run) and
the window stays as it was. The worker is a daemon thread: closing the window ends AttnViz at
once, whatever it is doing. An edit to a real head changes the scenario
at once (the heatmaps follow from its q, k, v); the runner then reruns the model from the
edited layer on and reports the new prediction. Jobs that a newer one makes pointless are
dropped; runs are kept by their changes, so undo brings back exactly the earlier prediction.
"""
from __future__ import annotations

import queue
import threading

from PySide6.QtCore import QObject, Signal

from ...core import lm
from ...core import session as sessions
from ...core.files import stamp
from ...core.lm import Cancelled
from ...core.scenario import ScenarioError
from ..common.i18n import describe
from ..state import settings


class _Worker:
    """One daemon thread running jobs in order. (A ThreadPoolExecutor's threads are joined when
    Python exits: a long tokenisation would keep a closed AttnViz running.)"""

    def __init__(self, name: str):
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        threading.Thread(target=self._work, name=name, daemon=True).start()

    def submit(self, job, *args) -> None:
        self._jobs.put((job, args))

    def shutdown(self) -> None:
        self._jobs.put(None)

    def _work(self) -> None:
        while (item := self._jobs.get()) is not None:
            job, args = item
            job(*args)


class ModelRunner(QObject):
    """Runs the model for one window; models once loaded are kept for the whole session."""

    _loaded_models: dict = {}          # (path, file stamp, memory way) -> Model: loaded once per session
    progress = Signal(str, int, int)   # what is happening, done, of how many
    first = Signal(object, object, object)   # model, encoded text, (scenario, result): layer 0 before the rest
    loaded = Signal(object, object, object, bool)  # model, encoded text, its run (no changes), `first` shown
    ran = Signal(object)               # a run for the scenario's current changes
    failed = Signal(str)               # a message for the user
    restored = Signal(object, object, object, object, object)  # model, encoded text, run, session, source
    mismatch = Signal(object, object, object)  # a session whose model is missing or other: (session, why, source)
    cancelled = Signal()               # a new text was cancelled: what was shown stays
    scene_ran = Signal(object)         # a lesson's real-model scene has run: its key (text, heads off)
    scene_failed = Signal(object, str)  # ... or could not: its key, and why
    # From the worker thread; handled on the GUI thread, which then tells everyone at once. A
    # new text's signals carry its job (a threading.Event, set when it is cancelled).
    _worker_first = Signal(object, object, object, object)
    _worker_loaded = Signal(object, object, object, object, object)
    _worker_ran = Signal(object)
    _worker_failed = Signal(str, object)
    _worker_cancelled = Signal(object)
    _worker_restored = Signal(object, object, object, object, object, object, object, object)
    _worker_mismatch = Signal(object, object, object, object)
    _worker_scene = Signal(object, object)  # key, None or the message

    def __init__(self, document, parent=None):
        super().__init__(parent)
        self.document = document
        self.model: lm.Model | None = None
        self.source = None    # what the model shown was opened from: None (built in), an id or a path
        self.baseline: lm.Run | None = None  # the model as it is, for before → after
        self.latest: lm.Run | None = None
        self.busy = False
        self._pool = _Worker("attnviz-model")
        self._job: threading.Event | None = None  # the new text being read; set: cancelled
        self._shown = None       # the job whose layer 0 is on screen while its pass goes on
        self._closing = threading.Event()          # the window is closing: every job stops
        self._waiting = []       # callbacks for the run of the current changes
        self._worker_ran.connect(self._done)
        self._worker_loaded.connect(self._loaded)
        self._worker_first.connect(self._first)
        self._worker_failed.connect(self._failed)
        self._worker_cancelled.connect(self._cancelled)
        self._worker_restored.connect(self._restored)
        self._worker_mismatch.connect(self._mismatched)
        self._worker_scene.connect(lambda key, why: self.scene_ran.emit(key) if why is None else
                                   self.scene_failed.emit(key, why))
        document.changed.connect(self.follow)

    # ------------------------------------------------------------- a new text

    def start(self, text: str, source=None, chat: bool = False) -> None:
        """Load the model (once; again for another file) and run it on `text` (in its chat
        template with `chat`), off the GUI thread. A new text still being read is cancelled: the
        newest is the one wanted."""
        self.cancel()
        self.busy = True
        self._job = threading.Event()
        self._pool.submit(self._start, text, source, chat, self._job)

    def cancel(self) -> None:
        """Stop reading the new text at the worker's next checkpoint; what is shown stays."""
        if self._job is not None:
            self._job.set()

    def reading(self) -> bool:
        """True while a new text is being loaded, tokenised or run (and not cancelled)."""
        return self._job is not None and not self._job.is_set()

    def _first(self, job, model, encoded, shown) -> None:
        if job is not self._job or job.is_set():
            return
        self._shown = job
        self.first.emit(model, encoded, shown)

    def _start(self, text, source, chat, job) -> None:
        def stop() -> bool:
            return job.is_set() or self._closing.is_set()
        try:
            model = self._load(source, job)
            self._tell(self.progress, "tokens", 0, 1)
            encoded = lm.encode(model, text, cancelled=stop, chat=chat)
            self._tell(self.progress, "run", 0, 1)

            def shown(layer, q, k, v, kept):  # layer 0 on screen while the pass goes on to the others
                self._tell(self._worker_first, job, model, encoded, lm.first_layer(model, encoded, 0, q, k, v, kept))
            result = lm.run(model, encoded.ids, cancelled=stop, shown=shown, progress=self._running)
        except Exception as e:  # noqa: BLE001 (a worker's error must reach the user, not vanish)
            self._report(job, e)
            return
        self._tell(self._worker_loaded, job, model, source, encoded, result)
        self._remember_identity(model)

    def _running(self, done: int, total: int) -> None:
        self._tell(self.progress, "run", done, total)

    def _report(self, job, e: BaseException) -> None:
        """A new text's (or session's) job ended without a run: cancelled, or why, in the window's language."""
        if isinstance(e, Cancelled):
            self._tell(self._worker_cancelled, job)
        elif isinstance(e, ScenarioError):
            self._tell(self._worker_failed, describe(e), job)
        elif isinstance(e, MemoryError):
            self._tell(self._worker_failed, "not enough memory to run the model", job)
        else:
            self._tell(self._worker_failed, f"the model could not run ({type(e).__name__}: {e})", job)

    def _remember_identity(self, model) -> None:
        """Work out the model file's SHA-256 now, on the worker, so that saving the session (or its
        crash copy) does not wait for it."""
        try:
            sessions.identity(model)
        except ScenarioError:
            pass  # said when a session is saved

    def start_session(self, session, source=None) -> None:
        """Run a saved session again (its model, text and every change), off the GUI thread."""
        self.cancel()
        self.busy = True
        self._job = threading.Event()
        self._pool.submit(self._start_session, session, source, self._job)

    def _start_session(self, session, source, job) -> None:
        path = None if session.model.builtin else session.model.path
        try:
            model, encoded, baseline, result = sessions.restore(session, lambda p: self._load(p, job))
        except sessions.ModelMismatch as e:
            self._tell(self._worker_mismatch, job, session, e, source)
            return
        except Exception as e:  # noqa: BLE001 (a worker's error must reach the user, not vanish)
            self._report(job, e)
            return
        self._tell(self._worker_restored, job, model, path, encoded, baseline, result, session, source)

    def _restored(self, job, model, path, encoded, baseline, result, session, source) -> None:
        if job is not self._job or job.is_set():
            self._cancelled(job)
            return
        self.model, self.source = model, path
        self.baseline, self.latest = baseline, result
        self.busy = False
        self._job = None
        self.restored.emit(model, encoded, result, session, source)
        self.ran.emit(result)

    def _mismatched(self, job, session, error, source) -> None:
        if job is not self._job or job.is_set():
            self._cancelled(job)
            return
        self._job = None
        self.busy = False
        self.mismatch.emit(session, error, source)

    def _tell(self, signal, *args) -> None:
        """Emit from the worker, unless the window is closing (it may be gone already)."""
        if self._closing.is_set():
            return
        try:
            signal.emit(*args)
        except RuntimeError:  # the runner was deleted between the check and the emit
            pass

    # ------------------------------------------------------------- a lesson's scenes

    def run_scene(self, runs, text: str, off) -> None:
        """Run a lesson's real-model scene into `runs` (core/lessons/model.py) on the model's worker;
        scene_ran or scene_failed tells when it is done."""
        self._pool.submit(self._run_scene, runs, text, tuple(sorted(off)))

    def _run_scene(self, runs, text, off) -> None:
        try:
            runs.get(text, off, cancelled=self._closing.is_set)
        except Cancelled:
            return  # the window is closing
        except Exception as e:  # noqa: BLE001 (a worker's error must reach the user, not vanish)
            self._tell(self._worker_scene, (text, off), describe(e) if isinstance(e, ScenarioError) else
                       f"the model could not run ({type(e).__name__}: {e})")
            return
        self._tell(self._worker_scene, (text, off), None)

    def builtin_model(self, cancelled=None) -> lm.Model:
        """The built-in model, loaded once a session (on the worker: it takes a second or two)."""
        class Job:  # what _load asks of a new text's job
            def is_set(self):
                return cancelled is not None and cancelled()
        return self._load(None, Job())

    def adopt(self, model, baseline, result) -> None:
        """A run made for a lesson's scene is the one shown: the next token (before → after), and edits
        run again from it."""
        self.model, self.source = model, None
        self.baseline, self.latest = baseline, result
        self.ran.emit(result)

    def known(self, result) -> None:
        """A run of the current changes made elsewhere (the Steer panel's): the one shown, not run again."""
        self.latest = result
        self.ran.emit(result)

    def _load(self, source, job) -> lm.Model:
        path, way = lm.resolve(source), settings.model_memory()
        key = (str(path), stamp(path), way)
        if key not in self._loaded_models:
            def stop():
                if job.is_set() or self._closing.is_set():
                    raise Cancelled()

            def step(done, total):
                stop()
                self._tell(self.progress, "load", done, total)

            def joined(done, total):
                stop()
                self._tell(self.progress, "assemble", done >> 20, total >> 20)
            step(0, 1)
            for other in [k for k in self._loaded_models if k[0] == key[0]]:  # kept another way: let go first
                del self._loaded_models[other]
            model = lm.load(source, progress=step, assembling=joined, way=way)
            self._loaded_models[key] = self._loaded_models[(str(path), stamp(path), way)] = model  # Gemma: joined
        return self._loaded_models[key]

    def _loaded(self, job, model, source, encoded, result) -> None:
        if job is not self._job or job.is_set():  # cancelled after its last checkpoint: dropped all the same
            self._cancelled(job)
            return
        self.model, self.source = model, source
        self.baseline = self.latest = result
        self.busy = False
        self._job = None
        self.loaded.emit(model, encoded, result, self._shown is job)
        self.follow()  # edits made to layer 0 while the rest of the pass ran
        if not self.busy:  # another layer asked for while the pass went on
            self._answer_waiting(self.current())

    def _failed(self, message, job=None) -> None:
        """A new text (job) or a rerun (None) failed: say why."""
        if job is None:
            self.busy = self._job is not None
            self.failed.emit(message)
            return
        if job is not self._job or job.is_set():
            self._cancelled(job)
            return
        self._end_reading(lambda: self.failed.emit(message))

    def _cancelled(self, job) -> None:
        if job is not self._job:
            return  # a newer text replaced it; that one reports
        self._end_reading(self.cancelled.emit)

    def _end_reading(self, tell) -> None:
        """The new text was not opened: `tell()` the window (which puts back what was open if the
        text's layer 0 was shown), then the runner serves what is shown again, with any edits
        made to it meanwhile."""
        self._job = None
        self.busy = False
        tell()
        self.follow()

    # ------------------------------------------------------------- edits

    def follow(self) -> None:
        """The scenario changed: when its model changes differ from the last run, run again."""
        live = self.document.scenario.live
        if live is None or self.model is None or live.model is not self.model:
            return
        if self.latest is not None and self.latest.ids == live.ids and lm.same_edits(self.latest, live):
            return
        self._request(live)

    def _request(self, live) -> None:
        if not self.busy:
            self.busy = True
            self.progress.emit("run", 0, 1)
            self._pool.submit(self._rerun, live.ids, live.changes, live.patch, live.steer)

    def _rerun(self, ids, changes, patch, steer) -> None:
        try:
            if not changes and patch is None and steer is None and self.baseline is not None and \
                    self.baseline.ids == ids:
                result = self.baseline  # undone back to the model as it is: exactly its own prediction
            else:
                after = self.latest if self.latest is not None and self.latest.ids == ids else None
                result = lm.run(self.model, ids, changes, after=after, cancelled=self._closing.is_set, patch=patch,
                                steer=steer, progress=self._running)
        except Cancelled:
            return  # the window is closing
        except MemoryError:
            self._tell(self._worker_failed, "not enough memory to run the model", None)
            return
        except Exception as e:  # noqa: BLE001
            self._tell(self._worker_failed, f"the model could not run ({type(e).__name__}: {e})", None)
            return
        self._tell(self._worker_ran, result)

    def _done(self, result) -> None:
        self.latest = result
        self.busy = self._job is not None  # a new text may be waiting behind this run
        live = self.document.scenario.live
        if live is not None and live.model is self.model and (
                result.ids != live.ids or not lm.same_edits(result, live)):
            self._request(live)  # edited again meanwhile: run for the newest changes
            return
        self.ran.emit(result)
        self._answer_waiting(result)

    def _answer_waiting(self, result) -> None:
        if result is None:
            return
        waiting, self._waiting = self._waiting, []
        for callback in waiting:
            callback(result)

    def current(self) -> lm.Run | None:
        """The run of the scenario's current changes, when it has finished."""
        live = self.document.scenario.live
        if self.latest is None or live is None or not lm.same_edits(self.latest, live):
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
        """The window closes: every job stops at its next checkpoint, and none keeps AttnViz running."""
        self._closing.set()
        self.cancel()
        self._pool.shutdown()
