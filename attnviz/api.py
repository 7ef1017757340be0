"""AttnViz from Python: a real model's runs and the research workbench, every result numpy arrays
with the names of their axes. The window and the command line use the same functions.

    >>> from attnviz import api
    >>> m = api.load("smollm2-135m")
    >>> run = m.run("The Eiffel Tower is in the city of")
    >>> run.tokens[:3]
    ('The', '·E', 'iffel')
    >>> run.weights(3).shape              # [heads, tokens, tokens]
    (9, 9, 9)
    >>> run.next_tokens(1)[0][:2]         # (text, id, probability)
    (' Paris', 7042)

    >>> p = api.patch(m, "The Eiffel Tower is in the city of", "The Colosseum is in the city of",
    ...               answer=" Paris", against=" Rome")
    >>> p.restored.shape                  # [layers, heads]: the share of the logit difference restored
    (30, 9)

See docs/API.md for every function and what its numbers mean.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import os
import sys

import numpy as np

from .core import lm
from .core.files import atomic_write, check_writable
from .core.lm import Encoded, hooks
from .core.numbers import MAX_ABS
from .core.research import attribution as _attribution
from .core.research import continuation as _continuation
from .core.research import given
from .core.research import head_types as _head_types
from .core.research import lens as _lens
from .core.research import patch as _patch
from .core.research import sweep as _sweep
from .core.research.interventions import add, mean, project_out, replace, zero
from .core.research.parts import head_outputs, head_weights, residual
from .core.research.tables import Tabular, next_tokens, path_to_write
from .core.scenario import Change
from .display import display_problem

__all__ = ["Model", "Run", "add", "continuation", "head_attribution", "head_types", "load", "logit_lens", "mean",
           "patch", "picture", "project_out", "replace", "show", "sweep", "zero"]


def load(source: str | None = None, memory: str = "auto") -> Model:
    """A model by its id in `attnviz models` ("smollm2-135m", "gemma3-270m"), a GGUF file or a
    Hugging Face folder; None is the built-in SmolLM2-135M. A model with terms of use (Gemma 3)
    must have had them accepted once (in the window, or `attnviz model --model gemma3-270m`).
    `memory`: how its weights are kept, "compact" (a GGUF file's weights stay in the file, each layer
    dequantised when a pass reaches it), "fast" (all float32) or "auto" (fast when it fits easily);
    `attnviz models --format json` says what each takes, and one that would not fit is refused."""
    try:
        named = None if source is None else os.fspath(source)
    except TypeError:
        named = None
    if source is not None and not isinstance(named, str):
        raise lm.ModelError("give a model's id, a GGUF file or a model folder, not {0}", type(source).__name__)
    lm.memory.checked_way(memory)
    refused = lm.catalog.terms_refusal(source)
    if refused is not None:
        raise refused
    return Model(lm.load(named, way=memory))


@dataclasses.dataclass(frozen=True, eq=False)
class Model:
    lm: lm.Model

    @property
    def layers(self) -> int:
        return self.lm.config.n_layers

    @property
    def heads(self) -> int:
        return self.lm.config.n_heads

    def token(self, spec: str | int) -> int:
        """A token's id from its text (" Paris": exactly one token, a leading space as a space), "#ID" or an id."""
        return given.token(self.lm, spec)

    def encode(self, text: str | None = None, ids=None, bos: bool = True, chat: bool = False) -> Encoded:
        if (text is None) == (ids is None):
            raise lm.ModelError("give a text or token ids (one of them)")
        bos, chat = given.flag("bos", bos), given.flag("chat", chat)
        if ids is not None and chat:
            raise lm.ModelError("chat: the chat template wraps a text; token ids are run as they are given")
        return lm.encode(self.lm, text, chat=chat, bos=bos) if text is not None else lm.encode_ids(self.lm, ids)

    def run_batch(self, texts, *, bos: bool = True, chat: bool = False, off=(), edits=None, keep=(),
                  hooks=None) -> list[Run]:
        """Each text run as m.run(text, ...) runs it, one after the other (no padding: every number is
        one run's own, whatever the lengths). Every text is read and its memory reckoned before the first
        run: a batch whose runs would keep more than given.MOST_KEPT bytes is refused up front, at the first
        text that goes over."""
        bos, chat = given.flag("bos", bos), given.flag("chat", chat)
        encoded = given.fitting_batch(self.lm, (self._encoded_item(i, text, bos, chat)
                                                for i, text in enumerate(given.texts(texts))), keep)
        return [self._run(e, off=off, edits=edits, keep=keep, hooks=hooks) for e in encoded]

    def _encoded_item(self, i: int, text, bos: bool, chat: bool) -> Encoded:
        """A batch's text i encoded, what is wrong with it said naming it (one of thousands)."""
        if text is None:
            raise lm.ModelError("texts: text {0}: give a text, not None", i)
        try:
            return self.encode(text, None, bos, chat)
        except lm.ModelError as e:
            raise lm.ModelError("texts: text {0}: {1}", i, e) from None

    def hook_names(self) -> list[str]:
        """Every hook point a run can keep (`run(..., keep=[...])`), in the order the pass reaches them:
        embed, blocks.L.resid_pre, blocks.L.attn.pattern, …, ln_final, logits (core/lm/hooks.py)."""
        return hooks.hook_names(self.lm.config)

    def run(self, text: str | None = None, *, ids=None, bos: bool = True, chat: bool = False, off=(),
            edits=None, keep=(), hooks=None) -> Run:
        """The model on `text` (or token `ids`), with heads switched `off` ([(layer, head), ...]) and
        `edits` ({(layer, head): {"q": array [n, d_head], "k": ..., "v": ...}}) applied; the hook points
        `keep` names (names or globs: "blocks.*.attn.out") kept in `run.cache`; `hooks` ({name or glob:
        fn(array, cache) -> array or None}) writes a point: the pass goes on with what fn gives (zero, add,
        replace, project_out and mean make the usual ones)."""
        return self._run(self.encode(text, ids, bos, chat), off=off, edits=edits, keep=keep, hooks=hooks)

    def _run(self, encoded: Encoded, off=(), edits=None, keep=(), hooks=None) -> Run:
        changes = _changes(self.lm, len(encoded.ids), off, {} if edits is None else edits)
        names = given.hook_points(self.lm, keep, len(encoded.ids))
        writes = None if hooks is None else given.hook_writes(self.lm, hooks, len(encoded.ids))
        with np.errstate(all="ignore"):  # an overflow ends as NaN, which lm.run refuses in one line
            result = lm.run(self.lm, encoded.ids, changes, keep=names, writes=writes)
        return Run(self, encoded, result, hooked=writes is not None)


@dataclasses.dataclass(frozen=True, eq=False)
class Run(Tabular):
    model: Model
    encoded: lm.Encoded
    result: lm.Run
    hooked: bool = False  # made with hooks=: what reruns its layers (patch, attribution, sweep) would drop them

    def _repr_png_(self) -> bytes:
        """In a notebook, a run shows as layer 0's heads (picture(run, layer=L) for another)."""
        return picture(self)

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.encoded.labels

    @property
    def ids(self) -> tuple[int, ...]:
        return self.encoded.ids

    @property
    def cache(self) -> dict[str, np.ndarray]:
        """The hook points the run was asked to keep: name -> array (shapes in core/lm/hooks.py)."""
        return self.result.cache

    @property
    def logits(self) -> np.ndarray:
        """[vocab]: the next token's logits."""
        return self.result.logits

    @property
    def probs(self) -> np.ndarray:
        """[vocab]: the next token's probabilities."""
        return self.result.probs

    def weights(self, layer: int) -> np.ndarray:
        """[heads, n, n]: each head's attention weights in `layer` (query rows, key columns)."""
        return head_weights(self.model.lm, self.result, self._layer(layer))

    def q(self, layer: int) -> np.ndarray:
        """[heads, n, d_head]: each head's queries in `layer`, after RoPE, as attention used them."""
        return self.result.per_head(self._layer(layer), "q")

    def k(self, layer: int) -> np.ndarray:
        return self.result.per_head(self._layer(layer), "k")

    def v(self, layer: int) -> np.ndarray:
        return self.result.per_head(self._layer(layer), "v")

    def head_outputs(self, layer: int) -> np.ndarray:
        """[heads, n, d_head]: each head's output in `layer`, before W_o."""
        return head_outputs(self.model.lm, self.result, self._layer(layer))

    def residual(self, layer: int) -> np.ndarray:
        """[n, d]: the residual stream entering `layer`; `layer` = the number of layers: after the last."""
        return residual(self.model.lm, self.result, given.layer(self.model.lm, layer, after_last=True))

    def columns(self) -> dict[str, np.ndarray]:
        """The next token's distribution over the whole vocabulary, likeliest first: rank, id, token, logit, p."""
        return next_tokens(self.model.lm, self.logits, self.probs)

    def next_tokens(self, k: int = 10) -> list[tuple[str, int, float]]:
        """The k likeliest next tokens: (text, id, probability), likeliest first."""
        k = given.whole("k", k, 1, 1000)  # the command line's --top-k
        return [(text, i, p) for i, text, p in lm.top(self.model.lm, self.result.probs, k)]

    def _layer(self, layer: int) -> int:
        return given.layer(self.model.lm, layer)


def _quiet(work):
    """numpy's warnings kept from the researcher's terminal: a model of huge (finite) weights overflows on
    the way; its runs were refused where their probabilities were not numbers."""
    @functools.wraps(work)
    def quietly(*args, **kwargs):
        with np.errstate(all="ignore"):
            return work(*args, **kwargs)
    return quietly


@_quiet
def patch(m: Model, clean, corrupted=None, answer=None, against=None, by: str = "head", progress=None,
          metric=None) -> _patch.Patched:
    """Activation patching from `clean` into `corrupted` (texts or runs as long in tokens): the share
    of the logit difference answer − against each patch restores, by "head" ([layers, heads]),
    "position" (the residual stream, [layers, positions]) or "attention" (a layer's attention
    output at a position). See core/research/patch.py.

    `clean` may instead be a dataset: a list (or any iterable) of (clean, corrupted, answer, against) pairs, patched
    each and averaged. `metric(logits_patched, logits_clean, logits_corrupted, pair) -> float` (the last
    position's logits; `pair` the pair's tuple, or None for one pair) replaces the logit difference restored."""
    m = _model(m)
    by, progress = given.one_of("by", by, ("head", "position", "attention")), given.callback("progress", progress)
    metric = given.callback("metric", metric)
    clean, corrupted = given.unwrapped(clean), given.unwrapped(corrupted)  # a 0-d array: its one value
    if corrupted is None and not isinstance(clean, (str, bytes, Run)) and hasattr(clean, "__iter__"):
        if answer is not None or against is not None:
            raise lm.ModelError("pairs: each pair gives its answer and against: leave out answer= and against=")
        return _patch_pairs(m, given.pairs(clean), by, progress, metric)
    a, b = (_run_of(m, x, name) for x, name in ((clean, "clean"), (corrupted, "corrupted")))
    own = None if metric is None else (lambda z, c, k: metric(z, c, k, None))
    found = _patch.patch(m.lm, a.result, b.result, m.token(answer), m.token(against), by, progress, metric=own)
    return dataclasses.replace(found, tokens=a.tokens)


PAIRS_AT_ONCE = 32  # a dataset's pairs patched together: their runs kept at once (≈ 3 MB a pair of 15 tokens)


def _patch_pairs(m: Model, pairs: list[tuple], by: str, progress, metric) -> _patch.Patched:
    """The pairs of one length patched together, PAIRS_AT_ONCE at a time, their maps averaged (positions:
    every pair as long in tokens); every pair's prompts, tokens and logit difference checked before the first
    is patched."""
    lengths = _pair_lengths(m, pairs, by)
    if metric is None:
        _check_differences(m, pairs)
    groups = [chunk for n in dict.fromkeys(lengths) for chunk in _chunks([i for i, k in enumerate(lengths) if k == n])]
    total, maps, ends, tokens = len(groups) * m.layers, [], [], ()
    for g, group in enumerate(groups):  # the first group begins with pair 0, whose tokens label the map
        runs = [_pair_runs(m, pairs[i]) for i in group]
        step = None if progress is None else (lambda done, _, g=g: progress(g * m.layers + done, total))
        own = None if metric is None else [lambda z, c, k, pair=pairs[i]: metric(z, c, k, pair) for i in group]
        maps.append(_patch.patch_many(m.lm, [r[:4] for r in runs], by, step, metrics=own).sum(axis=0))
        ends += [(_patch.logit_difference(a, x, y), _patch.logit_difference(b, x, y)) for a, b, x, y, _ in runs]
        tokens = tokens or runs[0][4]
    clean, corrupted = np.mean(ends, axis=0)
    with np.errstate(over="ignore", invalid="ignore"):  # finite values whose sum passes the float's largest
        restored = np.sum(maps, axis=0) / len(pairs)
    if not np.isfinite(restored).all():
        raise lm.ModelError("metric: its values over the {0} pairs add up past the largest number a float holds, so "
                            "their mean is not a number; give a metric of smaller values", len(pairs))
    return _patch.Patched(by, restored, float(clean), float(corrupted), -1, -1, tokens,
                          "logit-diff-restored" if metric is None else "own", len(pairs))


def _pair_lengths(m: Model, pairs: list[tuple], by: str) -> list[int]:
    """Each pair's length in tokens, its prompts as long as each other (and, but by head, as every pair's)."""
    both = [_checked_item(m, i, "pairs: pair", (clean, corrupted), (answer, against))
            for i, (clean, corrupted, answer, against) in enumerate(pairs)]
    uneven = next((i for i, (a, b) in enumerate(both) if a != b), None)
    if uneven is not None:
        raise lm.ModelError("pairs: pair {0}: the clean prompt is {1} tokens and the corrupted one {2}: patching "
                            "needs prompts as long in tokens", uneven, *both[uneven])
    lengths = [a for a, _ in both]
    if by != "head" and len(set(lengths)) > 1:
        i = next(i for i, n in enumerate(lengths) if n != lengths[0])
        raise lm.ModelError("pairs: pair {0} is {1} tokens and pair 0 {2}: patching by {3} averages pairs as long "
                            "in tokens", i, lengths[i], lengths[0], by)
    return lengths


def _check_differences(m: Model, pairs: list[tuple]) -> None:
    """A pair whose prompts give the same logit difference has nothing to restore: refused before the first
    pair is patched (each pair run once more for it: a fiftieth of patching's reruns)."""
    for i, pair in enumerate(pairs):
        try:
            _patch.check_difference(*_pair_runs(m, pair)[:4])
        except lm.ModelError as e:
            raise lm.ModelError("pairs: pair {0}: {1}", i, e) from None


def _pair_runs(m: Model, pair: tuple) -> tuple:
    """(clean run, corrupted run, answer id, against id, the clean prompt's tokens) of one pair."""
    clean, corrupted = (_run_of(m, x, name) for x, name in zip(pair[:2], ("clean", "corrupted")))
    return clean.result, corrupted.result, m.token(pair[2]), m.token(pair[3]), clean.tokens


def _chunks(items: list) -> list[list]:
    return [items[i:i + PAIRS_AT_ONCE] for i in range(0, len(items), PAIRS_AT_ONCE)]


@_quiet
def logit_lens(run: Run, k: int = 5, token=None) -> _lens.Lens:
    """The k likeliest tokens after each layer at each position ([layers, positions, k] ids and
    probabilities); with `token`, its rank and probability everywhere."""
    run = _run_of(None, run, "run", reruns=False)  # the lens reads the run's streams as they were written
    k, token = given.whole("k", k, 1, 100), None if token is None else run.model.token(token)  # as --top-k
    return dataclasses.replace(_lens.logit_lens(run.model.lm, run.result, k, token), tokens=run.tokens)


@_quiet
def head_attribution(run: Run, token) -> _attribution.Attribution:
    """Each head's ([layers, heads]) and feed-forward's ([layers]) direct contribution to `token`'s
    logit at the last position, the final norm's scale frozen (see core/research/attribution.py)."""
    run = _run_of(None, run, "run")
    found = _attribution.head_attribution(run.model.lm, run.result, run.model.token(token))
    return dataclasses.replace(found, tokens=run.tokens)


@_quiet
def sweep(m: Model, text, token=None, mean: bool = False, progress=None) -> _sweep.Sweep:
    """Each head switched off (or, with `mean`, set to its mean over the positions) in turn: the
    change in `token`'s log-probability as the next token, [layers, heads].

    `text` may instead be a dataset: a list (or any iterable) of texts sharing `token`, or of (text, token)
    pairs; each is swept and the changes (and log p) averaged over them."""
    m = _model(m)
    mean, progress = given.flag("mean", mean), given.callback("progress", progress)
    text = given.unwrapped(text)  # a 0-d array: its one value
    if not isinstance(text, (str, bytes, Run)) and hasattr(text, "__iter__"):
        return _sweep_dataset(m, given.sweep_items(text, token), mean, progress)
    if token is None:
        raise lm.ModelError("give the token whose log p the sweep follows")
    run = _run_of(m, text, "text")
    found = _sweep.sweep(m.lm, run.result, m.token(token), mean, progress)
    return dataclasses.replace(found, tokens=run.tokens)


def _sweep_dataset(m: Model, items: list[tuple], mean: bool, progress) -> _sweep.Sweep:
    """Each (text, token) swept in turn, the maps and log p averaged; every text and token checked before the
    first is swept."""
    for i, (text, token) in enumerate(items):
        _checked_item(m, i, "texts: item", (text,), (token,))
    found = []
    for i, (text, token) in enumerate(items):
        step = None if progress is None else (lambda done, total, i=i: progress(i * total + done, len(items) * total))
        found.append(sweep(m, text, token, mean, step))
    ids = {f.token for f in found}
    return _sweep.Sweep(ids.pop() if len(ids) == 1 else -1, mean, float(np.mean([f.logp for f in found])),
                        np.mean([f.delta_logp for f in found], axis=0), texts=len(found))


@_quiet
def head_types(m: Model, length: int = _head_types.REPEAT, seed: int = 0) -> _head_types.HeadTypes:
    """Every head's previous-token, induction, duplicate-token, sink and local scores, [layers,
    heads] each, measured on `length` random tokens repeated once (see core/research/head_types.py)."""
    m = _model(m)
    found = _head_types.head_types(m.lm, length, seed)
    return dataclasses.replace(found, tokens=lm.encode_ids(m.lm, found.ids).labels)


@_quiet
def continuation(m: Model, prompt: str, target: str, k: int = 5) -> _continuation.Continuation:
    """The model reads prompt + target: each target token's probability and rank, and the k
    tokens the model found likelier there."""
    m = _model(m)
    for what, text in (("prompt", prompt), ("target", target)):
        if not isinstance(text, str):
            raise lm.ModelError("{0}: give a text, not {1}", what, type(text).__name__)
    whole, found = _continuation.explained(m.lm, prompt, target, given.whole("k", k, 1, 1000))
    return dataclasses.replace(found, tokens=whole.labels)


PICTURED = (_patch.Patched, _lens.Lens, _attribution.Attribution, _sweep.Sweep, _head_types.HeadTypes,
            _continuation.Continuation)


def picture(thing, path=None, layer: int = 0) -> bytes:
    """A run (its `layer`'s heads: weights, tokens, the mask hatched) or a workbench result (its map) as a PNG,
    drawn by the window's painters without a window; written to `path` too when given. A notebook shows runs
    and results so inline."""
    from .gui.window import pictures  # Qt only for a picture: the API runs headless
    named = None if path is None else _png_path(path)
    if isinstance(thing, Run):
        layer = given.layer(thing.model.lm, layer)
        data = pictures.run_png(thing.model.lm, thing.encoded, thing.result, layer)
    elif isinstance(thing, PICTURED):
        data = pictures.result_png(thing)
    else:
        raise lm.ModelError("picture: give a run or a workbench result, not {0}", type(thing).__name__)
    if named is not None:
        atomic_write(named, data)
    return data


def _png_path(path) -> str:
    """Where a picture may be written: a .png name whose folder is there, checked before it is drawn."""
    named = path_to_write(path, ".png")
    check_writable(named)
    return named


def _in_notebooks() -> None:
    """Under IPython (Jupyter), the workbench's results display as their pictures, as a Run does by _repr_png_
    (the core's result classes stay free of Qt: the formatter is registered here)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    if shell is not None:
        formatter = shell.display_formatter.formatters["image/png"]
        for kind in PICTURED:
            formatter.for_type(kind, picture)


_in_notebooks()


def show(run: Run, layer: int = 0, block: bool = True):
    """Open AttnViz's window on `run`, showing `layer`; edits in it rerun the model. From a script
    it returns when the window closes; with block=False (a notebook with `%gui qt`) at once,
    returning the window."""
    if not isinstance(run, Run):
        raise lm.ModelError("show: give a run (m.run(text)), not {0}", type(run).__name__)
    layer = run._layer(layer)
    problem = display_problem() if "PySide6.QtWidgets" not in sys.modules else None  # else Qt runs already
    if problem is not None:  # Qt would abort the process, and the researcher's work with it
        raise lm.ModelError("show: {0}", problem)
    from .gui.common.i18n import install_language, system_language  # Qt only for show(): the API runs headless
    from .gui.state import settings
    from .gui.window.app import create_app
    from .gui.window.main_window import MainWindow
    app = create_app()
    install_language(settings.language(system_language()))
    model = run.model.lm
    window = MainWindow(lm.scenario(model, run.encoded, run.result, layer))
    edited = run.result.changes or run.result.patch is not None or run.result.steer is not None
    baseline = lm.run(model, run.ids) if edited else run.result
    window.model.runner.adopt(model, baseline, run.result)
    window.show()
    if block:
        app.exec()
    return window


def _model(m) -> Model:
    if not isinstance(m, Model):
        raise lm.ModelError("m: give a model (api.load(...)), not {0}", type(m).__name__)
    return m


def _checked_item(m: Model, i: int, what: str, prompts: tuple, tokens: tuple) -> list[int]:
    """A dataset's item i checked as its turn would check it, without running the model: each prompt (a text
    is tokenised; a run must be this model's, without hooks) and each token. -> the prompts' lengths."""
    try:
        lengths = [len((m.encode(x) if isinstance(x, str) else _run_of(m, x, "prompt")).ids) for x in prompts]
        for token in tokens:
            m.token(token)
    except lm.ModelError as e:
        raise lm.ModelError("{0} {1}: {2}", what, i, e) from None
    return lengths


def _run_of(m: Model | None, x, what: str, reruns: bool = True) -> Run:
    """`x` as a run of the model `m` (with `m` None, of any): a text is run; a run of another model is refused,
    and a run made with hooks where the work `reruns` its layers (which would leave the hooks out)."""
    if m is not None and not isinstance(x, Run):
        return m.run(x)
    if not isinstance(x, Run) or (m is not None and x.model.lm is not m.lm):
        raise lm.ModelError("{0}: give a run of this model (m.run(text)), not {1}", what,
                            "a run of another model" if isinstance(x, Run) else type(x).__name__)
    if reruns and x.hooked:
        raise lm.ModelError("{0}: this run was made with hooks=, which patching, attribution and sweeps do not "
                            "apply when they rerun its layers: give the text, or a run without hooks", what)
    return x


def _changes(model: lm.Model, n: int, off, edits) -> tuple:
    if isinstance(off, (str, bytes, dict)) or not hasattr(off, "__iter__"):
        raise lm.ModelError("off: give a list of (layer, head) pairs")
    if not isinstance(edits, dict):
        raise lm.ModelError("edits: give {(layer, head): {'q': array, 'k': ..., 'v': ...}}")
    most = model.config.n_layers * model.config.n_heads
    pairs = list(itertools.islice(off, most + 1))  # an endless iterator is not followed for ever
    if len(pairs) > most:
        raise lm.ModelError("off: more than the model's {0:,} heads", most)
    changes: dict = {given.head(model, pair): Change(off=True) for pair in pairs}
    for pair, values in dict.items(edits):  # the dict's own items, whatever a subclass makes of them
        layer, head = given.head(model, pair)
        if not isinstance(values, dict):
            raise lm.ModelError("edits[{0}, {1}]: give {{'q': array, 'k': ..., 'v': ...}}", layer, head)
        fields = {name: _edited(model, n, (layer, head), name, value) for name, value in dict.items(values)}
        changes[(layer, head)] = dataclasses.replace(changes.get((layer, head), Change()), **fields)
    return tuple((layer, head, change) for (layer, head), change in sorted(changes.items()))


def _edited(model: lm.Model, n: int, where: tuple[int, int], name, value) -> np.ndarray:
    """q, k or v of one head: finite numbers of its shape within ±MAX_ABS, as the window's cells take."""
    shape = (n, model.config.d_head)
    try:
        given_array = np.asarray(value)
        # real numbers only: not texts ("1.5"), complex numbers, dates or records, which numpy would convert
        with np.errstate(all="ignore"):  # a longdouble past float64 is inf, refused below
            array = given_array.astype(np.float64) if given_array.dtype.kind in "biuf" else None
    except (TypeError, ValueError):
        array = None
    if name not in ("q", "k", "v") or array is None or array.shape != shape or not (np.abs(array) <= MAX_ABS).all():
        raise lm.ModelError("edits[{0}, {1}][{2}]: give q, k or v as numbers from -1,000,000 to 1,000,000 of shape "
                            "{3}", *where, repr(name)[:40], shape)
    return array.astype(np.float32)
