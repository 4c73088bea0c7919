"""Wall time and peak memory of one benchmark run; each script's section of results.md.

Each run is a separate process so that peak RSS belongs to that run alone (a
Python process never gives its high-water mark back, and RUSAGE_CHILDREN
would report the maximum over every child so far); os.wait4 returns the
rusage of exactly the child it reaps.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results.md"
ROOT = RESULTS.parents[1]
#: ``pnpgen`` as its console script runs it, from whichever package PYTHONPATH puts first (``package_copy``)
ENTRY = ("import sys, generator; assert generator.__file__.startswith(sys.path[0]), generator.__file__; "
         "from generator.cli import main; sys.argv[0] = 'pnpgen'; sys.exit(main())")
TITLE = "# Benchmark results"


def measure_command(argv: list[str], env: dict | None = None, quiet: bool = False) -> dict:
    """Run argv to completion; return {"wall_s": seconds, "peak_mib": max RSS in MiB, "cpu_s": seconds}.

    ``env``: the command's environment (default: this one's); ``quiet``: its output thrown away.
    Raises subprocess.CalledProcessError if the command fails.
    """
    start = time.perf_counter()
    output = subprocess.DEVNULL if quiet else None
    proc = subprocess.Popen(argv, env=env, stdout=output, stderr=output)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)  # already reaped; keep Popen consistent
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, argv)
    kib = usage.ru_maxrss if sys.platform != "darwin" else usage.ru_maxrss / 1024  # bytes on macOS
    # cpu_s: user + system time of the process, which other work on a shared machine barely moves
    return {"wall_s": wall, "peak_mib": kib / 1024, "cpu_s": usage.ru_utime + usage.ru_stime}


def git_commit(ref: str = "HEAD") -> str:
    """The short commit hash of ``ref`` in this repository ("unknown" outside git): results name what they measured."""
    try:
        return subprocess.run(["git", "rev-parse", "--short", ref], cwd=RESULTS.parents[1], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write_section(name: str, text: str, results: Path = RESULTS) -> None:
    """Put ``text`` between ``<!-- name: start -->`` and ``<!-- name: end -->`` in ``results``.

    Each benchmark script owns one section of the shared results file: a run
    replaces its own section (or appends it) and leaves the others' figures alone.
    """
    start, end = f"<!-- {name}: start -->", f"<!-- {name}: end -->"
    section = f"{start}\n{text.strip()}\n{end}\n"
    current = results.read_text(encoding="utf-8") if results.exists() else TITLE + "\n"
    if start in current and end in current:
        before, rest = current.split(start, 1)
        after = rest.split(end, 1)[1].lstrip("\n")
        current = before + section + ("\n" + after if after else "")
    else:
        current = current.rstrip("\n") + "\n\n" + section
    results.write_text(current, encoding="utf-8")


if __name__ == "__main__":
    # python benchmarks/measure.py CMD [ARGS...]
    print(measure_command(sys.argv[1:]))


def package_copy(dest: Path, commit: str | None, compiled: bool = True) -> Path:
    """pnpgen's package and templates (of the working tree, or of ``commit``) in ``dest``: run with
    ``PYTHONPATH=dest`` and ``ENTRY``, to measure two trees side by side. ``compiled``: bytecode made now
    (what the README's install does); else none (a machine with PYTHONDONTWRITEBYTECODE compiles every run)."""
    dest.mkdir(parents=True)
    if commit is None:
        for name in ("generator", "templates"):
            shutil.copytree(ROOT / name, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    else:
        archive = subprocess.run(["git", "archive", commit, "generator", "templates"], cwd=ROOT, capture_output=True,
                                 check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(dest, filter="data")
    if compiled:
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(dest / "generator")], check=True)
    return dest
