"""Writes resources/presets/*.json: the built-in scenarios, as data.

Run it after changing a preset's story here (python tools/make_presets.py); the
tests in tests/core/test_presets.py check that every preset still tells its story.
The numbers are chosen by hand, as the tutorial's demo does, so that each dimension
has a meaning a teacher can point at; only gpt2-small-shape is random (fixed seed).
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from attnviz.core.formats.scenario_json import to_json_text  # noqa: E402  (the same layout as saved scenarios)

OUT = Path(__file__).resolve().parents[1] / "resources" / "presets"

SEED_TOKENS = ["猫", "が", "魚", "を", "食べた", "。", "それ", "は", "新鮮", "だった"]
MEANING = ["動物", "食べ物", "動作", "文法"]


def seed_demo():
    # Semantic head: k = v as in the tutorial; each token's k says what it offers,
    # each q what it looks for. それ looks for 食べ物 and so finds 魚; give it
    # 動物 instead and it finds 猫.
    k = [[3, 0, 0, 0],   # 猫: an animal
         [0, 0, 0, 1],   # が: grammar
         [0, 3, 0, 0],   # 魚: a food
         [0, 0, 0, 1],   # を
         [0, 1, 2, 0],   # 食べた: an action about food
         [0, 0, 0, 1],   # 。
         [1, 1, 0, 0],   # それ: could be either, as in the worked example
         [0, 0, 0, 1],   # は
         [0, 1, 0, 0],   # 新鮮: said of food
         [0, 0, 1, 0]]   # だった
    q = [[0, 2, 0, 0],   # 猫 looks for food (sees 魚 only with the mask off)
         [1, 0, 0, 0],   # が looks back at its noun
         [1, 0, 0, 0],   # 魚 looks at the animal
         [0, 1, 0, 0],   # を looks at its noun
         [1, 1, 0, 0],   # 食べた: who eats what
         [0, 0, 1, 0],   # 。 looks at the verb
         [0, 2, 0, 0],   # それ looks for food: q = [0, 2] of the worked example
         [1, 1, 0, 0],   # は looks at それ
         [0, 2, 0, 0],   # 新鮮 looks for food: 魚 (the clue is gathered here)
         [0, 1, 1, 0]]   # だった
    # Previous-token head: k_j points at angle 30°·j and q_i at 30°·(i − 1), so q_i lines up
    # with k_(i−1) and each row peaks at the token before it. The ten keys span 270°, not the
    # whole circle: q_0 (at −30°) is nearest k_0, so with the mask off 猫 looks at itself,
    # not (wrapping around) at だった.
    angle = np.pi / 6 * np.arange(10)
    k_pos = np.round(6 * np.stack([np.cos(angle), np.sin(angle)], axis=1), 2)
    q_pos = np.round(6 * np.stack([np.cos(angle - np.pi / 6), np.sin(angle - np.pi / 6)], axis=1), 2)
    return scenario(
        "tutorial", SEED_TOKENS,
        title=("猫が魚を食べた。それは新鮮だった", "The cat ate the fish. It was fresh."),
        description=(
            "意味ヘッド（各次元に「動物」「食べ物」「動作」「文法」の意味）と「直前を見るヘッド」。"
            "クエリ「それ」は「魚」に注目する。"
            "「それ」の q の「食べ物」を 0 にし「動物」を上げると、注目先が「猫」に移る。",
            "A semantic head (dimensions mean animal, food, action, grammar) and a previous-token "
            "head. The query それ (it) attends to 魚 (fish); set its 食べ物 (food) to 0 and raise "
            "動物 (animal) and it attends to 猫 (cat)."),
        heads=[head("意味ヘッド", q, k, k, MEANING),
               head("直前を見るヘッド", q_pos, k_pos, k_pos, ["位置 cos", "位置 sin"])],
        focus="それ")


def toy_3token():
    k = [[2, 0], [0, 2], [1, 1]]  # 猫, 魚, それ; v = k
    q = [[0, 2], [2, 0], [0, 2]]  # q(それ) = [0, 2]: it looks for food
    return scenario(
        "tutorial", ["猫", "魚", "それ"],
        title=("計算例：3 トークン（d_k = 2）", "Worked example: 3 tokens (d_k = 2)"),
        description=(
            "チュートリアルの数値例。q(それ) = [0, 2] の重みは [0.045, 0.768, 0.187]、出力は約 [0.28, 1.72]。",
            "The tutorial's worked example. The weights of q(それ) = [0, 2] are [0.045, 0.768, 0.187] "
            "and its output is about [0.28, 1.72]."),
        note=("チュートリアルは ÷√2 の結果を 2.83、1.41 に丸めてから softmax にかけるので、約 [0.045, 0.769, 0.186] "
              "と書いています（e^2.83 ≈ 16.95、e^1.41 ≈ 4.10、合計 ≈ 22.05）。ここでは丸めずに計算するので "
              "0.768、0.187 になります。",
              "The tutorial rounds ÷√2 to 2.83 and 1.41 before softmax, and so prints about "
              "[0.045, 0.769, 0.186] (e^2.83 ≈ 16.95, e^1.41 ≈ 4.10, sum ≈ 22.05). Here nothing is "
              "rounded first, which gives 0.768 and 0.187."),
        heads=[head("意味ヘッド", q, k, k, MEANING[:2])], focus="それ")


# The same word はし with the same q and k in two sentences: only the context differs.
HASHI_LABELS = ["食事", "川・移動", "物", "文法"]
HASHI_Q = [1.5, 1.5, 0, 0]   # はし asks: is the context about eating or about crossing?
HASHI_K = [0, 0, 2, 0]       # はし offers: "a thing"


def hashi(sentence):
    offers = {"はし": HASHI_K, "を": [0, 0, 0, 1], "に": [0, 0, 0, 1],
              "使って": [1, 0, 0, 0], "ご飯": [2, 0, 1, 0], "食べた": [2, 0, 0, 0],
              "川": [0, 2, 1, 0], "かかる": [0, 1, 0, 0], "渡った": [0, 2, 0, 0]}
    asks = {"はし": HASHI_Q, "を": [0, 0, 2, 0], "に": [0, 0, 2, 0], "使って": [0, 0, 2, 0],
            "ご飯": [2, 0, 0, 0], "食べた": [0, 0, 2, 0], "川": [0, 2, 0, 0],
            "かかる": [0, 0, 2, 0], "渡った": [0, 0, 2, 0]}
    k = [offers[t] for t in sentence]
    q = [asks[t] for t in sentence]
    return k, q


def hashi_chopsticks():
    tokens = ["はし", "を", "使って", "ご飯", "を", "食べた"]
    k, q = hashi(tokens)
    return scenario(
        "context", tokens, causal=False,
        title=("はしを使ってご飯を食べた（箸）", "はし = chopsticks: はしを使ってご飯を食べた"),
        description=(
            "「はし」の q と k は「川にかかるはしを渡った」と同じ。"
            "文脈の「ご飯」「食べた」を見て、出力は 食事 の向きになる（箸）。"
            "後ろの語を見るため、マスクは外してある（BERT 型の双方向 Attention）。",
            "はし has the same q and k as in 川にかかるはしを渡った. Here it attends to ご飯 (rice) and "
            "食べた (ate), so its output points to 食事 (meal): chopsticks. The mask is off so it can "
            "see the words after it (bidirectional, as in BERT)."),
        heads=[head("文脈ヘッド", q, k, k, HASHI_LABELS)], focus="はし")


def hashi_bridge():
    tokens = ["川", "に", "かかる", "はし", "を", "渡った"]
    k, q = hashi(tokens)
    return scenario(
        "context", tokens, causal=False,
        title=("川にかかるはしを渡った（橋）", "はし = bridge: 川にかかるはしを渡った"),
        description=(
            "「はし」の q と k は「はしを使ってご飯を食べた」と同じ。"
            "文脈の「川」「渡った」を見て、出力は 川・移動 の向きになる（橋）。",
            "はし has the same q and k as in はしを使ってご飯を食べた. Here it attends to 川 (river) and "
            "渡った (crossed), so its output points to 川・移動: bridge."),
        heads=[head("文脈ヘッド", q, k, k, HASHI_LABELS)], focus="はし")


def taro_hanako():
    tokens = ["太郎", "は", "花子", "に", "本", "を", "渡した", "。", "彼女", "は", "とても", "喜んだ", "。"]
    labels = ["人", "女性", "物", "動作"]
    offers = {"太郎": [2, 0, 0, 0], "花子": [2, 2, 0, 0], "本": [0, 0, 2, 0], "渡した": [0, 0, 0, 2],
              "喜んだ": [0, 0, 0, 2], "彼女": [1, 1, 0, 0], "とても": [0, 0, 0, 1]}
    asks = {"彼女": [1, 2, 0, 0],     # a person, female: 花子 fits best
            "渡した": [1, 0, 1, 0], "喜んだ": [2, 1, 0, 0], "本": [0, 0, 0, 1],
            "とても": [0, 0, 0, 2]}
    k = [offers.get(t, [0, 0, 0, 0.5]) for t in tokens]
    q = [asks.get(t, [1, 0, 0, 0]) for t in tokens]
    return scenario(
        "context", tokens,
        title=("太郎は花子に本を渡した。彼女はとても喜んだ。", "Taro gave Hanako a book. She was very happy."),
        description=(
            "「彼女」の q は「人」で「女性」を探す。"
            "「花子」の k が最もよく揃い、「太郎」や「本」にはほとんど注目しない。",
            "The q of 彼女 (she) looks for a person who is female: the k of 花子 (Hanako) lines up best; "
            "太郎 (Taro) and 本 (book) get little weight."),
        heads=[head("指示ヘッド", q, k, k, labels)], focus="彼女")


def projection_demo():
    tokens = ["猫", "が", "魚", "を", "食べた"]
    x = [[1, 0, 0, 0], [0, 0, 0, 1], [0, 1, 0, 0], [0, 0, 0, 1], [0, 0.5, 1, 0]]
    rng = np.random.default_rng(2)
    eye = np.eye(4)
    w = {name: np.round(scale * eye + rng.normal(0, 0.3, (4, 4)), 1)
         for name, scale in (("w_q", 2), ("w_k", 1), ("w_v", 1), ("w_o", 1))}
    doc = scenario(
        "layer", tokens,
        title=("X から O まで：射影・ヘッド分割・W_o・残差", "From X to O: projections, heads, W_o, residual"),
        description=(
            "X（5 × 4）に W_q, W_k, W_v（4 × 4）を掛けて Q, K, V を作り、2 ヘッド（各 2 次元）に分けて Attention、"
            "連結して W_o を掛け、X に足す（O = X + Y'）。",
            "X (5 × 4) times W_q, W_k, W_v (4 × 4) gives Q, K, V, split into 2 heads of 2 dimensions; "
            "each head attends, the heads are concatenated, multiplied by W_o and added to X "
            "(O = X + Y')."),
        heads=[{"name": "ヘッド 0", "names": {"en": "head 0"}, "labels": ["軸 1", "軸 2"]},
               {"name": "ヘッド 1", "names": {"en": "head 1"}}], focus="食べた")
    doc["projection"] = {"x": x, **{k: v.tolist() for k, v in w.items()},
                         "n_heads": 2, "n_kv_heads": None, "residual": True}
    return doc


def gqa_demo():
    # 4 query heads share 2 K/V groups: heads 0 and 1 read the same K and V, so do 2 and 3.
    tokens = ["猫", "が", "魚", "を", "食べた"]
    rng = np.random.default_rng(8)
    x = np.round(rng.normal(0, 1, (5, 8)), 1)
    w = {"w_q": np.round(np.eye(8) * 1.5 + rng.normal(0, 0.4, (8, 8)), 1),
         "w_k": np.round(np.eye(8)[:, :4] + rng.normal(0, 0.4, (8, 4)), 1),
         "w_v": np.round(np.eye(8)[:, :4] + rng.normal(0, 0.4, (8, 4)), 1),
         "w_o": np.round(np.eye(8) + rng.normal(0, 0.3, (8, 8)), 1)}
    doc = scenario(
        "layer", tokens,
        title=("GQA：4 ヘッドが 2 組の K・V を共有", "GQA: 4 heads share 2 groups of K and V"),
        description=(
            "Q はヘッドごと、K と V は 2 組だけ（ヘッド 0・1 が 1 組目、2・3 が 2 組目を共有）。"
            "KV キャッシュのメモリが半分になる。",
            "Q per head, but only 2 groups of K and V (heads 0 and 1 share the first, 2 and 3 the "
            "second): the KV cache needs half the memory."),
        heads=[{"name": f"ヘッド {i}", "names": {"en": f"head {i}"}} for i in range(4)], focus="食べた")
    doc["projection"] = {"x": x.tolist(), **{k: v.tolist() for k, v in w.items()},
                         "n_heads": 4, "n_kv_heads": 2, "residual": True}
    return doc


# The same words, the same embeddings and weights, in two orders (seed 003 §5): without
# position information attention cannot tell them apart.
POSITION_EMBEDDING = {"猫": [1.0, 0.0, 0.5, 0.0], "が": [0.0, 0.2, 0.0, 1.0], "座った": [0.0, 1.0, 0.3, 0.2]}
POSITION_W = {"w_q": [[1.2, 0.3, 0.0, 0.1], [0.2, 1.0, 0.4, 0.0], [0.0, 0.5, 1.1, 0.3], [0.3, 0.0, 0.2, 0.9]],
              "w_k": [[1.0, 0.0, 0.3, 0.2], [0.1, 1.3, 0.0, 0.4], [0.4, 0.2, 0.9, 0.0], [0.0, 0.3, 0.1, 1.2]],
              "w_v": [[0.9, 0.1, 0.0, 0.3], [0.0, 1.1, 0.2, 0.0], [0.3, 0.0, 1.0, 0.1], [0.1, 0.4, 0.0, 1.0]],
              "w_o": [[1.0, 0.2, 0.0, 0.0], [0.0, 1.0, 0.3, 0.0], [0.1, 0.0, 1.0, 0.2], [0.0, 0.1, 0.0, 1.0]]}


def position_demo(tokens, title, other):
    doc = scenario(
        "layer", tokens, causal=False,
        title=title,
        description=(
            f"位置の情報がないと、Attention だけでは「{other[0]}」と区別できない（同じ語の出力が並べ替わるだけ）。"
            "レイヤー表示で位置を「正弦波」か「RoPE」にすると出力が変わる。未来を隠すマスクも順序の情報になるので外してある。",
            f"Without position information attention alone cannot tell this from {other[1]} (the same "
            "words get the same outputs, only reordered). Set positions to sinusoidal or RoPE in the "
            "layer view and the outputs change. The causal mask is off, as it too carries order."),
        heads=[{"name": "ヘッド 0", "names": {"en": "head 0"}}, {"name": "ヘッド 1", "names": {"en": "head 1"}}],
        focus="猫")  # 猫's output is only reordered without positions, and changes with them
    doc["projection"] = {"x": [POSITION_EMBEDDING[t] for t in tokens], **POSITION_W,
                         "n_heads": 2, "n_kv_heads": None, "residual": True, "positions": "none"}
    return doc


def position_nekoga():
    return position_demo(["猫", "が", "座った"], ("猫が座った（位置なし）", "猫が座った (no positions)"),
                         ("座ったが猫", "座ったが猫"))


def position_suwatta():
    return position_demo(["座った", "が", "猫"], ("座ったが猫（位置なし）", "座ったが猫 (no positions)"),
                         ("猫が座った", "猫が座った"))


def gpt2_small_shape():
    # Random q, k, v with GPT-2 small's head shape (12 heads of 64); unit variance,
    # so q·k / √64 also has unit variance and rows are neither flat nor one-hot.
    rng = np.random.default_rng(768)
    heads = [head(f"head {i}", *(np.round(rng.normal(0, 1, (10, 64)), 3) for _ in "qkv"))
             for i in range(12)]
    return scenario(
        "layer", SEED_TOKENS, heads=heads, focus=len(SEED_TOKENS) - 1,
        title=("GPT-2 small の形：12 ヘッド × 64 次元", "GPT-2 small's shape: 12 heads × 64 dimensions"),
        description=(
            "d = 768 を 12 ヘッドに分けた形（各 64 次元）。値は固定シードの乱数で、意味はない。",
            "d = 768 split into 12 heads of 64 dimensions. The values are random (fixed seed) "
            "and carry no meaning."))


HEAD_NAMES_EN = {"意味ヘッド": "semantic head", "直前を見るヘッド": "previous-token head",
                 "文脈ヘッド": "context head", "指示ヘッド": "reference head",
                 "ヘッド 0": "head 0", "ヘッド 1": "head 1"}


def head(name, q, k, v, labels=()):
    entry = {"name": name, "q": _plain(q), "k": _plain(k), "v": _plain(v)}
    if name in HEAD_NAMES_EN:
        entry["names"] = {"en": HEAD_NAMES_EN[name]}
    if labels:
        entry["labels"] = list(labels)
    return entry


def scenario(tab, tokens, *, title, description, heads, focus, causal=True, note=None):
    """`focus`: the token the story is about, selected when the preset opens."""
    doc = {
        "format": "attnviz-scenario", "version": 1, "tab": tab,
        "title": {"ja": title[0], "en": title[1]},
        "description": {"ja": description[0], "en": description[1]},
        "tokens": tokens,
        "settings": {"causal": causal, "scale": True, "temperature": 1.0},
        "heads": heads,
        "focus": tokens.index(focus) if isinstance(focus, str) else focus,
    }
    if note:
        doc["note"] = {"ja": note[0], "en": note[1]}
    return doc


def _plain(m):
    return [[float(x) for x in row] for row in np.asarray(m, dtype=float)]


PRESETS = {
    "seed-demo": seed_demo, "toy-3token": toy_3token,
    "hashi-chopsticks": hashi_chopsticks, "hashi-bridge": hashi_bridge,
    "taro-hanako": taro_hanako, "projection-demo": projection_demo,
    "gpt2-small-shape": gpt2_small_shape, "gqa-demo": gqa_demo,
    "position-nekoga": position_nekoga, "position-suwatta": position_suwatta,
}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for order, (preset_id, build) in enumerate(PRESETS.items()):
        document = {"order": order, **build()}
        (OUT / f"{preset_id}.json").write_text(to_json_text(document), encoding="utf-8")
        print(f"wrote {preset_id}.json", file=sys.stderr)


if __name__ == "__main__":
    main()
