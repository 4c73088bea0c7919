"""pnpgen simulate --dask: the optional executor plays the same games as local processes."""
from __future__ import annotations

import builtins
import json

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.errors import BuildError
from generator.simulate import report
from tests.test_simulate import NEW_YORK


def test_a_local_dask_cluster_gives_the_local_report(monkeypatch):
    pytest.importorskip("dask.distributed")
    monkeypatch.setattr(report, "CHUNK", 3)   # several tasks, so the order of gathering matters
    runner = CliRunner()
    args = ["simulate", str(NEW_YORK), "--players", "2", "--games", "10", "--seed", "4", "--format", "json",
            "--validate", "2"]
    local = runner.invoke(main, args)
    dask = runner.invoke(main, args + ["--dask", "local", "-j", "2"])
    assert dask.exit_code == 0, dask.output
    assert json.loads(dask.output) == json.loads(local.output)


def test_without_dask_installed_the_error_says_how_to_get_it(monkeypatch):
    real = builtins.__import__

    def no_dask(name, *args, **kwargs):
        if name.startswith("dask"):
            raise ImportError(name)
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    with pytest.raises(BuildError, match="optional extra") as error:
        report.simulate(NEW_YORK, (), ["greedy", "greedy"], 2, 0, dask="local")
    assert "pnpgen[dask]" in error.value.diagnostics[0].hint
