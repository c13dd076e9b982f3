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


# The C sources of the eager fast path (arraystack/_core/); accelerator.py there lists the same files for
# its CRC check.
FASTPATH_FOLDER = "arraystack/_core"
FASTPATH = [
    "_fastpath.c", "_fastpath.h", "_fastpath_array.c", "_fastpath_function.c", "_fastpath_jit.c",
    "_fastpath_results.c",
]
# The C twin of the numba backend's mathlib (tier 0 of tiered jit); backends/numba/mathlib/twins.py
# checks its CRC the same way.
MATHLIB = "backends/numba/mathlib"
MATHLIB_TWIN = [
    "_twin.c",
    "_exp_log_twin.h",
    "_trig_twin.h",
    "_erf_twin.h",
    "_log1p_twin.h",
]


def source_crc(names, folder):
    """The CRC-32 of the C sources: the built module carries it, so a stale build of an edited source is
    detected at import (arraystack/_core/accelerator.py) instead of silently running old code."""
    crc = 0
    for name in names:
        with open(f"{folder}/{name}", "rb") as f:
            crc = zlib.crc32(f.read(), crc)
    return f"{crc:08x}"

setup(
    package_dir=PACKAGE_DIR,
    packages=PACKAGES,
    package_data={
        "arraystack": ["py.typed"],
        "arraystack.datasets": ["*.csv.gz", "*.md"],
        "arraystack.backends.cupy": ["*.cuh", "harness/*.h"],
    },
    # The eager fast path's C accelerator. Optional: without a C compiler the build skips it and the same
    # Python code serves every call (tests run both ways).
    ext_modules=[
        Extension(
            "arraystack._core._fastpath",
            [f"{FASTPATH_FOLDER}/{name}" for name in FASTPATH if name.endswith(".c")],
            depends=[f"{FASTPATH_FOLDER}/{name}" for name in FASTPATH if name.endswith(".h")],
            define_macros=[("SOURCE_CRC", f'"{source_crc(FASTPATH, FASTPATH_FOLDER)}"')],
            optional=True,
        ),
        # Bit-exact IEEE arithmetic: nothing contracted into fmas, no fast-math; not trapping lets the
        # selects become blends, so the loops vectorize (results do not change).
        Extension(
            "arraystack.backends.numba.mathlib._twin",
            [f"{MATHLIB}/{name}" for name in MATHLIB_TWIN if name.endswith(".c")],
            depends=[f"{MATHLIB}/{name}" for name in MATHLIB_TWIN if name.endswith(".h")],
            define_macros=[("SOURCE_CRC", f'"{source_crc(MATHLIB_TWIN, MATHLIB)}"')],
            extra_compile_args=["-O3", "-ffp-contract=off", "-fno-trapping-math", "-fno-math-errno"],
            optional=True,
        ),
    ],
)
