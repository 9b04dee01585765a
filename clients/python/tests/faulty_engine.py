"""An engine that misbehaves on purpose, for the bot's tests: it runs a real engine (the
command after ``--``) and passes every line through both ways, but its move answers (Gomocup's
``x,y``, NBoard's ``=== f5``) as told:

* ``--crash-after N``: the process exits (as a crash: no word, exit status 3) instead of
  writing its N-th answer — once only, when ``--once PATH`` names a file (made at the crash);
* ``--illegal N``: N times, from its third answer on, it answers its previous answer again
  (a cell now taken, a square now occupied), then it answers as its engine does;
* ``--slow S``: it waits S seconds before each answer.

    python faulty_engine.py --crash-after 4 --once /tmp/crashed -- python3 gomocup_random.py
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import TextIO

ANSWER = re.compile(r"\s*(\d+\s*,\s*\d+|===.*)\s*")


def forward(source: TextIO, sink: TextIO) -> None:
    """The bot's lines to the engine, as they come; the engine's input closed at the end."""
    for line in iter(source.readline, ""):
        sink.write(line)
        sink.flush()
    sink.close()


def main() -> None:
    arguments = argparse.ArgumentParser()
    arguments.add_argument("--crash-after", type=int)
    arguments.add_argument("--once", type=Path)
    arguments.add_argument("--illegal", type=int, default=0)
    arguments.add_argument("--slow", type=float, default=0.0)
    arguments.add_argument("command", nargs="+")
    told = arguments.parse_args()
    engine = subprocess.Popen(
        told.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert engine.stdin is not None
    assert engine.stdout is not None
    threading.Thread(target=forward, args=(sys.stdin, engine.stdin), daemon=True).start()
    answers, illegal, previous = 0, told.illegal, ""
    for line in iter(engine.stdout.readline, ""):
        if ANSWER.fullmatch(line):
            answers += 1
            crash = told.crash_after == answers and not (told.once and told.once.exists())
            if crash:
                if told.once:
                    told.once.touch()
                engine.kill()
                os._exit(3)
            time.sleep(told.slow)
            if illegal and answers >= 3 and previous:
                illegal -= 1
                line = previous  # taken by then: the engine's own accepted answer
            else:
                previous = line
        sys.stdout.write(line)
        sys.stdout.flush()
    engine.wait()


if __name__ == "__main__":
    main()
