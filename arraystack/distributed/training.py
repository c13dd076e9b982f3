"""Data-parallel training on dask.distributed: a batch is cut into shards, each shard's gradients are a
dask task (on any worker), the per-shard gradients are added by a tree of tasks in a fixed order, and the
optimizer update runs on the driver.

Every piece of data a task needs is in the task itself or in a task it depends on (the parameters are a
task of their own, each data shard is an argument of its gradient task), never scattered: when a worker
dies, the scheduler recomputes what it held from the tasks' lineage. The sum of the shard gradients is
formed by NumPy additions in a fixed tree order, whichever worker runs them, so the result does not
depend on the number of workers or on where the tasks ran: `DataParallel(..., workers=0)` runs the same
shard functions and the same tree in the driver's process, and gives the same bits.
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import Callable
from typing import Any

import numpy

_gradients: dict = {}  # token -> jit(value_and_grad(loss)), one per loss function in each process


def shard_value_and_grad(token: str, loss: Callable, params: Any, x, y, weight: float):
    """On a worker: `weight * value_and_grad(loss)(params, x, y)` as NumPy leaves. The jitted gradient
    is built once per process and loss (`token`); its kernels come from the disk cache when another
    process compiled them."""
    import arraystack
    from arraystack.ir.tree import tree_map

    gradient = _gradients.get(token)
    if gradient is None:
        # compiled from the first call (no interpreted first tier): the same kernels, so the same bits,
        # in every process
        gradient = arraystack.jit(arraystack.value_and_grad(loss), tiered=False)
        _gradients[token] = gradient
    value, grads = gradient(params, arraystack.asarray(x), arraystack.asarray(y))
    value = numpy.asarray(value)
    scale = numpy.asarray(weight, dtype=value.dtype)
    return value * scale, tree_map(
        lambda g: numpy.asarray(g) * numpy.asarray(weight, g.dtype), grads
    )


def add_shards(a, b):
    """The sum of two (value, gradients) pairs, leaf by leaf, with NumPy: the same bits on every host."""
    from arraystack.ir.tree import tree_map

    return a[0] + b[0], tree_map(numpy.add, a[1], b[1])


def hold(value):
    """A task whose result is its argument: the parameters of a step, recomputable from lineage."""
    return value


def reduce_in_order(items: list, combine: Callable) -> Any:
    """Pairwise tree reduction in a fixed order: ((0+1)+(2+3))+4 for five items."""
    if not items:
        raise ValueError("reduce_in_order needs at least one item")
    level = list(items)
    while len(level) > 1:
        pairs = [combine(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        level = pairs + ([level[-1]] if len(level) % 2 else [])
    return level[0]


def shard_bounds(n: int, shards: int) -> list[tuple[int, int]]:
    """Cut n examples into `shards` contiguous ranges whose sizes differ by at most one."""
    if shards < 1:
        raise ValueError(f"shards must be at least 1, got {shards}")
    if n < shards:
        raise ValueError(f"a batch of {n} examples cannot be cut into {shards} shards")
    cuts = [n * i // shards for i in range(shards + 1)]
    return list(itertools.pairwise(cuts))


def _nbytes(tree) -> int:
    from arraystack.ir.tree import leaves

    return sum(int(numpy.asarray(leaf).nbytes) for leaf in leaves(tree))


def _start_client(workers: int, timeout: float):
    from dask.distributed import Client, LocalCluster

    cluster = LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",  # a free port: never a clash with another cluster on 8787
        timeout=timeout,
    )
    return Client(cluster, timeout=timeout), cluster


class DataParallel:
    """Data-parallel training of `loss` with `optimizer` over a dask.distributed cluster.

    Parameters
    ----------
    loss : callable
        ``loss(params, x, y)``: the mean loss of the examples ``x``, ``y`` (a scalar). Sent to the
        workers with cloudpickle; each worker jits ``value_and_grad(loss)`` once.
    optimizer : arraystack.optim.GradientTransformation
        Its ``update`` runs on the driver, jitted, after the gradients are combined.
    client : dask.distributed.Client or str, optional
        A client, or a scheduler address (``"tcp://host:8786"``) to connect to. By default a
        ``LocalCluster`` of `workers` processes on the loopback interface is started (and closed by
        :meth:`close`).
    workers : int, optional
        Worker processes of the default LocalCluster (default 2). ``0`` runs the shards and the
        reduction in this process, without dask: the single-process run the cluster's result equals.
    shards : int, optional
        Shards per batch (default: the number of workers, at least 1). The result depends on the
        number of shards (how the gradient sum is grouped), never on the number of workers.
    timeout : float, optional
        Seconds to wait for the cluster to start or a connection (default 60).

    Notes
    -----
    The gradient of a batch is ``sum_i (n_i / n) * grad(loss on shard i)``, summed pairwise in shard
    order (``((g0 + g1) + (g2 + g3))``) with NumPy. It equals the gradient of the batch's mean loss up
    to rounding: the grouping differs from one `value_and_grad` over the whole batch, so against
    single-process full-batch training the parameters agree to a few ulps per step (the tests bound
    it), while against ``workers=0`` with the same `shards` they agree bitwise.

    See Also
    --------
    arraystack.value_and_grad : the per-shard computation.
    arraystack.save_tree : checkpoints of ``params`` and ``state`` between `fit` calls.

    Examples
    --------
    >>> import arraystack as np
    >>> from arraystack.distributed import DataParallel
    >>> def loss(w, x, y):
    ...     return np.mean((x @ w - y) ** 2)
    >>> sgd = np.optim.sgd(0.1)
    >>> w = np.zeros(3, dtype=np.float32)
    >>> x, y = np.ones((8, 3), dtype=np.float32), np.ones(8, dtype=np.float32)
    >>> with DataParallel(loss, sgd, workers=0, shards=2) as parallel:
    ...     value, w, state = parallel.step(w, sgd.init(w), x, y)
    >>> float(value)
    1.0
    """

    def __init__(
        self,
        loss: Callable,
        optimizer: Any,
        client: Any = None,
        *,
        workers: int = 2,
        shards: int | None = None,
        timeout: float = 60.0,
    ) -> None:
        import arraystack

        if workers < 0:
            raise ValueError(f"workers must be at least 0, got {workers}")
        self.loss = loss
        self.optimizer = optimizer
        self.token = f"arraystack-{uuid.uuid4().hex[:12]}"
        self.client, self._cluster, self._owns_client = None, None, False
        if client is None and workers > 0:
            self.client, self._cluster = _start_client(workers, timeout)
            self._owns_client = True
        elif isinstance(client, str):
            from dask.distributed import Client

            self.client, self._owns_client = Client(client, timeout=timeout), True
        elif client is not None:
            self.client = client
        self.workers = (
            len(self.client.scheduler_info()["workers"]) if self.client is not None else 0
        )
        self.shards = int(shards) if shards is not None else max(self.workers, 1)
        self.steps = 0
        self._graphs = 0
        self.bytes_sent = 0  # payload bytes: parameters and shards out, gradients back

        def update(grads, state, params):
            updates, state = optimizer.update(grads, state, params)
            return arraystack.optim.apply_updates(params, updates), state

        self._update = arraystack.jit(update, tiered=False)

    def gradients(self, params, x, y):
        """The batch's mean loss and its gradient with respect to `params`, from the shards.

        Parameters
        ----------
        params : pytree of arrays
            The parameters, as ``loss`` takes them.
        x, y : array_like
            The batch; the first axis is cut into :attr:`shards` contiguous shards.

        Returns
        -------
        value : numpy.ndarray
            The mean loss (0-d).
        grads : pytree of numpy.ndarray
            The gradient, in the structure of `params`.
        """
        from arraystack.ir.tree import tree_map

        x, y = numpy.asarray(x), numpy.asarray(y)
        if len(x) != len(y):
            raise ValueError(f"x and y differ in length: {len(x)} and {len(y)} examples")
        host = tree_map(numpy.asarray, params)
        bounds = shard_bounds(len(x), self.shards)
        weights = [(stop - start) / len(x) for start, stop in bounds]
        if self.client is None:
            parts = [
                shard_value_and_grad(self.token, self.loss, host, x[a:b], y[a:b], w)
                for (a, b), w in zip(bounds, weights)
            ]
            return reduce_in_order(parts, add_shards)
        return self._gradients_on_cluster(host, x, y, bounds, weights)

    def _gradients_on_cluster(self, host, x, y, bounds, weights):
        # one graph per step, sent in one message: the parameters as a task of their own, a gradient
        # task per shard (its data inside it), and the tree of sums; the scheduler keeps the graph,
        # so whatever a lost worker held is recomputed from it
        self._graphs += 1  # keys never repeat, even for gradients() called outside step()
        step = f"{self.token}-{self._graphs}"
        graph = {f"params-{step}": (hold, host)}
        parts = []
        for i, ((a, b), w) in enumerate(zip(bounds, weights)):
            parts.append(f"grad-{step}-{i}")
            graph[parts[-1]] = (
                shard_value_and_grad,
                self.token,
                self.loss,
                f"params-{step}",
                x[a:b],
                y[a:b],
                w,
            )

        def combine(a, b):
            graph[f"sum-{step}-{len(graph)}"] = (add_shards, a, b)
            return f"sum-{step}-{len(graph) - 1}"

        total = self.client.get(graph, reduce_in_order(parts, combine), sync=True)
        sent = _nbytes(host) * min(len(bounds), self.workers) + x.nbytes + y.nbytes
        self.bytes_sent += sent + _nbytes(total[1]) * len(bounds)
        return total

    def step(self, params, state, x, y):
        """One training step: the shards' gradients, combined, then the optimizer's update.

        Parameters
        ----------
        params : pytree of arrays
            The parameters.
        state : pytree
            The optimizer's state (``optimizer.init(params)`` at the start).
        x, y : array_like
            The batch.

        Returns
        -------
        value : arraystack.ndarray
            The batch's mean loss before the update.
        params : pytree of arraystack.ndarray
            The updated parameters.
        state : pytree
            The updated optimizer state.
        """
        import arraystack
        from arraystack.ir.tree import tree_map

        value, grads = self.gradients(params, x, y)
        grads = tree_map(arraystack.asarray, grads)
        params, state = self._update(grads, state, params)
        self.steps += 1
        return arraystack.asarray(value), params, state

    def fit(
        self,
        params,
        state,
        batch: Callable,
        steps: int,
        *,
        start=0,
        progress=True,
        out=None,
        checkpoints=None,
        every=1,
    ):
        """Run steps ``start .. steps - 1``; ``batch(step)`` gives the batch ``(x, y)`` of a step.

        Parameters
        ----------
        params, state : pytree
            The parameters and optimizer state before step `start`.
        batch : callable
            ``batch(step) -> (x, y)``: a pure function of the step number, so that a run resumed
            at `start` sees the same batches as an uninterrupted one.
        steps : int
            The step to stop before.
        start : int, optional
            The first step (default 0).
        progress : bool, optional
            Show a tqdm bar with the loss and the examples per second (default True).
        out : file, optional
            Where the bar writes (default sys.stderr).
        checkpoints : arraystack.Checkpoints, optional
            Where to save ``{"params": ..., "state": ..., "step": n}`` after every `every` steps
            (when ``n % every == 0``) and after the last one, ``n`` being the number of steps done,
            so that a restarted driver resumes with ``start=n`` from ``checkpoints.restore()``.
        every : int, optional
            Steps between checkpoints (default 1).

        Returns
        -------
        params, state : pytree
            After the last step.
        losses : list of float
            The loss of each step run.
        """
        from tqdm import tqdm

        if isinstance(every, bool) or not isinstance(every, int) or every < 1:
            raise ValueError(f"every must be a positive int, got {every!r}")
        bar = tqdm(
            total=steps, initial=start, unit="step", file=out, disable=not progress, ncols=90
        )
        losses, examples, started = [], 0, time.perf_counter()
        for number in range(start, steps):
            x, y = batch(number)
            value, params, state = self.step(params, state, x, y)
            losses.append(float(value))
            examples += len(x)
            rate = examples / max(time.perf_counter() - started, 1e-9)
            bar.set_postfix(loss=f"{losses[-1]:.4f}", ex_per_s=f"{rate:.0f}", refresh=False)
            bar.update(1)
            done = number + 1
            if checkpoints is not None and (done % every == 0 or done == steps):
                checkpoints.save(done, {"params": params, "state": state, "step": done})
        bar.close()
        return params, state, losses

    def close(self):
        """Close the client and the LocalCluster this object started (a given client is left open)."""
        if self._owns_client and self.client is not None:
            self.client.close()
        if self._cluster is not None:
            self._cluster.close()
        self.client, self._cluster, self._owns_client = None, None, False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
