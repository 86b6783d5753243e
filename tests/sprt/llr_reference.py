#!/usr/bin/env python3
"""Reference log-likelihood ratios for the pentanomial SPRT, computed without botbox's algorithm.

`host/src/tournament/sprt.rs` finds the constrained maximum-likelihood distributions by bisection on
the Lagrange condition (logistic) and by a fixed-point iteration (normalized, after Van den Bergh).
This script gets them another way, in plain Python (no numpy or scipy needed):

- every constraint is written as expectations that are zero, E_p[g] = 0, and the best p is found by
  Newton's method on the convex dual (empirical likelihood): p_i = phat_i / (1 + lambda . g_i);
- logistic Elo: one constraint, E[a - s] = 0, with s the expected score of the Elo;
- normalized Elo: (mu - 1/2) / sigma = t is not linear, so the script fixes c = mu - 1/2, which
  makes it two linear constraints (E[a - 1/2] = c, E[(a - 1/2)^2] = c^2 (1 + 1/t^2)), solves those
  for every c on a fine grid and refines the best c by golden-section search.

The LLR is N * sum_i phat_i (ln p1_i - ln p0_i), with zero counts taken as 1e-3 (as fastchess and
fishtest do) and N the sum of the counts so regularized. Run `python3 tests/sprt/llr_reference.py`;
the unit test `tournament::sprt::tests::llr_matches_an_independent_computation` holds its output.
"""
import math

SCORES = [0.0, 0.25, 0.5, 0.75, 1.0]
NELO_DIVIDED_BY_NT = 800 / math.log(10)


def dual(phat, g):
    """The p maximizing sum phat log p subject to E_p[g] = 0 (g: one vector per outcome)."""
    k = len(g[0])
    lam = [0.0] * k

    def value(l):
        total = 0.0
        for w, gi in zip(phat, g):
            d = 1 + sum(a * b for a, b in zip(l, gi))
            if d <= 0:
                return math.inf
            total -= w * math.log(d)
        return total

    for _ in range(500):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for w, gi in zip(phat, g):
            d = 1 + sum(a * b for a, b in zip(lam, gi))
            for r in range(k):
                grad[r] -= w * gi[r] / d
                for c in range(k):
                    hess[r][c] += w * gi[r] * gi[c] / (d * d)
        if max(abs(x) for x in grad) < 1e-15:
            break
        step = solve(hess, [-x for x in grad])
        t, now = 1.0, value(lam)
        while t > 1e-20:
            cand = [a + t * b for a, b in zip(lam, step)]
            if value(cand) <= now:
                lam = cand
                break
            t /= 2
        else:
            break
    return [w / (1 + sum(a * b for a, b in zip(lam, gi))) for w, gi in zip(phat, g)]


def solve(m, b):
    """m x = b for a 1x1 or 2x2 matrix."""
    if len(b) == 1:
        return [b[0] / m[0][0]]
    det = m[0][0] * m[1][1] - m[0][1] * m[1][0]
    return [(b[0] * m[1][1] - b[1] * m[0][1]) / det, (m[0][0] * b[1] - m[1][0] * b[0]) / det]


def loglik(phat, p):
    return sum(w * math.log(q) for w, q in zip(phat, p))


def logistic_mle(phat, elo):
    s = 1 / (1 + 10 ** (-elo / 400))
    return dual(phat, [[a - s] for a in SCORES])


def normalized_mle(phat, nelo):
    t = math.sqrt(2) * nelo / NELO_DIVIDED_BY_NT  # pentanomial: the t of a pair of games
    if t == 0:
        return dual(phat, [[a - 0.5] for a in SCORES])

    def at(c):
        q = c * c * (1 + 1 / (t * t))
        p = dual(phat, [[a - 0.5 - c, (a - 0.5) ** 2 - q] for a in SCORES])
        return loglik(phat, p), p

    # |c| < 1/2 / sqrt(1 + 1/t^2) keeps E[(a - 1/2)^2] below its largest value, 1/4.
    top = 0.5 / math.sqrt(1 + 1 / (t * t)) * math.copysign(1, t)
    # The best c can sit right at that limit (all the mass at the two extremes), so the grid
    # crowds towards it.
    grid = sorted([top * i / 400 for i in range(1, 400)] + [top * (1 - 10.0**-k) for k in range(3, 15)])
    best = max(range(len(grid)), key=lambda i: at(grid[i])[0])
    lo, hi = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    golden = (math.sqrt(5) - 1) / 2
    for _ in range(200):
        x1, x2 = hi - golden * (hi - lo), lo + golden * (hi - lo)
        if at(x1)[0] > at(x2)[0]:
            hi = x2
        else:
            lo = x1
    return at((lo + hi) / 2)[1]


def llr(counts, elo0, elo1, model):
    """counts: pairs scoring 0, 1/2, 1, 3/2, 2 (LL, LD, DD+WL, WD, WW)."""
    reg = [c if c > 0 else 1e-3 for c in counts]
    n = sum(reg)
    phat = [c / n for c in reg]
    mle = logistic_mle if model == "logistic" else normalized_mle
    p0, p1 = mle(phat, elo0), mle(phat, elo1)
    return n * sum(w * (math.log(b) - math.log(a)) for w, a, b in zip(phat, p0, p1))


CASES = [
    # (LL, LD, DD+WL, WD, WW), elo0, elo1, model
    ([0, 0, 0, 0, 0], 0, 5, "normalized"),
    ([3, 10, 20, 15, 24], 0, 50, "normalized"),
    ([24, 15, 20, 10, 3], 0, 50, "normalized"),
    ([30, 120, 200, 118, 32], 0, 50, "normalized"),
    # fastchess's own unit tests (app/tests/sprt_test.cpp), which it checks to 1%: 2.25, 3.01,
    # 111.82 (normalized) and -3.07, -4.98 (logistic).
    ([365, 16618, 36229, 16974, 390], 0, 2, "normalized"),
    ([127, 4883, 10712, 5150, 104], -1.75, 0.25, "normalized"),
    ([0, 0, 0, 0, 5550], 0, 5, "normalized"),
    ([3, 10, 20, 15, 24], 0, 50, "logistic"),
    ([30, 120, 200, 118, 32], 0, 50, "logistic"),
    ([223, 9863, 21279, 10037, 246], 0.5, 2.5, "logistic"),
    ([871, 26175, 55983, 26678, 821], 0, 2, "logistic"),
    ([5, 0, 7, 0, 2], -10, 20, "logistic"),
]

if __name__ == "__main__":
    for counts, elo0, elo1, model in CASES:
        print(f"{counts} elo0={elo0} elo1={elo1} model={model}: {llr(counts, elo0, elo1, model):.6f}")
