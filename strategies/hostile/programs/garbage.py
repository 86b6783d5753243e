#!/usr/bin/env python3
"""Answers every move with a line that is not a move."""
import sys

for line in sys.stdin:
    if line.strip() == "go":
        print("I move the worm that is nearest the hole", flush=True)
