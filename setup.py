"""Maps the three source folders onto one import namespace.

`arraystack/` installs as `arraystack`, `jit/` as `arraystack.ir`, `backends/` as `arraystack.backends`.
Subpackages are discovered here (not listed by hand) so a new folder can never silently vanish from the wheel.
"""

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

setup(
    package_dir=PACKAGE_DIR,
    packages=PACKAGES,
    package_data={"arraystack": ["py.typed"], "arraystack.datasets": ["*.csv.gz", "*.md"]},
    # The eager fast path's C accelerator. Optional: without a C compiler the build skips it and the same
    # Python code serves every call (tests run both ways).
    ext_modules=[Extension("arraystack._fastpath", ["arraystack/_fastpath.c"], optional=True)],
)
