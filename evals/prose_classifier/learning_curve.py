#!/usr/bin/env python3
"""Does more labelled text move the learned tier on unseen text? A learning
curve (experiment; nothing in CI runs it).

The model and features are train_eval.py's chosen ones (words + shapes,
C = 32, balanced class weight), fixed: nothing is chosen here. The test set
is fixed too: batches 19 and 20, which no round tuned on. The training set
is a random subset of whole development batches (the 20 batches
train_eval.py --test 19 20 --dev 16 17 18 develops on), from 2 batches to
all 20, several draws per size. Reported per size, as the mean over draws:

  * average precision of the pooled (entry, kind) scores (area under the
    precision-recall curve, threshold-free);
  * recall at precision 0.80 and at precision 0.60, with the threshold set
    on the test set itself (an oracle: the best any threshold could do, so
    an upper bound on what a shipped threshold would give).

Usage:
  python learning_curve.py --root REPO [--draws 8]
"""
import argparse
import random

import numpy as np
from sklearn.metrics import average_precision_score

import train_eval as te

CFG = dict(chars=False, shapes=True)
C, CW = 32.0, "balanced"
TEST = ["prose_corpus_heldout19.txt", "prose_corpus_heldout20.txt"]
DEV = te.DEV + [te.FINAL] + [f"prose_corpus_heldout{i}.txt" for i in (17, 18)]


def recall_at(y, s, p_min):
    """The best recall over thresholds whose precision is at least p_min."""
    order = np.argsort(-s)
    y = y[order]
    tp = np.cumsum(y)
    k = np.arange(1, len(y) + 1)
    ok = tp / k >= p_min
    return float(tp[ok].max() / y.sum()) if ok.any() else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=".")
    ap.add_argument("--draws", type=int, default=8)
    a = ap.parse_args()
    batches = {b: te.load(a.root, b) for b in DEV}
    test = [e for b in TEST for e in te.load(a.root, b)]
    Yt = te.targets(test).ravel()
    print(f"development: {sum(map(len, batches.values()))} entries in {len(DEV)} batches; "
          f"test: {len(test)} entries, {int(Yt.sum())} expected (entry, kind) pairs")
    print(f"{'batches':>7} {'entries':>8} {'avg precision':>14} {'recall@p0.80':>13} {'recall@p0.60':>13}")
    rng = random.Random(20261207)
    for n in (2, 4, 6, 8, 10, 12, 14, 16, 18, 20):
        rows = []
        for _ in range(a.draws if n < len(DEV) else 1):
            pick = rng.sample(DEV, n)
            train = [e for b in pick for e in batches[b]]
            X, _ = te.matrix(train + test, CFG)
            Xd, Xt = X[: len(train)], X[len(train):]
            Y = te.targets(train)
            if (Y.sum(axis=0) == 0).any():
                continue
            S = te.proba(te.fit(Xd, Y, C, CW), Xt).ravel()
            rows.append((len(train), average_precision_score(Yt, S),
                         recall_at(Yt, S, 0.80), recall_at(Yt, S, 0.60)))
        m = np.mean(np.array(rows), axis=0)
        print(f"{n:>7} {m[0]:>8.0f} {m[1]:>14.3f} {m[2]:>13.3f} {m[3]:>13.3f}")


if __name__ == "__main__":
    main()
