"""Run a benchmark's child program on an offscreen screen of a given size, in a fresh settings
folder, and read back the JSON it prints on a line starting ``RESULT ``. The child can import
this folder's modules (``screen_measure``: waiting for the final layouts, measuring them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile


def run_on_screen(child: str, argument: object, width: int, height: int, *,
                  name: str = "bench", timeout: float = 300) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"gpuviz-{name}-") as tmp:
        config = os.path.join(tmp, "screen.json")
        with open(config, "w") as f:
            json.dump({"screens": [{"name": name, "x": 0, "y": 0, "width": width,
                                    "height": height, "logicalDpi": 96, "logicalBaseDpi": 96,
                                    "dpr": 1}]}, f)
        here = os.path.dirname(os.path.abspath(__file__))  # the child imports screen_measure
        path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)
        env = dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}",
                   XDG_CONFIG_HOME=tmp, HOME=tmp, GPUVIZ_BENCH_DIR=tmp, PYTHONPATH=path)
        proc = subprocess.run([sys.executable, "-c", child, json.dumps(argument)], env=env,
                              capture_output=True, text=True, timeout=timeout)
        for line in proc.stdout.splitlines():
            if line.startswith("RESULT "):
                return json.loads(line[len("RESULT "):])
        raise RuntimeError(f"measurement failed on {width}×{height}:\n{proc.stderr[-3000:]}")
