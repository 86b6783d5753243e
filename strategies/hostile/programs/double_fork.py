#!/usr/bin/env python3
"""Double-forks a daemon that lives on (fork, setsid, fork, the middle process exits), then plays
as greedy.py. The daemon is an orphan in a session of its own: nothing but the host's containment
links it to the program. See README.md for the parameter `escapee_dir`."""
import json
import os
import sys
import time

KIND = "double_fork"
HERE = os.path.dirname(os.path.abspath(__file__))
GREEDY = os.path.join(HERE, "..", "..", "programs", "worms", "greedy.py")

# The escapee: counts in DIR/KIND.count every 2 ms (its id in DIR/KIND.pid) for at most 10 minutes.
# Its command line says botbox-escapee, its kind and DIR, for ps to find it.
ESCAPEE = """
import os, sys, time
_, marker, kind, where = sys.argv
def put(name, text):
    if where:
        path = os.path.join(where, kind + name)
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
put(".pid", str(os.getpid()))
end, count = time.monotonic() + 600, 0
while time.monotonic() < end:
    count += 1
    put(".count", str(count))
    time.sleep(0.002)
"""


def escape(where):
    """Becomes the escapee (never returns)."""
    os.execv(sys.executable, [sys.executable, "-c", ESCAPEE, "botbox-escapee", KIND, where])


def wait_counting(where):
    """Waits (at most 5 s) until the escapee has counted twice, so that it is known to run."""
    path = os.path.join(where, KIND + ".count")
    end = time.monotonic() + 5
    while time.monotonic() < end:
        try:
            with open(path) as f:
                if int(f.read() or 0) >= 2:
                    return
        except (OSError, ValueError):
            pass
        time.sleep(0.002)


where = json.loads(os.environ.get("BOTBOX_SETUP", "{}")).get("params", {}).get("escapee_dir", "")
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        escape(where)
    if where:
        # The middle process: a zombie until the program dies, then the host's to reap.
        with open(os.path.join(where, KIND + ".middle"), "w") as f:
            f.write(str(os.getpid()))
    os._exit(0)
if where:
    wait_counting(where)
os.execv(GREEDY, [GREEDY])
