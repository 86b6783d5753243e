#!/usr/bin/env python3
"""Answers its first move with a legal-looking line, then a second line nobody asked for."""
import sys

for line in sys.stdin:
    if line.strip() == "go":
        print("0 forward\n0 forward", flush=True)
