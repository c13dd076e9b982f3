"""`python -m arraystack demo`: train a digit classifier written imperatively with arraystack.

Parameters live in a dict; the step is `value_and_grad` of the loss plus an `arraystack.optim` update, all
inside `arraystack.jit`. The data is the 1,797-image UCI digits set shipped in arraystack.datasets, split
80/20 with a fixed seed. At the end the demo times the same step eagerly and jitted and prints the speedup.
With `--workers N` the gradients of each batch come from N dask worker processes (arraystack.distributed).
"""

from __future__ import annotations

import sys
import time

import numpy


def _model():
    import arraystack as np
    from arraystack import nn

    def init(key):
        k1, k2 = np.prng.split(key)
        return {"hidden": nn.init_dense(k1, 64, 128), "out": nn.init_dense(k2, 128, 10)}

    def logits(params, x):
        return nn.dense(params["out"], nn.relu(nn.dense(params["hidden"], x)))

    def loss(params, x, labels):
        return nn.cross_entropy(logits(params, x), labels)

    return init, logits, loss


def _data(seed):
    from arraystack.datasets import load_digits

    images, labels = load_digits()
    x = (images.reshape(len(images), 64) / 16.0).astype(numpy.float32)
    order = numpy.random.default_rng(seed).permutation(len(x))
    cut = int(0.8 * len(x))
    return (x[order[:cut]], labels[order[:cut]]), (x[order[cut:]], labels[order[cut:]])


def _progress(total, enabled, out):
    try:
        from tqdm import tqdm
    except ImportError:  # a core dependency; only a broken install lacks it
        tqdm = None
    if tqdm is None or not enabled:
        return None
    return tqdm(total=total, file=out, ncols=90, unit="step", leave=True)


def train(epochs=20, seed=0, use_jit=True, batch=64, out=sys.stdout, progress=True, workers=0):
    """Train and report; returns (test accuracy, seconds of training). With `workers`, each batch's
    gradients are computed by a LocalCluster of that many processes (arraystack.distributed)."""
    import arraystack as np

    init, logits, loss = _model()
    (x_train, y_train), (x_test, y_test) = _data(seed)
    optimizer = np.optim.adam(3e-3)
    params = init(np.prng.key(seed))
    state = optimizer.init(params)

    def step(params, state, x, labels):
        value, grads = np.value_and_grad(loss)(params, x, labels)
        updates, state = optimizer.update(grads, state, params)
        return value, np.optim.apply_updates(params, updates), state

    def accuracy(params, x, labels):
        return np.mean(np.argmax(logits(params, x), axis=1) == labels)

    if use_jit:
        step, accuracy = np.jit(step), np.jit(accuracy)
    parallel = None
    if workers:
        from arraystack.distributed import DataParallel

        parallel = DataParallel(loss, optimizer, workers=workers)
        step = parallel.step
    batches = len(x_train) // batch
    bar = _progress(epochs * batches, progress, out)
    rng = numpy.random.default_rng(seed + 1)
    xs, ys = np.asarray(x_test), np.asarray(y_test)
    started = time.perf_counter()
    for epoch in range(epochs):
        order = rng.permutation(len(x_train))
        for b in range(batches):
            take = order[b * batch : (b + 1) * batch]
            value, params, state = step(params, state, np.asarray(x_train[take]), np.asarray(y_train[take]))
            if bar is not None:
                bar.update(1)
        acc = float(accuracy(params, xs, ys))
        if bar is not None:
            bar.set_postfix(epoch=epoch + 1, loss=f"{float(value):.3f}", test_acc=f"{acc:.3f}")
        else:
            print(f"epoch {epoch + 1:3d}  loss {float(value):.4f}  test accuracy {acc:.4f}", file=out)
    if bar is not None:
        bar.close()
    if parallel is not None:
        parallel.close()
    return acc, time.perf_counter() - started, (step, params, state, x_train, y_train, batch)


def speedup(trained, repeats=20, out=sys.stdout):
    """Time the jitted step against the same step run eagerly (op by op through NumPy)."""
    import arraystack as np

    step, params, state, x_train, y_train, batch = trained
    if hasattr(step, "wait_compiled"):
        step.wait_compiled()  # tiered compilation: time the compiled step, not the first tier
    x, y = np.asarray(x_train[:batch]), np.asarray(y_train[:batch])
    eager = step.fun if hasattr(step, "fun") else step
    times = {}
    for name, fn in (("eager", eager), ("jit", step)):
        fn(params, state, x, y)
        t0 = time.perf_counter()
        for _ in range(repeats):
            fn(params, state, x, y)
        times[name] = (time.perf_counter() - t0) / repeats
    print(
        f"one training step (batch {batch}): eager {times['eager'] * 1e3:.2f} ms, "
        f"jit {times['jit'] * 1e3:.3f} ms -> {times['eager'] / times['jit']:.1f}x faster with jit",
        file=out,
    )
    return times


def run(epochs=20, seed=0, use_jit=True, out=sys.stdout, progress=True, workers=0) -> int:
    where = f", data-parallel over {workers} dask worker processes" if workers else ""
    print(
        "Training a 64-128-10 classifier on the UCI digits (1,437 train / 360 test images) with "
        f"arraystack.{'jit(' if use_jit else ''}value_and_grad{')' if use_jit else ''} and optim.adam"
        f"{where}:",
        file=out,
    )
    acc, seconds, trained = train(epochs, seed, use_jit, out=out, progress=progress, workers=workers)
    print(f"test accuracy {acc:.4f} after {epochs} epochs ({seconds:.1f} s)", file=out)
    if use_jit and not workers:
        speedup(trained, out=out)
    return 0 if acc >= 0.9 else 1
