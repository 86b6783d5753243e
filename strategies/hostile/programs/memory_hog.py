#!/usr/bin/env python3
"""Allocates 1 MiB blocks without end when asked for its first move, until the data limit stops it."""
import sys

hoard = []
for line in sys.stdin:
    if line.strip() == "go":
        while True:
            hoard.append(bytearray(1 << 20))
