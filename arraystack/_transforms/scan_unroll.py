"""scan(..., unroll=k): k iterations of the body per iteration of the recorded loop, as jax.lax.scan's
`unroll` has it.

The loop runs over blocks of k consecutive elements of xs; its body calls `f` k times in a row (so
the compiled program holds k copies of the body, and the optimizer fuses across them), and stacks
their y values. The n % k elements left over are one more block, scanned once. With reverse=True the
blocks, and the elements inside each, go from the last to the first, and the leftover block is the
first n % k elements. The values are those of the plain scan: the same calls of `f` in the same order.
"""

from __future__ import annotations

import numpy as np

from arraystack.ir import tree


def unroll_count(unroll, n: int) -> int:
    """The iterations per block: `unroll` (True: all n, False: 1), at most n."""
    if isinstance(unroll, (bool, np.bool_)):
        return max(n, 1) if unroll else 1
    if not isinstance(unroll, (int, np.integer)) or unroll < 1:
        raise ValueError(f"scan's `unroll` must be a bool or a positive int, got {unroll!r}")
    return max(min(int(unroll), n), 1)


def _block_body(f, k, reverse, xs_tree):
    import arraystack as anp

    def body(carry, block):
        leaves = tree.leaves(block)
        ys = []
        for i in range(k - 1, -1, -1) if reverse else range(k):
            x = tree.unflatten(xs_tree, [leaf[i] for leaf in leaves])
            carry, y = f(carry, x)
            ys.append(y)
        if reverse:
            ys.reverse()
        flat = [tree.flatten(y) for y in ys]
        stacked = [anp.stack(column) for column in zip(*(leaves for leaves, _ in flat))]
        return carry, tree.unflatten(flat[0][1], stacked)

    return body


def unrolled_scan(scan, f, init, xs_leaves, xs_tree, n: int, k: int, reverse: bool):
    """scan(f, init, xs, reverse=reverse) with k iterations per loop iteration; `scan` is the plain one."""
    import arraystack as anp

    leaves = [anp.asarray(x) for x in xs_leaves]
    blocks, rest = divmod(n, k)
    main = slice(rest, n) if reverse else slice(0, blocks * k)
    left = slice(0, rest) if reverse else slice(blocks * k, n)

    def part(carry, span, count, size):
        chunks = [x[span].reshape((count, size) + tuple(x.shape[1:])) for x in leaves]
        carry, ys = scan(_block_body(f, size, reverse, xs_tree), carry, chunks, count, reverse)
        return carry, tree.tree_map(lambda y: y.reshape((count * size,) + tuple(y.shape[2:])), ys)

    carry, ys_main = part(init, main, blocks, k)
    if rest == 0:
        return carry, ys_main
    carry, ys_left = part(carry, left, 1, rest)
    first, last = (ys_left, ys_main) if reverse else (ys_main, ys_left)
    return carry, tree.tree_map(lambda a, b: anp.concatenate([a, b]), first, last)
