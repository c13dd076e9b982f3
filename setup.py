"""Maps the three source folders onto one import namespace.

`arraystack/` installs as `arraystack`, `jit/` as `arraystack.ir`, `backends/` as `arraystack.backends`.
Subpackages are discovered here (not listed by hand) so a new folder can never silently vanish from the wheel.
"""

import zlib

from setuptools import Extension, find_packages, setup

ROOTS = {"arraystack": "arraystack", "arraystack.ir": "jit", "arraystack.backends": "backends"}


def discover(roots):
    package_dir, packages = {}, []
    for name, folder in roots.items():
        package_dir[name] = folder
        packages.append(name)
        for sub in find_packages(folder):
            packages.append(f"{name}.{sub}")
            package_dir[f"{name}.{sub}"] = f"{folder}/{sub.replace('.', '/')}"
    return package_dir, packages


PACKAGE_DIR, PACKAGES = discover(ROOTS)


def source_crc(path):
    """The CRC-32 of a C source: the built module carries it, so a stale build of an edited source is
    detected at import (arraystack/_array.py) instead of silently running old code."""
    with open(path, "rb") as f:
        return f"{zlib.crc32(f.read()):08x}"


FASTPATH = "arraystack/_fastpath.c"

setup(
    package_dir=PACKAGE_DIR,
    packages=PACKAGES,
    package_data={"arraystack": ["py.typed"], "arraystack.datasets": ["*.csv.gz", "*.md"]},
    # The eager fast path's C accelerator. Optional: without a C compiler the build skips it and the same
    # Python code serves every call (tests run both ways).
    ext_modules=[
        Extension(
            "arraystack._fastpath",
            [FASTPATH],
            define_macros=[("SOURCE_CRC", f'"{source_crc(FASTPATH)}"')],
            optional=True,
        )
    ],
)
