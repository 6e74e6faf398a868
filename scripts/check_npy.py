#!/usr/bin/env python3
"""Checks the drivers' --dump folders with numpy, independently of the harness (numpy, otherwise
the standard library).

  check_npy.py DIR      DIR is one dump folder (it holds meta.json) or a folder holding them

A driver run with --dump DIR writes, per checked kernel, DIR/<variant>_<M>x<N>x<K>/ with A.npy,
B.npy (float16 for FP16 variants, the values the kernel read; for BF16 variants their float32
widening, numpy having no bfloat16: each value's low 16 bits are zero), C_before.npy (the C the
kernel saw: NaN when beta = 0), C.npy (its output), ref.npy (the harness's FP64 reference) and
meta.json (shape, alpha, beta, precision, the harness's rtol, atol and verdict). For each one this
recomputes, in float64,

    expected = alpha * A @ B + beta * C_before        (the beta term only when beta != 0)

and requires
  - ref.npy to agree with it to 1e-12 relative to 1 + |ref| (the harness's reference is right),
  - the harness's rtol and atol to be the tolerance rule's (common/precision.h):
        rtol = 16 * (u_in + 2^-24 * sqrt(K)),  u_in = 2^-11 for tf32 else 0,  atol = rtol * rms
  - C.npy to pass |got - expected| <= atol + rtol * |expected|, element by element, NaN and Inf
    never passing, with numpy's assert_allclose report when it does not,
  - that verdict to be the harness's.
Exit 0 when every dump passes and agrees with the harness, 1 otherwise, 77 without numpy.
"""
import json
import math
import os
import sys

REF_AGREEMENT = 1e-12  # the CPU and DGEMM references agree to this (common/README.md)
TOL_AGREEMENT = 1e-9   # rms over the same values, summed in another order


def find_dumps(root):
    if os.path.isfile(os.path.join(root, "meta.json")):
        return [root]
    found = []
    for folder, subfolders, files in os.walk(root):
        subfolders.sort()
        if "meta.json" in files:
            found.append(folder)
    return sorted(found)


def tolerance(precision, K, ref_rms):
    u_in = 2.0 ** -11 if precision == "tf32" else 0.0
    rtol = 16.0 * (u_in + 2.0 ** -24 * math.sqrt(max(K, 1)))
    return rtol, rtol * ref_rms


def allclose(np, got, ref, rtol, atol):
    """common/compare.cpp's allclose, vectorized: the same counts, maxima and first mismatch."""
    finite = np.isfinite(got) & np.isfinite(ref)
    diff = np.abs(got - ref)
    bound = atol + rtol * np.abs(ref)
    ok = finite & (diff <= bound)
    r = {"total": got.size, "mismatches": int(np.count_nonzero(~ok))}
    d = diff[finite]
    r["max_abs"] = float(d.max()) if d.size else 0.0
    nonzero = finite & (ref != 0)
    r["max_rel"] = float((diff[nonzero] / np.abs(ref[nonzero])).max()) if nonzero.any() else 0.0
    if not finite.all():
        r["worst_ratio"] = math.inf
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(bound > 0, diff / np.where(bound > 0, bound, 1.0),
                             np.where(diff > 0, math.inf, 0.0))
        r["worst_ratio"] = float(ratio.max()) if ratio.size else 0.0
    bad = np.flatnonzero(~ok.ravel())
    if bad.size:
        i = int(bad[0])
        r["first"] = (i, float(got.ravel()[i]), float(ref.ravel()[i]))
    return r


def report(r, rtol, atol, cols):
    """The harness's failure report (common/compare.cpp), in numpy's assert_allclose layout."""
    lines = [
        f"Not equal to tolerance rtol={rtol:.3g}, atol={atol:.3g} (|got - ref| <= atol + rtol*|ref|)",
        f"Mismatched elements: {r['mismatches']} / {r['total']} "
        f"({100.0 * r['mismatches'] / r['total'] if r['total'] else 0.0:.3g}%)",
        f"Max absolute difference: {r['max_abs']:.6g}",
        f"Max relative difference: {r['max_rel']:.6g}",
    ]
    if "first" in r:
        i, got, ref = r["first"]
        c = max(cols, 1)
        lines.append(f"First mismatch at C[{i // c}, {i % c}]: got {got:.9g}, expected {ref:.9g}")
    return "\n".join(lines)


def load(np, folder, name, dtype, shape):
    path = os.path.join(folder, name)
    a = np.load(path, allow_pickle=False)
    if a.dtype != np.dtype(dtype) or a.shape != shape:
        raise ValueError(f"{path} is {a.dtype} {a.shape}; expected {np.dtype(dtype)} {shape}")
    return a


def check(np, folder):
    """Returns (ok, the lines to print) for one dump folder."""
    name = os.path.basename(os.path.normpath(folder))
    try:
        with open(os.path.join(folder, "meta.json")) as f:
            meta = json.load(f)
        M, N, K = (int(meta[k]) for k in ("M", "N", "K"))
        alpha, beta = float(meta["alpha"]), float(meta["beta"])
        precision, verdict = meta["precision"], meta["verdict"]
        if precision not in ("fp32", "tf32", "fp16", "bf16"):
            raise ValueError(f"unknown precision '{precision}' in meta.json")
        inputs = "float16" if precision == "fp16" else "float32"
        A = load(np, folder, "A.npy", inputs, (M, K))
        B = load(np, folder, "B.npy", inputs, (K, N))
        for label, m in (("A.npy", A), ("B.npy", B)):
            # BF16 is FP32's top 16 bits: a value with any of the low 16 set is not what a BF16
            # kernel read (the dump holds the unrounded inputs, say).
            if precision == "bf16" and np.any(m.view(np.uint32) & 0xFFFF):
                raise ValueError(f"{label} holds values that are not BF16 (low 16 bits set)")
        C_before = load(np, folder, "C_before.npy", "float32", (M, N))
        C = load(np, folder, "C.npy", "float32", (M, N))
        ref = load(np, folder, "ref.npy", "float64", (M, N))
    except (OSError, ValueError, KeyError, TypeError) as e:
        return False, [f"{name}: cannot read the dump: {e}"]

    expected = alpha * (A.astype(np.float64) @ B.astype(np.float64))
    if beta != 0.0:  # beta == 0: C_before is NaN by design and must not be read
        expected = expected + beta * C_before.astype(np.float64)

    head = (f"{name}: {precision} M={M} N={N} K={K} alpha={alpha:g} beta={beta:g} "
            f"({meta.get('chapter', '?')}, reference {meta.get('reference', '?')})")
    lines, ok = [head], True

    ref_err = np.abs(ref - expected) / (1.0 + np.abs(ref))
    ref_bad = int(np.count_nonzero(~(ref_err <= REF_AGREEMENT)))  # NaN counts as bad
    worst_ref = float(np.nanmax(ref_err)) if ref_err.size else 0.0
    if ref_bad:
        ok = False
        lines.append(f"  ref.npy disagrees with numpy's float64 recomputation at {ref_bad} of "
                     f"{ref.size} elements (worst {worst_ref:.3g} relative to 1+|ref|, allowed "
                     f"{REF_AGREEMENT:g})")
    else:
        lines.append(f"  ref.npy agrees with numpy's float64 recomputation: worst "
                     f"{worst_ref:.3g} relative to 1+|ref|")

    finite = expected[np.isfinite(expected)]
    rms = float(np.sqrt(np.mean(finite * finite))) if finite.size else 0.0
    rtol, atol = tolerance(precision, K, rms)
    for key, mine in (("rtol", rtol), ("atol", atol)):
        theirs = meta.get(key)
        if theirs is None or abs(theirs - mine) > TOL_AGREEMENT * abs(mine):
            ok = False
            lines.append(f"  the harness's {key} {theirs} is not the tolerance rule's {mine:.9g}")

    r = allclose(np, C.astype(np.float64), expected, rtol, atol)
    mine = "PASS" if r["mismatches"] == 0 else "FAIL"
    theirs_ratio = meta.get("worst_ratio")
    theirs_ratio = "inf" if theirs_ratio is None else f"{theirs_ratio:.3g}"
    lines.append(f"  C: {mine}, worst err/tol {r['worst_ratio']:.3g} (the harness: {verdict}, "
                 f"{theirs_ratio})")
    if mine == "FAIL":
        ok = False
        lines.append(report(r, rtol, atol, N))
    if mine != verdict:
        ok = False
        lines.append(f"  numpy says {mine} but the harness said {verdict}")
    return ok, lines


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) != 2:
        print("usage: check_npy.py DIR  (a --dump folder of a chapter driver)", file=sys.stderr)
        return 2
    try:
        import numpy as np
    except ImportError:
        print("check_npy.py: numpy is not installed (pip install numpy), so nothing was checked.",
              file=sys.stderr)
        return 77
    root = argv[1]
    if not os.path.isdir(root):
        print(f"check_npy.py: '{root}' is not a folder.", file=sys.stderr)
        return 1
    dumps = find_dumps(root)
    if not dumps:
        print(f"check_npy.py: no dump (a folder with meta.json) under '{root}'.", file=sys.stderr)
        return 1
    failed = 0
    for folder in dumps:
        ok, lines = check(np, folder)
        print("\n".join(lines))
        failed += not ok
    sys.stdout.flush()  # the verdict on stderr after the reports, also when both go to a pipe
    if failed:
        print(f"check_npy.py: {failed} of {len(dumps)} dumps failed the numpy cross-check.",
              file=sys.stderr)
        return 1
    print(f"check_npy.py: all {len(dumps)} dumps pass and agree with the harness.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
