#!/usr/bin/env python3
"""Double-forks a daemon that lives on (fork, setsid, fork, the middle process exits), then plays
as greedy.py. The daemon is an orphan in a session of its own: nothing but the host's containment
links it to the program. See README.md for the parameter `escapee_dir`."""
import os

from escapee import escape, escapee_dir, play, wait_counting

KIND = "double_fork"

where = escapee_dir()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        escape(KIND, where)
    if where:
        # The middle process: a zombie until the program dies, then the host's to reap.
        with open(os.path.join(where, KIND + ".middle"), "w") as f:
            f.write(str(os.getpid()))
    os._exit(0)
if where:
    wait_counting(KIND, where)
play()
