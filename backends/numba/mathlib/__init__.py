"""The vectorizable math of the numba backend's kernels, and its twins for tier 0 of tiered jit.

Each function exists three times, bit for bit alike, one family per row (docs/internals/mathlib.md says
why three copies and not one):

    family      numba (the kernels)   NumPy twin          C twin (extension _twin)
    exp, log    exp_log.py            exp_log_numpy.py    _exp_log_twin.h
    erf         erf.py                erf_numpy.py        _erf_twin.h
    log1p       log1p.py              log1p_numpy.py      _log1p_twin.h
    trig        trig.py               trig_numpy.py       _trig_twin.h

constants.py and trig_constants.py hold the values all three read (the C twin as hex literals, and the
trig tables copied in at load); scale.py is exp's last step as an LLVM intrinsic; fma_emulation.py is the
NumPy twin's exactly rounded fma; _twin.c loops the C functions over arrays. Generated kernels import the
numba functions by module path (kernels.PRELUDE). Nothing here is imported with the package: the twins
load without numba.
"""
