"""A jitted function's compiled specializations, in memory: at most `config.jit_cache_size`, the least
recently used evicted first (an evicted one retraces when it is called again).

Three dicts, which the C fast path of cached calls (_core/_fastpath_jit.c) shares: `entries` (the
full cache key -> entry), `fast` (the C path's key: pipeline generation, backend, type/shape/dtype per
argument -> entry) and `used` (entry -> None, least recently used first; the C path moves the entries it
serves to the end). A fourth, `fast_c`, has the same keys for the entries whose results depend on
their arguments' strides and that were traced for C-ordered arguments: the Python fast path serves
them where every argument is C-ordered (the C path's key has no strides).
"""

from __future__ import annotations

from arraystack._core.config import config


class Specializations:
    def __init__(self, stats):
        self.entries: dict = {}
        self.fast: dict = {}
        self.fast_c: dict = {}
        self.used: dict = {}
        self.stats = stats  # counts evictions

    def get(self, key):
        entry = self.entries.get(key)
        if entry is not None:
            self.touch(entry)
        return entry

    def touch(self, entry):
        used = self.used
        if used.pop(entry, False) is None:  # present (its value is None): move it to the end
            used[entry] = None

    def put(self, key, entry):
        """Store `entry` under `key` (replacing a stale one there), then evict down to the size."""
        old = self.entries.get(key)
        if old is not None:
            self._drop(old)
        entry.key = key
        self.entries[key] = entry
        self.used[entry] = None
        size = config.jit_cache_size
        while len(self.entries) > size:
            victim = next(iter(list(self.used)))  # a copy: the C path reorders `used` meanwhile
            self._drop(victim)
            self.stats.evictions += 1

    def put_fast(self, fast_key, entry, c_only=False):
        """Serve `entry` on the fast path under `fast_key`; `c_only`: for C-ordered arguments only."""
        table = self.fast_c if c_only else self.fast
        if table.get(fast_key) is entry or self.entries.get(entry.key) is not entry:
            return  # already there, or evicted meanwhile (another thread)
        table[fast_key] = entry
        entry.fast_keys.append(fast_key)

    def _drop(self, entry):
        self.used.pop(entry, None)
        if self.entries.get(entry.key) is entry:
            del self.entries[entry.key]
        for fast_key in entry.fast_keys:
            for table in (self.fast, self.fast_c):
                if table.get(fast_key) is entry:
                    del table[fast_key]
        entry.fast_keys = []
