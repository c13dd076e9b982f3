"""NumPy's floating-point error state (np.errstate, np.seterr) at the moment an executable runs.

Compiled kernels set no NumPy error flags: they are loops of machine instructions (mathlib's polynomials
among them, which raise other hardware flags than libm would). So when the state at call time asks for an
action on an error (`raise`, `call`, `print` or `log` for divide, over, under or invalid), an executable
runs its graph through the reference rules instead, which are NumPy's ufuncs and do what eager mode does:
`jit(np.log)(0.0)` under `errstate(all="raise")` raises FloatingPointError. Under the default state
(`warn`, and `ignore` for underflow) and under `ignore`, the compiled code runs.
# Note: compiled code does not warn, so under `warn` (NumPy's default) a jitted call gives no
# RuntimeWarning where NumPy would.
"""

from __future__ import annotations

import numpy as np

try:  # the error state's context variable: a new object whenever the state changes
    from numpy._core.umath import _extobj_contextvar as _state
except ImportError:  # pragma: no cover - another NumPy layout: ask np.geterr() on every call
    _state = None

_ACTIONS = frozenset({"raise", "call", "print", "log"})
_quiet = [None]  # the state object last seen that asks for no action (a call then costs one get())


def errors_act() -> bool:
    """Whether NumPy's error state in this thread asks for more than a warning on some error."""
    acts = any(mode in _ACTIONS for mode in np.geterr().values())
    if not acts and _state is not None:
        _quiet[0] = _state.get()
    return acts


def honour_error_state(executable):
    """`executable`, running its graph through the reference rules while the error state asks for an
    action (built on the first such call)."""
    compiled = executable.runner
    reference = []
    state = _state.get if _state is not None else object  # object(): never the quiet state
    quiet = _quiet

    def run(buffers):
        if state() is not quiet[0] and errors_act():
            if not reference:
                from arraystack.backends.reference import compile_reference

                reference.append(compile_reference(executable.graph).runner)
            return reference[0](buffers)
        return compiled(buffers)

    executable.runner = run
    return executable
