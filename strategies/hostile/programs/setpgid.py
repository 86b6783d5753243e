#!/usr/bin/env python3
"""Forks a child that calls os.setpgid(0, 0) and lives on as the escapee: a process group of its
own in the host's session, its parent still the program. Then plays as greedy.py. See README.md
for the parameter `escapee_dir`."""
import os

from escapee import escape, escapee_dir, play, wait_counting

KIND = "setpgid"

where = escapee_dir()
if os.fork() == 0:
    os.setpgid(0, 0)
    escape(KIND, where)
if where:
    wait_counting(KIND, where)
play()
