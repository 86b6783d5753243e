#!/usr/bin/env python3
"""Forks a child that calls os.setsid() and lives on as the escapee: a session and a process group
of its own, its parent still the program. Then plays as greedy.py. See README.md for the
parameter `escapee_dir`."""
import os

from escapee import escape, escapee_dir, play, wait_counting

KIND = "setsid"

where = escapee_dir()
if os.fork() == 0:
    os.setsid()
    escape(KIND, where)
if where:
    wait_counting(KIND, where)
play()
