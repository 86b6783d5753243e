#!/usr/bin/env python3
"""Answers with a well-formed move of one of the opponent's worms."""
import sys

me, theirs = None, None
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["player"]:
        me = words[1]
    elif words[:1] == ["worm"] and words[3] != me and theirs is None:
        theirs = words[1]
    elif words == ["go"]:
        print(theirs, "forward", flush=True)
