"""The BPE tokenizer: the same tokens as the plain quadratic algorithm, in work linear in the text."""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attnviz.core import llama
from attnviz.core.tokenizer import BPE, Cancelled, byte_characters, labels


@pytest.fixture(scope="module")
def bpe():
    if llama.bundled_model() is None:
        pytest.skip("the built-in model is not installed")
    return llama.load().tokenizer


def quadratic_merge(ranks, word: str) -> list[str]:
    """BPE as it is defined (and as AttnViz did it first): find the pair of lowest rank, merge
    every occurrence left to right, again until no pair has a rank. A pass per merge."""
    parts = list(word)
    while len(parts) > 1:
        ranked = [(ranks.get(pair), k) for k, pair in enumerate(zip(parts, parts[1:]))]
        best = min((r for r in ranked if r[0] is not None), default=None)
        if best is None:
            break
        pair = (parts[best[1]], parts[best[1] + 1])
        merged, k = [], 0
        while k < len(parts):
            if k < len(parts) - 1 and (parts[k], parts[k + 1]) == pair:
                merged.append(parts[k] + parts[k + 1])
                k += 2
            else:
                merged.append(parts[k])
                k += 1
        parts = merged
    return parts


def fresh_merge(bpe, word):
    bpe._cache.pop(word, None)
    return bpe._merge(word)


# Words as the model meets them: pieces of its own vocabulary glued together (so that many
# merges apply, in every order), and runs of single byte characters of its alphabet.
ALPHABET = byte_characters()


@st.composite
def vocabulary_words(draw, bpe):
    pieces = draw(st.lists(st.one_of(st.sampled_from(bpe.tokens[:20000]), st.sampled_from(ALPHABET)),
                           min_size=1, max_size=12))
    return "".join(p for p in pieces if set(p) <= set(ALPHABET)) or "a"


def test_the_heap_merge_gives_exactly_the_quadratic_merges_tokens(bpe):
    @settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
    @given(vocabulary_words(bpe))
    def check(word):
        assert fresh_merge(bpe, word) == quadratic_merge(bpe.ranks, word)
    check()


@pytest.mark.parametrize("word", ["aaaaaaaaa", "ĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠĠ",
                                  "#" * 200, "=" * 131, "ãģĿãĤĮãģ¯", "ĊĠĠĠĠĠĠĠĠĠĠ", "abababababab"])
def test_repeated_pairs_overlap_as_in_the_quadratic_merge(bpe, word):
    assert fresh_merge(bpe, word) == quadratic_merge(bpe.ranks, word)


def random_letters(n: int, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(n))


def work_to_tokenise(bpe, text: str) -> int:
    before = bpe.work
    bpe.encode(text)
    return bpe.work - before


@pytest.mark.parametrize("kind", ["one word", "words"])
def test_tokenising_does_work_proportional_to_the_texts_length(bpe, kind):
    """Counted, not timed: the pairs ranked while merging. One word of 50,000 letters is the
    case the plain algorithm took n² for (118 s for 130,000 letters)."""
    def text(n, seed):
        letters = random_letters(n, seed)
        return letters if kind == "one word" else " ".join(letters[i:i + 7] for i in range(0, n, 8))
    small, large = work_to_tokenise(bpe, text(5_000, 1)), work_to_tokenise(bpe, text(50_000, 2))
    assert small > 1000
    assert large <= 1.3 * 10 * small


@given(st.text(st.sampled_from("ab 猫。\n\t1'é🐱\u200b\u3000#="), max_size=60))
@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_fewest_tokens_never_exceed_the_tokens(bpe, text):
    assert bpe.fewest_tokens(text) <= len(bpe.encode(text))


def test_a_long_word_is_at_least_its_bytes_over_the_longest_token(bpe):
    assert bpe.longest == 81  # ĊĠĠĠ…: a newline and 80 spaces
    assert bpe.fewest_tokens("a" * 81 * 1000) == 1000 and bpe.fewest_tokens("a" * 81 * 1000 + "b") == 1001
    assert bpe.fewest_tokens("a b c") == 3  # a word is a token or more


def test_tokenising_stops_between_words_when_cancelled(bpe):
    asked = []

    def cancelled():
        asked.append(1)
        return len(asked) > 3
    with pytest.raises(Cancelled):
        bpe.encode("one two three four five six", cancelled)
    assert len(asked) == 4


def test_a_token_holding_a_zero_width_character_among_others_shows_it():
    """SmolLM2 keeps U+200B in tokens of its own; another vocabulary may merge it with a full stop."""
    table = byte_characters()
    dot_zwsp = "." + "".join(table[b] for b in "\u200b".encode())
    merges = [f"{dot_zwsp[:k]} {dot_zwsp[k]}" for k in range(1, len(dot_zwsp))]
    bpe = BPE(list(table) + [dot_zwsp[:k] for k in range(2, len(dot_zwsp) + 1)], merges, "gpt2")
    text = "a.\u200b"
    tokens = bpe.encode(text)
    assert [t.id for t in tokens] == [table.index("a"), 256 + 2]
    assert labels(text, tokens) == ["a", ".<U+200B>"]
    assert labels("👨\u200d👩", BPE(list(table), [], "gpt2").encode("👨\u200d👩"))[4] == "<U+200D> 1/3"
