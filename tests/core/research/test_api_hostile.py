"""Issue 45: every argument the Python API takes is checked at the door, as the command line checks its
own: a wrong one is a ModelError in one line saying what to give, before any work, never an exception
from inside numpy or the tokenizer, never a numpy warning (an attacker's round found 37 that were)."""
from __future__ import annotations

import itertools
import warnings
from pathlib import Path

import numpy as np
import pytest

from attnviz import api
from attnviz.core.scenario import ScenarioError

LLAMA = Path(__file__).resolve().parents[2] / "golden" / "families" / "llama" / "llama-f32.gguf"
GPT2 = LLAMA.parents[1] / "gpt2" / "gpt2-f16.gguf"  # 64 positions


class BytesPath:
    def __fspath__(self):
        return b"/tmp/model.gguf"


def huge_model():
    """The golden Llama with its final norm's gain at 3e38 (finite, as a damaged file may hold)."""
    model = api.load(str(LLAMA))
    model.lm.out_norm.gain[:] = 3e38
    return model


def few_ordinary_tokens():
    """A tiny llama whose vocabulary is control tokens but for ten letters: head_types draws 50 different ones."""
    import tempfile

    import gguf_writer
    from attnviz.core.lm.tokens import byte_characters
    characters = byte_characters()
    types = [3] * (len(characters) + 2)
    for letter in "abcdefghij":
        types[characters.index(letter)] = 1
    path = Path(tempfile.mkdtemp()) / "few.gguf"
    gguf_writer.tiny_llama(path, metadata={"llama.context_length": 128, "tokenizer.ggml.token_type": types})
    return api.load(str(path))


class EndlessItems(dict):
    """A dict whose items() never ends: the dict's own items are read."""

    def items(self):
        return (((0, 0), {}) for _ in itertools.count())


@pytest.fixture(scope="module")
def m():
    return api.load(str(LLAMA))  # 2 layers of 4 heads, d_head 16, 512 tokens


@pytest.fixture(scope="module")
def r(m):
    return m.run("hi there")  # 4 tokens


def shape(m):
    return (4, m.lm.config.d_head)


CASES = {
    "load(5)": (lambda m, r: api.load(5), "give a model's id, a GGUF file or a model folder, not int"),
    "load([...])": (lambda m, r: api.load(["a"]), "not list"),
    "token(-5)": (lambda m, r: m.token(-5), "-5: the model's token ids go from 0 to 511"),
    "token(10**9)": (lambda m, r: m.token(10**9), "#1000000000: the model's token ids go from 0 to 511"),
    "token(True)": (lambda m, r: m.token(True), "give a token: its text"),
    "run(ids=5)": (lambda m, r: m.run(ids=5), "give token ids as a list of whole numbers"),
    "run(ids=range(10**8))": (lambda m, r: m.run(ids=range(10**8)), "100,000,000 token ids: the model reads at most"),
    "run(ids=2-D)": (lambda m, r: m.run(ids=np.ones((2, 2), int)), "token id [1 1]"),
    "run(ids=generator)": (lambda m, r: m.run(ids=(1 for _ in iter(int, 1))), "token ids: the model reads at most"),
    "run(bos='no')": (lambda m, r: m.run("hi", bos="no"), "bos: 'no' is not True or False"),
    "run(chat=1)": (lambda m, r: m.run("hi", chat=1), "chat: '1' is not True or False"),
    "run(ids, chat=True)": (lambda m, r: m.run(ids=[1, 2], chat=True), "chat: the chat template wraps a text"),
    # attacker round 18: a float or a bool id was said to be out of a range it is in
    "run(ids=[1.0])": (lambda m, r: m.run(ids=[1.0, 2.0]), "token id 1.0: token ids are whole numbers"),
    "run(ids=bools)": (lambda m, r: m.run(ids=np.array([True, False])), "token id True: token ids are whole numbers"),
    "continuation('')": (lambda m, r: api.continuation(m, "hi", ""), "the continuation is empty: give the text"),
    "run(ids=a set)": (lambda m, r: m.run(ids={1, 2}), "give token ids as a list of whole numbers"),  # round 19
    "off=5": (lambda m, r: m.run("hi", off=5), "off: give a list of (layer, head) pairs"),
    "off=[(0,)]": (lambda m, r: m.run("hi", off=[(0,)]), "head (0,): give (layer, head), layers 0 to 1 and heads 0"),
    "off=['ab']": (lambda m, r: m.run("hi", off=["ab"]), "head ab: give (layer, head)"),
    "off=[(True, 0)]": (lambda m, r: m.run("hi", off=[(True, 0)]), "head (True, 0): give (layer, head)"),
    "edits=[...]": (lambda m, r: m.run("hi", edits=[1]), "edits: give {(layer, head): {'q': array"),
    "edits={1: ...}": (lambda m, r: m.run("hi", edits={1: {}}), "head 1: give (layer, head)"),
    "edits={(0,0): 'q'}": (lambda m, r: m.run("hi", edits={(0, 0): "q"}), "edits[0, 0]: give {'q': array"),
    "edits name 0": (lambda m, r: m.run("hi there", edits={(0, 0): {0: np.zeros(shape(m))}}),
                     "edits[0, 0][0]: give q, k or v as numbers from -1,000,000 to 1,000,000 of shape (4, 16)"),
    "edits ragged": (lambda m, r: m.run("hi there", edits={(0, 0): {"q": [[1.0], [1.0, 2.0]]}}), "of shape (4, 16)"),
    "edits of texts": (lambda m, r: m.run("hi there", edits={(0, 0): {"q": np.full(shape(m), "a")}}), "of shape"),
    "edits of objects": (lambda m, r: m.run("hi there", edits={(0, 0): {"q": np.full(shape(m), object())}}),
                         "of shape"),
    "edits of 3e38": (lambda m, r: m.run("hi there", edits={(1, 0): {"v": np.full(shape(m), 3e38)}}),
                      "numbers from -1,000,000 to 1,000,000"),
    "edits of 1e300": (lambda m, r: m.run("hi there", edits={(1, 0): {"v": np.full(shape(m), 1e300)}}),
                       "numbers from -1,000,000 to 1,000,000"),
    "weights(1.5)": (lambda m, r: r.weights(1.5), "layer 1.5: not a whole number; the model has layers 0 to 1"),
    "weights('0')": (lambda m, r: r.weights("0"), "layer 0: not a whole number; the model has layers 0 to 1"),
    "weights(None)": (lambda m, r: r.weights(None), "layer None"),
    "weights(True)": (lambda m, r: r.weights(True), "layer True"),
    "q(0.0)": (lambda m, r: r.q(0.0), "layer 0.0"),
    "residual(3)": (lambda m, r: r.residual(3), "layer 3: the model has layers 0 to 2"),
    "residual('x')": (lambda m, r: r.residual("x"), "layer x"),
    "head_outputs(np.float64)": (lambda m, r: r.head_outputs(np.float64(0)), "layer 0.0"),
    "next_tokens(0)": (lambda m, r: r.next_tokens(0), "k: '0' is not a number from 1 to 1000"),
    "next_tokens(-1)": (lambda m, r: r.next_tokens(-1), "k: '-1' is not a number from 1 to 1000"),
    "next_tokens(1.5)": (lambda m, r: r.next_tokens(1.5), "k: '1.5'"),
    "next_tokens('3')": (lambda m, r: r.next_tokens("3"), "k: '3'"),
    "logit_lens(k=-1)": (lambda m, r: api.logit_lens(r, k=-1), "k: '-1' is not a number from 1 to 100"),
    "logit_lens(k=0.5)": (lambda m, r: api.logit_lens(r, k=0.5), "k: '0.5'"),
    "logit_lens(token=-1)": (lambda m, r: api.logit_lens(r, token=-1), "-1: the model's token ids go from 0"),
    "logit_lens(token=10**6)": (lambda m, r: api.logit_lens(r, token=10**6), "#1000000: the model's token ids"),
    "logit_lens('text')": (lambda m, r: api.logit_lens("hi"), "run: give a run of this model (m.run(text)), not str"),
    "head_attribution(10**6)": (lambda m, r: api.head_attribution(r, 10**6), "#1000000: the model's token ids"),
    "head_attribution(-1)": (lambda m, r: api.head_attribution(r, -1), "-1: the model's token ids"),
    "head_attribution(True)": (lambda m, r: api.head_attribution(r, True), "give a token"),
    "sweep(10**6)": (lambda m, r: api.sweep(m, r, 10**6), "#1000000: the model's token ids"),
    "sweep(progress=5)": (lambda m, r: api.sweep(m, r, 3, progress=5), "progress: give a function to call, or None"),
    "sweep(mean='no')": (lambda m, r: api.sweep(m, r, 3, mean="no"), "mean: 'no' is not True or False"),
    "patch(by='nope')": (lambda m, r: api.patch(m, "hi there", "hi thera", 3, 5, by="nope"),
                         "by: 'nope' is not one of head, position, attention"),
    "patch(progress=5)": (lambda m, r: api.patch(m, "hi there", "hi thera", 3, 5, progress=5), "progress: give"),
    "patch(answer=10**9)": (lambda m, r: api.patch(m, r, r, 10**9, 5), "#1000000000: the model's token ids"),
    "patch(another model's run)": (lambda m, r: api.patch(m, api.load(str(LLAMA)).run("hi there"), r, 3, 5),
                                   "clean: give a run of this model (m.run(text)), not a run of another model"),
    "head_types.top('nope')": (lambda m, r: api.head_types(m, length=4).top("nope"),
                               "kind: 'nope' is not one of previous"),
    "head_types.top(k=0)": (lambda m, r: api.head_types(m, length=4).top("previous", 0), "k: '0' is not a number"),
    "continuation(target=5)": (lambda m, r: api.continuation(m, "a", 5), "target: give a text, not int"),
    "continuation(k=0)": (lambda m, r: api.continuation(m, "hi", " there", k=0), "k: '0' is not a number from 1"),
    "load(a name too long)": (lambda m, r: api.load("/tmp/" + "a" * 300), "cannot be used (File name too long)"),
    "run(ids=0-d array)": (lambda m, r: m.run(ids=np.array(5)), "give token ids as a list of whole numbers"),
    "off=endless": (lambda m, r: m.run("hi", off=itertools.repeat((0, 0))), "off: more than the model's 8 heads"),
    "edits whose items never end": (lambda m, r: m.run("hi", edits=EndlessItems({(0, 0): {"q": 1}})),
                                    "edits[0, 0]['q']: give q, k or v"),
    "head_types past the context": (lambda m, r: api.head_types(api.load(str(GPT2))),
                                    "length: 50 random tokens read twice are more than this model reads; give at "
                                    "most 31"),
    "head_types of ten ordinary tokens": (lambda m, r: api.head_types(few_ordinary_tokens()),
                                          "length: this model has 10 ordinary tokens, too few for 50 different ones; "
                                          "give at most 10"),
    "token of a lone surrogate": (lambda m, r: m.token("\ud800"), "the text is not valid UTF-8: it holds U+D800"),
    "token('#' and 5,000 digits)": (lambda m, r: m.token("#" + "9" * 5000),
                                    "#99999999999999999999999999999999999999…: the model's token ids go from 0 to"),
    "token(10**5000)": (lambda m, r: m.token(10**5000), "#…: the model's token ids go from 0 to 511"),
    "head_types(length=10**5000)": (lambda m, r: api.head_types(m, length=10**5000),
                                    "length: '…' is not a number from 2 to 500"),
    "head_types(length=1)": (lambda m, r: api.head_types(m, length=1), "length: '1' is not a number from 2 to 500"),
    "head_types(None)": (lambda m, r: api.head_types(None), "m: give a model (api.load(...)), not NoneType"),
    "sweep(a text for the model)": (lambda m, r: api.sweep("hi", "hi", 5), "m: give a model (api.load(...)), not str"),
    "to_csv(a NUL in the path)": (lambda m, r: r.to_csv("/tmp/a\0b.csv"),
                                  "give a file's path to write to, not a text holding a NUL"),
    "load(an id of 5,000 letters)": (lambda m, r: api.load("x" * 5000),
                                     "x" * 59 + "… is neither a model file or folder nor the id"),
    "load('')": (lambda m, r: api.load(""), "give a model's id, a GGUF file or a model folder, not an empty text"),
    "load(PathLike of bytes)": (lambda m, r: api.load(BytesPath()), "give a model's id, a GGUF file or a model "
                                                                   "folder, not BytesPath"),
    "edits of numeric texts": (lambda m, r: m.run("hi there", edits={(0, 0): {"q": np.full(shape(m), "1.5")}}),
                               "of shape (4, 16)"),
    "edits of complex numbers": (lambda m, r: m.run("hi there", edits={(0, 0): {"q": np.ones(shape(m), complex)}}),
                                 "of shape (4, 16)"),
    "edits of dates": (lambda m, r: m.run("hi there", edits={(0, 0): {"q": np.zeros(shape(m), "datetime64[s]")}}),
                       "of shape (4, 16)"),
    "edits of longdouble past float64": (lambda m, r: m.run("hi there", edits={(0, 0): {
        "q": np.full(shape(m), np.longdouble("1e400"))}}), "numbers from -1,000,000 to 1,000,000"),
    "a model of huge weights": (lambda m, r: huge_model().run("hi there"),
                                "the model's next-token probabilities are not numbers"),
    # attacker round 20: what reads runs of such a model itself said NaN was a result
    "head_types of a model of huge weights": (lambda m, r: api.head_types(huge_model(), length=4),
                                              "llama-f32.gguf: the model's next-token probabilities are not numbers"),
    "continuation of a model of huge weights": (lambda m, r: api.continuation(huge_model(), "hi", " there"),
                                                "llama-f32.gguf: the model's next-token probabilities are not"),
    "patch(answer == against)": (lambda m, r: api.patch(m, r, r, 5, 5),
                                 "the answer and the token it is measured against are the same token (#5)"),
    "show(layer=99)": (lambda m, r: api.show(r, layer=99, block=False), "layer 99: the model has layers 0 to 1"),
    "show(a model)": (lambda m, r: api.show(m, block=False), "show: give a run (m.run(text)), not Model"),  # round 17
    "show(a preset id)": (lambda m, r: api.show("seed-demo", block=False), "show: give a run (m.run(text)), not str"),
    # attacker round 27: None among ids, an id too long to print, 0-d arrays where a text or a dataset goes
    "run(ids=[1, None])": (lambda m, r: m.run(ids=[1, None]), "token id None: token ids are whole numbers"),
    "encode(ids=[10**5000])": (lambda m, r: m.encode(ids=[10**5000]), "token id …: the model's ids go from 0 to 511"),
    "encode(ids=[a long text])": (lambda m, r: m.encode(ids=["a" * 100_000]),
                                  "token id " + "a" * 39 + "…: token ids are whole numbers"),
    "sweep(np.array(1))": (lambda m, r: api.sweep(m, np.array(1), 1), "the text must be one string, not int64"),
    "patch(np.array(1))": (lambda m, r: api.patch(m, np.array(1)), "the text must be one string, not int64"),
    "run_batch(np.array(1))": (lambda m, r: m.run_batch(np.array(1)), "texts: give a list of texts, not int64"),
}


@pytest.mark.parametrize("name", CASES)
def test_a_wrong_argument_is_one_line_saying_what_to_give(m, r, name):
    call, says = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a numpy warning on the way is a failure too
        with pytest.raises(ScenarioError) as e:  # ModelError, or FileProblem naming a file
            call(m, r)
    assert says in str(e.value) and "\n" not in str(e.value), str(e.value)


def test_what_the_checks_let_through_still_runs(m, r):
    """Numpy's integers and arrays of ids, numpy's bools, edits at the limit: accepted, as a user means them."""
    ids = np.array(r.ids)
    assert m.run(ids=ids).ids == r.ids
    assert m.token(np.int64(3)) == 3 and r.weights(np.int64(1)).shape == (4, 4, 4)
    assert api.sweep(m, r, 3, mean=np.bool_(False)).delta_logp.shape == (2, 4)
    edited = m.run("hi there", edits={(1, 0): {"v": np.full(shape(m), 1e6)}}, off=[(np.int64(0), 1)])
    assert np.isfinite(edited.probs).all()
