"""The workloads of bench_gpu.py, each as the same computation in every system present: arraystack.jit on a
cuda array, cupy eager, cupy.fuse, jax.jit and torch.compile, plus a device-to-device copy moving the same
bytes (the bandwidth roofline). A builder returns a Workload: its systems (closures returning a device
result), the bytes the computation must move at least, and a NumPy reference to check every system against.

`Peers` finds what is importable: real cupy (or the stand-in in a dry run), jax and torch. A peer that is
missing is left out; one that fails to compile a workload is reported by bench_gpu.py, never fatal.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field

import numpy as np

LR = np.float32(0.1)


@dataclass
class System:
    """One way to run a workload. run() enqueues one call and returns its result on the device; timer names
    how bench_gpu.py times it: "cupy" (CUDA events on cupy's current stream), "torch" (events on torch's
    stream) or "wall" (a host clock, synchronizing before and after a batch of calls)."""

    name: str
    run: object
    timer: str
    to_host: object
    warm: object = None  # called once after the first call: wait for compiled code (tiers)
    describe: object = None  # () -> how it runs, for the JSON (arraystack: the kernels of its plan)


@dataclass
class Workload:
    key: str
    title: str
    moved: int  # bytes read and written at least (0: launch-bound, no roofline)
    systems: list = field(default_factory=list)
    reference: object = None  # host result (tuple for several outputs)
    rtol: float = 2e-5
    atol: float = 1e-6


class Peers:
    """The array libraries present. xp: cupy or the stand-in; jax/jnp and torch: None when missing. In a
    dry run jax and torch run on their default devices (the CPU here), which checks the code paths only."""

    def __init__(self, xp, ast, dry_run: bool, skip=()):
        self.xp, self.ast, self.dry_run, self.skip = xp, ast, dry_run, set(skip)
        self.errors: dict = {}
        self.jax = self.jnp = self.torch = None
        if "jax.jit" not in self.skip:
            # jax takes 75% of the GPU's memory at start unless told not to: the peers share it
            os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
            try:
                self.jax = importlib.import_module("jax")
                self.jnp = importlib.import_module("jax.numpy")
            except Exception as e:  # noqa: BLE001 - an absent or broken peer is reported, not fatal
                self.errors["jax.jit"] = f"not importable: {e}"
        if "torch.compile" not in self.skip:
            try:
                self.torch = importlib.import_module("torch")
            except Exception as e:  # noqa: BLE001
                self.errors["torch.compile"] = f"not importable: {e}"
        self.torch_device = "cpu"
        if self.torch is not None and not dry_run and self.torch.cuda.is_available():
            self.torch_device = "cuda"

    def versions(self) -> dict:
        out = {"cupy": getattr(self.xp, "__version__", "?"), "numpy": np.__version__}
        out["jax"] = self.jax.__version__ if self.jax else self.errors.get("jax.jit", "skipped")
        if self.jax:
            out["jax devices"] = ", ".join(str(d) for d in self.jax.devices())
        torch = self.torch
        out["torch"] = torch.__version__ if torch else self.errors.get("torch.compile", "skipped")
        if torch:
            out["torch device"] = self.torch_device
        return out

    # -- placing host data in each system --------------------------------------------------------------------
    def on_ast(self, host):
        return self.ast.asarray(host, device="cuda")

    def on_cupy(self, host):
        return self.xp.asarray(host)

    def on_jax(self, host):
        return self.jax.device_put(host)

    def on_torch(self, host):
        return self.torch.as_tensor(host).to(self.torch_device)

    def wanted(self, name: str) -> bool:
        return name not in self.skip

    def systems(self, fn, hosts, fuse=True, wrap=None, graphs=False):
        """The systems running `fn(xp, *arrays)` on `hosts` (NumPy arrays) moved to each device. wrap:
        (system name, xp) -> the function to time, in place of fn for that system. graphs: also
        arraystack.jit replaying CUDA graphs (arraystack.config.cuda_graphs)."""
        ast, xp = self.ast, self.xp
        wrap = wrap or (lambda name, module: lambda *a: fn(module, *a))
        out = []
        if self.wanted("arraystack.jit"):
            f = ast.jit(wrap("arraystack.jit", ast))
            args = [self.on_ast(h) for h in hosts]
            out.append(
                System(
                    "arraystack.jit",
                    lambda: f(*args),
                    "cupy",
                    _ast_host,
                    warm=f.wait_compiled,
                    describe=lambda: _ast_steps(f, args),
                )
            )
        if graphs and self.wanted("arraystack.jit + graphs"):
            out.append(self._with_graphs(ast.jit(wrap("arraystack.jit", ast)), hosts))
        if self.wanted("cupy"):
            g = wrap("cupy", xp)
            cargs = [self.on_cupy(h) for h in hosts]
            out.append(System("cupy", lambda: g(*cargs), "cupy", _cupy_host(xp)))
        if fuse and self.wanted("cupy.fuse"):
            if not hasattr(xp, "fuse"):
                self.errors["cupy.fuse"] = "not available (the stand-in has no cupy.fuse)"
            else:
                # cupy.fuse names its kernel after the function: a lambda's "<lambda>" does not compile
                body = wrap("cupy.fuse", xp)

                def fused(*a, body=body):
                    return body(*a)

                h = xp.fuse(fused, kernel_name="arraystack_bench_fused")
                fargs = [self.on_cupy(h_) for h_ in hosts]
                out.append(System("cupy.fuse", lambda: h(*fargs), "cupy", _cupy_host(xp)))
        if self.jax is not None:
            j = self.jax.jit(wrap("jax.jit", self.jnp))
            jargs = [self.on_jax(h) for h in hosts]
            out.append(System("jax.jit", lambda: j(*jargs), "wall", _jax_host))
        if self.torch is not None:
            t = self.torch.compile(wrap("torch.compile", _TorchNamespace(self.torch)))
            targs = [self.on_torch(h) for h in hosts]
            timer = "torch" if self.torch_device == "cuda" else "wall"
            out.append(System("torch.compile", lambda: t(*targs), timer, _torch_host))
        return out

    def _with_graphs(self, f, hosts) -> System:
        """arraystack.jit with CUDA graphs on for its calls only: the cupy backend reads the setting
        (config.cuda_graphs) per call; setting the backend's attribute directly leaves the plain
        arraystack.jit row as it is and costs no configuration round per call."""
        from arraystack.backends import registry

        backend = registry.get("cupy")
        args = [self.on_ast(h) for h in hosts]

        def run():
            backend.cuda_graphs = True
            try:
                return f(*args)
            finally:
                backend.cuda_graphs = False

        return System("arraystack.jit + graphs", run, "cupy", _ast_host, warm=f.wait_compiled)

    def copy(self, nbytes: int) -> System:
        """A device-to-device copy of nbytes / 2 bytes (it reads and writes nbytes in all): cupy.copyto of
        two contiguous arrays of one dtype is a cudaMemcpy on the device."""
        xp = self.xp
        n = max(1, nbytes // 8)
        src = xp.ones(n, xp.float32)
        dst = xp.empty(n, xp.float32)
        return System("copy (roofline)", lambda: xp.copyto(dst, src), "cupy", _cupy_host(xp))


class _TorchNamespace:
    """The few NumPy names the workloads use, as torch's."""

    def __init__(self, torch):
        self.torch = torch
        self.tanh, self.exp, self.sqrt, self.log = torch.tanh, torch.exp, torch.sqrt, torch.log

    def maximum(self, x, y):
        if isinstance(y, (int, float)):
            return self.torch.clamp_min(x, y)
        return self.torch.maximum(x, y)

    def max(self, x, axis=None, keepdims=False):
        return self.torch.amax(x, dim=axis, keepdim=keepdims)

    def sum(self, x, axis=None, keepdims=False):
        if axis is None:
            return self.torch.sum(x)
        return self.torch.sum(x, dim=axis, keepdim=keepdims)

    def mean(self, x, axis=None, keepdims=False):
        if axis is None:
            return self.torch.mean(x)
        return self.torch.mean(x, dim=axis, keepdim=keepdims)


def _ast_host(y):
    return np.asarray(y.to_device("cpu"))


def _cupy_host(xp):
    return lambda y: xp.asnumpy(y)


def _jax_host(y):
    return np.asarray(y)


def _torch_host(y):
    return y.detach().cpu().numpy()


def _ast_steps(f, args) -> list:
    """How each step of the compiled plan runs ("cuda kernel" or "cupy rule")."""
    executable = f.lower(*args).compile()
    return [f"{name}: {how}" for name, how in getattr(executable, "steps", ())]


# -- the computations, written once against a namespace ----------------------------------------------------
def chain(xp, a, b, c):
    return xp.tanh(a * b + c) * 0.5 + xp.exp(-a * a)


def softmax(xp, x):
    e = xp.exp(x - xp.max(x, axis=-1, keepdims=True))
    return e / xp.sum(e, axis=-1, keepdims=True)


def layernorm(xp, x):
    mu = xp.mean(x, axis=-1, keepdims=True)
    d = x - mu
    return d / xp.sqrt(xp.mean(d * d, axis=-1, keepdims=True) + 1e-5)


def sum_of_squares(xp, a):
    return xp.sum(a * a)


def dispatch(xp, x):
    return x * 2 + 1


# -- the workloads ------------------------------------------------------------------------------------------
def fused_chain(peers, n: int) -> Workload:
    rng = np.random.default_rng(0)
    hosts = [rng.standard_normal(n, dtype=np.float32) for _ in range(3)]
    w = Workload("a", f"tanh(a*b+c)*0.5+exp(-a*a), {n:.3g} float32", 16 * n)
    w.systems = peers.systems(chain, hosts)
    w.reference = chain(np, *hosts)
    return w


def rows(peers, fn, name: str, shape) -> Workload:
    host = np.random.default_rng(1).standard_normal(shape, dtype=np.float32)
    w = Workload("b", f"row {name} {shape[0]}x{shape[1]} float32", 2 * host.nbytes)
    w.systems = peers.systems(fn, [host])
    w.reference = fn(np, host.astype(np.float64)).astype(np.float32)
    w.atol = 1e-5
    return w


def squares(peers, n: int) -> Workload:
    host = np.random.default_rng(2).standard_normal(n, dtype=np.float32)
    w = Workload("c", f"sum of squares, {n:.3g} float32", host.nbytes)
    w.systems = peers.systems(sum_of_squares, [host], fuse=True)
    w.reference = np.float32(np.sum(host.astype(np.float64) ** 2))
    w.rtol = 1e-4
    return w


def cached_dispatch(peers) -> Workload:
    host = np.arange(8, dtype=np.float32)
    w = Workload("d", "cached dispatch of x*2+1, (8,) float32", 0)
    w.systems = peers.systems(dispatch, [host])
    w.reference = dispatch(np, host)
    return w


def row_writes(peers, shape) -> Workload:
    """(h), beyond the issue's targets: `out[i] = x[i] * 2 + 1` row by row into a fresh array (jax: the
    same with `.at[i].set`), what arraystack's plan writes into the array's own buffer on the device."""
    host = np.random.default_rng(3).standard_normal(shape, dtype=np.float32)
    w = Workload("h", f"{shape[0]} row writes out[i] = x[i]*2+1, {shape[0]}x{shape[1]} float32", 0)

    def wrap(name, module):
        if name == "jax.jit":

            def functional(x):
                out = module.zeros_like(x)
                for i in range(x.shape[0]):
                    out = out.at[i].set(x[i] * 2 + 1)
                return out

            return functional
        zeros_like = peers.torch.zeros_like if name == "torch.compile" else module.zeros_like

        def written(x):
            out = zeros_like(x)
            for i in range(x.shape[0]):
                out[i] = x[i] * 2 + 1
            return out

        return written

    w.systems = peers.systems(None, [host], fuse=False, wrap=wrap, graphs=True)
    w.reference = host * 2 + 1
    return w


# -- (e): one SGD step of an MLP on the digits --------------------------------------------------------------
def digits_data(rows_: int | None = None):
    from arraystack.datasets import load_digits

    images, labels = load_digits()
    x = (images.reshape(len(images), 64) / 16.0).astype(np.float32)[:rows_]
    y = np.eye(10, dtype=np.float32)[labels][:rows_]
    rng = np.random.default_rng(0)
    params = (
        (rng.standard_normal((64, 128)) * 0.1).astype(np.float32),
        np.zeros(128, np.float32),
        (rng.standard_normal((128, 10)) * 0.1).astype(np.float32),
        np.zeros(10, np.float32),
    )
    return params, x, y


def mlp_loss(xp, w1, b1, w2, b2, x, y):
    h = xp.maximum(x @ w1 + b1, 0.0)
    logits = h @ w2 + b2
    m = xp.max(logits, axis=1, keepdims=True)
    lse = xp.log(xp.sum(xp.exp(logits - m), axis=1)) + m[:, 0]
    return xp.mean(lse - xp.sum(logits * y, axis=1))


def mlp_manual_step(xp, w1, b1, w2, b2, x, y):
    """The step with a hand-written backward pass (cupy eager, and the NumPy reference)."""
    pre = x @ w1 + b1
    h = xp.maximum(pre, 0)
    logits = h @ w2 + b2
    m = logits.max(axis=1, keepdims=True)
    e = xp.exp(logits - m)
    s = e.sum(axis=1, keepdims=True)
    loss = xp.mean(xp.log(s[:, 0]) + m[:, 0] - xp.sum(logits * y, axis=1))
    dlogits = (e / s - y) / x.shape[0]
    dh = (dlogits @ w2.T) * (pre > 0)
    grads = (x.T @ dh, dh.sum(axis=0), h.T @ dlogits, dlogits.sum(axis=0))
    return (loss, *(p - LR * g for p, g in zip((w1, b1, w2, b2), grads)))


def mlp_step(peers, rows_: int | None = None) -> Workload:
    params, x, y = digits_data(rows_)
    hosts = [*params, x, y]
    w = Workload("e", f"digits MLP step 64-128-10, batch {len(x)}, float32", 0)

    def wrap(name, module):
        if name == "arraystack.jit":
            grad = peers.ast.value_and_grad(lambda p, x, y: mlp_loss(module, *p, x, y))
        elif name == "jax.jit":
            grad = peers.jax.value_and_grad(lambda p, x, y: mlp_loss(module, *p, x, y))
        elif name == "torch.compile":
            func = peers.torch.func
            grad = func.grad_and_value(lambda p, x, y: mlp_loss(module, *p, x, y))
            return lambda *a: _sgd_torch(grad, a)
        else:
            return lambda *a: mlp_manual_step(module, *a)

        def step(w1, b1, w2, b2, x, y):
            loss, grads = grad((w1, b1, w2, b2), x, y)
            return (loss, *(p - LR * g for p, g in zip((w1, b1, w2, b2), grads)))

        return step

    w.systems = peers.systems(None, hosts, fuse=False, wrap=wrap, graphs=True)
    w.reference = mlp_manual_step(np, *[h.astype(np.float64) for h in hosts])
    w.rtol, w.atol = 1e-4, 1e-5
    return w


def _sgd_torch(grad, args):
    *params, x, y = args
    grads, loss = grad(tuple(params), x, y)
    return (loss, *(p - 0.1 * g for p, g in zip(params, grads)))
