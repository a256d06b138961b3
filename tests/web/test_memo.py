"""VersionMemo: a value is made once per version of its source, at most
`size` kept (the ladder's page cache, table fragment and batch rating)."""

from __future__ import annotations

from arena.web.memo import VersionMemo


def test_a_value_is_made_once_per_version() -> None:
    memo = VersionMemo[str](size=4)
    made: list[int] = []

    def make(version: int) -> str:
        made.append(version)
        return f"page at {version}"

    assert memo.get_or_make("p", 1, lambda: make(1)) == "page at 1"
    assert memo.get_or_make("p", 1, lambda: make(1)) == "page at 1"
    assert made == [1]
    assert memo.get("p", 2) is None  # the source changed: not served stale
    assert memo.get_or_make("p", 2, lambda: make(2)) == "page at 2"
    assert made == [1, 2]


def test_the_least_recently_used_key_is_dropped_first() -> None:
    memo = VersionMemo[int](size=2)
    memo.put("a", 0, 1)
    memo.put("b", 0, 2)
    assert memo.get("a", 0) == 1   # a is now the more recent
    memo.put("c", 0, 3)
    assert memo.get("b", 0) is None
    assert (memo.get("a", 0), memo.get("c", 0)) == (1, 3)
