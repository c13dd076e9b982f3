"""The nn tests use the autodiff tests' `check_grads` fixture (finite differences in float64),
loaded from tests/ad/conftest.py so there is one copy of it."""

from __future__ import annotations

import importlib.util
import pathlib

_path = pathlib.Path(__file__).resolve().parent.parent / "ad" / "conftest.py"
_spec = importlib.util.spec_from_file_location("_ad_conftest_for_nn", _path)
_ad_conftest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ad_conftest)

check_grads = _ad_conftest.check_grads
