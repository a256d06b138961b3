"""Values kept while what they were made from is unchanged.

    memo = VersionMemo[str](size=1)
    text = memo.get_or_make("", store.version(), render)   # rendered once per change

The key names the value (a URL, a fragment); the version is the source's
(the ladder's `Store.version()`): a value made at another version is made
again. At most `size` keys, the least recently used dropped first; safe for
the several threads Starlette runs sync routes on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class VersionMemo(Generic[V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._values: OrderedDict[Hashable, tuple[object, V]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, version: object) -> V | None:
        with self._lock:
            hit = self._values.get(key)
            if hit is None or hit[0] != version:
                return None
            self._values.move_to_end(key)
            return hit[1]

    def put(self, key: Hashable, version: object, value: V) -> None:
        with self._lock:
            self._values[key] = (version, value)
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def get_or_make(self, key: Hashable, version: object, make: Callable[[], V]) -> V:
        """The kept value, or `make()` kept. Two threads that miss at once
        may both make it (the same value): cheaper than holding the lock
        while a page renders."""
        hit = self.get(key, version)
        if hit is not None:
            return hit
        value = make()
        self.put(key, version, value)
        return value
