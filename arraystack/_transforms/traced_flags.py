"""`strides` and `flags` of a traced array: NumPy's, for the memory layout NumPy would give the value
(aliasing.layout_of). Reading them makes a jitted function's result depend on its arguments'
layouts, so its cache entries are keyed by them (aliasing.note_layout_read)."""

from __future__ import annotations

from typing import Any

from arraystack._transforms.aliasing import layout_of, note_layout_read, view_writeable


def traced_strides(x) -> tuple[int, ...]:
    """x.strides of a traced array x."""
    note_layout_read()
    return tuple(int(s) for s in layout_of(x).strides)


def traced_flags(x) -> TracedFlags:
    """x.flags of a traced array x."""
    note_layout_read()
    writeable = view_writeable(x)
    layout = layout_of(x)
    return TracedFlags(
        bool(layout.flags.c_contiguous),
        bool(layout.flags.f_contiguous),
        writeable is not False,
        writeable is None,
    )


_FLAG_NAMES = {  # numpy's flags keys -> the attribute
    "C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
    "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
    "WRITEABLE": "writeable", "W": "writeable", "OWNDATA": "owndata", "O": "owndata",
    "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy",
    "X": "writebackifcopy", "FNC": "fnc", "FORC": "forc", "BEHAVED": "behaved", "B": "behaved",
    "CARRAY": "carray", "CA": "carray", "FARRAY": "farray", "FA": "farray",
}  # fmt: skip


class TracedFlags:
    """numpy.ndarray.flags of a traced array, to read: its contiguity as NumPy would lay the value
    out, whether NumPy would let it be written (a broadcast or a diagonal view would not) and whether
    it owns its data (no view)."""

    __slots__ = ("aligned", "c_contiguous", "f_contiguous", "owndata", "writeable")

    def __init__(self, c_contiguous: bool, f_contiguous: bool, writeable: bool, owndata: bool):
        for name, value in (
            ("c_contiguous", c_contiguous),
            ("f_contiguous", f_contiguous),
            ("writeable", writeable),
            ("owndata", owndata),
            ("aligned", True),
        ):
            object.__setattr__(self, name, value)

    contiguous = property(lambda self: self.c_contiguous)
    fortran = property(lambda self: self.f_contiguous)
    writebackifcopy = property(lambda self: False)
    fnc = property(lambda self: self.f_contiguous and not self.c_contiguous)
    forc = property(lambda self: self.f_contiguous or self.c_contiguous)
    behaved = property(lambda self: self.aligned and self.writeable)
    carray = property(lambda self: self.behaved and self.c_contiguous)
    farray = property(lambda self: self.behaved and self.f_contiguous and not self.c_contiguous)

    def __getitem__(self, key: str) -> bool:
        name = _FLAG_NAMES.get(str(key).upper())
        if name is None:
            raise KeyError(f"Unknown flag {key!r}")
        return getattr(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(
            f"flags of a traced array cannot be set ({name}): set them on the array outside the "
            "traced function"
        )

    __setitem__ = __setattr__

    def __repr__(self) -> str:
        rows = [
            ("C_CONTIGUOUS", self.c_contiguous),
            ("F_CONTIGUOUS", self.f_contiguous),
            ("OWNDATA", self.owndata),
            ("WRITEABLE", self.writeable),
            ("ALIGNED", self.aligned),
            ("WRITEBACKIFCOPY", False),
        ]
        return "\n".join(f"  {name} : {value}" for name, value in rows) + "\n"
