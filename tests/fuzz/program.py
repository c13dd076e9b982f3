"""A fuzzed program: arguments, one statement per line of NumPy-API code, outputs with their
tolerance, as data that renders to Python source (the program `f`, and a reproducer that can be
pasted into a test)."""

from __future__ import annotations

import math
import textwrap
import warnings
from dataclasses import dataclass, field, replace

import numpy

from tests.fuzz.facts import ulps_at
from tests.fuzz.inputs import InputSpec, indices, make_argument, mask
from tests.fuzz.tiers import Tolerances


@dataclass
class Var:
    """What the generator knows about a value of the program (on its generic sizes) to keep
    comparisons exact where NumPy's result is exact:
    - bound: floats only: every element is an integer of magnitude <= bound (finite), so that sums,
      products and matmuls of it are exact in any order while they stay below 2**24 (float32) or
      2**53; inf: unknown.
    - nonneg / unit: every element is >= 0 (or NaN) / has a magnitude in [0.5, 2]: a float sum /
      product of them is within a relative error bound in any order.
    - ulps: 0 when every tier must reproduce the value bit for bit; else the tolerance in units in
      the last place that the computation of this value allows (see comparison.py).
    - signless: the sign of a zero is not NumPy's to promise (np.fmin/np.fmax of ±0: NumPy returns
      the first operand in arrays shorter than 8 elements and in the tail of longer ones, the second
      in its SIMD blocks), so zeros compare equal whatever their signs.
    - group: values that may share memory (views) have one group; a write to one reaches all."""

    name: str
    dtype: numpy.dtype
    shape: tuple
    bound: float = math.inf
    nonneg: bool = False
    unit: bool = False
    special: bool = False
    ulps: object = 0  # an int, or a facts.Ulps growing with the variant's sizes
    signless: bool = False
    group: int = 0

    @property
    def is_float(self) -> bool:
        return self.dtype.kind == "f"

    @property
    def exact_int(self) -> bool:
        """Integer-valued floats small enough that their sums and products are exact in any
        order."""
        return self.is_float and self.bound <= (2**24 if self.dtype.itemsize == 4 else 2**53)

    def derived(self, name, value, **changes) -> Var:
        return replace(self, name=name, dtype=value.dtype, shape=value.shape, **changes)

    def unknown(self, name, value) -> Var:
        """A value of which nothing is known but its dtype and shape: exact, of any size and sign."""
        return self.derived(
            name, value, bound=math.inf, nonneg=False, unit=False, special=False, ulps=0,
            signless=False,
        )  # fmt: skip


@dataclass
class Stmt:
    """One line of the program. family groups ops for statistics and the known-failure list
    (known.py)."""

    text: str
    family: str
    op: str
    target: str | None = None
    var: Var | None = None
    writes: tuple = ()  # names of the values this line writes into (in place)
    raises: bool = False  # NumPy raises here on the generic sizes: the program ends at this line
    effect: object = field(default=None, repr=False, compare=False)  # (generator) updates the facts


@dataclass
class Program:
    seed: int
    inputs: list  # InputSpec
    stmts: list = field(default_factory=list)
    outputs: list = field(default_factory=list)  # names returned
    ulps: list = field(default_factory=list)  # per output
    signless: list = field(default_factory=list)  # per output: zeros equal whatever their signs
    argument_ulps: list = field(default_factory=list)  # the same for each argument after the call
    argument_signless: list = field(default_factory=list)
    errstate: str | None = None  # "raise": every tier runs under errstate(all="raise")

    def tolerances(self, largest=1) -> Tolerances:
        """The tolerances on a variant whose largest array has `largest` elements."""
        ulps = [ulps_at(u, largest) for u in self.ulps]
        argument_ulps = [ulps_at(u, largest) for u in self.argument_ulps]
        return Tolerances(ulps, self.signless, argument_ulps, self.argument_signless)

    def largest(self, arguments) -> int:
        """The size of the largest array the program makes on these arguments (NumPy's run)."""
        stmts = [s for s in self.stmts if not s.raises]
        try:
            with warnings.catch_warnings(), numpy.errstate(all="ignore"):
                warnings.simplefilter("ignore")
                env = evaluate(stmts, [a.fresh() for a in arguments], [s.name for s in self.inputs])
        except Exception:  # noqa: BLE001  (NumPy raises: no value is compared)
            return 1
        return max([1] + [v.size for v in env.values() if isinstance(v, numpy.ndarray)])

    def families(self) -> set:
        return {s.family for s in self.stmts}

    def ops(self) -> set:
        return {s.op for s in self.stmts}

    def body(self) -> list:
        lines = [s.text for s in self.stmts]
        if self.outputs:
            returned = ", ".join(self.outputs)
            lines.append(
                f"return {returned}" if len(self.outputs) == 1 else f"return ({returned},)"
            )
        return lines

    def source(self) -> str:
        """The program as a function of its arguments; `np` is a global: numpy or arraystack."""
        params = ", ".join(spec.name for spec in self.inputs)
        body = "\n".join("    " + line for line in self.body())
        return f"def f({params}):\n{body}\n"

    def function(self, module):
        """The program compiled with `np` bound to module (numpy or arraystack)."""
        namespace = {"np": module, "numpy": numpy, "mask": mask, "indices": indices}
        exec(compile(self.source(), f"<fuzz program {self.seed}>", "exec"), namespace)  # noqa: S102
        return namespace["f"]

    def arguments(self, sizes, seed) -> list:
        rng = numpy.random.default_rng(seed)
        return [make_argument(spec, sizes, rng) for spec in self.inputs]

    def reproducer(self, arguments, label) -> str:
        """A test to paste into tests/fuzz/test_found.py (which imports numpy, mask, indices,
        check_program and `arraystack as np`)."""
        args = "".join(f"            {a.source()},\n" for a in arguments)
        tolerances = self.tolerances(self.largest(arguments))
        options = ""
        for name in ("ulps", "signless", "argument_ulps", "argument_signless"):
            values = list(getattr(tolerances, name))
            options += f", {name}={values}" if any(values) else ""
        options += f", errstate={self.errstate!r}" if self.errstate else ""
        return (
            f"def test_{label}():\n"
            + textwrap.indent(self.source(), "    ")
            + f"\n    def args():\n        return [\n{args}        ]\n\n"
            + f"    check_program(f, args{options})\n"
        )


def evaluate(stmts, arguments, names) -> dict:
    """Run statements with NumPy, one after another in one namespace (a NumPy function's semantics:
    views, writes), and return the namespace (values by name). Raises what NumPy raises."""
    env = {"np": numpy, "numpy": numpy, "mask": mask, "indices": indices}
    env.update(zip(names, arguments))
    for stmt in stmts:
        exec(compile(stmt.text, "<fuzz statement>", "exec"), env)  # noqa: S102
    return env


__all__ = ["InputSpec", "Program", "Stmt", "Var", "evaluate"]
