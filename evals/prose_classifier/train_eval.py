#!/usr/bin/env python3
"""A learned tier for the C12 prose check, measured (experiment; nothing in CI runs it).

One-vs-rest logistic regression over hashed, std-only-portable features, scored
per (entry, kind) pair as contract-prose/src/corpus.rs scores the rule reader.

Protocol (fixed before batch 16 was scored):
  * development batches: every labelled file in contract-prose/tests except
    prose_corpus_heldout16.txt, each file one group;
  * features, C, class weight and the per-kind thresholds are chosen by
    leave-one-batch-out (LOBO) over the development batches only;
  * then one model is trained on all development batches and batch 16 is
    scored once (--final).
Usage:
  python train_eval.py --root REPO --reader /tmp/reader_claims.jsonl [--final]
The reader's claims come from a throwaway test that prints corpus.rs::found()
for every entry (see README.md); without --reader the union is skipped.
"""
import argparse
import json
import re
import sys
from collections import defaultdict

import numpy as np
import scipy.sparse as sp
from joblib import Parallel, delayed
from sklearn.linear_model import LogisticRegression

KINDS = ["Length", "Range", "Items", "ClosedSet", "Format", "Pattern"]
FINAL = "prose_corpus_heldout16.txt"
DEV = (
    ["prose_corpus.txt", "prose_corpus_real.txt", "prose_corpus_heldout.txt"]
    + [f"prose_corpus_heldout{i}.txt" for i in list(range(2, 10)) + [12, 13, 14, 15]]
    + ["prose_corpus_tuning10.txt", "prose_corpus_tuning11.txt"]
)
BITS = 18


def load(root, name):
    cols = 3 if name == "prose_corpus.txt" else 4
    out = []
    with open(f"{root}/contract-prose/tests/{name}", encoding="utf-8") as f:
        for n, line in enumerate(f.read().split("\n")):
            if line.startswith("#") or not line.strip():
                continue
            c = line.split("\t", cols - 1)
            assert len(c) == cols, (name, n + 1)
            labels = set() if c[0].strip() == "NONE" else {k.strip() for k in c[0].split(",")}
            assert labels <= set(KINDS), (name, n + 1, labels)
            out.append(dict(batch=name, line=n + 1, labels=labels, ty=c[1].strip(), text=c[-1]))
    return out


# ---- features: each a string, hashed with FNV-1a 64 into 2^BITS buckets ----
WORD = re.compile(r"[a-z0-9_]+")
SHAPES = [
    ("quoted", re.compile(r"'[^'\s][^']{0,40}'|\"[^\"\s][^\"]{0,40}\"")),
    ("backtick", re.compile(r"`[^`]+`")),
    ("number", re.compile(r"(?<![A-Za-z])\d+(?:\.\d+)?")),
    ("span", re.compile(r"\d+(?:\.\d+)?\s*(?:-|–|\.\.|to)\s*\d+")),
    ("allcaps", re.compile(r"\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)*\b")),
    ("ident", re.compile(r"\b[a-z][a-z0-9]*_[a-z0-9_]+\b")),
    ("slashlist", re.compile(r"\b\w+/\w+(?:/\w+)+\b")),
    ("regexy", re.compile(r"\^|\$\b|\\d|\\w|\[a-z|\[0-9|\{\d+,?\d*\}")),
    ("example", re.compile(r"\be\.g\.|\bexample|\bsuch as|\blike\b", re.I)),
]


def features(text, ty, cfg):
    low = text.lower()
    words = WORD.findall(low)
    f = [f"t:{ty}"]
    f += [f"w:{w}" for w in words]
    f += [f"b:{a} {b}" for a, b in zip(words, words[1:])]
    if cfg["chars"]:
        for w in words:
            p = f" {w} "
            for n in (3, 4, 5):
                f += [f"c:{p[i:i + n]}" for i in range(len(p) - n + 1)]
    if cfg["shapes"]:
        for name, rx in SHAPES:
            k = len(rx.findall(text))
            if k:
                f.append(f"s:{name}")
                if k >= 2:
                    f.append(f"s:{name}2")
                f.append(f"s:{name}|t:{ty}")
    return f


def fnv(s):
    h = 0xCBF29CE484222325
    for b in s.encode("utf-8"):
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def matrix(entries, cfg):
    rows, cols = [], []
    nfeat = []
    for i, e in enumerate(entries):
        fs = set(features(e["text"], e["ty"], cfg))
        nfeat.append(len(fs))
        idx = {fnv(s) & ((1 << BITS) - 1) for s in fs}
        rows += [i] * len(idx)
        cols += list(idx)
    X = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(entries), 1 << BITS))
    # binary presence, L2-normalised rows (a port divides by sqrt(count of distinct buckets))
    norms = np.sqrt(np.asarray(X.sum(axis=1)).ravel())
    X = sp.diags(1.0 / np.maximum(norms, 1)) @ X
    return X.tocsr(), nfeat


def targets(entries):
    return np.array([[k in e["labels"] for k in KINDS] for e in entries], dtype=int)


def fit(X, Y, C, cw):
    models = []
    for k in range(len(KINDS)):
        m = LogisticRegression(C=C, class_weight=cw, solver="liblinear", dual=True, max_iter=5000)
        m.fit(X, Y[:, k])
        models.append(m)
    return models


def proba(models, X):
    return np.column_stack([m.predict_proba(X)[:, 1] for m in models])


def lobo(entries, groups, cfg, C, cw):
    X, _ = matrix(entries, cfg)
    Y = targets(entries)
    P = np.zeros(Y.shape)
    g = np.array([e["batch"] for e in entries])
    def one(b):
        te = g == b
        return te, proba(fit(X[~te], Y[~te], C, cw), X[te])

    for te, p in Parallel(n_jobs=2)(delayed(one)(b) for b in groups):
        P[te] = p
    return P, Y


def score(Y, Pred):
    tp = (Y & Pred).sum(axis=0)
    fp = ((1 - Y) & Pred).sum(axis=0)
    fn = (Y & (1 - Pred)).sum(axis=0)
    return tp, fp, fn


def pr(tp, fp, fn):
    t, f, n = int(np.sum(tp)), int(np.sum(fp)), int(np.sum(fn))
    return t, f, n, t / max(t + f, 1), t / max(t + n, 1)


def fmt(name, tp, fp, fn):
    t, f, n, p, r = pr(tp, fp, fn)
    return f"{name:32s} tp {t:4d} fp {f:4d} fn {n:4d}  precision {p:.3f}  recall {r:.3f}"


def thresholds(P, Y, mode):
    """Per kind, on pooled out-of-fold probabilities: 'f1' maximises F1; 'r85'
    takes the highest threshold whose recall is at least 0.85; 'p90' the lowest
    whose precision is at least 0.90 (1.0, the kind off, when none is)."""
    th = []
    for k in range(len(KINDS)):
        best, bt = -1, (1.0 if mode == "p90" else 0.5)
        for t in np.arange(0.02, 0.96, 0.01):
            pred = P[:, k] >= t
            tp = int((pred & (Y[:, k] == 1)).sum())
            fp = int((pred & (Y[:, k] == 0)).sum())
            fn = int((~pred & (Y[:, k] == 1)).sum())
            if mode == "f1":
                v = 2 * tp / max(2 * tp + fp + fn, 1)
                if v > best:
                    best, bt = v, t
            elif mode == "p90":
                if tp + fp and tp / (tp + fp) >= 0.90 and bt == 1.0:
                    bt = t
            else:
                if tp / max(tp + fn, 1) >= 0.85:
                    bt = t
        th.append(round(float(bt), 2))
    return np.array(th)


def reader_claims(path):
    d = {}
    with open(path) as f:
        for line in f:
            j = json.loads(line)
            d[(j["batch"], j["line"])] = set(j["kinds"])
    return d


def per_batch(entries, Y, Pred, groups, title):
    print(title)
    g = np.array([e["batch"] for e in entries])
    for b in groups:
        m = g == b
        print("  " + fmt(b, *score(Y[m], Pred[m])))
    tp, fp, fn = score(Y, Pred)
    print("  " + fmt("TOTAL", tp, fp, fn))
    print("  per kind: " + "; ".join(f"{k} {tp[i]}/{fp[i]}/{fn[i]}" for i, k in enumerate(KINDS)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=".")
    ap.add_argument("--reader")
    ap.add_argument("--final", action="store_true", help="train on all development batches, score batch 16 once")
    ap.add_argument("--test", nargs="+", metavar="FILE",
                    help="score these batches once instead of batch 16, which joins the development batches")
    ap.add_argument("--dev", nargs="+", metavar="FILE", default=[],
                    help="with --test: more development batches (batches scored by an earlier --test run)")
    a = ap.parse_args()
    global DEV, FINAL
    if a.test:
        DEV = DEV + [FINAL] + a.dev
        FINAL = a.test
    dev = [e for b in DEV for e in load(a.root, b)]
    print(f"development entries: {len(dev)} in {len(DEV)} batches")
    reader = reader_claims(a.reader) if a.reader else None
    dev_texts = {e["text"] for e in dev}

    # ---- model selection by LOBO over the development batches only ----
    grid = []
    for cfgname, cfg in [
        ("words", dict(chars=False, shapes=False)),
        ("words+shapes", dict(chars=False, shapes=True)),
        ("words+chars+shapes", dict(chars=True, shapes=True)),
    ]:
        for C in (2.0, 8.0, 32.0):
            for cw in ("balanced",):
                P, Y = lobo(dev, DEV, cfg, C, cw)
                th = thresholds(P, Y, "f1")
                t, f, n, p, r = pr(*score(Y, (P >= th).astype(int)))
                f1 = 2 * t / (2 * t + f + n)
                grid.append((f1, cfgname, cfg, C, cw, th, p, r))
                print(f"LOBO dev  {cfgname:20s} C={C:<5} cw={str(cw):9s} F1 {f1:.3f} precision {p:.3f} recall {r:.3f}  (F1 thresholds, in-sample)")
    grid.sort(key=lambda x: -x[0])
    f1, cfgname, cfg, C, cw, _, _, _ = grid[0]
    print(f"\nCHOSEN: features={cfgname} C={C} class_weight={cw}")
    P, Y = lobo(dev, DEV, cfg, C, cw)
    ths = {m: thresholds(P, Y, m) for m in ("f1", "r85", "p90")}
    for m, th in ths.items():
        print(f"thresholds ({m}): " + ", ".join(f"{k} {t:.2f}" for k, t in zip(KINDS, th)))
    RD = None
    if reader:
        RD = np.array([[k in reader[(e["batch"], e["line"])] for k in KINDS] for e in dev], dtype=int)
        per_batch(dev, Y, RD, DEV, "\nRULE READER alone on development batches (tuned on them: in-sample)")
    for m, th in ths.items():
        Pred = (P >= th).astype(int)
        per_batch(dev, Y, Pred, DEV, f"\nCLASSIFIER, LOBO, thresholds {m}")
        if RD is not None:
            per_batch(dev, Y, Pred | RD, DEV, f"\nUNION (reader OR classifier), LOBO, thresholds {m} (reader tuned on these batches)")

    if not a.final:
        return
    # ---- batch 16, once ----
    finals = FINAL if isinstance(FINAL, list) else [FINAL]
    test = [e for b in finals for e in load(a.root, b)]
    dup = sum(e["text"] in dev_texts for e in test)
    print(f"\n==== {', '.join(finals)} (scored once): {len(test)} entries, {dup} texts also in a development batch")
    X, nfeat = matrix(dev + test, cfg)
    Xd, Xt = X[: len(dev)], X[len(dev):]
    models = fit(Xd, Y, C, cw)
    Pt = proba(models, Xt)
    Yt = targets(test)
    nz = sum(int(np.count_nonzero(m.coef_)) for m in models)
    print(f"model: {nz} non-zero weights over {len(KINDS)} kinds (+{len(KINDS)} intercepts); "
          f"features per text: mean {np.mean(nfeat):.0f}, max {max(nfeat)} (development + batch 16)")
    RT = None
    if reader:
        RT = np.array([[k in reader[(e["batch"], e["line"])] for k in KINDS] for e in test], dtype=int)
        print(fmt("reader alone", *score(Yt, RT)))
    for m, th in ths.items():
        Pred = (Pt >= th).astype(int)
        rows = [("classifier " + m, Pred)]
        if RT is not None:
            rows.append(("union " + m, Pred | RT))
        for name, Pr in rows:
            tp, fp, fn = score(Yt, Pr)
            print(fmt(name, tp, fp, fn))
            for k, kind in enumerate(KINDS):
                print(f"    {kind:10s} tp {tp[k]:3d} fp {fp[k]:3d} fn {fn[k]:3d}")
    if RT is not None:
        tp, fp, fn = score(Yt, RT)
        print("reader alone per kind:")
        for k, kind in enumerate(KINDS):
            print(f"    {kind:10s} tp {tp[k]:3d} fp {fp[k]:3d} fn {fn[k]:3d}")


if __name__ == "__main__":
    sys.exit(main())
