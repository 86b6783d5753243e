#!/usr/bin/env python3
"""Sleeps 10 s instead of answering its first move."""
import sys
import time

for line in sys.stdin:
    if line.strip() == "go":
        time.sleep(10)
        print("0 forward", flush=True)
