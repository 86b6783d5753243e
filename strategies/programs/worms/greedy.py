#!/usr/bin/env python3
"""A greedy Wormworld program bot speaking botbox's text protocol (docs/protocols/worms.md).

For each legal move it measures, by breadth-first search through free cells, how far the moved
worm's new head is from the hole (falling in counts 0), and plays the move with the smallest
distance; ties go to the first move in the host's order (by worm id, then left, forward, right).
Standard library only. Debug output goes to stderr, which botbox keeps as the game's log.
"""

import sys
from collections import deque

# Directions clockwise from up; a worm faces from its middle cell to its head.
STEPS = [(-1, 0), (0, 1), (1, 0), (0, -1)]
TURNS = {"left": 3, "forward": 0, "right": 1}  # quarter turns clockwise


class Position:
    def __init__(self, rows, worms):
        self.height, self.width = len(rows), len(rows[0])
        self.blocked = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
        self.hole = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "O")
        self.worms = worms  # id -> (player, [head, middle, tail])

    def occupied(self):
        return {cell for _, cells in self.worms.values() for cell in cells}

    def target(self, worm, turn):
        """The cell the worm's head enters with this turn."""
        (hr, hc), (mr, mc), _ = self.worms[worm][1]
        facing = STEPS.index((hr - mr, hc - mc))
        dr, dc = STEPS[(facing + TURNS[turn]) % 4]
        return hr + dr, hc + dc

    def free(self, cell, occupied):
        r, c = cell
        inside = 0 <= r < self.height and 0 <= c < self.width
        return inside and cell not in self.blocked and cell not in occupied

    def legal(self, player):
        occupied = self.occupied()
        return [
            (worm, turn)
            for worm in sorted(self.worms)
            if self.worms[worm][0] == player
            for turn in ("left", "forward", "right")
            if self.free(self.target(worm, turn), occupied)
        ]

    def play(self, worm, turn):
        player, (head, middle, _) = self.worms[worm]
        new = self.target(worm, turn)
        if new == self.hole:
            del self.worms[worm]
        else:
            self.worms[worm] = (player, [new, head, middle])

    def distance(self, start, occupied):
        """Steps from start to the hole through free cells; None if there is no way."""
        seen, queue = {start}, deque([(start, 0)])
        while queue:
            cell, d = queue.popleft()
            if cell == self.hole:
                return d
            for dr, dc in STEPS:
                nxt = (cell[0] + dr, cell[1] + dc)
                if nxt not in seen and self.free(nxt, occupied):
                    seen.add(nxt)
                    queue.append((nxt, d + 1))
        return None


def choose(pos, me):
    """The legal move whose new head is nearest the hole; the first of equals."""

    def distance(move):
        worm, turn = move
        head = pos.target(worm, turn)
        tail = pos.worms[worm][1][2]
        d = pos.distance(head, pos.occupied() - {tail} | {head})
        return float("inf") if d is None else d

    return min(pos.legal(me), key=distance)


def main():
    words = (word for line in sys.stdin for word in line.split())
    word = lambda: next(words)
    number = lambda: int(word())
    assert (word(), word()) == ("botbox-worms", "1"), "unknown protocol"
    me = rows = worms = None
    while True:
        key = word()
        if key == "player":
            me = number()
        elif key == "size":
            number(), number()
        elif key == "turns":
            number()
        elif key == "row":
            rows = (rows or []) + [word()]
        elif key == "worms":
            worms = {}
            for _ in range(number()):
                assert word() == "worm"
                worm, _letter, player = number(), word(), number()
                cells = [(number(), number()) for _ in range(3)]
                worms[worm] = (player, cells)
        elif key == "start":
            break
    pos = Position(rows, worms)
    for key in words:
        if key == "opponent":
            what = word()
            if what != "pass":
                pos.play(int(what), word())
        elif key == "you":
            word()  # "pass": the host passed for us
        elif key == "go":
            worm, turn = choose(pos, me)
            pos.play(worm, turn)
            print(worm, turn, flush=True)


if __name__ == "__main__":
    main()
