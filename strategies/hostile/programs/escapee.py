"""What the escapee fixtures (double_fork.py, setsid.py, setpgid.py) share: the escapee itself, and
the wait until it runs. Not a strategy: the fixtures import it from their own directory."""
import json
import os
import sys
import time

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


def escape(kind, where):
    """Becomes the escapee (never returns)."""
    os.execv(sys.executable, [sys.executable, "-c", ESCAPEE, "botbox-escapee", kind, where])


def wait_counting(kind, where):
    """Waits (at most 5 s) until the escapee has counted twice, so that it is known to run."""
    path = os.path.join(where, kind + ".count")
    end = time.monotonic() + 5
    while time.monotonic() < end:
        try:
            with open(path) as f:
                if int(f.read() or 0) >= 2:
                    return
        except (OSError, ValueError):
            pass
        time.sleep(0.002)




def escapee_dir():
    """The setup parameter `escapee_dir` ("" when absent)."""
    return json.loads(os.environ.get("BOTBOX_SETUP", "{}")).get("params", {}).get("escapee_dir", "")


def play():
    """Plays the rest of the game as greedy.py."""
    os.execv(GREEDY, [GREEDY])
