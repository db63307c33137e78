"""Blocks a figure module keeps between builds: a view's layout search builds one state's figure
in a dozen designs (and the window's first frame in a dozen more), and an expensive block (a
large control-flow graph with its labels placed) often comes out at the same width in several.

A :class:`Kept` maps a key to the block built for it, for the last few keys. The key names the
result and theme by their ids; each entry holds them, so that an id is not reused while its
entry lives. Whether the layout leaves room for a wider fallback face is part of every key, and
a change of typeface forgets everything (the labels are measured again). Safe across threads:
the docks lay out on the thread pool while the window builds its first frame.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from gpuviz.figures.metrics import leaves_room, on_typeface_change

T = TypeVar("T")


class Kept(Generic[T]):
    def __init__(self, size: int):
        self.size = size
        self._kept: OrderedDict[Hashable, tuple[tuple[object, ...], T]] = OrderedDict()
        self._lock = threading.Lock()
        on_typeface_change(self.clear)

    def get(self, owners: tuple[object, ...], key: Hashable, make: Callable[[], T]) -> T:
        """What ``make()`` builds for ``key`` of ``owners`` (the objects it reads, compared by
        identity): kept from the last time it was asked, else built and kept."""
        full = (tuple(id(o) for o in owners), key, leaves_room())
        with self._lock:
            hit = self._kept.get(full)
            if hit is not None and all(a is b for a, b in zip(hit[0], owners, strict=True)):
                self._kept.move_to_end(full)
                return hit[1]
        value = make()
        with self._lock:
            self._kept[full] = (owners, value)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
