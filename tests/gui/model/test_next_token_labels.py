"""The next-token panel's labels: every token told apart from the others, none as raw bytes a
teacher cannot read."""
import pytest

from attnviz.gui.model.next_token import shown_token


@pytest.mark.parametrize("raw, label", [
    (b" fish", "·fish"),
    (b"\n", "↵"),
    (b"\n\n", "↵↵"),
    (b"\n         ", "↵·×9"),            # newline and nine spaces, not a second "↵"
    (b"\n  ", "↵··"),
    ("猫".encode(), "猫"),
    (b"\xe3\x81", "[ぁ–み]"),           # the first two bytes of a hiragana
    (b"\xef\xbc", "[！–＿]"),           # ... of a full-width sign
    (b"a\xe3\x83", "a[ダ–ヿ]"),
    (b"\xe3", "<E3>"),                   # one byte of three: thousands of characters, in hex
    (b"\x81\xab", "<81\u00a0AB>"),       # the end of a character
])
def test_labels(raw, label):
    assert shown_token(raw.decode("utf-8", "replace"), raw) == label


def test_the_ten_whitespace_tokens_of_a_real_prediction_all_read_differently():
    raws = [b"\n", b"\n\n", b"\n         ", b"\n           ", b"\n       ", b" ", b"  ", b"\n "]
    labels = [shown_token(r.decode(), r) for r in raws]
    assert len(set(labels)) == len(labels)
