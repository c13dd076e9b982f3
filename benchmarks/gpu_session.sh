#!/usr/bin/env bash
# The one command for a machine with an NVIDIA GPU (H100/H200; cupy, jax and torch installed, no network):
#
#     bash benchmarks/gpu_session.sh        (timeout 540 s; bench_gpu.py stays under 8 minutes; with
#                                           --budget 230 --tests-timeout 100 the whole run took 190 s on an H200)
#
# from the repository root. It installs arraystack from this working tree when it is not importable (an
# editable install without build isolation or dependencies: nothing is downloaded), then runs
# benchmarks/bench_gpu.py, which runs the gpu-marked tests first and then the timings. What to copy back:
# $OUT/bench_gpu.json (every row, target, the device's figures, the test summary) and $OUT/bench_gpu.log
# (the printed table), $OUT/gpu_tests.log (the tests' whole output), $OUT/gpu_dispatch.log (host time
# per cached call) and $OUT/gpu_fuzz.log (the fuzzed programs on the GPU against NumPy, at most 150 s);
# without $OUT they go to ./gpu-results/.
set -u
OUT="${OUT:-$PWD/gpu-results}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
PY="${PYTHON:-python3}"
{
  echo "# $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null) on $(hostname)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  if ! "$PY" -c "import arraystack" 2>/dev/null; then
    echo "# installing arraystack from the working tree"
    "$PY" -m pip install -e . --no-build-isolation --no-deps -q || echo "# install failed"
  fi
  "$PY" -c "import arraystack, sys; print('# arraystack from', arraystack.__file__, 'python', sys.version.split()[0])"
  "$PY" -c "import numpy, numba, cupy; print('# numpy', numpy.__version__, 'numba', numba.__version__, 'cupy', cupy.__version__)"
  timeout 500 "$PY" benchmarks/bench_gpu.py --json "$OUT/bench_gpu.json" "$@"
  echo "# bench_gpu.py exit status $?"
  # where a cached call's host time goes (per call and under cProfile): $OUT/gpu_dispatch.log
  timeout 60 "$PY" benchmarks/gpu_dispatch.py --calls 2000 > "$OUT/gpu_dispatch.log" 2>&1
  echo "# gpu_dispatch.py exit status $?; $(head -5 "$OUT/gpu_dispatch.log" | tr '\n' ';')"
  # the fuzzed programs on the GPU (eager with cupy, jit, CUDA graphs; grad and vmap) against NumPy:
  # $OUT/gpu_fuzz.log
  timeout 150 "$PY" -m pytest -q -p no:cacheprovider -rf -o "addopts=--import-mode=importlib" -n 4 \
    tests/fuzz/test_programs_on_cuda.py tests/fuzz/test_derivatives_on_cuda.py > "$OUT/gpu_fuzz.log" 2>&1
  echo "# fuzz on the GPU exit status $?; $(tail -1 "$OUT/gpu_fuzz.log")"
} 2>&1 | tee "$OUT/bench_gpu.log"
