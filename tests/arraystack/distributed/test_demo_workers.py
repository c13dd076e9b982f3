"""`python -m arraystack demo --workers N` (arraystack/_cli/demo_train.py): the demo's training with each
batch's gradients computed on a LocalCluster."""

from __future__ import annotations

import io

import pytest

pytest.importorskip("distributed")

from arraystack.__main__ import main
from arraystack._cli.demo_train import train


def test_demo_trains_on_workers():
    out = io.StringIO()
    accuracy, _, _ = train(epochs=1, out=out, progress=False, workers=1)
    assert accuracy > 0.7  # one epoch of the demo reaches ~0.86
    assert "epoch   1" in out.getvalue()


def test_demo_rejects_negative_workers(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--workers", "-1"])
    assert "--workers must be at least 0" in capsys.readouterr().err
