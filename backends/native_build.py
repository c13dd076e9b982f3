"""Whether an optional C extension was built from the sources next to it.

setup.py compiles the CRC-32 of an extension's source files into it (SOURCE_CRC). An editable install does
not rebuild the extension when those files change, and a stale build must not be used: its callers (the
eager fast path, arraystack/_core/accelerator.py, and mathlib's C twin, numba/mathlib/twins.py) fall back to
their Python code and warn.
"""

from __future__ import annotations

import os
import zlib


def built_from_sources(module, folder: str, sources) -> bool:
    """True if `module` carries the CRC of `sources` (file names in `folder`, in setup.py's order), or if
    the sources are absent (an installed wheel ships the build only); False for a stale build."""
    paths = [os.path.join(folder, name) for name in sources]
    if not all(os.path.exists(path) for path in paths):
        return True
    crc = 0
    for path in paths:
        with open(path, "rb") as f:
            crc = zlib.crc32(f.read(), crc)
    return f"{crc:08x}" == getattr(module, "SOURCE_CRC", None)
