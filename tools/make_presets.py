"""Writes resources/presets/*.json: the built-in scenarios, as data, in two versions each.

resources/presets/<id>.json is the Japanese version (the tutorial's sentences, as the seeds tell
them); resources/presets/en/<id>.json is the English version an English class sees: the same
story and the same numbers on English words (core/presets.py picks the version).
Run it after changing a preset's story here (python tools/make_presets.py); the
tests in tests/core/test_presets.py and test_preset_stories.py check that every preset, in
both versions, still tells its story.
The numbers are chosen by hand, as the tutorial's demo does, so that each dimension
has a meaning a teacher can point at; only gpt2-small-shape is random (fixed seed).
Visible texts write subscripts as Unicode (dₖ, Wₒ), never with underscores.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from attnviz.core.formats.scenario_json import to_json_text  # noqa: E402  (the same layout as saved scenarios)

OUT = Path(__file__).resolve().parents[1] / "resources" / "presets"
LANGUAGES = ("ja", "en")  # ja: resources/presets/<id>.json; en: resources/presets/en/<id>.json

# The seed's sentence, one token per word. The English has as many tokens, and the tokens the
# story is about (cat, fish, it) get the Japanese ones' numbers, so the weights are the same.
SEED_TOKENS = {"ja": ["猫", "が", "魚", "を", "食べた", "。", "それ", "は", "新鮮", "だった"],
               "en": ["The", "cat", "ate", "the", "fish", ".", "It", "was", "fresh", "."]}
MEANING = {"ja": ["動物", "食べ物", "動作", "文法"], "en": ["animal", "food", "action", "grammar"]}
HEAD_NAMES = {"semantic": ("意味ヘッド", "semantic head"), "previous": ("直前を見るヘッド", "previous-token head"),
              "context": ("文脈ヘッド", "context head"), "reference": ("指示ヘッド", "reference head")}


def pick(lang, ja, en):
    return ja if lang == "ja" else en


def seed_demo(lang):
    # Semantic head: k = v as in the tutorial; each token's k says what it offers,
    # each q what it looks for. それ (It) looks for food and so finds 魚 (fish); give it
    # animal instead and it finds 猫 (cat). Rows (k, q) by the Japanese token, then the English.
    rows = {"猫": ([3, 0, 0, 0], [0, 2, 0, 0]),    # an animal; looks for food (sees 魚 only with the mask off)
            "が": ([0, 0, 0, 1], [1, 0, 0, 0]),    # grammar; looks back at its noun
            "魚": ([0, 3, 0, 0], [1, 0, 0, 0]),    # a food; looks at the animal
            "を": ([0, 0, 0, 1], [0, 1, 0, 0]),    # grammar; looks at its noun
            "食べた": ([0, 1, 2, 0], [1, 1, 0, 0]),  # an action about food; who eats what
            "。": ([0, 0, 0, 1], [0, 0, 1, 0]),    # looks at the verb
            "それ": ([1, 1, 0, 0], [0, 2, 0, 0]),  # could be either; q = [0, 2] of the worked example
            "は": ([0, 0, 0, 1], [1, 1, 0, 0]),    # looks at それ
            "新鮮": ([0, 1, 0, 0], [0, 2, 0, 0]),  # said of food; looks for food: 魚 (the clue is gathered here)
            "だった": ([0, 0, 1, 0], [0, 1, 1, 0]),
            # English: the same rows on the same words; "The"/"the" are grammar looking for their noun
            "The": ([0, 0, 0, 1], [1, 0, 0, 0]), "cat": ([3, 0, 0, 0], [0, 2, 0, 0]),
            "ate": ([0, 1, 2, 0], [1, 1, 0, 0]), "the": ([0, 0, 0, 1], [0, 1, 0, 0]),
            "fish": ([0, 3, 0, 0], [1, 0, 0, 0]), "It": ([1, 1, 0, 0], [0, 2, 0, 0]),
            "was": ([0, 0, 1, 0], [1, 1, 0, 0]), "fresh": ([0, 1, 0, 0], [0, 2, 0, 0])}
    tokens = SEED_TOKENS[lang]
    ends = {5: ([0, 0, 0, 1], [0, 0, 1, 0]), 9: ([0, 0, 0, 1], [0, 1, 1, 0])}  # the English sentences' "."
    k = [ends[i][0] if t == "." else rows[t][0] for i, t in enumerate(tokens)]
    q = [ends[i][1] if t == "." else rows[t][1] for i, t in enumerate(tokens)]
    # Previous-token head: k_j points at angle 30°·j and q_i at 30°·(i − 1), so q_i lines up
    # with k_(i−1) and each row peaks at the token before it. The ten keys span 270°, not the
    # whole circle: q_0 (at −30°) is nearest k_0, so with the mask off the first token looks at
    # itself, not (wrapping around) at the last.
    angle = np.pi / 6 * np.arange(10)
    k_pos = np.round(6 * np.stack([np.cos(angle), np.sin(angle)], axis=1), 2)
    q_pos = np.round(6 * np.stack([np.cos(angle - np.pi / 6), np.sin(angle - np.pi / 6)], axis=1), 2)
    return scenario(
        lang, "tutorial", tokens,
        title=pick(lang, ("猫が魚を食べた。それは新鮮だった", "猫が魚を食べた。それは新鮮だった (Japanese)"),
                   ("The cat ate the fish. It was fresh.（英語版）", "The cat ate the fish. It was fresh.")),
        description=pick(lang, (
            "意味ヘッド（各次元に「動物」「食べ物」「動作」「文法」の意味）と「直前を見るヘッド」。"
            "クエリ「それ」は「魚」に注目します。"
            "「それ」の q の「食べ物」を 0 にし「動物」を上げると、注目先が「猫」に移ります。",
            "A semantic head (dimensions mean animal, food, action, grammar) and a previous-token "
            "head. The query それ (it) attends to 魚 (fish); set its 食べ物 (food) to 0 and raise "
            "動物 (animal) and it attends to 猫 (cat)."), (
            "意味ヘッド（各次元に animal（動物）、food（食べ物）、action（動作）、grammar（文法）の意味）と"
            "「直前を見るヘッド」。クエリ「It」（それ）は「fish」（魚）に注目します。"
            "「It」の q の food を 0 にし animal を上げると、注目先が「cat」（猫）に移ります。",
            "A semantic head (its dimensions mean animal, food, action and grammar) and a previous-token "
            "head. The query “It” attends to “fish”. Set its food to 0 and raise animal, and it attends "
            "to “cat” instead.")),
        heads=[head(lang, "semantic", q, k, k, MEANING[lang]),
               head(lang, "previous", q_pos, k_pos, k_pos, pick(lang, ["位置 cos", "位置 sin"],
                                                               ["position cos", "position sin"]))],
        focus=pick(lang, "それ", "It"))


def toy_3token(lang):
    k = [[2, 0], [0, 2], [1, 1]]  # 猫, 魚, それ (cat, fish, it); v = k
    q = [[0, 2], [2, 0], [0, 2]]  # q(それ) = [0, 2]: it looks for food
    it = pick(lang, "それ", "it")
    return scenario(
        lang, "tutorial", pick(lang, ["猫", "魚", "それ"], ["cat", "fish", "it"]),
        title=pick(lang, ("計算例：3 トークン（dₖ = 2）", "Worked example: 3 tokens (dₖ = 2), in Japanese"),
                   ("計算例：3 トークン（dₖ = 2、英語版）", "Worked example: 3 tokens (dₖ = 2)")),
        description=pick(lang, (
            "チュートリアルの数値例です。q（それ）= [0, 2] の重みは [0.045, 0.768, 0.187]、"
            "出力は約 [0.28, 1.72] です。",
            "The tutorial's worked example. The weights of q(それ) = [0, 2] are [0.045, 0.768, 0.187] "
            "and its output is about [0.28, 1.72]."), (
            "チュートリアルの数値例（英語版）です。q（it）= [0, 2] の重みは [0.045, 0.768, 0.187]、"
            "出力は約 [0.28, 1.72] です。",
            "The tutorial's worked example. The weights of q(it) = [0, 2] are [0.045, 0.768, 0.187], "
            "and its output is about [0.28, 1.72].")),
        note=("チュートリアルは ÷√2 の結果を 2.83、1.41 に丸めてから softmax にかけるので、約 [0.045, 0.769, 0.186] "
              "と書いています（e^2.83 ≈ 16.95、e^1.41 ≈ 4.10、合計 ≈ 22.05）。ここでは丸めずに計算するので "
              "0.768、0.187 になり、出力も [0.276, 1.724] ではなく [0.277, 1.723] になります。",
              "The tutorial rounds ÷√2 to 2.83 and 1.41 before softmax, and so prints about "
              "[0.045, 0.769, 0.186] (e^2.83 ≈ 16.95, e^1.41 ≈ 4.10, sum ≈ 22.05). Here nothing is "
              "rounded first, which gives 0.768 and 0.187, and the output [0.277, 1.723] rather than "
              "[0.276, 1.724]."),
        heads=[head(lang, "semantic", q, k, k, MEANING[lang][:2])], focus=it)


# One word with two meanings, the same q and k in two sentences: only the context differs.
# Japanese: はし (箸 chopsticks / 橋 bridge), as in seed 002. English has two words for those, so
# its pair is "bank" (a money bank / a river bank): one spelling, two meanings, and only the
# neighbours (money, paid / river, fished) tell which; the classic example of a word that needs
# its context (one vector per word cannot hold both meanings; attention can pull it either way).
HASHI_LABELS = {"ja": ["食事", "川・移動", "物", "文法"], "en": ["money", "river", "thing", "grammar"]}
HASHI_Q = [1.5, 1.5, 0, 0]   # はし / bank asks: is the context about the first meaning or the second?
HASHI_K = [0, 0, 2, 0]       # はし / bank offers: "a thing"
GRAMMAR = ([0, 0, 0, 1], [0, 0, 2, 0])  # offers grammar, asks for the thing
HASHI_WORDS = {  # token -> (k: what it offers, q: what it asks)
    "はし": (HASHI_K, HASHI_Q), "bank": (HASHI_K, HASHI_Q),
    "を": GRAMMAR, "に": GRAMMAR, "使って": ([1, 0, 0, 0], [0, 0, 2, 0]), "ご飯": ([2, 0, 1, 0], [2, 0, 0, 0]),
    # ご飯 and 川 (the thing itself) offer more than 食べた and 渡った (what is done with it), as money and
    # river offer more than paid and fished: はし's weights then have one largest, a question's answer
    "食べた": ([1.75, 0, 0, 0], [0, 0, 2, 0]), "川": ([0, 2, 1, 0], [0, 2, 0, 0]),
    "かかる": ([0, 1, 0, 0], [0, 0, 2, 0]), "渡った": ([0, 1.75, 0, 0], [0, 0, 2, 0]),
    "She": GRAMMAR, "We": GRAMMAR, "into": GRAMMAR, "from": GRAMMAR, "the": GRAMMAR,
    "paid": ([1.5, 0, 0, 0], [0, 0, 2, 0]), "money": ([2, 0, 1, 0], [2, 0, 0, 0]),
    "fished": ([0, 1.5, 0, 0], [0, 0, 2, 0]), "river": ([0, 2, 1, 0], [0, 2, 0, 0])}


def hashi(sentence):
    k = [HASHI_WORDS[t][0] for t in sentence]
    q = [HASHI_WORDS[t][1] for t in sentence]
    return k, q


def hashi_chopsticks(lang):
    tokens = pick(lang, ["はし", "を", "使って", "ご飯", "を", "食べた"],
                  ["She", "paid", "money", "into", "the", "bank"])
    k, q = hashi(tokens)
    return scenario(
        lang, "context", tokens, causal=False,
        title=pick(lang, ("はしを使ってご飯を食べた（箸）", "はし = chopsticks: はしを使ってご飯を食べた"),
                   ("bank = 銀行：She paid money into the bank", "“bank” = money: She paid money into the bank")),
        description=pick(lang, (
            "「はし」の q と k は「川にかかるはしを渡った」と同じ。"
            "文脈の「ご飯」「食べた」を見て、出力は「食事」の向きになります（箸）。"
            "後ろの語を見るため、マスクは外してあります（BERT 型の双方向 Attention）。",
            "はし has the same q and k as in 川にかかるはしを渡った. Here it attends to ご飯 (rice) and "
            "食べた (ate), so its output points to 食事 (meal): chopsticks. The mask is off so it can "
            "see the words after it (bidirectional, as in BERT)."), (
            "英語の「はし」：bank は「銀行」にも「川岸」にもなる語です。"
            "q と k は「We fished from the river bank」と同じ。"
            "文脈の「money」（お金）「paid」（払った）を見て、出力は money の向きになります（銀行）。"
            "マスクは外してあります（BERT 型の双方向 Attention）。",
            "“bank” has the same q and k as in “We fished from the river bank”. Here it attends to "
            "“money” and “paid”, so its output points to money: a bank for money. The mask is off so "
            "every word can see the whole sentence (bidirectional, as in BERT).")),
        heads=[head(lang, "context", q, k, k, HASHI_LABELS[lang])], focus=pick(lang, "はし", "bank"))


def hashi_bridge(lang):
    tokens = pick(lang, ["川", "に", "かかる", "はし", "を", "渡った"],
                  ["We", "fished", "from", "the", "river", "bank"])
    k, q = hashi(tokens)
    return scenario(
        lang, "context", tokens, causal=False,
        title=pick(lang, ("川にかかるはしを渡った（橋）", "はし = bridge: 川にかかるはしを渡った"),
                   ("bank = 川岸：We fished from the river bank", "“bank” = river: We fished from the river bank")),
        description=pick(lang, (
            "「はし」の q と k は「はしを使ってご飯を食べた」と同じ。"
            "文脈の「川」「渡った」を見て、出力は「川・移動」の向きになります（橋）。",
            "はし has the same q and k as in はしを使ってご飯を食べた. Here it attends to 川 (river) and "
            "渡った (crossed), so its output points to 川・移動: bridge."), (
            "bank の q と k は「She paid money into the bank」と同じ。"
            "文脈の「river」（川）「fished」（釣りをした）を見て、出力は river の向きになります（川岸）。",
            "“bank” has the same q and k as in “She paid money into the bank”. Here it attends to "
            "“river” and “fished”, so its output points to river: the bank of a river.")),
        heads=[head(lang, "context", q, k, k, HASHI_LABELS[lang])], focus=pick(lang, "はし", "bank"))


def taro_hanako(lang):
    tokens = pick(lang,
                  ["太郎", "は", "花子", "に", "本", "を", "渡した", "。", "彼女", "は", "とても", "喜んだ", "。"],
                  ["Taro", "gave", "Hanako", "a", "book", ".", "She", "was", "very", "happy", "."])
    labels = pick(lang, ["人", "女性", "物", "動作"], ["person", "female", "thing", "action"])
    # What each word offers (k) and asks (q), by the Japanese word and its English one.
    offers = {"太郎": [2, 0, 0, 0], "花子": [2, 2, 0, 0], "本": [0, 0, 2, 0], "渡した": [0, 0, 0, 2],
              "喜んだ": [0, 0, 0, 2], "彼女": [1, 1, 0, 0], "とても": [0, 0, 0, 1]}
    asks = {"彼女": [1, 2, 0, 0],     # a person, female: 花子 fits best
            "渡した": [1, 0, 1, 0], "喜んだ": [2, 1, 0, 0], "本": [0, 0, 0, 1],
            "とても": [0, 0, 0, 2]}
    english = {"Taro": "太郎", "Hanako": "花子", "book": "本", "gave": "渡した", "happy": "喜んだ", "She": "彼女",
               "very": "とても"}
    words = [english.get(t, t) for t in tokens]
    k = [offers.get(t, [0, 0, 0, 0.5]) for t in words]
    q = [asks.get(t, [1, 0, 0, 0]) for t in words]
    return scenario(
        lang, "context", tokens,
        title=pick(lang, ("太郎は花子に本を渡した。彼女はとても喜んだ。",
                          "太郎は花子に本を渡した。彼女はとても喜んだ。 (Japanese)"),
                   ("Taro gave Hanako a book. She was very happy.（英語版）",
                    "Taro gave Hanako a book. She was very happy.")),
        description=pick(lang, (
            "「彼女」の q は「人」で「女性」を探します。"
            "「花子」の k が最もよくそろい、「太郎」や「本」にはほとんど注目しません。",
            "The q of 彼女 (she) looks for a person who is female: the k of 花子 (Hanako) lines up best; "
            "太郎 (Taro) and 本 (book) get little weight."), (
            "「She」（彼女）の q は person（人）で female（女性）を探します。"
            "「Hanako」の k が最もよくそろい、「Taro」や「book」にはほとんど注目しません。",
            "The q of “She” looks for a person who is female: the k of “Hanako” lines up best, and "
            "“Taro” and “book” get little weight.")),
        heads=[head(lang, "reference", q, k, k, labels)], focus=pick(lang, "彼女", "She"))


# The layer presets' sentence: the seed's first five tokens, and their embeddings X.
LAYER_X = {"猫": [1, 0, 0, 0], "が": [0, 0, 0, 1], "魚": [0, 1, 0, 0], "を": [0, 0, 0, 1], "食べた": [0, 0.5, 1, 0],
           "The": [0, 0, 0, 1], "cat": [1, 0, 0, 0], "ate": [0, 0.5, 1, 0], "the": [0, 0, 0, 1], "fish": [0, 1, 0, 0]}


def numbered_heads(lang, count, labels=None):
    heads = [{"name": f"ヘッド {i}", "names": {"en": f"head {i}"}} if lang == "ja" else
             {"name": f"head {i}", "names": {"ja": f"ヘッド {i}"}} for i in range(count)]
    if labels:
        heads[0]["labels"] = labels
    return heads


def projection_demo(lang):
    tokens = SEED_TOKENS[lang][:5]
    x = [LAYER_X[t] for t in tokens]
    rng = np.random.default_rng(2)
    eye = np.eye(4)
    w = {name: np.round(scale * eye + rng.normal(0, 0.3, (4, 4)), 1)
         for name, scale in (("w_q", 2), ("w_k", 1), ("w_v", 1), ("w_o", 1))}
    doc = scenario(
        lang, "layer", tokens,
        title=pick(lang, ("X から O まで：射影・ヘッド分割・Wₒ・残差", "From X to O: projections, heads, Wₒ, residual"),
                   ("X から O まで：射影・ヘッド分割・Wₒ・残差（英語版）",
                    "From X to O: projections, heads, Wₒ, residual")),
        description=pick(lang, (
            "X（5 × 4）に Q・K・V それぞれの重み行列（4 × 4）を掛けて Q・K・V を作り、2 ヘッド（各 2 次元）に分けて "
            "Attention を計算し、連結して Wₒ を掛け、X に足します（O = X + Y'）。",
            "X (5 × 4) times the weight matrices of Q, K and V (4 × 4) gives Q, K and V, split into 2 heads of "
            "2 dimensions; each head attends, the heads are concatenated, multiplied by Wₒ and added to X "
            "(O = X + Y')."), (
            "X（5 × 4）に Q・K・V それぞれの重み行列（4 × 4）を掛けて Q・K・V を作り、2 ヘッド（各 2 次元）に分けて "
            "Attention を計算し、連結して Wₒ を掛け、X に足します（O = X + Y'）。",
            "X (5 × 4) times the weight matrices of Q, K and V (4 × 4) gives Q, K and V, split into 2 heads of "
            "2 dimensions. Each head attends; the heads are concatenated, multiplied by Wₒ and added to X "
            "(O = X + Y').")),
        heads=numbered_heads(lang, 2, pick(lang, ["軸 1", "軸 2"], ["axis 1", "axis 2"])),
        focus=pick(lang, "食べた", "ate"))
    doc["projection"] = {"x": x, **{k: v.tolist() for k, v in w.items()},
                         "n_heads": 2, "n_kv_heads": None, "residual": True}
    return doc


def gqa_demo(lang):
    # 4 query heads share 2 K/V groups: heads 0 and 1 read the same K and V, so do 2 and 3.
    tokens = SEED_TOKENS[lang][:5]
    rng = np.random.default_rng(8)
    x = np.round(rng.normal(0, 1, (5, 8)), 1)
    w = {"w_q": np.round(np.eye(8) * 1.5 + rng.normal(0, 0.4, (8, 8)), 1),
         "w_k": np.round(np.eye(8)[:, :4] + rng.normal(0, 0.4, (8, 4)), 1),
         "w_v": np.round(np.eye(8)[:, :4] + rng.normal(0, 0.4, (8, 4)), 1),
         "w_o": np.round(np.eye(8) + rng.normal(0, 0.3, (8, 8)), 1)}
    doc = scenario(
        lang, "layer", tokens,
        title=pick(lang, ("GQA：4 ヘッドが 2 組の K・V を共有", "GQA: 4 heads share 2 groups of K and V"),
                   ("GQA：4 ヘッドが 2 組の K・V を共有（英語版）", "GQA: 4 heads share 2 groups of K and V")),
        description=(
            "Q はヘッドごと、K と V は 2 組だけ（ヘッド 0・1 が 1 組目、2・3 が 2 組目を共有）。"
            "KV キャッシュのメモリが半分になります。",
            "Each head has its own Q, but there are only 2 groups of K and V (heads 0 and 1 share the first, "
            "2 and 3 the second), so the KV cache needs half the memory."),
        heads=numbered_heads(lang, 4), focus=pick(lang, "食べた", "ate"))
    doc["projection"] = {"x": x.tolist(), **{k: v.tolist() for k, v in w.items()},
                         "n_heads": 4, "n_kv_heads": 2, "residual": True}
    return doc


# The same words, the same embeddings and weights, in two orders (seed 003 §5): without
# position information attention cannot tell them apart. English: "dog bites man" / "man bites
# dog", the classic pair whose words are the same and whose meaning is not.
POSITION_EMBEDDING = {"猫": [1.0, 0.0, 0.5, 0.0], "が": [0.0, 0.2, 0.0, 1.0], "座った": [0.0, 1.0, 0.3, 0.2],
                      "dog": [1.0, 0.0, 0.5, 0.0], "man": [0.6, 0.2, 0.0, 1.0], "bites": [0.0, 1.0, 0.3, 0.2]}
POSITION_W = {"w_q": [[1.2, 0.3, 0.0, 0.1], [0.2, 1.0, 0.4, 0.0], [0.0, 0.5, 1.1, 0.3], [0.3, 0.0, 0.2, 0.9]],
              "w_k": [[1.0, 0.0, 0.3, 0.2], [0.1, 1.3, 0.0, 0.4], [0.4, 0.2, 0.9, 0.0], [0.0, 0.3, 0.1, 1.2]],
              "w_v": [[0.9, 0.1, 0.0, 0.3], [0.0, 1.1, 0.2, 0.0], [0.3, 0.0, 1.0, 0.1], [0.1, 0.4, 0.0, 1.0]],
              "w_o": [[1.0, 0.2, 0.0, 0.0], [0.0, 1.0, 0.3, 0.0], [0.1, 0.0, 1.0, 0.2], [0.0, 0.1, 0.0, 1.0]]}
POSITION_ORDERS = {"ja": (["猫", "が", "座った"], ["座った", "が", "猫"]),
                   "en": (["dog", "bites", "man"], ["man", "bites", "dog"])}


def position_demo(lang, which):
    tokens, other = POSITION_ORDERS[lang][which], POSITION_ORDERS[lang][1 - which]
    sentence, other_sentence = pick(lang, ("".join(tokens), "".join(other)), (" ".join(tokens), " ".join(other)))
    doc = scenario(
        lang, "layer", tokens, causal=False,
        title=pick(lang, (f"{sentence}（位置なし）", f"{sentence} (no positions)"),
                   (f"{sentence}（位置なし）", f"{sentence} (no positions)")),
        description=pick(lang, (
            f"位置の情報がないと、Attention だけでは「{other_sentence}」と区別できません"
            "（同じ語の出力が並べ替わるだけです）。"
            "「層：X から O まで」で位置を「正弦波」か「RoPE」にすると出力が変わります。"
            "未来を隠すマスクも順序の情報になるので外してあります。",
            f"Without position information, attention alone cannot tell this from {other_sentence}: the same "
            "words get the same outputs, only reordered. Set the positions to sinusoidal or RoPE in "
            "“The layer: X to O” and the outputs change. The causal mask is off, because it too carries order."), (
            f"位置の情報がないと、Attention だけでは「{other_sentence}」と区別できません（同じ語の出力が"
            "並べ替わるだけです。でも、かんだのは犬か人かが逆になっています）。"
            "「層：X から O まで」で位置を「正弦波」か「RoPE」にすると出力が変わります。"
            "未来を隠すマスクも順序の情報になるので外してあります。",
            f"Without position information, attention alone cannot tell this from “{other_sentence}”: the same "
            "words get the same outputs, only reordered, although who bit whom has changed. Set the positions "
            "to sinusoidal or RoPE in “The layer: X to O” and the outputs change. The causal mask is off, "
            "because it too carries order.")),
        heads=numbered_heads(lang, 2),
        focus=tokens.index(pick(lang, "猫", "dog")))  # its output is only reordered without positions
    doc["projection"] = {"x": [POSITION_EMBEDDING[t] for t in tokens], **POSITION_W,
                         "n_heads": 2, "n_kv_heads": None, "residual": True, "positions": "none"}
    return doc


def position_nekoga(lang):
    return position_demo(lang, 0)


def position_suwatta(lang):
    return position_demo(lang, 1)


def gpt2_small_shape(lang):
    # Random q, k, v with GPT-2 small's head shape (12 heads of 64); unit variance,
    # so q·k / √64 also has unit variance and rows are neither flat nor one-hot.
    rng = np.random.default_rng(768)
    heads = [{"name": f"head {i}", **dict(zip("qkv", (_plain(np.round(rng.normal(0, 1, (10, 64)), 3))
                                                     for _ in "qkv")))} for i in range(12)]
    tokens = SEED_TOKENS[lang]
    return scenario(
        lang, "layer", tokens, heads=heads, focus=len(tokens) - 1,
        title=pick(lang, ("GPT-2 small の形：12 ヘッド × 64 次元", "GPT-2 small's shape: 12 heads × 64 dimensions"),
                   ("GPT-2 small の形：12 ヘッド × 64 次元（英語版）",
                    "GPT-2 small's shape: 12 heads × 64 dimensions")),
        description=(
            "d = 768 を 12 ヘッドに分けた形（各 64 次元）。値は固定シードの乱数で、意味はありません。",
            "d = 768 split into 12 heads of 64 dimensions. The values are random (fixed seed) "
            "and carry no meaning."))


def head(lang, role, q, k, v, labels=()):
    """A head named for its role (semantic, previous, ...): its name in `lang`, the other in "names"."""
    ja, en = HEAD_NAMES[role]
    entry = {"name": pick(lang, ja, en), "q": _plain(q), "k": _plain(k), "v": _plain(v),
             "names": pick(lang, {"en": en}, {"ja": ja})}
    if labels:
        entry["labels"] = list(labels)
    return entry


def scenario(lang, tab, tokens, *, title, description, heads, focus, causal=True, note=None):
    """`focus`: the token the story is about (or its position), selected when the preset opens.
    `title`, `description` and `note` are (Japanese, English) texts."""
    doc = {
        "format": "attnviz-scenario", "version": 1, "language": lang, "tab": tab,
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
    for lang in LANGUAGES:
        folder = OUT if lang == "ja" else OUT / lang
        folder.mkdir(parents=True, exist_ok=True)
        for order, (preset_id, build) in enumerate(PRESETS.items()):
            document = {"order": order, **build(lang)}
            (folder / f"{preset_id}.json").write_text(to_json_text(document), encoding="utf-8")
            print(f"wrote {folder.name}/{preset_id}.json", file=sys.stderr)


if __name__ == "__main__":
    main()
