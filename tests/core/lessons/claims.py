"""Every number the built-in lessons' captions, notes and questions state, and how the core computes it.

CLAIMS[(lesson id, scene number from 1)] lists (text, check): `text` is what the caption says, the
same in both languages or (Japanese, English), None where one language does not say it; `check(o)`
computes it from the opened scene `o` (core.lessons.open_scene: the scenario with the scene's
settings, its head and query). A check returns a number, compared with the one number in `text` at
the decimals `text` gives it, or a string, which `text` must end with. test_captions.py fails when a
text is missing from a caption, disagrees with its check, or a digit of a caption is claimed by none.

Keys and queries are named by their token in each language (`tok("魚", "fish")`): the Japanese and
English versions of a preset have other sentences, so other positions.
"""
from __future__ import annotations

import math
import sys

import numpy as np

from attnviz.core import compute, lm
from attnviz.core.align import align, differences
from attnviz.core.attention import layer_norm
from attnviz.core.explain import dot_text, fmt, fmt_vector, output_text
from attnviz.core.explorers import linear_map, next_token_example, qkv_maps, softmax_steps, temperature_examples
from attnviz.core.presets import load_preset


def tok(ja: str, en: str | None = None):
    return (ja, en if en is not None else ja)


def _index(o, name, of="scenario") -> int:
    scenario = o.scenario if of == "scenario" else o.compare
    return scenario.tokens.index(name[0] if o.lang == "ja" else name[1])


def _trace(o, head=None, of="scenario"):
    return compute(o.scenario if of == "scenario" else o.compare).heads[o.head if head is None else head]


def _query(o, query, of):
    return o.query if query is None else _index(o, query, of)


def weight(key, head=None, query=None, of="scenario"):
    return lambda o: float(_trace(o, head, of).weights[_query(o, query, of), _index(o, key, of)])


def plain_weight(preset: str, key, query=None, head=0):
    """A weight of the preset as it comes, without the scene's settings (to say what changed)."""
    def check(o):
        s = load_preset(preset, o.lang)
        q = s.focus if query is None else s.tokens.index(query[0] if o.lang == "ja" else query[1])
        return float(compute(s).heads[head].weights[q, s.tokens.index(key[0] if o.lang == "ja" else key[1])])
    return check


def future_weight(preset: str):
    """The largest weight the preset's causal mask leaves on a key after the query (0: hidden means 0)."""
    def check(o):
        s = load_preset(preset, o.lang)
        w = compute(s).heads[o.head].weights
        return float(max(w[i, i + 1:].max(initial=0.0) for i in range(s.n)))
    return check


def exp_of_minus_infinity():
    return lambda o: math.exp(-math.inf)


def score(key):
    return lambda o: float(_trace(o).scores[o.query, _index(o, key)])


def scaled(key):
    return lambda o: float(_trace(o).scaled[o.query, _index(o, key)])


def exp(key):
    return lambda o: math.exp(scaled(key)(o))


def total():
    return lambda o: float(np.exp(_trace(o).masked[o.query]).sum())


def row_sum():
    return lambda o: float(_trace(o).weights[o.query].sum())


def smallest_weight():
    """0 when no weight is negative ("every weight is 0 or more"), else the negative one."""
    return lambda o: min(0.0, float(_trace(o).weights[o.query].min()))


def weights_vector():
    return lambda o: fmt_vector(_trace(o).weights[o.query], 3, fixed=True)


def output_vector(decimals: int):
    return lambda o: fmt_vector(_trace(o).output[o.query], decimals, fixed=True)


def dot(key):
    """The dot product written out as the step table writes it: 0×2 + 2×0 = 0."""
    def check(o):
        head = o.scenario.heads[o.head]
        return dot_text(head.q[o.query], head.k[_index(o, key)])
    return check


def q_vector():
    return lambda o: fmt_vector(o.scenario.heads[o.head].q[o.query], 0)


def k_vector(key):
    return lambda o: fmt_vector(o.scenario.heads[o.head].k[_index(o, key)], 0)


# The tutorial's own arithmetic: it rounds ÷√d_k to 2 decimals before softmax, and each eˣ to 2.
def _tutorial_exps(o):
    return [round(math.exp(round(x, 2)), 2) for x in _trace(o).scaled[o.query]]


def tutorial_scaled(key):
    return lambda o: round(scaled(key)(o), 2)


def tutorial_exp(key):
    return lambda o: _tutorial_exps(o)[_index(o, key)]


def tutorial_total():
    return lambda o: sum(_tutorial_exps(o))


def _tutorial_weights(o):
    exps = _tutorial_exps(o)
    return np.array([round(e / sum(exps), 3) for e in exps])


def tutorial_weights():
    return lambda o: fmt_vector(_tutorial_weights(o), 3, fixed=True)


def tutorial_output():
    """0.045×[2, 0] + ... = [0.276, 1.724]: the weighted sum with the tutorial's rounded weights."""
    def check(o):
        w, v = _tutorial_weights(o), o.scenario.heads[o.head].v
        return output_text(w, v, w @ v)
    return check


def tokens():
    return lambda o: o.scenario.n


def heads():
    return lambda o: len(o.scenario.heads)


def kv_groups():
    return lambda o: o.scenario.projection.kv_heads


def d_k():
    return lambda o: o.scenario.heads[o.head].d_k


def sqrt_d_k():
    return lambda o: f"√{d_k()(o)} = {fmt(math.sqrt(d_k()(o)))}"


def model_width():
    """d: the layer's width (X's columns), or the heads' dimensions put together."""
    return lambda o: (o.scenario.projection.x.shape[1] if o.scenario.projection is not None
                      else sum(h.d_k for h in o.scenario.heads))


def shape(rows, columns):
    return lambda o: f"{rows(o)} × {columns(o)}"


def temperature():
    return lambda o: o.scenario.settings.temperature


def step():
    return lambda o: o.scene.step


def largest_difference():
    """The largest |B − A| of the compare view, B's words in A's order, over every head."""
    def check(o):
        found = differences(compute(o.scenario).weights(), compute(o.compare).weights(),
                            align(o.scenario.tokens, o.compare.tokens))
        return max(float(np.abs(d).max()) for d in found)
    return check


def moved_to(index: int):
    """A number of the q a scene moves its query to (its move_q), the view's slider's value at the end."""
    return lambda o: o.scene.move_q[index]


def x_row(token):
    """A token's row of a layer scenario's X, as the caption writes a vector."""
    return lambda o: fmt_vector(o.scenario.projection.x[_index(o, token)], 1)


def normed_row(token):
    return lambda o: fmt_vector(layer_norm(o.scenario.projection.x)[_index(o, token)], 2, fixed=True)


def normed_mean(token):
    return lambda o: round(float(layer_norm(o.scenario.projection.x)[_index(o, token)].mean()), 6)


def normed_variance(token):
    """1 as a class reads it: LayerNorm's ε (10⁻⁵) leaves 0.9999…, which the caption rounds."""
    return lambda o: round(float(layer_norm(o.scenario.projection.x)[_index(o, token)].var()), 3)


def multiplied(o):
    """The softmax view's row at the scene's multiplier: the query's scores (÷√d_k, ÷T) times it, both ways."""
    return softmax_steps(_trace(o).scaled[o.query] * o.scene.settings.scores_times)


def multiplied_largest():
    return lambda o: float(np.max(multiplied(o).x[np.isfinite(multiplied(o).x)]))


def others_weight():
    def check(o):
        weights = np.delete(multiplied(o).weights, _index(o, FISH10))
        return float(weights.max())
    return check


def said(value):
    """A number the seed states that is not the scene's to compute (the tutorial's 3 decimals, a model's
    name, a slider's target the class is asked to reach): stated here so that it is looked at."""
    return lambda o: value


CAT, FISH, IT = tok("猫", "cat"), tok("魚", "fish"), tok("それ", "it")
IT10, FISH10, CAT10 = tok("それ", "It"), tok("魚", "fish"), tok("猫", "cat")

CLAIMS = {
    ("attention", 1): [("[2, 1]", lambda o: fmt_vector(linear_map().x[0], 0)),
                       ("1×2 + 0×1 = 2", lambda o: linear_map().sums[0]),
                       ("1×2 + 2×1 = 4", lambda o: linear_map().sums[1]),
                       ("[2, 4]", lambda o: fmt_vector(linear_map().product[0], 0)),
                       (("3 種類", "3 different"), lambda o: len(qkv_maps()))],
    ("attention", 2): [("3", tokens()), ("q = [0, 2]", q_vector()),
                       ("0×2 + 2×0 = 0", dot(CAT)), ("0×0 + 2×2 = 4", dot(FISH)), ("0×1 + 2×1 = 2", dot(IT))],
    ("attention", 3): [("d_k = 2", d_k()), ("÷√2", d_k()), (("魚 4", "fish 4"), score(FISH)),
                       (("それ 2", "it 2"), score(IT)), ("2.83", scaled(FISH)), ("1.41", scaled(IT)),
                       (("猫は 0", "cat stays 0"), scaled(CAT))],
    ("attention", 4): [(("0 以上", "0 or more"), smallest_weight()),
                       (("合計はちょうど 1", "add up to exactly 1"), row_sum())],
    ("attention", 5): [("2.83", tutorial_scaled(FISH)), ("1.41", tutorial_scaled(IT)),
                       ("16.95", tutorial_exp(FISH)), ("4.10", tutorial_exp(IT)), ("22.05", tutorial_total()),
                       ("[0.045, 0.769, 0.186]", tutorial_weights()), (("小数 3 桁", "3 decimals"), said(3)),
                       ("16.92", exp(FISH)), ("4.11", exp(IT)), ("22.03", total()),
                       ("[0.045, 0.768, 0.187]", weights_vector())],
    ("attention", 6): [("0.045×[2, 0] + 0.769×[0, 2] + 0.186×[1, 1] = [0.276, 1.724]", tutorial_output()),
                       ("[0.28, 1.72]", output_vector(2))],
    ("attention", 7): [("10", tokens()), (("2 つのヘッド", "2 heads"), heads())],
    ("attention", 8): [("0.68", weight(FISH10))],
    ("attention", 9): [("0.68", weight(FISH10)), (("内積は 6", "dot product is 6"), score(FISH10))],
    ("attention", 10): [(("スライダーを 0", "slider of It's q goes to 0"), moved_to(1)),
                       (("「動物」を 2", "animal rises to 2"), moved_to(0)),
                       ("0.68", plain_weight("seed-demo", FISH10)), ("0.72", weight(CAT10))],
    ("attention", 11): [("T = 5", temperature()), ("0.68", plain_weight("seed-demo", FISH10)),
                        ("0.22", weight(FISH10))],
    ("attention", 12): [("T = 0.5", temperature()), ("0.96", weight(FISH10))],
    ("attention", 13): [],
    ("attention", 14): [("d_k = 4", d_k()), ("√4 = 2", sqrt_d_k()), ("0.68", plain_weight("seed-demo", FISH10)),
                        ("0.96", weight(FISH10)), ("T = 0.5", lambda o: 1 / math.sqrt(d_k()(o)))],
    ("attention", 15): [("0.59", weight(FISH10)), (("重み 1", None), plain_weight("seed-demo", CAT10, CAT10)),
                        (("重みを 0", "weights become 0"), future_weight("seed-demo"))],
    ("attention", 16): [("0.60", weight(FISH10)), (("乗は 0", "−∞ is 0"), exp_of_minus_infinity()),
                        (("ちょうど 0", "exactly 0"), future_weight("seed-demo"))],
    ("attention", 17): [("0.94", weight(tok("。", ".")))],
    ("attention", 18): [("GPT-2", said("GPT-2")), ("d = 768", model_width()),
                        (("12 ヘッドで割って", "into 12 heads"), heads()), (("64 次元", "64 dimensions"), d_k()),
                        (("12 個", "the 12 outputs"), heads()),
                        ("10 × 768", shape(tokens(), model_width()))],
    ("attention", 19): [("4", heads()), ("2", kv_groups())],
    ("attention", 20): [("10 × d", tokens())],

    ("multi-head", 1): [(("0.34", "0.39"), weight(tok("ご飯", "money"))),
                        (("0.28", "0.27"), weight(tok("食べた", "paid")))],
    ("multi-head", 2): [(("0.34", "0.39"), weight(tok("川", "river"))),
                        (("0.28", "0.27"), weight(tok("渡った", "fished")))],
    ("multi-head", 3): [],
    ("multi-head", 4): [(("0.60", "0.64"), weight(tok("花子", "Hanako"))),
                        (("0.08", "0.09"), weight(tok("太郎", "Taro"))), ("0.03", weight(tok("本", "book")))],
    ("multi-head", 5): [("5 × 4", shape(tokens(), model_width())), (("5 トークン", "5 tokens"), tokens()),
                        (("各 4 次元", "4 dimensions"), model_width()), ("4 × 4", shape(model_width(), model_width()))],
    ("multi-head", 6): [("h = 2", heads()), (("各 2 次元", "2 dimensions each"), d_k())],
    ("multi-head", 7): [("5 × 5", shape(tokens(), tokens())), (("合計を 1", "adds up to 1"), row_sum()),
                        (("0.36", "0.47"), weight(tok("魚", "ate"))), (("0.25", "0.35"), weight(tok("食べた", "cat"))),
                        ("0.19", weight(tok("猫", "The")))],
    ("multi-head", 8): [(("0.72", "0.84"), weight(tok("食べた", "ate")))],
    ("multi-head", 9): [("5 × 2", shape(tokens(), d_k())), ("5 × 4", shape(tokens(), model_width()))],
    ("multi-head", 10): [("5 × 4", shape(tokens(), model_width()))],
    ("multi-head", 11): [],
    ("multi-head", 12): [(("平均 0", "mean 0"), normed_mean(tok("食べた", "ate"))),
                         (("分散 1", "variance 1"), normed_variance(tok("食べた", "ate"))),
                         ("[0, 0.5, 1, 0]", x_row(tok("食べた", "ate"))),
                         ("[−0.90, 0.30, 1.51, −0.90]", normed_row(tok("食べた", "ate")))],
    ("multi-head", 13): [("4", heads()), ("2", kv_groups()), (("0.77", "0.51"), weight(tok("を", "The")))],
    ("multi-head", 14): [],

    ("why-it-works", 1): [(("内積 6", "dot product 6"), score(FISH10)), ("0.68", weight(FISH10))],
    ("why-it-works", 2): [("q = [0, 2]", q_vector()), (("猫 [2, 0]", "cat [2, 0]"), k_vector(CAT)),
                          (("魚 [0, 2]", "fish [0, 2]"), k_vector(FISH)), (("それ [1, 1]", "it [1, 1]"), k_vector(IT)),
                          (("猫 0", "cat 0"), score(CAT)), (("魚 4", "fish 4"), score(FISH)),
                          (("それ 2", "it 2"), score(IT))],
    ("why-it-works", 3): [],
    ("why-it-works", 4): [("0.68", plain_weight("seed-demo", FISH10)), ("0.96", weight(FISH10)), ("d_k = 4", d_k()),
                          ("√4 = 2", sqrt_d_k())],
    ("why-it-works", 5): [],
    ("why-it-works", 6): [(("1000 倍", "by 1000"), lambda o: o.scene.settings.scores_times),
                          (("スコアは 3000", "score is 3000"), multiplied_largest()),
                          ("e^3000", multiplied_largest()),
                          (("最大値 3000", "the largest, 3000"), multiplied_largest()),
                          (("0 と負の数", "only 0 and negative"), lambda o: float(multiplied(o).shifted.max())),
                          ("e^0", lambda o: float(multiplied(o).shifted.max())),
                          ("= 1", lambda o: float(np.exp(multiplied(o).shifted.max()))),
                          (("魚の重みは 1", "fish's weight is 1"),
                           lambda o: float(multiplied(o).weights[_index(o, FISH10)])),
                          (("ほかは 0", "others' 0"), others_weight()),
                          ("709", lambda o: math.floor(math.log(sys.float_info.max)))],
    ("why-it-works", 7): [("T = 0.5", temperature()), ("0.96", weight(FISH10))],
    ("why-it-works", 8): [("T = 2", temperature()), ("0.38", weight(FISH10)),
                          ("T = 1", lambda o: load_preset("seed-demo", o.lang).settings.temperature),
                          ("0.68", plain_weight("seed-demo", FISH10))],
    ("why-it-works", 9): [(("3 か所", "3 places"), said(3)), ("0.68", weight(FISH10)),
                          (("「食べた」0.76", "“ate” 0.76"), lambda o: float(next_token_example().outputs[0])),
                          ("T = 0.5", lambda o: temperature_examples()[0][0]),
                          ("0.95", lambda o: float(temperature_examples()[0][1].outputs[0])),
                          ("T = 2", lambda o: temperature_examples()[2][0]),
                          ("0.53", lambda o: float(temperature_examples()[2][1].outputs[0]))],
    ("why-it-works", 10): [],
    ("why-it-works", 11): [("0.68", weight(FISH10))],
    ("why-it-works", 12): [(("猫 → 猫 0.46", "dog → dog 0.41"), weight(tok("猫", "dog"))),
                           (("が 0.20", "bites 0.30"), weight(tok("が", "bites"))),
                           (("座った 0.34", "man 0.30"), weight(tok("座った", "man")))],
    ("why-it-works", 13): [(("猫 → 猫 0.46", "dog → dog 0.41"), weight(tok("猫", "dog"))),
                           (("が 0.20", "bites 0.30"), weight(tok("が", "bites"))),
                           (("座った 0.34", "man 0.30"), weight(tok("座った", "man")))],
    ("why-it-works", 14): [(("どこも 0", "is 0 everywhere"), largest_difference())],
    ("why-it-works", 15): [(("0.50", "0.33"), weight(tok("猫", "dog"))),
                           (("0.75", "0.64"), weight(tok("猫", "dog"), query=tok("猫", "dog"), of="compare"))],
    ("why-it-works", 16): [(("0.74", "0.71"), weight(tok("猫", "dog"))),
                           (("0.44", "0.38"), weight(tok("猫", "dog"), query=tok("猫", "dog"), of="compare"))],
}


# ---------------------------------------------------------------- the real model's lesson (o.run: its run)

def next_percent(text: str, before: bool = False):
    """The % the scene's run gives the next token `text` (one of its 20 likeliest); `before`: the model's
    own, every head on."""
    def check(o):
        run = o.run.baseline if before else o.run.run
        found = [p for _, t, p in lm.top(o.run.model, run.probs, 20) if t == text]
        assert found, f"{text!r} is not among the 20 likeliest next tokens"
        return 100 * found[0]
    return check


def next_token():
    """The next token the scene's run makes likeliest, written as the bars write it (· for a space)."""
    return lambda o: o.answer.next_text.replace(" ", "·")


def vocabulary():
    return lambda o: len(o.run.model.vocabulary)


def layers():
    return lambda o: o.run.model.config.n_layers


def model_heads():
    return lambda o: o.run.model.config.n_heads


def all_heads():
    return lambda o: o.run.model.config.n_layers * o.run.model.config.n_heads


def layer():
    return lambda o: o.scene.layer


def head():
    return lambda o: o.head


def off():
    """The head the scene switches off, as LAYER.HEAD."""
    return lambda o: ", ".join(f"{layer}.{head}" for layer, head in o.scene.off)


def previous_token_share():
    """The mean weight a row of the scene's head puts on the token just before it (rows 1 to n − 1)."""
    def check(o):
        w = compute(o.scenario).heads[o.head].weights
        return float(np.mean([w[i, i - 1] for i in range(1, o.scenario.n)]))
    return check


def previous_weight():
    """The weight the scene's query puts on the token just before it."""
    return lambda o: float(compute(o.scenario).heads[o.head].weights[o.query, o.query - 1])


def first_token_heads():
    """How many of the model's heads, over every layer, give the last token's largest weight to the first."""
    def check(o):
        found = 0
        for number in range(o.run.model.config.n_layers):
            s = lm.scenario(o.run.model, o.run.encoded, o.run.run, number)
            found += sum(int(np.argmax(h.weights[-1]) == 0) for h in compute(s).heads)
        return found
    return check


ATE = tok("·ate")
CLAIMS.update({
    ("real-model", 1): [("SmolLM2-135M", said("SmolLM2-135M")), (("13 個", "13 tokens"), tokens()),
                        (("30 層", "30 layers"), layers()), (("9 個のヘッド", "9 heads"), model_heads()),
                        ("d_k = 64", d_k()), (("第 0 層", "layer 0's"), layer()),
                        (("9 個のヘッドすべて", "all 9"), model_heads())],
    ("real-model", 2): [("49,152", vocabulary()), (("答え：「·ate", "Answer: “·ate"), next_token()),
                        ("39.4%", next_percent(" ate")), ("20.2%", next_percent(" was"))],
    ("real-model", 3): [(("第 16 層", "layer 16"), layer()), (("ヘッド 0", "head 0"), head()),
                        ("0.80", previous_token_share()), ("0.72", previous_weight()),
                        (("直前の「·The", "the “·The"), lambda o: o.scenario.tokens[o.answer.top_key])],
    ("real-model", 4): [(("第 24 層", "layer 24"), layer()), (("ヘッド 4", "Head 4"), head()),
                        (("2 回", None), lambda o: sum(t.strip(" ·") == "cat" for t in o.scenario.tokens)),
                        ("0.63", weight(ATE)), (("答え：「·ate", "Answer: “·ate"),
                                                 lambda o: o.scenario.tokens[o.answer.top_key])],
    ("real-model", 5): [(("ヘッド 24.4", "head 24.4"), off()), (("出力を 0", "output set to 0"), said(0)),
                        (("答え：「·ate", "still “·ate"), next_token()),
                        ("39.4%", next_percent(" ate", before=True)), ("61.4%", next_percent(" ate"))],
    ("real-model", 6): [(("第 1 層", "layer 1"), layer()), (("ヘッド 4", "head 4"), head()),
                        (("ヘッド 1.4", "head 1.4"), off()), (("答え：「·was", "Answer: “·was"), next_token()),
                        ("32.6%", next_percent(" was")), ("39.4%", next_percent(" ate", before=True)),
                        ("15.0%", next_percent(" ate"))],
    ("real-model", 7): [(("270 個", "270 heads"), all_heads()), (("30 層", "30 layers"), layers()),
                        (("9 ヘッド", "9 heads"), model_heads()), (("179 個", "179 of them"), first_token_heads())],
    ("real-model", 8): [],
})
