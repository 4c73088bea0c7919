"""Wall time and peak memory of one benchmark run.

Each run is a separate process so that peak RSS belongs to that run alone (a
Python process never gives its high-water mark back, and RUSAGE_CHILDREN
would report the maximum over every child so far); os.wait4 returns the
rusage of exactly the child it reaps.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time


def measure_command(argv: list[str]) -> dict:
    """Run argv to completion; return {"wall_s": seconds, "peak_mib": max RSS in MiB}.

    Raises subprocess.CalledProcessError if the command fails.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(argv)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)  # already reaped; keep Popen consistent
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, argv)
    kib = usage.ru_maxrss if sys.platform != "darwin" else usage.ru_maxrss / 1024  # bytes on macOS
    return {"wall_s": wall, "peak_mib": kib / 1024}


if __name__ == "__main__":
    # python benchmarks/measure.py CMD [ARGS...]
    print(measure_command(sys.argv[1:]))
