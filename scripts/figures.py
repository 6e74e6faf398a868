#!/usr/bin/env python3
"""Each chapter's figure.png, drawn from the default parameters its driver binary prints.

usage: python3 scripts/figures.py [--build DIR] [CHAPTER ...]  draw NN_*/figure.png (every chapter, or those named)
                                                               and rewrite scripts/figures.json
       python3 scripts/figures.py --check [--build DIR]       exit 1 naming each stale figure (standard library only)

`DIR/NN_x/NN_x --params` (default DIR: build) prints a chapter's variants as JSON; its figure is drawn from the
"default" ones (one per precision) and the kernels' index arithmetic mirrored below (kernel.cu is never read), recorded
as a list of shapes and texts in pure Python, then replayed through matplotlib. figures.json keeps per chapter the
parameters and the sha256 of them, that list and FIGURE_VERSION; --check records the drawings again: a cosmetic kernel
edit passes, a changed default (or drawing) fails. A chapter folder (NN_*/ with a kernel.cu) without an entry in
FIGURES (at the end) or in figures.json only gets a note.
"""
import argparse, colorsys, glob, hashlib, json, os, subprocess, sys, textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "scripts", "figures.json")
FIGURE_VERSION = 4  # bump to force a redraw
REGEN, BUILD_FIRST = "run python3 scripts/figures.py", "build the chapters first (scripts/test.sh) or pass --build DIR"

class Fail(Exception):  # a sentence for the user, exit 1
    pass

# --- The kernels' arithmetic in Python, each next to the kernel code it mirrors ---------------------------------------
# A kernel that changes that code (rather than a parameter) is not noticed: its figure goes on showing this.

WARP = BANKS = 32
LINE, SECTOR, CHUNK, GROUPS = 32, 8, 16, 8  # floats per 128-byte line, per 32-byte sector; 16-byte chunks, 8 per line
SIZE, MMA_K = {"float": 4, "__half": 2}, {"float": 8, "__half": 16}  # sizeof(T); 08-10's MMA k: TF32 8, FP16 16

def wavefronts(addrs, unit=1, n=BANKS):  # of one access: the most distinct words (or 16-byte chunks) in one bank
    return max(len({a // unit for a in addrs if a // unit % n == g}) for g in {a // unit % n for a in addrs})

thread_rc = lambda tid, BN, TN: divmod(tid, BN // TN)  # 03-07: thread_row = tid / (BN / TN), thread_col = tid % ..
warp_rc = lambda w, BN, WN: divmod(w, BN // WN)  # 08-10: warp_row = warp_id / (BN / WN), warp_col = warp_id % ..

def add(ev, t, dur, *what):  # a timeline event [*what, start, end]; returns its end
    ev.append([*what, t, t + dur])
    return t + dur

def double_buffer(BK, TM, TN, early, n):
    """07, schematic (load latency 4, a k-tile's FMAs BK * TM * TN / 128, a store .6, a barrier .4): 06's loop (load,
    store, barrier, FMAs, barrier) and 07's: load_tile(0), store_tile(0), barrier; per tile the loads of t + 1 issued,
    the FMAs of t, the store into the other stage, one barrier (EARLY_BARRIER: before the last k step's FMAs)"""
    C, L, S, B = BK * TM * TN / 128, 4.0, .6, .4
    one, two, t, last = [], [], 0.0, C / BK if early else 0.0
    for k in range(n):
        for kind, dur in (("load", L), ("store", S), ("barrier", B), ("fma", C), ("barrier", B)):
            t = add(one, t, dur, kind, k)
    t = add(two, add(two, add(two, 0.0, L, "load", 0), S, "store", 0), B, "barrier", 0)
    for k in range(n):
        end = add(two, t, C - last, "fma", k)
        if k + 1 < n:
            add(two, t, L, "load", k + 1)
            end = add(two, max(end, t + L), S, "store", k + 1)
        t = add(two, end, B, "barrier", k)
        t = add(two, t, last, "fma", k) if last else t
    return one, two, (L, C, S, B)

def wmma_schedule(steps, early, n=4):
    """08's k-tile loop in program order, [kind, tile, stage, start, end] (an MMA step 2, a store 1.6, a barrier .35,
    the first load 2.4): load, store_tile(0), barrier; per tile the next tile's load is issued, the k steps run
    mma_sync from `stage`; publish_next (store into stage ^ 1, barrier) follows the last step (EARLY_BARRIER: before)"""
    ev = []
    t = add(ev, add(ev, add(ev, 0, 2.4, "load", 0, None), 1.6, "store", 0, 0), .35, "barrier", None, None)
    for k in range(n):
        issued = t
        for step in range(steps + 1 - early):
            if step == steps - early:  # publish_next
                if k + 1 < n:
                    add(ev, issued, t - issued, "load", k + 1, None)
                    t = add(ev, t, 1.6, "store", k + 1, k % 2 ^ 1)
                t = add(ev, t, .35, "barrier", None, None)
            t = add(ev, t, 2.0, "mma", k, k % 2) if step < steps else t
    return ev

def a_at(row, col, size, BK, swz):  # 09-10 a_at (stage 0, bytes): (row * BK + a_chunk(row, col / V) * V) * sizeof(T),
    V, RC = CHUNK // size, BK * size // CHUNK  # a_chunk = SWIZZLE ? chunk ^ (row / (8 / RC)) % RC : chunk
    return (row * BK + (col // V ^ (row // (8 // RC)) % RC if swz else col // V) * V) * size

def b_at(row, col, size, BN, swz):  # 09-10 b_at: (row * BN + b_chunk(row, col / V) * V) * sizeof(T), b_chunk =
    V, c = CHUNK // size, col // (CHUNK // size)  # SWIZZLE ? (FP16: chunk ^ row % 8, TF32: chunk ^ row % 4 * 2) : chunk
    return (row * BN + ((c ^ row % 8 if size == 2 else c ^ row % 4 * 2) if swz else c) * V) * size

def mma_model(q):
    """09-10, one precision: per layout the worst shared-memory phase of any warp, k step s, fragment (A: ldmatrix x4,
    lane l a row of matrix l / 8, a_at(warp_row * WM + l % 16, s * MMA_K + l / 16 * V) + i * 16 * BK * sizeof(T); B:
    FP16 ldmatrix.trans x4, b_at(l % 16, warp_col * WN + j * 16 + l / 16 * 8) + s * 16 * BN * sizeof(T); TF32 two word
    loads, b_at(l % 4, col) + col % 4 * 4 + (s * 8 [+ 4]) * BN * sizeof(T), col = warp_col * WN + j * 8 + l / 4), the
    logical chunk at each chunk of 8 lines of A, and the (row, chunk, bank group) lanes 0-7 of warp 0 read"""
    T, BM, BN, BK, WM, WN = (q[k] for k in ("T", "BM", "BN", "BK", "WM", "WN"))
    size, K = SIZE[T], MMA_K[T]
    if BK % K or WM % 16 or WN % 16 or not 32 <= BK * size <= 128 or BN * size < 128:
        raise ValueError("the kernel's static_asserts")
    V, RC, steps, FM, FN = CHUNK // size, BK * size // CHUNK, BK // K, WM // 16, WN // 8
    lda = lambda l, wr, s, i, z: a_at(wr * WM + l % 16, s * K + l // 16 * V, size, BK, z) + i * 16 * BK * size
    col = lambda l, wc, j: wc * WN + j * 8 + l // 4
    ldb = lambda l, wc, s, j, z: [b_at(l % 16, wc * WN + j * 16 + l // 16 * 8, size, BN, z) + s * 16 * BN * size] \
        if size == 2 else [b_at(l % 4, col(l, wc, j), size, BN, z) + col(l, wc, j) % 4 * 4 + h * BN * size
                           for h in (s * 8, s * 8 + 4)]
    out = {"RC": RC, "FM": FM, "FN": FN, "K": K, "warps": [warp_rc(w, BN, WN) for w in range(BM // WM * (BN // WN))]}
    for key, z in (("swizzled", 1), ("plain", 0)):
        bl = [[ldb(l, wc, s, j, z) for l in range(WARP)] for wc in range(BN // WN) for s in range(steps)
              for j in range(FN // 2 if size == 2 else FN)]
        out[key] = {"A": max(wavefronts([lda(l, wr, s, i, z) for l in range(8 * f, 8 * f + 8)], CHUNK, GROUPS)
                             for wr in range(BM // WM) for s in range(steps) for i in range(FM) for f in range(4)),
                    "B": max(wavefronts([x[0] for x in ls[8 * f:8 * f + 8]], CHUNK, GROUPS) for ls in bl
                             for f in range(4)) if size == 2 else
                    max(wavefronts([x[h] // 4 for x in ls]) for ls in bl for h in range(2)),
                    "layout": [[c for p in range(RC) for c in range(RC) if a_at(r, c * V, size, BK, z) // CHUNK % RC
                                == p] for r in range(min(64 // RC, BM))],
                    "phase": [[x // (BK * size), x % (BK * size) // CHUNK, x // CHUNK % GROUPS]
                              for x in (lda(l, 0, 0, 0, z) for l in range(8))]}
    return out

def cp_async_ring(S, n=6):
    """10's ring, per column (the prologue, iterations 0 .. n - 1) and stage: [tile, state]. The prologue copies tiles
    0 .. S - 2; iteration t computes stage t % S and issues tile t + S - 1 into the stage tile t - 1 left"""
    held = [s if s < S - 1 else None for s in range(S)]
    ring = [[[h, "empty" if h is None else "issued"] for h in held]]
    for t in range(n):
        held[(t + S - 1) % S] = t + S - 1
        ring.append([[h, "empty" if h is None else "compute" if h == t else "issued" if h == t + S - 1 else "flight"]
                     for h in held])
    return ring

def tile_of(unit, rows, cols, G):
    """14-16 tile_of<GROUP>: GROUP rows of (cluster) tiles at a time, down the columns: per_group = GROUP * cols,
    first = unit / per_group * GROUP, n = min(unit_rows - first, GROUP), row = first + in_group % n, col = in_group/n"""
    if not G:  # GROUP 0: row by row
        return divmod(unit, cols)
    first, in_group = unit // (G * cols) * G, unit % (G * cols)
    n = min(rows - first, G)
    return first + in_group % n, in_group // n

# --- Chapters, binaries, signatures, the manifest (standard library only) ---------------------------------------------
def stream_k(tiles, kt, fit, min_gain):
    """17's Schedule and rule (gemm_launch): (dp_tiles, ranges, begin(c)): whole tiles below dp_tiles, the k-tiles
    of the rest cut into equal ranges, range c from k-tile begin(c), laid end to end over those tiles"""
    idle = -(-tiles // fit) * fit - tiles
    if idle * kt <= min_gain * fit:
        return tiles, 0, lambda c: tiles * kt
    dp, ks = tiles // fit * fit, (tiles - tiles // fit * fit) * kt
    r = min(fit, max(1, ks // -(-kt // 4)))
    return dp, r, lambda c: dp * kt + min(c, r) * (ks // r) + min(c, ks % r)

def deferred(chunks, defer, ktile=2.0, write=.25):
    """18's epilogue, schematic: chunks 0 .. chunks - defer - 1 go through 2 buffers in the epilogue, each written
    once the TMA unit has sent the one before last (1 unit each, in order); the k-loop resumes after the last; chunk
    chunks - defer + d is written at the start of the next tile's k-tile 2d + 1. Events (row, start, end, chunk)"""
    ev, sent, free, t = [], [], [0.0, 0.0], 0.0
    for q in range(chunks - defer):
        t = max(t, free[q % 2])
        ev.append((1, t, t + write, q))
        t += write
        sent.append(max(t, sent[-1] if sent else 0.0) + 1)
        ev.append((2, sent[-1] - 1, sent[-1], q))
        free[q % 2] = sent[-1]
    resume = t
    for d in range(defer):
        q, a = chunks - defer + d, max(resume + (2 * d + 1) * ktile, free[(chunks - defer + d) % 2])
        ev.append((1, a, a + write, q))
        sent.append(max(a + write, sent[-1]) + 1)
        ev.append((2, sent[-1] - 1, sent[-1], q))
        free[q % 2] = sent[-1]
    return ev, resume

def chapters():
    return [os.path.basename(d[:-1]) for d in sorted(glob.glob(os.path.join(ROOT, "[0-9][0-9]_*", "")))
            if os.path.isfile(os.path.join(d, "kernel.cu"))]

def defaults(build, name):
    """{precision: params + threads + dynamic_smem} of the default variants `DIR/NN_x/NN_x --params` lists (BF16
    only where its parameters differ from FP16's)"""
    exe = os.path.join(build, name, name)
    if not os.path.isfile(exe):
        raise Fail(f"{exe} not found: {BUILD_FIRST}")
    try:
        run = subprocess.run([exe, "--params"], capture_output=True, text=True, timeout=120)
        P = {v["precision"]: dict(v["params"], threads=v["threads"], dynamic_smem=v["dynamic_smem"])
             for v in json.loads(run.stdout)["variants"] if v.get("default")} if not run.returncode else {}
        if not P:
            raise ValueError(f"exit {run.returncode} {run.stderr.strip()[-100:]}" if run.returncode else "no default")
        if P.get("bf16") == P.get("fp16"):  # 11-28: BF16's default is FP16's kernel on other inputs, one drawing
            P.pop("bf16", None)
        return P
    except (OSError, subprocess.SubprocessError, ValueError, TypeError, KeyError) as e:
        raise Fail(f"{exe} --params failed ({str(e).strip()}): {BUILD_FIRST}")

flat = lambda P: {(k if len(P) == 1 else f"{pr} {k}"): v for pr, q in P.items() for k, v in q.items()}

def describe(name, P):  # (the manifest entry, the recorded drawing)
    draw, H, title, *opts = FIGURES[name]  # opts: keywords for draw, what the parameters do not tell
    f = Fig(H, f"{name}: {title}", P)
    try:
        draw(f, P, **(opts[0] if opts else {}))
    except (ArithmeticError, KeyError, IndexError, ValueError) as e:
        raise Fail(f"{name}: its figure cannot be drawn from {flat(P)} ({e!r}); update scripts/figures.py")
    sig = hashlib.sha256(json.dumps([name, FIGURE_VERSION, P, f.ops], sort_keys=True).encode()).hexdigest()
    return {"figure": draw.__name__, "figure_version": FIGURE_VERSION, "params": P, "signature": sig}, f

def stale(name, old, new):  # what changed since the figure was drawn, or None
    a, b = flat(old["params"]), flat(new["params"])
    keys = [k for k in {**b, **a} if a.get(k) != b.get(k)]
    say = lambda d: ", ".join(f"{k}={d.get(k, 'none')}" for k in keys)
    return None if old["signature"] == new["signature"] else f"{name}: " + (
        f"figure drawn for {say(a)}, the default is now {say(b)}" if keys else "scripts/figures.py draws it differently"
        " now, from the same parameters") + f"; {REGEN}"

def check(build, committed):
    names, problems, entry = chapters(), [], "an entry in scripts/figures.py's FIGURES"
    for name in names:
        if name not in committed:  # a new chapter: a note, not a failure
            print(f"figures.py: note: {name} has no figure yet; " + (f"{REGEN} {name}" if name in FIGURES else
                                                                     f"give it {entry} to draw one"))
        elif name not in FIGURES:
            problems.append(f"{name}: has a figure in scripts/figures.json but no longer {entry}")
        else:
            png = os.path.isfile(os.path.join(ROOT, name, "figure.png"))
            problems.append(stale(name, committed[name], describe(name, defaults(build, name))[0]) if png else
                            f"{name}: figure.png is missing; {REGEN}")
    problems = [p for p in problems if p] + [f"{n}: in scripts/figures.json but no chapter folder; {REGEN}"
                                             for n in sorted(set(committed) - set(names))]
    print("\n".join(problems) or f"figures.py: all {len(set(committed) & set(names))} figures match the defaults")
    return 1 if problems else 0

def write(build, committed, wanted):
    for n in [n for n in chapters() if n not in FIGURES and (not wanted or n in wanted)]:
        print(f"figures.py: note: {n} has no figure yet; give it an entry in scripts/figures.py's FIGURES to draw one")
    recs = [(n, *describe(n, defaults(build, n))) for n in chapters() if n in FIGURES and (not wanted or n in wanted)]
    for name, rec, f in recs:  # every binary first, then the PNGs
        render(f, os.path.join(ROOT, name, "figure.png"))
    entries = {**committed, **{n: r for n, r, _ in recs}}
    entries = {n: entries[n] for n in chapters() if n in entries}
    with open(MANIFEST, "w", encoding="utf-8") as out:
        out.write(json.dumps({"about": "written by scripts/figures.py: the default parameters each figure.png was "
                              "drawn from, the signature of its drawing", "chapters": entries}, indent=1) + "\n")
    print(f"figures.py: drew {', '.join(n for n, _, _ in recs) or 'nothing'}; wrote scripts/figures.json")
    return 0

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1], usage=__doc__.split("\n\n")[1][7:])
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--build", default=os.path.relpath(os.path.join(ROOT, "build")))
    ap.add_argument("chapter", nargs="*")
    a = ap.parse_args([c.rstrip("/") for c in argv])
    if a.check and a.chapter or set(a.chapter) - set(chapters()):
        ap.error("--check takes no chapters" if a.check else f"no chapter {(set(a.chapter) - set(chapters())).pop()}")
    try:
        committed = json.load(open(MANIFEST, encoding="utf-8"))["chapters"] if os.path.isfile(MANIFEST) else {}
        return check(a.build, committed) if a.check else write(a.build, committed, a.chapter)
    except Fail as e:
        print(e)
        return 1

# --- The canvas, 1000 px wide, in pixels from the top left: Fig records, render() replays in matplotlib ---------------
BLUE, ORANGE, GREEN, RED, PURPLE, GREY, LIGHT, DARK, BROWN = ("#4878b0", "#e49a2e", "#4f9d5a", "#c44e52", "#8172b3",
                                                             "#b8b8b8", "#ececec", "#333333", "#937860")
HUES = [BLUE, ORANGE, GREEN, PURPLE, RED, BROWN, "#da8bc3", "#8c8c8c", "#ccb974"]
CHUNK_HUES, BBOX = HUES[:4] + HUES[5:], dict(fc="white", ec="none", alpha=.85, pad=1.5)
rgb = lambda c: (1, 1, 1) if c == "white" else [int(c[i:i + 2], 16) / 255 for i in (1, 3, 5)]
hexa = lambda v: "#" + "".join(f"{round(255 * x):02x}" for x in v)
lt = lambda c, f: hexa([v + (1 - v) * f for v in rgb(c)])  # c lightened by f (0: c, 1: white)
ink = lambda fc: DARK if fc == "none" or sum(w * v for w, v in zip((.3, .59, .11), rgb(fc))) >= .55 else "white"
rnd = lambda v: round(v, 2) if isinstance(v, float) else [rnd(x) for x in v] if isinstance(v, (list, tuple)) else v
plural = lambda n, word: f"{n} {word}{'s' if n != 1 else ''}"
verdict = lambda wf: f"{plural(wf, 'wavefront')} ({'no conflict' if wf == 1 else f'{wf}-way conflict'})"

class Fig:
    def __init__(s, H, title, P):
        qs = [{k: v for k, v in q.items() if k not in ("threads", "dynamic_smem")} for q in P.values()]
        same = [k for k in qs[0] if all(q.get(k) == qs[0][k] for q in qs)]  # then per precision those that differ
        text = ", ".join(f"{k}={qs[0][k]}" for k in same) + ("\n" + "; ".join(f"{pr}: " + ", ".join(
            f"{k}={v}" for k, v in q.items() if k not in same) for pr, q in zip(P, qs))) * (len(qs) > 1)
        s.H, s.ops = H, []
        s.c(500, 10, title, 13, weight="bold")
        s.c(500, 36, "\n".join(textwrap.fill(t, 135) for t in f"drawn by scripts/figures.py from the default "
                               f"parameters: {text}".split("\n")), color="#555555")
    def op(s, kind, *a, **kw):
        s.ops.append([kind, *rnd(a), {k: rnd(v) for k, v in kw.items()}])
    def t(s, x, y, text, size=8.5, **kw):  # text, its top left at (x, y) unless told otherwise
        s.op("text", x, y, text, fontsize=size, **{"va": "top", **kw})
    c = lambda s, x, y, text, size=8.5, **kw: s.t(x, y, text, size, ha="center", **kw)  # centred on x
    cc = lambda s, x, y, text, size=8.5, **kw: s.t(x, y, text, size, ha="center", va="center", **kw)  # on (x, y)
    r = lambda s, x, y, text, size=8.5, **kw: s.t(x, y, text, size, ha="right", va="center", **kw)  # ending at x
    rect = lambda s, x, y, w, h, fc, ec="white", lw=.6, **kw: s.op("rect", x, y, w, h, fc=fc, ec=ec, lw=lw, **kw)
    def box(s, x, y, w, h, fc, text=None, size=8, ec="white", lw=.6, bold=False):
        s.rect(x, y, w, h, fc, ec, lw)
        if text is not None:
            s.cc(x + w / 2, y + h / 2, str(text), size, color=ink(fc), weight="bold" if bold else "normal")
    def grid(s, x, y, cells, cw, ch, size=7.5, **kw):  # cells[r][c]: a colour, (colour, label) or None
        for r, row in enumerate(cells):
            for c, v in enumerate(row):
                if v is not None:
                    s.box(x + c * cw, y + r * ch, cw, ch, *(v if isinstance(v, tuple) else (v,)), size=size, **kw)
    line = lambda s, xs, ys, c=DARK, lw=.7, **kw: s.op("line", xs, ys, color=c, lw=lw, **kw)
    arrow = lambda s, x0, y0, x1, y1, c=DARK, lw=1.2: s.op("arrow", x0, y0, x1, y1, color=c, lw=lw)
    def ticks(s, x, y, values, k, down=False):  # axis numbers: along x below y, or (down) along y left of x
        for v in values:
            s.r(x - 4, y + v * k, str(v), 7.5) if down else s.c(x + v * k, y + 3, str(v), 7.5)
    def legend(s, x, y, items, size=8.5):  # a row of swatches: (colour, label[, hatch])
        for fc, label, *h in items:
            s.rect(x, y, 22, 11, fc, GREY if fc == LIGHT else "white", hatch=(h or [None])[0])
            s.t(x + 27, y + 5.5, label, size, va="center")
            x += 40 + .78 * size * len(label)
    def bars(s, x, y, w, end, rows, bars, rh, ticks=None, size=7.5):
        """a timeline: bars (row, start, end, colour, label[, hatch]); row None: a barrier across every row"""
        k = w / end
        for row, a, b, fc, label, *h in bars:
            if row is None:
                s.rect(x + a * k, y, (b - a) * k, len(rows) * rh, DARK, "none")
                continue
            s.rect(x + a * k, y + row * rh + 6, (b - a) * k, rh - 12, fc, "white", .8, hatch=(h or [None])[0])
            if label and (b - a) * k > 22:
                s.cc(x + (a + b) / 2 * k, y + (row + .5) * rh, label, size, color=DARK if h else ink(fc), weight="bold",
                     bbox=BBOX if h else None)
        for i, label in enumerate(rows):
            s.r(x - 8, y + (i + .5) * rh, label)
        s.line([x, x + w], [y + len(rows) * rh] * 2, DARK, 1)
        s.ticks(x, y + len(rows) * rh, range(0, int(end) + 1, ticks) if ticks else [], k)
    def fan(s, x, y, w, idx, n, colour, name):  # lanes (cells at y) -> n cells at y + 40, a line from lane l to idx[l]
        lw, cw = w / len(idx), w / n
        s.grid(x, y + 40, [[colour if i in idx else LIGHT for i in range(n)]], cw, 14)
        for i in range(0, n, LINE):
            s.rect(x + i * cw, y + 40, min(LINE, n) * cw, 14, "none", DARK, 1.2)
        for lane, i in enumerate(idx):
            s.rect(x + lane * lw, y, lw, 12, lt(colour, .55))
            if lane % 4 == 0 or lane == len(idx) - 1:
                s.c(x + (lane + .5) * lw, y - 13, str(lane), 7)
            if i is not None:
                s.line([x + (lane + .5) * lw, x + (i + .5) * cw], [y + 12, y + 40], colour)
        s.r(x - 8, y + 6, "lane")
        s.r(x - 8, y + 47, name, 9.5, weight="bold")

def render(f, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle
    except ImportError:
        raise Fail("figures.py: matplotlib is not installed (pip install matplotlib); --check works without it")
    fig = plt.figure(figsize=(10, f.H / 100), dpi=100)
    ax = fig.add_axes([0, 0, 1, 1], xlim=(0, 1000), ylim=(f.H, 0))
    ax.axis("off")
    for kind, *a, kw in f.ops:
        if kind == "rect":
            ax.add_patch(Rectangle(a[:2], *a[2:], **kw))
        elif kind == "arrow":
            ax.annotate("", a[2:], a[:2], arrowprops=dict(arrowstyle="-|>", shrinkA=0, shrinkB=0, mutation_scale=9,
                                                          **kw))
        else:
            (ax.text if kind == "text" else ax.plot)(*a, **kw)
    fig.savefig(path, dpi=100, metadata={"Software": None})  # no version string: the same bytes every time
    plt.close(fig)

# --- 01-02: one thread per element of C; shared-memory tiles ----------------------------------------------------------
def draw_naive(f, P):
    BM, BN, NK = P["fp32"]["BM"], P["fp32"]["BN"], 4096  # any N = K, multiples of 32: the same picture
    # 01: row = blockIdx.y * BM + threadIdx.y, col = blockIdx.x * BN + threadIdx.x; block(BN, BM): warp = id / 32
    own = [[(r // BM, c // BN, (r % BM * BN + c % BN) // WARP) for c in range(2 * BN)] for r in range(2 * BM)]
    rc = [divmod(lane, BN) for lane in range(min(WARP, BM * BN))]  # warp 0 of block (0, 0), at k = 0
    c, x0, y0 = min(640 / len(own[0]), 170 / len(own)), 60, 110
    f.c(x0 + BN * c, 84, f"Who computes which C[row][col]: 2 x 2 blocks of BN x BM = {BN} x {BM} threads", 10)
    f.grid(x0, y0, [[lt(HUES[by * 2 + bx], .65 - .3 * (w % 2 == 0)) for by, bx, w in row] for row in own], c, c, lw=.3)
    for by, bx in ((0, 0), (0, 1), (1, 0), (1, 1)):
        f.rect(x0 + bx * BN * c, y0 + by * BM * c, BN * c, BM * c, "none", DARK, 1.5)
        f.cc(x0 + (bx + .5) * BN * c, y0 + (by + .5) * BM * c, f"blockIdx (x={bx}, y={by})", 9, bbox=BBOX)
    w0 = [(r, k) for r, row in enumerate(own) for k, o in enumerate(row) if o == own[0][0]]  # warp 0's cells
    nr, nc = (max(v) + 1 for v in zip(*w0))
    f.rect(x0, y0, nc * c, nr * c, "none", RED, 2.2)
    f.ticks(x0, y0 + 2 * BM * c, range(0, 2 * BN + 1, max(1, BN // 4)), c)
    f.ticks(x0, y0, range(0, 2 * BM + 1, max(1, BM // 2)), c, down=True)
    f.c(x0 + BN * c, y0 + 2 * BM * c + 17, "col = blockIdx.x * BN + threadIdx.x, row = blockIdx.y * BM + threadIdx.y")
    f.t(730, y0, "a cell: one thread, one C element;\ncolour: its block; shade: its warp\n(32 consecutive ids "
        f"threadIdx.y * BN\n+ threadIdx.x): {plural(nr, 'row')} x {nc} columns", 9, linespacing=1.5)
    f.t(730, y0 + 84, "red outline: warp 0 of block (0, 0),\nits addresses drawn below", 9, color=RED)
    f.c(400, 360, f"Warp 0's addresses at k = 0 (M = N = K = {NK}): A[row][k], B[k][col], C[row][col]", 10)
    for n, (m, colour, a) in enumerate((("A", BLUE, [r * NK for r, _ in rc]), ("B", ORANGE, [c for _, c in rc]),
                                        ("C", GREEN, [r * NK + c for r, c in rc]))):
        y, lines, k = 400 + n * 105, sorted({v // LINE for v in a})[:4], len(set(a))
        f.fan(170, y, 475, [lines.index(v // LINE) * LINE + v % LINE if v // LINE in lines else None for v in a],
              len(lines) * LINE, colour, m)
        for i, (r, col) in enumerate(divmod(ln * LINE, NK) for ln in lines):
            f.c(170 + (i + .5) * 475 / len(lines), y + 57, f"{m}[{r}][{col}..{col + LINE - 1}]" + "  (one 128-byte "
                "line)" * (len(lines) == 1))
        f.t(680, y + 27, f"1 address for all\n{len(a)} lanes: a broadcast" if k == 1 else f"{k} consecutive floats:\n"
            f"{len(lines)} x 128-byte line{'s' * (len(lines) > 1)}, coalesced" if k == 1 + max(a) - min(a) else
            f"{k} different floats\nin {plural(len(lines), '128-byte line')}", 9.5, va="center")

def draw_smem(f, P):
    T, n, now, u, X, Y = P["fp32"]["TILE"], 6, 2, 54, 70, 480  # k-tiles drawn, the one in shared memory now
    k, rc, cx = 5 % T, [divmod(lane, T) for lane in range(min(WARP, T * T))], X + (n + .6) * u  # warp 0's (ty, tx)
    f.c(290, 84, f"The block's loop over K: {T} x {T} tiles, each loaded once", 10)
    for i in range(n):
        fc = RED if i == now else GREY if i < now else LIGHT
        f.box(X + i * u, Y, u, u, fc, "As" if i == now else None, 9, lw=1.5, bold=True)
        f.box(cx, Y - (n + .6 - i) * u, u, u, fc, "Bs" if i == now else None, 9, lw=1.5, bold=True)
        f.c(X + (i + .5) * u, Y + u + 6, str(i))
        f.t(cx + u + 8, Y - (n + .1 - i) * u, str(i), va="center")
        f.legend(X - 20, 110 + 20 * i, [((GREY, "k-tiles done"), (RED, f"k-tile {now}: in As, Bs now"),
                                         (LIGHT, "k-tiles to come"))[i]]) if i < 3 else None
    f.rect(X, Y, n * u, u, "none", DARK, 1.2)
    f.rect(cx, Y - (n + .6) * u, u, n * u, "none", DARK, 1.2)
    f.box(cx, Y, u, u, lt(GREEN, .3), "C\nblock", 9, ec=DARK, lw=1.2)
    f.c(X + n * u / 2, Y + u + 26, f"A: the block's {T} rows, K along x, k-tile number below", 9)
    f.r(cx - 10, Y - (n / 2 + .6) * u, f"B: the block's {T}\ncolumns, K down,\nk-tile number right", 9)
    f.arrow(X + 5, Y - 16, X + n * u - 5, Y - 16)
    f.c(X + n * u / 2, Y - 38, f"k0 = 0, {T}, {2 * T}, ...", 9)
    f.c(765, 84, "Each FMA reads As[ty][k] and Bs[k][tx] from shared memory\n(ptxas merges 4 As reads into one "
        f"LDS.128).\nWarp 0, k = {k}: the bank each lane reads", 9.5)
    for key, colour, y, a in (("As[ty][k]", BLUE, 195, [ty * T + k for ty, _ in rc]),
                              ("Bs[k][tx]", ORANGE, 405, [k * T + tx for _, tx in rc])):
        f.fan(600, y, 360, [v % BANKS for v in a], BANKS, colour, "bank")
        f.ticks(600 + 180 / BANKS, y + 54, (0, 8, 16, 24, 31), 360 / BANKS)
        f.c(780, y - 34, f"{key}: " + ("one word, broadcast to every lane" if len(set(a)) == 1 else
                                       f"{len(set(a))} words in {len({v % BANKS for v in a})} banks"), 9.5)
        f.c(780, y + 74, verdict(wavefronts(a)), 9)
    f.c(780, 600, f"global loads per FMA: 2 / TILE = {2 / T:g}", 9.5)

# --- 03-07: register tiling (thread tiles, lane -> bank maps, coalesced stores, the double buffer) --------------------
def draw_register(f, P):
    BM, BN, TM, TN = (P["fp32"][k] for k in ("BM", "BN", "TM", "TN"))
    own = {thread_rc(t, BN, TN): divmod(t, WARP) for t in range(BM // TM * (BN // TN))}  # microtile: (warp, lane)
    R, C, s, x0, y0 = BM // TM, BN // TN, min(470 / BN, 470 / BM), 70, 120
    f.grid(x0, y0, [[(lt(BLUE, .1 + .25 * (own[r, c][1] % 2)), own[r, c][1]) if own[r, c][0] == 0 else
                     lt(GREY, .25 if own[r, c][0] % 2 else .6) for c in range(C)] for r in range(R)], TN * s, TM * s)
    for w in range(1, len(own) // WARP):
        (r0, c0), *_, (r1, c1) = [rc for rc, o in own.items() if o[0] == w]
        f.cc(x0 + (c0 + c1 + 1) / 2 * TN * s, y0 + (r0 + r1 + 1) / 2 * TM * s, f"warp {w}")
    f.rect(x0, y0, BN * s, BM * s, "none", DARK, 1.2)
    f.rect(x0, y0, TN * s, TM * s, "none", RED, 2.2)
    f.ticks(x0, y0 + BM * s, range(0, BN + 1, max(TN, BN // 8)), s)
    f.ticks(x0, y0, range(0, BM + 1, max(TM, BM // 8)), s, down=True)
    f.c(x0 + BN * s / 2, y0 + BM * s + 17, "column: thread_col * TN + j;  row: thread_row * TM + i", 9)
    w0 = plural(len({r for (r, _), o in own.items() if not o[0]}), "row")
    f.c(x0 + BN * s / 2, 70, f"Block tile {BM} x {BN} = {R} x {C} microtiles of {TM} x {TN} ({R * C} threads);\nwarp "
        f"0 (blue, lane numbers) is {w0} x {C} threads", 10)
    c, ax, ay = min(30, 240 / max(TM, TN)), 700, 250
    f.c(800, 70, "Thread 0's microtile (red outline): for each k < BK,\nthe outer product of a_frag and b_frag", 10)
    f.grid(ax - c - 22, ay, [[lt(ORANGE, .2)] for _ in range(TM)], c, c)
    f.grid(ax, ay - c - 22, [[lt(GREEN, .2)] * TN], c, c)
    f.grid(ax, ay, [[lt(BLUE, .35)] * TN for _ in range(TM)], c, c)
    f.rect(ax, ay, TN * c, TM * c, "none", RED, 2.2)
    f.cc(ax + TN * c / 2, ay + TM * c / 2, f"acc\n{TM} x {TN}", 11, color="white", weight="bold")
    f.cc(ax - 12, ay - 12, "x", 14)
    f.t(ax - c - 22, ay - c - 40, f"b_frag[j] = Bs[k][thread_col*TN + j],  j < TN = {TN}", color="#2f6b39")
    f.t(ax - c - 22, ay + TM * c + 6, f"a_frag[i] = As[thread_row*TM + i][k],  i < TM = {TM}", color="#a0621a")
    f.c(800, ay + TM * c + 40, f"per k: acc[i][j] += a_frag[i] * b_frag[j]\n{TM + TN} values loaded from shared "
        f"memory feed {TM * TN} FMAs:\n{(TM + TN) / TM / TN:g} per FMA (02: 2)" + f"; as float4 loads, {(TM + TN) // 4}"
        " LDS.128" * (TM % 4 == TN % 4 == 0), 9.5)

def draw_transposed(f, P):
    BM, BN, BK, TM, TN = (P["fp32"][k] for k in ("BM", "BN", "BK", "TM", "TN"))
    tid, k, cw, ch = BN // TN, 3 % BK, 570 / BM, 160 / BK  # the first thread of thread_row 1; As_T's cells
    ms = [thread_rc(tid, BN, TN)[0] * TM + i for i in range(TM)]  # 03: a_frag[i] = As[thread_row * TM + i][k]
    f4 = sorted({(k * BM + m) // 4 for m in ms})  # 04: float4 loads of As_T[k][thread_row * TM + i]
    f.c(500, 62, f"Thread {tid} (thread_row {ms[0] // TM}) at k = {k}: its a_frag, A[m][{k}] for m = {ms[0]}.."
        f"{ms[-1]}, in red", 9.5)
    for x0, y0, w, h, R, C, hit in ((70, 150, 112 / BK, 470 / BM, BM, BK, lambda r, c: c == k and r in ms),
                                    (390, 175, cw, ch, BK, BM, lambda r, c: r == k and c in ms)):
        for r in range(R):
            f.rect(x0, y0 + r * h, C * w, h, LIGHT if r % 2 else "#f6f6f6", "none")
            for c in (c for c in range(C) if hit(r, c)):
                f.rect(x0 + c * w, y0 + r * h, w, h, RED, "none")
        f.rect(x0, y0, C * w, R * h, "none", DARK, 1)
    for q in f4:
        f.rect(390 + (q * 4 - k * BM) * cw, 175 + k * ch, 4 * cw, ch, "none", DARK, 1.3)
    f.ticks(70 + 56 / BK, 620, (0, k, BK - 1), 112 / BK)
    f.ticks(70, 150, range(0, BM + 1, BM // 8), 470 / BM, down=True)
    f.ticks(390, 175 + ch / 2, (0, k, BK - 1), ch, down=True)
    f.ticks(390, 335, range(0, BM + 1, BM // 8), cw)
    f.c(126, 108, f"03: As[BM][BK]\n= As[{BM}][{BK}]", 10)
    f.c(126, 638, "k   (m down)", 9)
    f.c(675, 152, f"04: As_T[BK][BM] = As_T[{BK}][{BM}],  As_T[k][m] = A[m][k]   (k down, m across)", 10)
    f.t(205, 190, f"03: a_frag is\na column of As:\n{TM} floats,\n{BK} words apart", 9)
    f.arrow(200, 200, 72 + (k + 1) * 112 / BK, 150 + ms[TM // 2] * 470 / BM, RED, .8)
    f.t(440 + (ms[-1] + 1) * cw, 265, f"04: a row of As_T,\n{TM} consecutive floats", 9)
    f.arrow(438 + (ms[-1] + 1) * cw, 270, 392 + (ms[-1] + 1) * cw, 175 + (k + .5) * ch, RED, .8)
    f.c(675, 430, "The same a_frag as shared-memory words (a stretch of 128 words)", 10)
    for n, (key, a, how) in enumerate((("As", [m * BK + k for m in ms], f"stride {BK} words ({BK * 4} B): {TM} "
                                        "scalar loads (in the source)"), ("As_T", [k * BM + m for m in ms],
                                       f"{TM} consecutive words: {len(f4)} aligned float4 loads"))):
        y, w, base = 470 + n * 90, 540 / 128, a[0] // 128 * 128
        f.grid(420, y, [[RED if base + e in a else LIGHT for e in range(128)]], w, 22, lw=.3)
        for q in f4 if n else []:
            f.rect(420 + (q * 4 - base) * w, y, 4 * w, 22, "none", DARK, 1.3)
        f.rect(420, y, 540, 22, "none", DARK, .8)
        f.r(412, y + 11, key, 10, weight="bold")
        f.t(420, y + 26, str(base), 8)
        f.t(960, y + 26, str(base + 127), 8, ha="right")
        f.c(690, y + 26, f"word {a[0]}, ..., {a[-1]}: {how}", 9)

def draw_swizzle(f, P):
    BM, BK = P["fp32"]["BM"], P["fp32"]["BK"]
    hue = [hexa(colorsys.hsv_to_rgb(b * .381966 % 1, .45 + .2 * (b % 2), .95)) for b in range(BANKS)]  # one per bank
    rc = [divmod(i, BK // 4) for i in range(WARP)]  # warp 0's A float4 i = tid: r = i / (BK / 4), c = i % (BK / 4) * 4
    f.c(500, 62, f"Lane i stores A[r][c..c+3] with r = i / (BK/4) = i / {BK // 4}, c = i % {BK // 4} * 4 (BK = {BK}) "
        f"as four scalar stores As_T[c+q][...]. Cell: the bank\n(word address % 32, BM = {BM}); one colour per bank. A "
        "bank hit by n different words costs n wavefronts.", 9)
    for n, title in enumerate(("04: As_T[k][m], bank = m % 32", "05: As_T[k][swizzle(k, m)], swizzle = m ^ ((k / 4) "
                                                                 f"* (128 / BK)) = m ^ ((k / 4) * {128 // BK})")):
        # 04 stores As_T[c + q][r], 05 As_T[c + q][swizzle<BK>(c + q, r)]: swizzle(k, m) = m ^ ((k / 4) * (128 / BK))
        addr = [[(c * 4 + q) * BM + (r ^ (c * 4 + q) // 4 * (128 // BK) if n else r) for r, c in rc] for q in range(4)]
        x0, y0, cw = 100, 180 + n * 240, 22
        f.t(x0, y0 - 78, title, 10)
        f.grid(x0, y0, [[(hue[a % BANKS], a % BANKS) for a in row] for row in addr], cw, 28)
        for lane, (r, c) in enumerate(rc):
            for dy, v in ((-42, c * 4), (-22, r), (122, lane)):
                f.cc(x0 + (lane + .5) * cw, y0 + dy, str(v), 7)
        for dy, label in ((-42, "k = c"), (-22, "m = r"), (14, "As_T[c+0]"), (42, "As_T[c+1]"), (70, "As_T[c+2]"),
                          (98, "As_T[c+3]")):
            f.r(x0 - 6, y0 + dy, label, 8.5 - .5 * (dy < 0))
        f.c(x0 + WARP * cw / 2, y0 + 131, "lane of warp 0", 9)
        for q, (row, wf) in enumerate((row, wavefronts(row)) for row in addr):
            f.t(x0 + WARP * cw + 8, y0 + (q + .5) * 28, f"{len({a % BANKS for a in row})} banks: " + ("no conflict" if
                wf == 1 else f"{wf}-way conflict"), 9, va="center", weight="bold", color=GREEN if wf == 1 else RED)

def draw_coalesced(f, P):
    BN, TM, TN = (P["fp32"][k] for k in ("BN", "TM", "TN"))
    f.c(500, 62, f"Warp 0's float4 stores of C for i = 0: lanes 0-{BN // TN - 1} write row 0, the next {BN // TN} row "
        f"{TM} (lane numbers in the cells); one colour per store instruction (j).", 9)
    adjacent, grouped = lambda c, j: c * TN + j, lambda c, j: c * 4 + j * (BN // TN)  # 03-05's, 06-07's epilogue
    for n, (title, col) in enumerate(((f"05: store j writes columns thread_col*TN + j .. +3  (a thread's TN = {TN} "
                                       "columns adjacent)", adjacent), ("06: store j writes columns thread_col*4 + "
                                      f"j*(BN/TN) .. +3  (a thread's groups 4*(BN/TN) = {4 * BN // TN} columns apart)",
                                      grouped))):
        x0, y0, w, rcs = 90, 130 + n * 250, 620 / BN, [thread_rc(t, BN, TN) for t in range(WARP)]
        stores = [[[r * TM, col(c, j)] for r, c in rcs] for j in range(0, TN, 4)]
        rows = sorted({r for s in stores for r, _ in s})
        f.t(x0, y0 - 40, title, 10)
        for ln in range(BN // LINE):
            f.c(x0 + (ln + .5) * LINE * w, y0 - 18, f"line {ln} (128 B)")
        for ri, row in enumerate(rows):
            f.rect(x0, y0 + ri * 64, BN * w, 34, LIGHT, "none")
            for si, lanes in enumerate(stores):
                for lane, c in ((lane, c) for lane, (r, c) in enumerate(lanes) if r == row):
                    f.box(x0 + c * w, y0 + ri * 64, 4 * w, 34, HUES[si % 5], lane, 6.5, ec="none")
            for c in range(0, BN + 1, SECTOR):
                f.line([x0 + c * w] * 2, [y0 + ri * 64, y0 + ri * 64 + 34], "white" if c % LINE else DARK,
                       .8 if c % LINE else 1.8)
            f.rect(x0, y0 + ri * 64, BN * w, 34, "none", DARK, 1.2)
            f.r(x0 - 6, y0 + ri * 64 + 17, f"row {row}", 9)
        f.ticks(x0, y0 + len(rows) * 64 - 30, range(0, BN + 1, 2 * SECTOR), w)
        f.c(x0 + BN * w / 2, y0 + len(rows) * 64 - 16, f"column of the block tile (one row of C is {BN} floats; "
            "white ticks: 32-byte sectors)")
        for si, lanes in enumerate(stores):
            floats = {(r, c + e) for r, c in lanes for e in range(4)}
            sectors = [{c for r2, c in floats if (r2, c // SECTOR) == s} for s in {(r, c // SECTOR) for r, c in floats}]
            whole = sum(len(s) == SECTOR for s in sectors)
            f.t(730, y0 + 2 + si * 64, f"store j = {4 * si}: {len({(r, c // LINE) for r, c in floats})} lines,\n"
                f"{len(sectors)} sectors, " + ("all written whole" if whole == len(sectors) else "none written whole"
                                               if not whole else f"{len(sectors) - whole} in part"), 9.5,
                color=HUES[si % 5], weight="bold")

def draw_double_buffer(f, P):
    BK, TM, TN, EB = (P["fp32"][k] for k in ("BK", "TM", "TN", "EARLY_BARRIER"))
    n = max(1, 64 // BK)  # the k-tiles of K = 64
    one, two, (L, C, S, B) = double_buffer(BK, TM, TN, EB, n)
    end = max(e[3] for e in one + two) * 1.06
    f.legend(125, 64, [(BLUE, f"global load in flight ({L:g})"), (GREEN, f"register -> shared store ({S:g})"),
                       (ORANGE, f"FMAs of a k-tile ({C:g})"), (DARK, f"__syncthreads ({B:g})")])
    f.c(500, 86, f"Schematic timing, not measured: K = {n * BK} shown = {n} k-tiles of BK = {BK} (numbers in the "
        "bars); a load's latency is fixed, the FMAs grow with BK * TM * TN.")
    for n, (ev, title) in enumerate(((one, f"one stage (06's loop, at 07's BK = {BK}): load, store, barrier, FMAs, "
                                            "barrier: the load latency is waited for every k-tile"),
                                     (two, "two stages (07): tile t+1's loads issued, FMAs of tile t, store into the "
                                           "other stage, one barrier" + " before the last step's FMAs" * EB))):
        y, fin = 145 + n * 180, max(e[3] for e in ev)
        f.t(140, y - 22, title, 9.5)
        f.bars(140, y, 820, end, ["global loads\n(+ store to smem)", "FMAs"], [
            (None if k == "barrier" else int(k == "fma"), a, b, {"load": BLUE, "store": GREEN, "fma": ORANGE}.get(k),
             f"{t}\nstage {t % 2}" if k == "fma" and n else str(t) if k != "store" else None) for k, t, a, b in ev],
            62, 10, 6.5)
        f.line([140 + fin * 820 / end] * 2, [y, y + 124], RED, 1.2, ls="--")
        f.t(144 + fin * 820 / end, y + 62, f"done\n{round(fin, 2):g}", color=RED, va="center")
    f.c(550, 466, "time (schematic units)", 9)

# --- 08-16: tensor cores (warp tiles, swizzled chunks, rings and timelines; 11-16's warpgroups, cluster, tile order) -
def warp_map(f, x, y, px, q, warps, fh, fw):
    """the block tile at px pixels per element: warps in colour, each split into fh x fw MMA tiles (warp 0's labelled
    acc[i][j] when they have room), ticks every 32"""
    BM, BN, WM, WN = (q[k] for k in ("BM", "BN", "WM", "WN"))
    room, w, h = fw * px >= 30 and fh * px >= 30, fw * px, fh * px
    for wi, (wr, wc) in enumerate(warps):
        f.grid(x + wc * WN * px, y + wr * WM * px, [[(lt(HUES[wi % 8], .45 - .2 * ((i + j) % 2)), f"acc\n[{i}][{j}]"
               if wi == 0 and room else None) for j in range(WN // fw)] for i in range(WM // fh)], w, h, 7, lw=1)
        f.rect(x + wc * WN * px, y + wr * WM * px, WN * px, WM * px, "none", DARK, 1.8)
        if wi or not room:
            f.cc(x + (wc + .5) * WN * px, y + (wr + .5) * WM * px, f"warp {wi}", 11, weight="bold", bbox=BBOX)
    if room:
        f.t(x + WN * px / 2, y - 3, "warp 0", 9.5, ha="center", va="bottom", weight="bold")
    f.ticks(x, y + BM * px, range(0, BN + 1, 32), px)
    f.ticks(x, y, range(0, BM + 1, 32), px, down=True)

def draw_wmma(f, P):
    q, prs = next(iter(P.values())), " and ".join(P)
    BM, BN, WM, WN, EB = q["BM"], q["BN"], q["WM"], q["WN"], q["EARLY_BARRIER"]
    if any(p["BK"] % MMA_K[p["T"]] for p in P.values()) or WM % 16 or WN % 16:
        raise ValueError("no whole fragments")
    f.c(230, 82, f"{prs}: block tile {BM} x {BN},\n{BM // WM * (BN // WN)} warps of {WM} x {WN} = {WM // 16} x "
        f"{WN // 16} fragments of 16 x 16", 10)
    warp_map(f, 60, 150, min(340 / BN, 340 / BM), q, [warp_rc(w, BN, WN) for w in range(BM // WM * (BN // WN))], 16, 16)
    f.c(780, 82, "Fragment shapes per precision\n(one cell = one element)", 10)
    for n, (pr, p) in enumerate(P.items()):
        K, y, x = MMA_K[p["T"]], 130 + n * 175, 625
        f.t(x, y, f"{pr.upper()} ({'float' if pr == 'tf32' else 'half'} inputs): m16n16k{K}", 10, weight="bold")
        f.t(x, y + 115, f"{WM * WN // 256} mma_sync per warp per k-step;\nBK = {p['BK']}: {p['BK'] // K} k-steps")
        for what, h, w, col, op in (("A", 16, K, BLUE, "x"), ("B", K, 16, ORANGE, "+="), ("acc", 16, 16, GREEN, "")):
            f.grid(x, y + 25, [[lt(col, .3)] * w for _ in range(h)], 4.3, 4.3, lw=.3)
            f.c(x + w * 2.15, y + 28 + h * 4.3, f"{what} {h} x {w}", 9)
            f.cc(x + w * 4.3 + 14, y + 59.4, op, 12)
            x += w * 4.3 + 28
    f.c(500, 520, f"The k-tile loop ({prs}, EARLY_BARRIER = {EB}): tile k+1 is loaded into registers while tile k is "
        "computed\nfrom its shared stage, then stored into the other stage; one __syncthreads per k-tile, " + (
            "before its last k-step's MMAs" if EB else "after its last k-step") + ".\nBK / MMA_K = " + ", ".join(
            f"{pr} {p['BK']} / {MMA_K[p['T']]}" for pr, p in P.items()) + " k-steps per k-tile, a bar each.", 9.5)
    f.legend(70, 600, [(lt(BLUE, .55), "global loads in flight", "///"), (GREEN, "register -> shared store"),
                       (ORANGE, "mma_sync of stage 0"), (lt(ORANGE, .35), "... of stage 1"), (DARK, "__syncthreads")])
    ev = wmma_schedule(q["BK"] // MMA_K[q["T"]], EB)
    f.bars(170, 640, 780, max(e[4] for e in ev) * 1.01, ["global -> registers\n(a_next, b_next)",
           "registers -> shared\n(store_tile)", "mma_sync from\nshared stage"], [
        (None, a, b, DARK, None) if k == "barrier" else (0, a, b, BLUE, "tile 0") if k == "load" and t == 0 else
        (0, a, b, lt(BLUE, .55), f"tile {t} -> registers" if b - a >= 4 else f"tile {t}", "///") if k == "load" else
        (1, a, b, GREEN, f"tile {t}\n-> st. {st}") if k == "store" else
        (2, a, b, lt(ORANGE, .35 * st), f"tile {t}\nstage {st}") for k, t, st, a, b in ev], 64)
    f.c(560, 838, "program order of one block (schematic widths, not measured)")
    ld = [(pr, p["BK"] + 16 // SIZE[p["T"]], p["BN"] + 8, p) for pr, p in P.items()]  # LDA = BK + 16 / sizeof(T), LDB
    f.c(500, 870, "Shared memory: As[2][BM][LDA], Bs[2][BK][LDB], two stages of padded rows: LDA = BK + 16 / "
        f"sizeof(T) ({', '.join(f'{pr} {a}' for pr, a, _, _ in ld)}),\nLDB = BN + 8 ({ld[0][2]}); " + ", ".join(
            f"{pr} {2 * (BM * a + p['BK'] * b) * SIZE[p['T']] / 1024:g} KB" for pr, a, b, p in ld), 8.5)

def draw_mma(f, P, copy="cp.async", over=""):
    """09-10; copy: "registers" (08's two-stage pipeline, 09) or "cp.async" (the ring of STAGES, 10)"""
    main, d = "fp16" if "fp16" in P else list(P)[0], {pr: mma_model(q) for pr, q in P.items()}
    q, m, other = P[main], d[main], [pr for pr in P if pr != main]
    BM, BN, BK, S, RC, EB = q["BM"], q["BN"], q["BK"], q.get("STAGES", 2), m["RC"], q["EARLY_BARRIER"]
    shape, per, c, y0 = lambda pr: f"m16n8k{d[pr]['K']}", GROUPS // RC, 29, 560
    f.c(500, 72, over.format(**q), 9)
    f.t(40, 112, f"(a) {main}: block tile {BM} x {BN}, {len(m['warps'])} warps of {q['WM']} x {q['WN']},\neach "
        f"{m['FM']} x {m['FN']} mma tiles of 16 x 8 ({shape(main)}: {m['FM'] * m['FN']} mma.sync per k-step)", 9.5)
    warp_map(f, 60, 150, min(490 / BN, 240 / BM), q, m["warps"], 16, 8)
    f.t(60, 170 + BM * min(490 / BN, 240 / BM), "\n".join(f"{pr}: {P[pr]['BM']} x {P[pr]['BN']}, "
        f"{len(d[pr]['warps'])} warps of {P[pr]['WM']} x {P[pr]['WN']} = {d[pr]['FM']} x {d[pr]['FN']} tiles of "
        f"{shape(pr)}" for pr in other))
    frags = f"FRAG_BUFS = {q['FRAG_BUFS']}: " + ("step s + 1's fragments are\nloaded (ldmatrix) while step s's MMAs "
                                                "run." if q["FRAG_BUFS"] == 2 else "each k-step loads its fragments\n"
                                                "(ldmatrix) right before its MMAs.")
    if copy != "cp.async":  # 08's pipeline: a note instead of the ring
        f.t(640, 112, f"(c) {main}: 08's two-stage pipeline, kept", 9.5)
        f.t(640, 140, textwrap.fill(("Tile k + 1 is loaded from global memory into registers (a_next, b_next) while "
            "tile k is computed from its shared stage (ldmatrix + mma.sync), then stored (store_tile) into the other "
            f"stage. One __syncthreads per k-tile, {'before' if EB else 'after'} its last k-step's MMAs "
            f"(EARLY_BARRIER = {EB}). " + frags + " " + ", ".join(f"{pr} BK = {r['BK']}: {r['BK'] // d[pr]['K']}"
            " k-steps" for pr, r in P.items()) + " per k-tile.").replace("\n", " "), 56), 9, linespacing=1.4)
    else:
        ring = cp_async_ring(S)
        cw, colour = 300 / len(ring), {"compute": ORANGE, "issued": BLUE, "flight": lt(BLUE, .55), "empty": LIGHT}
        f.t(640, 112, f"(c) {main}'s cp.async ring, STAGES = {S}" + "".join(f" ({pr}: {P[pr]['STAGES']})" for pr in
            other) + f":\niteration t computes tile t and issues\ntile t + {S - 1} into the stage tile t - 1 left", 9.5)
        cells = [[(colour[st], None if t is None else f"tile {t}") for t, st in c] for c in zip(*ring)]  # stage x col.
        f.grid(690, 190, cells, cw, 34, 8, lw=1.5)
        f.grid(690, 156, [[("none", "prologue" if i == 0 else f"t={i - 1}") for i in range(len(ring))]], cw, 34, 8)
        f.grid(640, 190, [[("none", f"stage {s}")] for s in range(S)], 46, 34, 8)
        f.legend(650, 200 + S * 34, [(ORANGE, "ldmatrix + mma now"), (lt(BLUE, .55), "in flight / landed")], 8)
        f.legend(650, 218 + S * 34, [(BLUE, "cp.async issued now"), (LIGHT, "empty")], 8)
        f.t(640, 242 + S * 34, f"One __syncthreads per k-tile, after cp.async.wait_group\nSTAGES - 2 = {S - 2} (tile t "
            f"+ 1 has landed), {'before' if EB else 'after'} the last\nk-step's MMAs (EARLY_BARRIER = {EB}).\n" + frags)
    f.t(20, 482, f"(b) {main}: one stage of A in shared memory, by 128-byte line (x: bank group of 4 banks)", 9.5)
    for n, key in enumerate(("swizzled", "plain")):
        x0, L, ph, wf = 100 + n * 310, m[key]["layout"], m[key]["phase"], m[key]["A"]
        reads, lines = {(r, p): lane for lane, (r, p, g) in enumerate(ph)}, len(m[key]["layout"]) // per
        f.grid(x0, y0, [[(lt(CHUNK_HUES[L[r][p]], .3), f"L{reads[r, p]}" if (r, p) in reads else L[r][p]) for r in
                         range(i * per, i * per + per) for p in range(RC)] for i in range(lines)], c, c, 8, lw=1)
        for r, p in reads:
            f.rect(x0 + (r % per * RC + p) * c + 2, y0 + r // per * c + 2, c - 4, c - 4, "none", RED, 2)
        for i in range(lines):
            f.r(x0 - 4, y0 + (i + .5) * c, f"rows {i * per}-{i * per + per - 1}" if per > 1 else f"row {i}", 8)
        f.ticks(x0 + c / 2, y0 - 17, range(GROUPS), c)
        for part in range(1, per):
            f.line([x0 + part * RC * c] * 2, [y0, y0 + lines * c], DARK, 1.2)
        f.rect(x0, y0, GROUPS * c, lines * c, "none", DARK, 1.2)
        f.c(x0 + 4 * c, 506, f"XOR-swizzled (09):\nchunk ^ (row / {8 // RC}) % {RC}" if n == 0 else "plain (SWIZZLE ="
            " 0):\nchunk as is", 9, weight="bold")
        f.c(x0 + 4 * c, y0 + lines * c + 6, f"L0-L7: {plural(len({g for *_, g in ph}), 'bank group')}\n"
            f"{verdict(wf)}", 9, weight="bold", color=GREEN if wf == 1 else RED)
    e0 = 16 // SIZE[q["T"]]
    f.t(680, 510, f"One stage of A, As[{BM}][{BK}] ({main}): rows of\n{RC} x 16-byte chunks, {plural(per, 'row')} per "
        f"128-byte line\n(32 banks = 8 bank groups: the columns);\nrows 0-{len(m['plain']['layout']) - 1} of "
        f"{BM} shown. Colour and number: the\nlogical chunk c (k = {e0}c .. {e0}c + {e0 - 1}). L0-L7: the rows\nlanes "
        "0-7 give to warp 0's first ldmatrix x4\n(one 8 x 8 matrix per 8-lane phase).\n\nWorst phase of any warp "
        "(swizzled, plain):\n"
        + "\n".join(f"  {pr}: A ldmatrix {d[pr]['swizzled']['A']}, {d[pr]['plain']['A']}; B " + ("ldmatrix.trans" if
                    pr == "fp16" else "word loads") + f" {d[pr]['swizzled']['B']}, {d[pr]['plain']['B']}" for pr in P)
        + f"\nShared memory, {'STAGES' if 'STAGES' in q else 2} x (A + B):\n  " + ", ".join(
            f"{pr} {r.get('STAGES', 2) * (r['BM'] + r['BN']) * r['BK'] * SIZE[r['T']] / 1024:g} KB" for pr, r in
            P.items()))

def draw_wgmma(f, P, copy="tma", over=""):
    """11-16, by the parameters present: (a) the block's warpgroups (PRODUCER_REGS: warp-specialized) and (b) the ring,
    then, in this order, CLUSTER: the cluster, TMA_STORE: the epilogue, PERSISTENT: the tile order. copy: "cp.async"
    (every thread copies) or "tma" (thread 0 issues TMA copies), which the parameters do not tell"""
    p, RANK, A_SLOT = P["fp16"], [PURPLE, RED], "#9aa9b8"  # RANK: the block of the cluster that copies a B box
    BM, BN, BK, S, th, WP = (p[k] for k in ("BM", "BN", "BK", "STAGES", "threads", "WAIT_PREVIOUS"))
    CL, G, CC, PR, CR = (p.get(k, 0) for k in ("CLUSTER", "GROUP", "C_CHUNK", "PRODUCER_REGS", "CONSUMER_REGS"))
    CL, CC, spec, tma, nwg, panel = CL or 1, CC or 64, bool(PR), copy == "tma", th // 128, iter("cde")
    if CL not in (1, 2) or BN % (64 * CL) or BN % CC or S < 2 + (WP and not spec) or G < 0 or BM != 64 * (nwg - spec):
        raise ValueError("no whole B boxes, or no room in (c), for these parameters")
    a, b, buf, cw, kb = BM * BK * 2, BK * BN * 2, 64 * CC * 4, 38, lambda n: f"{n / 1024:g} KB"  # buf: C_BUF_BYTES
    own = [i // (BN // 64 // CL) for i in range(BN // 64)]  # B box i is copied by rank i / (BN / 64 / CLUSTER)
    empty, nb, tx, aw, ahead = 2 * CL, len(own), a + b, cw * a // 8192, S - 1 - WP  # mbar_init(empty, 2 * CLUSTER)
    bs = lambda x, y, w, h, size=8: f.grid(x, y, [[(lt(RANK[r], .2), f"B{i}") for i, r in enumerate(own)]], w, h,
                                           size, bold=True)
    swz = lambda x, y: [f.grid(x, y, [[lt(CHUNK_HUES[c ^ r % 8], .25) for c in range(8)] for r in range(8)], 12, 9,
                               lw=.4), f.rect(x, y, 96, 72, "none", DARK, 1.2)]  # 8 rows, chunk x at x ^ (r % 8)
    f.c(500, 70, over.format(**p), 9)
    # (a) the block: warpgroup wg = threadIdx.x / 128; with PRODUCER_REGS 0 the producer, the others consumers of 64
    # rows of C each; else every warpgroup computes 64 rows (and copies)
    f.t(20, 110, f"(a) One block: {th} threads = {nwg} warpgroups of 128; its C tile,\n{BM} rows x BN = {BN} "
        "columns (FP32), 64 rows per " + "consumer " * spec + "warpgroup", 9.5)
    y = 148
    for wg in range(nwg):
        r0, h = (wg - spec) * 64, 44 if spec and not wg else 72 + 14 * (not spec)
        f.rect(30, y, 455, h, lt([BLUE, ORANGE, GREEN][wg + 1 - spec], .48), DARK, 1.2)
        f.t(38, y + 6, f"warpgroup 0 (threads 0-127): the producer, setmaxnreg.dec to {PR}\n" + (
            "thread 0 issues every TMA copy of A and B; the other 127 idle" if CL == 1 else
            f"thread 0: TMA copies of A and 1/{CL} of B (multicast); 127 idle") if spec and not wg else f"warpgroup {wg} (threads {wg * 128}-"
            f"{wg * 128 + 127}): C rows {r0}-{r0 + 63}" + f", setmaxnreg.inc to {CR}" * spec + f"\naccumulators 64 x "
            f"{BN} FP32 in registers: {BN // 2} per thread\nper k-tile: {BK // 16} x wgmma m64n{BN}k16 (k = 16 each), "
            f"A rows {r0}-{r0 + 63}\nand all of B, both straight from the stage in shared memory" + ("" if spec else
            "\ncopies: half of each k-tile's 16-byte chunks (cp.async)" if not tma else "\ncopies: its thread 0 "
            "issues the k-tile's TMA copies of A and B" if not wg else "\ncopies: nothing; it waits on full[s] like "
            "warpgroup 0"))
        y += h + 8
    f.t(30, y, "\n".join([f"Registers: 128 x {PR} + {th - 128} x {CR} = {128 * PR + (th - 128) * CR:,} / 65536"] * spec
                         + ["Epilogue: each lane stores its accumulators straight from the registers,\ncolumn pairs of "
                            "two rows (8-byte stores)"] * ("TMA_STORE" not in p)), 8.5)
    y += 14 + 26 * ("TMA_STORE" not in p)
    # (b) the ring: k-tile it uses stage it % STAGES. Warp-specialized, the consumers wait full[s] for parity
    # (it / STAGES) & 1, the producer (it >= STAGES) empty[s] for (it / STAGES + 1) & 1. Else k-tile t + AHEAD is copied
    # in iteration t, after the __syncthreads that frees its stage, AHEAD = STAGES - (WAIT_PREVIOUS ? 2 : 1)
    n = "it" if spec else "t"
    f.t(520, 110, f"(b) The ring: STAGES = {S} stages of {kb(tx)} (A {kb(a)} + B {kb(b)});\nk-tile {n} uses stage {n} "
        f"% {S}; " + ("two mbarriers per stage:" if spec else "one mbarrier per stage:" if tma else "no mbarriers, "
                      "cp.async groups:"),
        9.5)
    x, pitch = 530 + 108 * tma, min(30, 120 / S)  # the A column
    ex = x + 14 + aw + nb * cw
    if tma:
        f.c(580, 148, f"full[s]: {'the producer' if spec else 'thread 0'}\narrives (expect_tx),\nthe TMA bytes land;\n"
            + ("the consumers wait" if spec else f"all {th} wait"), 8, color=BLUE)
    f.c(x + aw / 2, 176, f"A\n{BM} x {BK}", 8)
    f.c(x + 6 + aw + nb * cw / 2, 148 + 28 * ("CLUSTER" not in p), f"B: {nb} boxes of\n{BK} k x 64 n" + "; colour:\n"
        "the block that\ncopies it (c)" * ("CLUSTER" in p), 8)
    if not spec:  # the free column: the 128-byte swizzle of the stage's rows
        swz(890, 208)
        f.c(938, 160, "rows r of A and B\n(128 bytes): chunk x\nat x ^ (r % 8)", 7.5)
        f.c(938, 284, "colour: chunk x,\n" + ("written there by\nthe TMA unit" if tma else "put there by\n"
                                                  "copy_tile"), 7.5)
    else:
        f.c((ex + 990) / 2, 148, "empty[s]: every\nconsumer warpgroup\nof the " + ("cluster" if CL > 1 else "block") +
            " arrives;\nthe producer waits", 8, color="#a0621a")
    for s in range(S):
        yy, h = 208 + s * pitch, pitch - 5
        if tma:
            f.box(530, yy, 100, h, lt(BLUE, .75), f"1 arrival, {kb(tx)}", ec=BLUE, lw=1)
        f.box(x, yy, aw, h, A_SLOT, kb(a), bold=True)
        bs(x + 6 + aw, yy, cw, h)
        if spec:
            f.box(ex, yy, 990 - ex, h, lt(ORANGE, .7), f"{empty} arrivals", ec=ORANGE, lw=1)
        f.r(526, yy + h / 2, f"s={s}" if s == 0 else str(s), 8)
    ty, its = 212 + S * pitch, range(2 * S)
    rows = [(f"k-tile {n}", list(its)), (f"stage {n} % {S}", [i % S for i in its])] + [
        ("copy issued in iteration", [i - ahead if i >= ahead else "pro." for i in its])] * (not spec) + [
        (("consumers" if spec else "all threads") + " wait full[s], parity", [i // S & 1 for i in its])] * tma + [
        ("producer waits empty[s], parity", ["-" if i < S else (i // S + 1) & 1 for i in its])] * spec
    f.grid(700, ty, [[("white" if r else LIGHT, v) for v in vals] for r, (_, vals) in enumerate(rows)], 290 / len(its),
           15, 8, ec=GREY)
    for r, (label, _) in enumerate(rows):
        f.r(696, ty + r * 15 + 7.5, label, 8)
    text = "-: the first round waits for nothing. " + ("WAIT_PREVIOUS = 1: a consumer frees\nk-tile it - 1's stage "
        "once only k-tile it's wgmmas still run (wgmma.wait_group 1)." if WP else "WAIT_PREVIOUS = 0: a consumer\n"
        "frees a stage once its wgmmas are done (wgmma.wait_group 0).")
    if not spec:  # 11-12: one __syncthreads per k-tile frees the stage of k-tile t + AHEAD
        text = "pro.: the prologue. Iteration t: " + (f"__syncthreads (the stage of k-tile t + {ahead} is\nfree), "
            "thread 0 issues its copies, every thread waits full[s]; the wgmmas." if tma else f"cp.async.wait_group "
            f"{ahead - 1} (this thread's copies\nof k-tile t have landed), fence.proxy.async, __syncthreads "
            f"(everyone's have, and\nthe stage of k-tile t + {ahead} is free), copy k-tile t + {ahead}; then the "
            "wgmmas.") + (
            f"\nWAIT_PREVIOUS = 1: {ahead} = STAGES - 2 k-tiles ahead, as k-tile t - 1's stage is\nstill read by its "
            f"wgmmas (wgmma.wait_group 1)." if WP else f"\nWAIT_PREVIOUS = 0: {ahead} = STAGES - 1 k-tiles ahead "
            "(wgmma.wait_group 0).")
    text += f"\nShared memory: {S} x {kb(tx)}" + f" + {kb(4 * buf)} of C buffers" * p.get("TMA_STORE", 0) + (
        " + alignment" + ", barriers" * tma + f" = {p['dynamic_smem'] / 1024:.1f} KB")
    f.t(520, ty + 15 * len(rows) + 6, text, 8)
    y0 = max(y, ty + 15 * len(rows) + 6 + 12 * text.count("\n") + 12) + 22  # the next panel's top
    if "CLUSTER" in p:  # each block copies its own A rows and a share of B, multicast into every block of the cluster
        RC = p["RELEASE_CLUSTER"]
        f.t(20, y0, f"({next(panel)}) The cluster: CLUSTER = {CL} blocks (an SM each) take vertically adjacent {BM}-row"
            f" tiles of C, which need the same B k-tiles.\nEach producer copies its block's A rows and 1/{CL} of the B "
            f"k-tile, multicast (mask {(1 << CL) - 1:#0{CL + 2}b}) into the same stage of every block,\nso empty[s] "
            f"counts the consumers of all {CL} blocks (2 x {CL} = {empty} arrivals) before a producer refills stage s."
            if CL > 1 else f"({next(panel)}) No cluster (CLUSTER = 1): each block's producer copies its own A rows and "
            f"the whole B k-tile with plain TMA copies\n(no multicast); empty[s] counts its {empty} consumer "
            "warpgroups.", 9.5)
        f.t(20, y0 + 44 + 14 * (CL > 1), f"A consumer warpgroup's thread r arrives on empty[s] of block rank r (mapa +"
            f" mbarrier.arrive; RELEASE_CLUSTER = {RC}: release at {'cluster' if RC else 'block'} scope)." if RC or
            CL > 1 else "A consumer warpgroup's thread 0 arrives on its block's empty[s] (mbarrier.arrive, release at "
            "block scope).", 8.5)
        top = y0 + 82 + 14 * (CL > 1)
        bot = top + 174
        k = min((bot - top + 4) / (BK + 6 + CL * BM), 250 / (BK + 6 + BN))  # to scale: A, B and C of the cluster
        cx0, cy0 = 44 + (BK + 6) * k, top - 4 + (BK + 6) * k
        for r in range(CL):
            f.box(44, cy0 + r * BM * k, BK * k, BM * k, lt(RANK[r], .25), f"A\nrank\n{r}", 7.5, bold=True)
            f.box(cx0, cy0 + r * BM * k, BN * k, BM * k, lt(RANK[r], .8), f"C rows of\nblock rank {r}", ec=DARK, lw=1)
        bs(cx0, top - 4, 64 * k, BK * k, 7.5)
        f.t(40, cy0 + CL * BM * k / 2, f"A k-tiles, {BM} x {BK} each", 7.5, rotation=90, ha="right", va="center")
        f.t(cx0 + BN * k + 4, top - 4 + BK * k / 2, f"B k-tile\n{BK} x {BN}", 7.5, va="center")
        sx, sy, src = max(330, cx0 + BN * k + 60), {}, [("A", 0)] + [("B", r) for r in range(CL)] + [("A", 1)][:CL - 1]
        sh = min(26, (bot - top) / len(src) - 6)  # what each producer copies, stacked: rank 0's A rows, the B boxes, ..
        for i, (kind, r) in enumerate(src):
            yy, mine = top + i * (bot - top - sh) / max(1, len(src) - 1), [j for j, o in enumerate(own) if o == r]
            f.box(sx, yy, 150, sh, lt(RANK[r], .2 if kind == "B" else .45), f"rank {r}: A rows, {kb(a)}" if kind ==
                  "A" else f"rank {r}: B{mine[0]}" + f"-B{mine[-1]}" * (len(mine) > 1) + f", {kb(len(mine) * 8192)}",
                  bold=True)
            sy[kind, r] = yy + sh / 2
        f.c(sx + 75, top - 17, "copied by (global -> shared)", 8)
        for r in range(CL):  # the blocks, their B slots facing the arrows
            yy = top + r * (bot - top - 62) if CL > 1 else top + (bot - top - 62) / 2
            yb = yy + (4 if r else 30)
            f.rect(580, yy, 410, 62, lt(RANK[r], .88), RANK[r], 1.4)
            f.t(588, yy + (42 if r else 6), f"block rank {r}: stage s of its shared memory; full[s] counts {kb(tx)}", 8)
            f.box(588, yb, aw, 28, A_SLOT, "A", bold=True)
            f.arrow(sx + 150, sy["A", r], 588, yb + 14, RANK[r])
            bs(594 + aw, yb, cw, 28)
            for o in range(CL):
                f.arrow(sx + 150, sy["B", o], 594 + aw + (o + .5) * (nb // CL) * cw, yb + (0 if r else 28), RANK[o], 1)
            f.t(602 + aw + nb * cw, yb, ("tma_load_multicast" if CL > 1 else "tma_load") + "\ncompletes full[s]", 7.5)
        y0 = bot + 33
    ey, wide = y0, "TMA_STORE" not in p  # the last row: the epilogue (left), the tile order (right, or wide)
    if not wide:  # C chunk q (C_CHUNK columns) goes through buffer q % 2, whose row r holds 16-byte chunk x at
        bx, y0, nq = [310, 420], ey + 66, BN // CC  # x ^ (r % 8), then a TMA store
        f.t(20, ey, f"({next(panel)}) The epilogue (TMA_STORE = 1): each consumer warpgroup sends its 64 x {BN}\n"
            f"accumulators to C {CC} columns at a time, through two 64 x {CC} FP32 buffers" if p["TMA_STORE"] else
            f"({next(panel)}) The epilogue (TMA_STORE = 0): each lane stores its accumulators straight\nfrom the "
            "registers, column pairs of two rows (8-byte stores)", 9.5)
        if p["TMA_STORE"]:
            f.t(30, y0 - 16, f"warpgroup 1's accumulators (64 x {BN})", 8)
            f.grid(30, y0, [[(lt(ORANGE, .1 + .5 * (q % 2)), f"q={q}\ncol.\n{q * CC}") for q in range(nq)]], 200 / nq,
                   72, 7 if nq > 7 else 8, lw=1)
            for u, x in enumerate(bx):
                swz(x, y0)
                f.c(x + 48, y0 - 16, f"buffer {u}", 8, weight="bold")
                f.c(x + 48, y0 + 75, "q = " + ", ".join(str(q) for q in range(u, nq, 2)), 7.5)
            f.box(550, y0, 90, 72, lt(GREEN, .75), f"C (global):\nrows row + 0 ..\ncolumns\ncol + {CC}q ..", 7.5, DARK,
                  1.2)
            for x0, x1, label, c in ((234, bx[0] - 4, "st.shared", "#a0621a"), (bx[1] + 100, 548, "TMA\nstore", GREEN)):
                f.arrow(x0, y0 + 36, x1, y0 + 36, c, 1.4)
                f.t((x0 + x1) / 2, y0 + 32, label, 7.5, ha="center", va="bottom", color=c)
            f.t(bx[0] - 10, y0 + 90, f"rows 0-7 of 64 ({CC} floats = 128 bytes each); colour: the\nlogical 16-byte "
                "chunk x of a row, held at x ^ (r % 8) as TMA expects", 7.5)
            f.t(20, ey + 180, f"Per chunk q = 0 .. {nq - 1}: thread 0 waits until buffer q % 2 has been read by its "
                f"last store\n(cp.async.bulk.wait_group.read 1); bar.sync; the 128 threads write their {CC} columns; "
                f"fence.proxy.async;\nbar.sync; thread 0 issues the TMA store ({kb(buf)}); chunk q + 1 goes to the "
                "other buffer while\nthe TMA unit writes chunk q to C.", 8.5, linespacing=1.35)
    if "PERSISTENT" in p:  # persistent blocks (clusters) and the order tile_of gives their tiles, in an example C
        rows, cols, u, ox = (G + max(1, G // 2) if G else 6), 6, "cluster" if "CLUSTER" in p else "block", 20 + 645 * (
            not wide)
        gs, gw = [G] + [0] * (wide and G > 0), cols * 44 + 30  # wide: GROUP 0 beside, for comparison
        sep, gy = " " if wide else "\n", ey + 58 + 22 * (not wide)  # wide: a heading of two lines
        f.t(ox, ey, f"({next(panel)}) PERSISTENT = {p['PERSISTENT']}: " + (f"as many {u}s as fit;{sep}{u} {u[0]} "
            f"takes work units {u[0]}, {u[0]} + {u}s, ...\n" if p["PERSISTENT"] else f"one {u} per work unit,{sep}") +
            f"in this order (an example C: M = {rows * CL * BM}, N = {cols * BN},{sep}{rows} x {cols} {u} tiles of "
            f"{CL * BM} x {BN}):", 9.5)
        for n, g in enumerate(gs):
            at, span, gx = {tile_of(i, rows, cols, g): i for i in range(rows * cols)}, g * cols or cols, ox + 15 + n*gw
            f.grid(gx, gy, [[(lt([BLUE, ORANGE][at[r, c] // span % 2], .15 + .6 * (at[r, c] % span) / span), at[r, c])
                             for c in range(cols)] for r in range(rows)], 44, 21, 8.5)
            f.rect(gx, gy, cols * 44, rows * 21, "none", DARK, 1)
            if len(gs) > 1:
                f.c(gx + cols * 22, gy - 16, f"GROUP = {g}" + (" (the default)" if n == 0 else ": row by row"), 8.5,
                    weight="bold")
        f.t(ox + 15 + len(gs) * gw if wide else ox, gy if wide else gy + 8 + rows * 21, textwrap.fill((
            f"GROUP = {G}: {G} rows of {u} tiles at a time, down the columns (shade: the order within a group), so the "
            f"tiles in flight share rows of A and columns of B in L2; the last group: {rows % G or G} rows." if G else
            "GROUP = 0: tiles row by row.") + (f" The producer and the consumers of a {u} walk the same work units, "
            "and the ring's count it (stage, parity) runs on from one tile to the next: the producer copies the next "
            "tile's first k-tiles while the consumers finish this one and store it." * (p["PERSISTENT"] and wide)),
            58 if wide else 52), 8.5, linespacing=1.35)

def draw_stream_k(f, P, sms=132, size=8192):
    """17: the last round of tiles at size^3 on this GPU's clusters, taken whole (16) and shared out (17)"""
    p = P["fp16"]
    CL, BM, BN, BK, MG = p["CLUSTER"], p["BM"], p["BN"], p["BK"], p["MIN_GAIN"]
    fit, kt = sms // CL, -(-size // BK)
    tiles = -(-(-(-size // BM)) // CL) * -(-size // BN)
    dp, ranges, begin = stream_k(tiles, kt, fit, MG)
    left, idle = tiles - tiles // fit * fit, -(-tiles // fit) * fit - tiles
    k2, t2 = kt // 2, tiles // 4  # at size / 2
    i2 = -(-t2 // fit) * fit - t2
    rh, k, y0 = 4.6, 420 / kt, 170  # a cluster's row; pixels per k-tile, the same in both panels
    f.c(500, 82, f"At {size}^3 on the H200 ({sms} SMs): {tiles} tiles of {CL * BM} x {BN} for {fit} clusters of {CL}"
        f" blocks, {kt} k-tiles each: {tiles // fit} full rounds, then {left} tiles for the last one", 9.5)
    for n, (x0, head) in enumerate(((40, f"(a) 16: the last round's {left} tiles whole, tile u by cluster u % {fit}:"
                                     f"\n{idle} clusters idle while {left} compute {kt} k-tiles"),
                                    (540, f"(b) 17: their {left * kt} k-tiles in {ranges} equal ranges, one per "
                                     f"cluster;\neach takes its pieces last to first (the tile's start first)"))):
        f.t(x0, 116, head, 9)
        for c in range(fit):
            y = y0 + c * rh
            if n == 0:
                if c < left:
                    f.rect(x0, y, kt * k, rh - 1, lt(HUES[c % len(HUES)], .35), "none")
                continue
            b, e, t = begin(c), begin(c + 1), 0
            for tile in range((e - 1) // kt, b // kt - 1, -1) if b < e else []:
                k0, k1 = max(b - tile * kt, 0), min(e - tile * kt, kt)
                f.rect(x0 + t * k, y, (k1 - k0) * k, rh - 1, lt(HUES[(tile - dp) % len(HUES)], .35), "white", .3,
                       hatch="////" if k0 else None)
                t += k1 - k0
        if n == 0:
            f.cc(x0 + kt * k / 2, y0 + (left + fit) * rh / 2, f"clusters {left}-{fit - 1}: idle", 9, color="#777777")
        f.line([x0, x0 + kt * k], [y0 + fit * rh + 2] * 2, DARK, 1)
        f.ticks(x0, y0 + fit * rh + 2, range(0, kt + 1, kt // 4), k)
        f.c(x0 + kt * k / 2, y0 + fit * rh + 16, "k-tiles of the last round, in the order each cluster computes them",
            8)
        f.ticks(x0, y0 + rh / 2, [0, fit // 2, fit - 1], rh, down=True)
        f.t(x0 - 26, y0 + fit * rh / 2, "cluster", 8, rotation=90, ha="right", va="center")
    end = y0 + fit * rh + 40
    f.legend(40, end, [(lt(BLUE, .35), "a piece that starts its tile: stored into C, then a flag")])
    f.legend(540, end, [(lt(BLUE, .35), "a later piece: waits for the flag, added into C", "////")])
    f.t(40, end + 24, textwrap.fill(
        f"Colour: the tile. The flag counts a tile's pieces in C; the piece that ends a tile waits for those of the "
        f"clusters before it, which computed them first. Stream-K runs where the clusters idle in the last round ({idle}"
        f" here) times the k-tiles of a tile, over the clusters, exceeds MIN_GAIN = {MG}: here {idle} x {kt} / {fit} ="
        f" {idle * kt / fit:.1f} k-tiles saved per cluster. Each cluster pays a second epilogue and a wait for it: at "
        f"{size // 2}^3 the last round leaves {i2} clusters idle, {i2 * k2 / fit:.1f} k-tiles each, and the tiles "
        "stay whole.", 160), 8.5)

def draw_deferred(f, P, ktile=2.0):
    """18: a tile's end at one SM, schematic: 17 stores every chunk of C in the epilogue, 18 leaves DEFER to the
    next tile's k-loop"""
    p = P["fp16"]
    chunks, D = p["BN"] // p["C_CHUNK"], p["DEFER"]
    f.c(500, 70, f"Schematic, not measured. One unit: the time the TMA unit takes to write one chunk of C ({p['C_CHUNK']}"
        f" columns) of both consumer warpgroups,\n16 KB; a k-tile of wgmma: {ktile:g} units. Tile i's last wgmma ends at "
        f"{2 * ktile:g}.", 9)
    f.legend(150, 106, [(ORANGE, "wgmma (the tensor pipe)"), (GREEN, "a chunk written to a buffer"),
                       (BLUE, "the TMA unit writes it to C")])
    for n, (d, title) in enumerate(((0, f"(a) 17: all {chunks} chunks in the epilogue, through 2 buffers per "
                                        "warpgroup: chunk q waits until chunk q - 2 has left"),
                                    (D, f"(b) 18: the first {chunks - D} in the epilogue, the last {D} kept in "
                                        "registers and written at every other k-tile of the next tile"))):
        ev, resume = deferred(chunks, d, ktile)
        y, end = 165 + n * 170, 18
        f.t(150, y - 24, title, 9.5)
        bars = [(0, -2 * ktile, 0, ORANGE, "tile i"), (0, resume, end, ORANGE, "tile i + 1")]
        bars += [(r, a, min(b, end), GREEN if r == 1 else BLUE, str(q)) for r, a, b, q in ev if a < end]
        f.bars(150, y, 800, end + 2 * ktile, ["tensor pipe", "consumers", "TMA unit"],
               [(r, a + 2 * ktile, b + 2 * ktile, *rest) for r, a, b, *rest in bars], 36, 2, 7)
        x = 150 + (resume + 2 * ktile) * 800 / (end + 2 * ktile)
        f.line([x, x], [y, y + 108], RED, 1.2, ls="--")
        f.t(x + 4, y - 10, f"tile i + 1's k-loop starts at {resume + 2 * ktile:g}", 8, color=RED)
    f.t(40, 495, textwrap.fill(
        f"Chunk numbers in the bars. In (b) the k-loop resumes {deferred(chunks, 0, ktile)[1] - deferred(chunks, D, ktile)[1]:g} units "
        f"earlier; the last {D} chunks leave while the tensor pipe works. They take {D * 16} of the consumers' "
        "registers per thread while they wait (a chunk is 16 sums per thread: a warpgroup's 64 x 32). The units are the "
        "prediction's, not a measurement: 17's epilogue measured about 5,800 cycles, and 18 saves about 1,670 at each "
        "tile end with a next k-loop at 4096 (README, Measured).", 152), 8.5)

def rule_rounds(M, N, K, P, clusters, shapes, costs, straddle=False):
    """19's and 22's rule: per tile (rows, columns, tiles, full rounds, stream-K?, rounds counted, cost of a
    k-tile, count); the tile taken (the first, unless another counts below MARGIN times the best)"""
    kt, out, best = -(-K // P["BK"]), [], None
    for (h, w), cost in zip(shapes, costs):
        tiles = -(-(-(-M // h)) // P["CLUSTER"]) * -(-N // w)
        r, idle = -(-tiles // clusters), -(-tiles // clusters) * clusters - tiles
        sk = idle * kt > P["MIN_GAIN"] * clusters
        counted = tiles / clusters + float(P["STREAM_K_TAIL"]) if sk else r
        c = max(cost, (h + w) / 384) if straddle else cost  # 22: a k-tile costs at least its bytes
        out.append((h, w, tiles, r, sk, counted, c, counted * c))
        if best is None or counted * c < float(P["MARGIN"]) * best[7]:
            best = out[-1]
    return out, best

def tile_choice(M, N, K, P, clusters):
    """19's rule (tile_width): per width (tiles, full rounds, stream-K?, rounds counted, cost); the width taken"""
    widths, costs = [int(w) for w in P["WIDTHS"].split(",")], [float(c) for c in P["KTILE_COST"].split(",")]
    out, best = rule_rounds(M, N, K, P, clusters, [(P["BM"], w) for w in widths], costs)
    return [(w, tiles, r, sk, counted, cost) for _, w, tiles, r, sk, counted, _, cost in out], best[1]

def draw_tile_choice(f, P, sms=132, sizes=(1024, 2304, 3000, 4096)):
    """19: the rule's count for each width at a few squares on this GPU, the width it takes"""
    p = P["fp16"]
    clusters = sms // p["CLUSTER"]
    f.c(500, 66, f"On the H200 ({sms} SMs): {clusters} clusters of {p['CLUSTER']} blocks; a round gives each "
        f"cluster one tile of {p['CLUSTER']} x {p['BM']} rows. Bar (to scale within each size):\nthe rounds of tiles "
        "times the cost of one k-tile of that width (256 columns: 1), as the rule counts them", 9)
    f.legend(250, 106, [(ORANGE, "the width the rule takes"), (lt(BLUE, .45), "the others"),
                        (lt(BLUE, .45), "stream-K shares out the last round", "////")])
    y = 134
    for size in sizes:
        rows, taken = tile_choice(size, size, size, p, clusters)
        k = 400 / max(r[5] for r in rows)
        f.t(40, y, f"{size}^3", 10, weight="bold")
        for i, (w, tiles, r, sk, counted, cost) in enumerate(rows):
            yy = y + 18 + i * 19
            f.r(190, yy + 7, f"{w} columns: {tiles} tiles")
            f.rect(200, yy, cost * k, 14, ORANGE if w == taken else lt(BLUE, .45), "white", .6,
                   hatch="////" if sk else None)
            last, c = tiles - (r - 1) * clusters, cost / counted
            f.t(205 + cost * k, yy + 7, f"{cost:.2f} = " + (f"{counted:.2f} rounds x {c:g} (stream-K: {tiles} / "
                f"{clusters} + {float(p['STREAM_K_TAIL']):g})" if sk else f"{plural(r, 'round')} x {c:g} (the last "
                f"with {last} of {clusters} clusters busy)"), 8, va="center")
        y += 18 + 19 * len(rows) + 14
    costs = ", ".join(f"{w}: {c}" for w, c in zip(p["WIDTHS"].split(","), p["KTILE_COST"].split(",")))
    f.t(40, y + 4, textwrap.fill(
        f"Costs of a k-tile, measured at 4096^3 with every SM busy: {costs}. A narrower width is taken only where it counts at least "
        f"{1 - float(p['MARGIN']):.0%} less. Where stream-K would share out the last round (idle clusters x k-tiles > "
        f"MIN_GAIN = {p['MIN_GAIN']} x {clusters}), the rule counts that round as its share plus "
        f"{float(p['STREAM_K_TAIL']):g}, for the pieces' additions into C (a chosen value; the README gives the measured "
        "cost).", 160), 8.5)

def draw_skinny(f, P, sms=132, M=16, N=8192, K=8192):
    """20: at M = 16, 19's tile of C (128 rows, 16 real) against 20's tile of C^T (128 of B's columns x 16)"""
    p = P["fp16"]
    BM, BK, CL, clusters = p["BM"], p["BK"], p["CLUSTER"], sms // p["CLUSTER"]
    rows19, w19 = tile_choice(M, N, K, p, clusters)
    tiles19 = next(r[1] for r in rows19 if r[0] == w19)
    t20 = -(-(-(-N // BM)) // CL) * -(-M // 16)
    cut = min(2, clusters // t20)
    f.c(500, 66, f"C = A B with M = {M}, N = K = {N} on the H200 ({sms} SMs: {clusters} clusters of {CL} blocks).\n"
        f"The product the kernel computes has tiles of {BM} rows: two consumer warpgroups of 64 (wgmma's M).", 9)
    px = 1.2  # pixels per row or column of a tile
    for i, (y, head) in enumerate([(104, f"(a) 19: C = A B in tiles of {BM} x {w19} (its rule's width here)"),
                                   (330, f"(b) 20: C^T = B^T A^T in tiles of {BM} x {M}, since C has at most "
                                         f"{p['SWAP_ROWS']} rows and more columns")]):
        f.t(40, y, head, 10, weight="bold")
        x0, y0 = 300, y + 40
        w = w19 if i == 0 else M
        if i == 0:
            f.rect(x0, y0, w * px, M * px, ORANGE)
            f.rect(x0, y0 + M * px, w * px, (BM - M) * px, LIGHT, GREY, hatch="////")
            f.r(x0 - 8, y0 + M * px / 2, f"C's {M} rows")
            f.r(x0 - 8, y0 + (M + BM) * px / 2, f"rows {M}-{BM - 1}: past A, zeros from TMA,\nmultiplied all the same")
            f.c(x0 + w * px / 2, y0 - 14, f"{w} of C's columns (B's tile: {BK} k x {w}, MN-major)")
            f.t(x0 + w * px + 20, y0, textwrap.fill(
                f"{tiles19} tiles: one row of tiles across N, one a cluster. A cluster's second block takes rows "
                f"{BM}-{2 * BM - 1} and has none; the first spends {M} of its {BM} rows' work on C: "
                f"{M / BM / CL:.2%} of the tensor work is C. A k-tile reads {BM} x {BK} halves of A ({BM * BK * 2 // 1024} KB "
                f"of shared memory, {M * BK * 2 // 1024} KB of them A's {M} rows) and {BK} x {w} of B.", 62), 8.5)
        else:
            f.rect(x0, y0, w * px, BM * px, ORANGE)
            f.line([x0, x0 + w * px], [y0 + 64 * px] * 2, "white", 1)
            f.r(x0 - 8, y0 + BM * px / 2, f"{BM} of B's columns, as rows:\nB^T's tile, {BM} x {BK} k, read\n"
                "MN-major from B's rows (wgmma's A,\ntransposed; 64 rows a warpgroup)")
            f.c(x0 + w * px / 2, y0 - 14, f"A's {M} rows as columns: A^T's tile, {BK} k x {M}, K-major (wgmma's B, n = {M})")
            f.t(x0 + w * px + 20, y0 + 30, textwrap.fill(
                f"Every row and column is C's. {-(-N // BM)} tiles of {BM} rows make {t20} cluster tiles (a "
                f"cluster's two blocks take adjacent ones): fewer than the {clusters} clusters, so each is cut in {cut} along K ({t20 * cut} clusters "
                f"busy), and the pieces add into C in turn. A k-tile reads {BM} x {BK} halves of B (16 KB) and "
                f"{M} x {BK} of A ({M * BK * 2 // 1024} KB); B is read once, so the time is B's bytes at DRAM speed. "
                f"C leaves from the registers, transposed: element (r, c) of C^T is C's (c, r).", 62), 8.5)
    f.t(40, 560, textwrap.fill(
        f"Stages: 12, 10 and 8 for {M}, 32 and 64 columns (the loads of B are the work). 65-{p['SWAP_ROWS']} rows take two tiles "
        "of 64 columns, which fill twice the clusters that one of 128 would. Elsewhere 20 runs 19.", 148), 8.5)

def draw_staging(f, P, shift=3, cols=4095, chunk=32):
    """21: a 16-byte chunk of the copy from two aligned loads; C's rows written from the buffer a row a store"""
    f.c(500, 66, f"At {cols}^3 a row of A or B is {2 * cols} bytes and a row of C {4 * cols}: neither is a multiple of 16, so TMA\n"
        "can describe neither (it reads and writes rows of 16-byte multiples that start 16-byte aligned).", 9)
    # (a) the copy
    f.t(40, 106, "(a) stage_kernel: one 16-byte chunk of the aligned copy per thread", 10, weight="bold")
    x0, y0, cw = 150, 154, 22  # a half per cell
    for w in range(3):
        for h in range(8):
            i = 8 * w + h
            inside = shift <= i < shift + 8
            f.rect(x0 + i * cw, y0, cw, 22, ORANGE if inside else lt(BLUE, .35), "white", .6)
        f.rect(x0 + 8 * w * cw, y0, 8 * cw, 22, "none", DARK, 1.2)
        f.c(x0 + (8 * w + 4) * cw, y0 + 26, f"16-byte word {w}" + (" (loaded)" if w < 2 else ""), 8)
    f.r(x0 - 8, y0 + 11, "source row: halves")
    f.c(x0 + (shift + 4) * cw, y0 - 16, f"the chunk's 8 halves start {2 * shift} bytes into word 0", 8, color=ORANGE)
    y1 = y0 + 80
    for h in range(8):
        f.rect(x0 + h * cw, y1, cw, 22, ORANGE, "white", .6)
    f.rect(x0, y1, 8 * cw, 22, "none", DARK, 1.2)
    f.r(x0 - 8, y1 + 11, "the copy")
    f.t(x0 + 8 * cw + 10, y1 + 11, "one 16-byte store, aligned", 8, va="center")
    f.arrow(x0 + (shift + 4) * cw, y0 + 40, x0 + 4 * cw, y1 - 4)
    f.t(x0 + (shift + 4) * cw + 8, y0 + 46, f"two aligned 16-byte loads, shifted right by {2 * shift} bytes (funnel shifts)", 8)
    f.t(x0 + 24 * cw + 20, y0 - 4, textwrap.fill(
        "The next thread's chunk starts 16 bytes further: it loads words 1 and 2, and L1 serves the word the two share. "
        "Each row of the copy is padded to a multiple of 8 halves; past a row's end a chunk carries the next row's first "
        "halves, which TMA never reads (the tensor map is as wide as the matrix). Only the matrix's last chunks go half "
        "by half, so that no load passes its end.", 44), 8.5)
    # (b) C's rows
    y = 312
    f.t(40, y, "(b) C where TMA cannot write it: the buffer's rows, 128 bytes a store, by the warp that wrote them", 10, weight="bold")
    bx, by, rh = 60, y + 40, 9
    for r in range(8):
        f.rect(bx, by + r * rh, 160, rh, lt(ORANGE, .6) if r != 7 else ORANGE, "white", .5)
    f.c(bx + 80, by - 14, f"a consumer's buffer: 64 rows x {chunk} floats", 8)
    f.t(bx, by + 8 * rh + 4, "... (rows 8-63)", 8)
    cx, cy, fw = 330, by + 7 * rh - 4, 8  # C's row, fw pixels a float; 32-byte sectors of 8 floats
    for sct in range(6):
        f.rect(cx + sct * 8 * fw, cy, 8 * fw, 18, LIGHT, DARK, 1)
    off = 1  # row r0 + 7 of rows of 4 * cols bytes starts 4 * cols * 7 % 32 = 4 bytes past a sector
    f.rect(cx + off * fw, cy + 3, chunk * fw, 12, ORANGE, "white", .6)
    f.c(cx + 24 * fw, cy + 24, f"C's row r0 + 7 in 32-byte sectors: rows of {4 * cols} bytes start 28 r mod 32 bytes past one;\n"
        "this one 4, and its 32 floats touch 5 (7 rows in 8 touch 5, one 4)", 8)
    f.arrow(bx + 165, by + 7.5 * rh, cx - 6, cy + 9)
    f.t(bx + 175, by + 7.5 * rh - 22, "32 lanes, a float each", 8)
    f.t(40, y + 172, textwrap.fill(
        "Each consumer warp writes its 16 rows of a chunk into the buffer, as for the TMA store, then reads them back a row "
        "at a time: 32 lanes, a float each, one coalesced store per row (5 sectors for 128 bytes in 7 rows of 8). "
        "The chunks that 18 defers go out this way during the next k-loop; the others "
        "leave in the epilogue, where the consumers issue every store themselves (the TMA store hands a chunk over and "
        "goes on). From the registers (20) one store of a warp covers 8 rows, every other float of 8, where N is odd.",
        150), 8.5)

def tile_shape(M, N, K, P, clusters):
    """22's rule (tile_shape): per tile (rows, columns, tiles, stream-K?, rounds counted, cost); the tile taken"""
    shapes = [tuple(int(v) for v in t.split("x")) for t in P["TILES"].split(",")]
    straddle = -(-K // 8) % 2 == 1 or -(-N // 8) % 2 == 1  # rows_straddle: an odd number of 16-byte units
    out, best = rule_rounds(M, N, K, P, clusters, shapes, [float(c) for c in P["KTILE_COST"].split(",")], straddle)
    return [(h, w, tiles, sk, counted, c, cost) for h, w, tiles, _, sk, counted, c, cost in out], best[:2], straddle

def draw_tall(f, P, sms=132, size=3000, aligned=3008):
    """22: a box's 128-byte rows over L2's lines at 3000 and 3008; the rule's count there; the 192-row block"""
    p = P["fp16"]
    clusters = sms // p["CLUSTER"]
    f.c(500, 66, f"A row of A is 2K bytes, of B 2N: at {size} halves {2 * size} bytes, an odd number of 16-byte units, "
        f"so row r of a box of A starts {2 * size % 128} r mod 128 bytes\ninto a 128-byte line: 7 rows in 8 take two "
        f"requests, the odd ones five 32-byte sectors. At {aligned} ({2 * aligned} bytes) every row starts a line.", 9)
    px = .8  # pixels per byte
    for i, n in enumerate([size, aligned]):
        x0, y0 = 50 + i * 480, 132
        f.t(x0, y0 - 22, f"({'ab'[i]}) {n}^3: rows 0-7 of a box of A over lines of 128 bytes", 9, weight="bold")
        for line in range(3):
            f.rect(x0 + line * 128 * px, y0, 128 * px, 8 * 15, "none", GREY, .8)
        for r in range(8):
            off = 2 * n * r % 128
            two = off > 0
            f.rect(x0 + off * px, y0 + r * 15 + 2, 128 * px, 11, ORANGE if two else lt(BLUE, .35), "white", .6)
            f.t(x0 + 3 * 128 * px + 8, y0 + r * 15 + 7.5, f"row {r}: {plural(1 + two, 'request')}", 7.5, va="center")
    rows, taken, straddle = tile_shape(size, size, size, p, clusters)
    y = 290
    f.t(40, y, f"(c) The rule at {size}^3 on the H200 ({clusters} clusters of {p['CLUSTER']}): rounds of tiles x the cost "
        "of a k-tile" + (",\nat least its bytes against 128 x 256's, (rows + columns) / 384, since rows start inside sectors"
                         if straddle else ""), 9, weight="bold")
    f.legend(250, y + 34, [(ORANGE, "the tile the rule takes"), (lt(BLUE, .45), "the others"),
                           (lt(BLUE, .45), "stream-K shares out the last round", "////")])
    k = 400 / max(r[6] for r in rows)
    for j, (h, w, tiles, sk, counted, c, cost) in enumerate(rows):
        yy = y + 58 + j * 19
        f.r(190, yy + 7, f"{h} x {w}: {tiles} cluster tiles")
        f.rect(200, yy, cost * k, 14, ORANGE if (h, w) == taken else lt(BLUE, .45), "white", .6,
               hatch="////" if sk else None)
        f.t(205 + cost * k, yy + 7, f"{cost:.2f} = " + (f"{counted:.2f} rounds" if sk else plural(counted, "round"))
            + f" x {c:.3g}", 8, va="center")
    y += 58 + 19 * len(rows) + 18
    st, kb = p["TALL_STAGES"], (192 + 192) * p["BK"] * 2 // 1024
    f.t(40, y, "(d) The 192 x 192 block", 9, weight="bold")
    f.t(40, y + 18, textwrap.fill(
        f"512 threads: a producer warpgroup and three consumer warpgroups of 64 rows each (wgmma's M), 96 accumulators a "
        f"thread. A k-tile loads 192 + 192 rows of 128 bytes for 192 x 192 multiply-adds a k, where 128 x 192 loads 320 "
        f"for 128 x 192: {1 - 384 / (192 * 192) / (320 / (128 * 192)):.0%} fewer bytes per multiply-add. {st} stages of {kb} KB "
        f"and one 8 KB C buffer per consumer warpgroup: {st * kb + 24} KB of shared memory (21's two buffers each would "
        f"leave room for three stages).", 140), 8.5)


def draw_beta(f, P, size=2048):
    """23: where C's old values meet the product with beta not 0: 22's epilogue against 23's pass
    and adds in L2; the DRAM bytes of one launch at size^3, computed"""
    mb = lambda n: n / 1e6
    ab, c = 2 * 2 * size * size, 4 * size * size  # A and B (2 bytes an element), C (4)
    f.c(500, 66, "C = alpha A B + beta C. Through 22, where beta is not 0 the TMA unit does not write C: each lane "
        "loads old C\nbeside its accumulators, 8 bytes a load, after the tile's k-loop. Here the launcher scales C "
        "first and the kernel adds into it.", 9)
    f.t(40, 110, "(a) One tile's end, and the launch (not to scale)", 9, weight="bold")
    rows = ["22, beta not 0", "23, beta 1", "23, beta 0.5"]
    f.bars(200, 132, 720, 100, rows, [
        (0, 0, 60, BLUE, "k-loop: wgmma"), (0, 60, 92, RED, "load old C, add, store"),
        (1, 0, 60, BLUE, "k-loop: wgmma"), (1, 60, 70, ORANGE, "TMA adds"), (1, 70, 100, LIGHT, "next tile's k-loop"),
        (2, 0, 14, GREEN, "C = beta C"), (2, 14, 74, BLUE, "k-loop: wgmma"), (2, 74, 84, ORANGE, "TMA adds"),
        (2, 84, 100, LIGHT, "next tile")], 34)
    f.t(200, 240, "Red: the consumers wait on DRAM for old C; nothing hides it. Orange: the TMA unit adds each chunk "
        "into C in L2\nwhile the consumers go on (as 22's stream-K pieces add). Green: one pass over C before the "
        "kernel, C read and written.", 8.5)
    f.t(40, 292, f"(b) DRAM bytes of one launch at {size}^3 (MB, computed: A and B FP16, C FP32)", 9, weight="bold")
    cases = [("beta 0", [(ab, BLUE, "A, B"), (c, PURPLE, "C written")]),
             ("22 (any beta), 23 beta 1", [(ab, BLUE, "A, B"), (c, RED, "C read"), (c, PURPLE, "C written")]),
             ("23, beta 0.5", [(ab, BLUE, "A, B"), (c, GREEN, "pass: C read"), (c, GREEN, "pass: C written"),
                               (c, RED, "C read"), (c, PURPLE, "C written")])]
    k = 560 / (ab + 4 * c)
    for i, (label, parts) in enumerate(cases):
        y, x = 318 + i * 30, 200
        f.r(190, y + 10, label)
        for n, fc, name in parts:
            f.box(x, y, n * k, 20, fc, f"{name} {mb(n):.1f}", 7.5)
            x += n * k
        f.t(x + 6, y + 10, f"{mb(sum(n for n, *_ in parts)):.1f} MB", 8, va="center")
    f.t(40, 418, "The same bytes with beta 1 in 22 and 23: what changes is who waits for them. With beta not 1 the "
        "pass adds C's bytes twice, what\nit costs at copy speed (timed, cuBLAS's beta 0.5 costs it nothing over beta 1 at 3000^3, 96.6 against 96.4 us).", 8.5)

def cluster_tiles(rows, cols, tm, bn, cluster, side):
    """24's cluster_tiles: the cluster tiles covering rows x cols, a cluster's tiles stacked or side by side"""
    r, c = -(-rows // tm), -(-cols // bn)
    return r * -(-c // cluster) if side else -(-r // cluster) * c

def draw_pairs(f, P, shapes=((128, 4096, 4096), (128, 8192, 8192))):
    """24: a cluster's two 128 x 64 tiles of C^T stacked (23: they share the product's B tile, A^T's) and side by side
    (24: its A tile, B^T's); the bytes a cluster copies from L2 per k-tile, and per launch at `shapes` (cluster tiles
    as cluster_tiles counts them)"""
    p = P["fp16"]
    BK, CL = p["BK"], p["CLUSTER"]
    BM, BN = 128, 64
    a_kb, b_kb = BM * BK * 2 // 1024, BK * BN * 2 // 1024  # a k-tile of A's tile and of B's, KB
    f.c(500, 66, f"A cluster of {CL} blocks, each computing a tile of {BM} x {BN} of C^T = B^T A^T (C of 65-{p['SWAP_ROWS']} "
        f"rows). Per k-tile ({BK} k) a tile needs {a_kb} KB of the product's A\n(B^T's rows) and {b_kb} KB of its B "
        "(A^T's). The tile a cluster's blocks share is copied once from L2 (multicast into both blocks); the other, once "
        "per block.", 9)
    px = .9
    side_kb, stacked_kb = a_kb + CL * b_kb, CL * a_kb + b_kb
    for i, side in enumerate([False, True]):
        x0, y0 = 60 + i * 470, 140
        f.t(x0 - 20, y0 - 26, ["(a) 23: stacked, A^T's tile shared", "(b) 24: side by side, B^T's tile shared"][i], 10,
            weight="bold")
        ax, bx = x0, x0 + BK * px + 14  # A's k-tile at the left, C's tiles right of it, B's above them
        cy = y0 + BK * px + 14
        for b in range(CL):  # block b's tile of C
            cx, ty = (bx + b * BN * px, cy) if side else (bx, cy + b * BM * px)
            f.box(cx, ty, BN * px, BM * px, lt(HUES[b], .35), f"block {b}", 8)
        for b in range(CL):  # who copies which rows of A (side: half each, into both) and columns of B
            if side:
                h = BM // CL * px
                f.box(ax, cy + b * h, BK * px, h, HUES[b], f"{a_kb // CL} KB", 7.5)
                f.box(bx + b * BN * px, y0, BN * px, BK * px, HUES[b], f"{b_kb} KB", 7.5)
            else:
                f.box(ax, cy + b * BM * px, BK * px, BM * px, HUES[b], f"{a_kb} KB", 7.5)
        if not side:  # B's tile is one 64-column box: the blocks' shares of it are none and all of it
            f.box(bx, y0, BN * px, BK * px, HUES[CL - 1], f"{b_kb} KB", 7.5)
        f.c(ax + BK * px / 2, y0 + BK * px / 2 - 6, "B^T's k-tile\nbelow, A^T's\nto the right", 7.5)
        note = (f"Block b copies half of B^T's tile into both blocks and all of its own A^T tile: {a_kb} + {CL} x {b_kb} = "
                f"{side_kb} KB a k-tile" if side else f"Block b copies its own B^T tile, and block {CL - 1} A^T's tile into "
                f"both blocks (one box, the last block's share): {CL} x {a_kb} + {b_kb} = {stacked_kb} KB a k-tile")
        f.t(x0 - 20, cy + (BM if side else CL * BM) * px + 14, textwrap.fill(note + " from L2 for the cluster.", 70), 8.5)
    y = 510
    f.t(40, y, "(c) Bytes a launch copies from L2, computed: cluster tiles x k-tiles x KB a k-tile", 9, weight="bold")
    f.t(40, y + 16, "The README has them measured. C's own tiles of 128 x 64 (A's tile the larger) stay stacked: side by "
        "side they ran slower.", 8.5)
    rows, most = [], 0
    for m, n, k in shapes:
        rows_, cols_ = (n, m) if m <= p["SWAP_ROWS"] and m < n else (m, n)  # C^T for few rows
        kt = -(-k // BK)
        for sd in (False, True):
            tiles = cluster_tiles(rows_, cols_, BM, BN, CL, sd)
            mb = tiles * kt * (side_kb if sd else stacked_kb) * 1024 / 1e6
            rows.append((f"{m} x {n} x {k}", sd, tiles, mb))
            most = max(most, mb)
    k = 540 / most
    for j, (label, sd, tiles, mb) in enumerate(rows):
        yy = y + 40 + j * 20
        f.r(340, yy + 7, f"{label}, {'side by side' if sd else 'stacked'}: {tiles} cluster tiles")
        f.rect(350, yy, mb * k, 14, ORANGE if sd else lt(BLUE, .45), "white", .6)
        f.t(355 + mb * k, yy + 7, f"{mb:.0f} MB", 8, va="center")

def short_tiles(m, n, sms=132):
    """25's rule (gemm_choose): C^T's width for m rows, and whether its tiles of 64 rows fit in one round of sms"""
    w = 16 if m <= 16 else 32 if m <= 32 else 64
    return w, -(-n // 64) * -(-m // w) <= sms

def draw_short(f, P, shape=(128, 4096, 4096), sms=132, plan=((16, 4096, 4096), (16, 8192, 8192), (64, 8192, 8192),
                                                            (128, 4096, 4096), (128, 8192, 8192))):
    """25: C^T's tiles of 128 rows in clusters of two (24), cut in two along K where there are fewer than clusters,
    against tiles of 64 rows, twice as many, in clusters of one (schematic timelines); the tiles at the plan's skinny
    shapes on the H200's 132 SMs"""
    p = P["fp16"]
    BK, CL = p["BK"], p["CLUSTER"]
    m, n, k = shape
    kt, clusters = -(-k // BK), sms // CL
    f.c(500, 66, f"C of {m} x {n} x {k}, computed as C^T = B^T A^T ({n} x {m}) in tiles 64 columns of C^T (C's "
        f"rows) wide, drawn here as C: its {m} rows down,\n{n} columns across. Each block does the same multiply-adds "
        f"in both: 24's half tiles, {kt // 2} k-tiles of 128 x 64, or 25's whole tiles, {kt} k-tiles of 64 x 64.", 9)
    tall = -(-n // 128) * -(-m // 64)
    for i, rows in enumerate([128, 64]):
        y = 120 + i * 100
        f.t(40, y, f"(a) 24: {tall} tiles of 128 x 64 of C^T, {tall // CL} clusters of {CL} (a column here) on "
            f"{clusters}: each tile cut in two along K, {2 * tall} pieces" if rows == 128 else
            f"(b) 25: {2 * tall} tiles of 64 x 64 on {sms} SMs, clusters of one: each tile whole, all of K", 9.5, weight="bold")
        cols = -(-n // rows)
        f.grid(40, y + 20, [[lt(HUES[c % 2 if rows == 128 else (c + r) % 2], .2 + .35 * r * (rows == 128))
                             for c in range(cols)] for r in range(-(-m // 64))], 920 / cols, 22)
    f.legend(40, 292, [(lt(BLUE, .2), "24: the tile of a cluster's first block (a column: one cluster)"),
                       (lt(BLUE, .55), "of its second block"), (BLUE, "25: each block's own tile (hues alternate)")], 8)
    y = 340
    f.t(40, y, "(c) One tile, schematic: the same multiply-adds a block, k-loops as long (store, wait, adds not to "
        "scale)", 9.5, weight="bold")
    f.bars(300, y + 24, 600, kt + 34, ["24: first piece", "24: second piece", "25: one block"],
           [(0, 0, kt, BLUE, f"k-tiles 0-{kt // 2 - 1} of 128 x 64"), (0, kt, kt + 8, GREY, "store"),
            (1, 0, kt, ORANGE, f"k-tiles {kt // 2}-{kt - 1} of 128 x 64"), (1, kt, kt + 10, LIGHT, "waits", "//"),
            (1, kt + 10, kt + 34, RED, "adds, atomics"),
            (2, 0, kt, GREEN, f"k-tiles 0-{kt - 1} of 64 x 64"), (2, kt, kt + 8, GREY, "store")], 26)
    y = 480
    f.t(40, y, f"(d) The rule at the benchmark's skinny shapes: tiles of 64 rows where {sms} blocks take them all",
        9.5, weight="bold")
    for j, (mm, nn, kk) in enumerate(plan):
        w, fits = short_tiles(mm, nn, sms)
        t128 = -(-nn // 128) * -(-mm // w)
        cut = sms // (2 * t128) >= 2  # the launcher's two ranges a tile where a tile has two blocks or more
        f.t(60, y + 22 + j * 18, f"{mm} x {nn} x {kk}: C^T {w} columns wide; {t128} tiles of 128 rows, "
            f"{2 * t128} of 64: " + (f"tiles of 64 rows, {'cut in two along K' if cut else 'whole'}" if fits
                                     else "24's tiles of 128 rows"), 8.5,
            color=DARK if fits else "#777777")

def four_rounds(m, n, k, P, pairs=66, fours=30):
    """26's in_fours for 128 x 256 tiles: the rounds counted in pairs and, costed, in clusters of four (H200: 66 and
    30 fit), by 19's and 22's count"""
    count = lambda cl, fit: rule_rounds(m, n, k, {**P, "CLUSTER": cl}, fit, [(128, 256)], [1.0])[0][0][5]
    return count(2, pairs), count(4, fours) * float(P["FOUR_KTILE_COST"])

def draw_fours(f, P, shapes=((4096, 4096, 4096), (5000, 5000, 5000), (4096, 4096, 5000), (9000, 9000, 9000))):
    """26: 128 x 256 tiles stacked in pairs (25) and in fours (26): who copies which of the B tile's 64-column boxes;
    a box's rows against L2's 128-byte lines where a row is 10,000 bytes; the rule's rounds at `shapes`"""
    p = P["fp16"]
    BK, px = p["BK"], .42
    f.c(500, 66, "Stacked tiles of 128 x 256 share the B tile (4 boxes of 64 columns, 8 KB a k-tile each): each block "
        "copies its share of the boxes\ninto all of the cluster's blocks (multicast), and its own A tile (16 KB). Where "
        "rows of A or B straddle L2's 128-byte lines, 7 rows of a box in 8\ncost two lines each: a share of fewer boxes, "
        "fewer requests per block.", 9)
    for i, cl in enumerate((2, 4)):
        x0, y0 = 70 + i * 330, 165
        f.t(x0 - 30, y0 - 36, ["(a) 25: pairs", "(b) 26: clusters of four"][i], 10, weight="bold")
        bx, cy = x0 + BK * px + 10, y0 + BK * px + 10
        for b in range(4):  # the B tile's boxes, coloured by the block that copies them
            f.box(bx + b * 64 * px, y0, 64 * px, BK * px, HUES[b * cl // 4], "B", 7)
        for b in range(cl):
            f.box(x0, cy + b * 128 * px, BK * px, 128 * px, HUES[b], "A", 7.5)
            f.box(bx, cy + b * 128 * px, 256 * px, 128 * px, lt(HUES[b], .4), f"block {b}", 8)
        lines = 240 + 4 // cl * 120
        f.t(x0 - 30, cy + cl * 128 * px + 8, textwrap.fill(f"A block copies {4 // cl} of the B tile's boxes: a k-tile "
            f"asks L2 for 240 + {4 // cl} x 120 = {lines} lines (rows straddling), {'66' if cl == 2 else '30'} clusters "
            f"fit on the H200 ({'132' if cl == 2 else '120'} SMs)", 44), 8.5)
    x0, y0 = 740, 125
    f.t(x0 - 50, y0 - 4, "(c) 8 rows of a box, 10,000 B apart", 10, weight="bold")
    for r in range(8):
        off = 10000 * r % 128
        y = y0 + 24 + r * 16
        f.rect(x0 + off * .9, y, 128 * .9, 11, ORANGE if off else BLUE)
        f.r(x0 - 4, y + 5, f"row {r}", 7.5)
    for q in range(3):
        f.line([x0 + q * 128 * .9] * 2, [y0 + 18, y0 + 24 + 8 * 16], DARK, 1)
    f.t(x0 - 50, y0 + 162, textwrap.fill("Lines of 128 bytes (vertical): 7 rows in 8 touch two, so a 64-row box asks "
        "for 120 lines (aligned rows: 64), A's 128 rows for 240.", 40), 8.5)
    y = 525
    f.t(40, y, f"(d) The rule for 128 x 256 tiles where A's and B's rows straddle lines: clusters of four where\n"
        f"their rounds x {p['FOUR_KTILE_COST']} < {p['MARGIN']} x the rounds in pairs", 9.5, weight="bold")
    for j, (m, n, k) in enumerate(shapes):
        two, four = four_rounds(m, n, k, p)
        both = -(-k // 8) % 2 == 1 and -(-n // 8) % 2 == 1
        pick = "pairs: not both A's and B's rows straddle" if not both else "fours" if four < float(p["MARGIN"]) * two else "pairs"
        f.t(60, y + 36 + j * 17, f"{m} x {n} x {k}: rounds in pairs {two:.2f}, in fours x {p['FOUR_KTILE_COST']} "
            f"{four:.2f}: {pick}", 8.5, color=DARK if pick == "fours" else "#777777")

def one_round(m, n, k, P, sms=132):
    """27's one_round (gemm_choose): where the rule takes 128 x 64 tiles, alone if they make one round of whole tiles
    (stream-K would not share them out) and the rows of A and B do not straddle L2's lines"""
    _, best, straddle = tile_shape(m, n, k, P, sms // P["CLUSTER"])
    tiles = -(-m // 128) * -(-n // 64)
    shared = stream_k(tiles, -(-k // P["BK"]), sms, P["MIN_GAIN"])[1] > 0  # 17's shares_out, one a SM
    return best, tiles, straddle, shared, best == (128, 64) and not straddle and tiles <= sms and not shared

def draw_one_round(f, P, sms=132, size=1024, shapes=((1024, 1024, 1024), (512, 512, 512), (8192, 128, 8192),
                                                     (1000, 1000, 1000), (8192, 16, 8192), (2048, 2048, 2048))):
    """27: 128 x 64 tiles in a pair (26) and alone (27): who copies what; one block's life at `size`, schematic;
    the rule at `shapes`"""
    p = P["fp16"]
    BK, px, kt = p["BK"], .5, -(-size // p["BK"])
    f.c(500, 66, f"At {size}^3 C is {-(-size // 128) * -(-size // 64)} tiles of 128 x 64, one per SM, each {kt} "
        "k-tiles long. In a pair (26) two stacked tiles share the B tile,\nwhich one block copies into both; alone (27) "
        "each block copies its own: more requests to L2 (192 lines a k-tile where a pair's\nblocks ask for 128 and "
        "192), and no waiting for a peer.", 9)
    for i, cl in enumerate((2, 1)):
        x0, y0 = 90 + i * 330, 168
        f.t(x0 - 60, y0 - 34, ["(a) 26: a pair", "(b) 27: alone"][i], 10, weight="bold")
        cy = y0 + BK * px + 10
        for b in range(cl):
            f.box(x0, cy + b * 128 * px, BK * px, 128 * px, HUES[b], "A", 7.5)
            f.box(x0 + BK * px + 10, cy + b * 128 * px, 64 * px, 128 * px, lt(HUES[b], .4), f"block {b}", 7.5)
        f.box(x0 + BK * px + 10, y0, 64 * px, BK * px, HUES[cl - 1], "B", 7)
        f.t(x0 + BK * px + 64 * px + 24, cy, textwrap.fill("Block 1 copies the B tile into both blocks (multicast); "
            "each its own A tile: 128 and 192 lines a k-tile" if cl == 2 else "Its own A and B tiles: 192 lines a "
            "k-tile; no peer to wait for at the start or the end", 30), 8.5)
    y = 348
    f.t(40, y, f"(c) One block at {size}^3, schematic (not to scale)", 9.5, weight="bold")
    f.bars(230, y + 24, 700, kt + 22, ["26: pair, either block", "27: alone"],
           [(0, 0, 3, LIGHT, "", "//"), (0, 3, 3 + kt, BLUE, f"k-loop: {kt} k-tiles"),
            (0, 3 + kt, 11 + kt, GREY, "C: buffers, TMA"), (0, 11 + kt, 16 + kt, LIGHT, "peer", "//"),
            (1, 1, 1 + kt, GREEN, f"k-loop: {kt} k-tiles"), (1, 1 + kt, 6 + kt, GREY, "C: stores")], 30)
    f.t(230, y + 92, "hatched: a cluster barrier, waiting for the peer (26 starts on one so that its barriers exist "
        "before either block copies,\nand ends on one so that no block leaves while its peer can still arrive on them)", 8)
    y = 478
    f.t(40, y, f"(d) The rule on {sms} SMs: 128 x 64 tiles alone where they make one round of whole tiles and rows do "
        "not straddle L2's lines", 9.5, weight="bold")
    for j, (m, n, k) in enumerate(shapes):
        best, tiles, straddle, shared, alone = one_round(m, n, k, p, sms)
        why = (f"{best[0]} x {best[1]} tiles (26's rule)" if best != (128, 64) else
               "alone, C from the registers" if alone else "pairs: rows straddle lines" if straddle else
               "pairs: stream-K would share the tiles out" if shared else "pairs: more than one round")
        f.t(60, y + 28 + j * 17, f"{m} x {n} x {k}: {tiles} tiles of 128 x 64: {why}", 8.5,
            color=DARK if alone else "#777777")

def half_width(m, n, sms=132):
    """28's cols (gemm_choose): C^T's tile width, halved where C has more rows than the half and the narrower tiles
    fill more than half the SMs and no more than all; None where 25's tiles of 64 rows are not taken"""
    w, fits = short_tiles(m, n, sms)
    halves = -(-n // 64) * -(-m // (w // 2))
    return None if not fits else w // 2 if w // 2 < m <= w and 2 * halves > sms and halves <= sms else w

def draw_eight(f, P, shape=(16, 4096, 4096), sms=132, plan=((16, 4096, 4096), (32, 4096, 4096), (64, 4096, 4096),
                                                           (16, 8192, 8192), (16, 2048, 4096), (8, 4096, 4096))):
    """28: C^T's tiles of 64 x 16 (27's) cut in two along K where they fill half the SMs, against tiles of 64 x 8,
    twice as many and whole (schematic timelines); the rule at six shapes on the H200's 132 SMs"""
    p = P["fp16"]
    m, n, k = shape
    kt = -(-k // p["BK"])
    f.c(500, 66, f"C of {m} x {n} x {k}, computed as C^T = B^T A^T ({n} x {m}) in tiles of 64 of C^T's rows (B's "
        f"columns), drawn here as C: its {m} rows down,\n{n} columns across. 27's tiles are 16 of C's rows wide, "
        f"28's 8 (wgmma m64n8k16): twice the tiles, each block half the multiply-adds a k-tile.", 9)
    for i, w in enumerate([16, 8]):
        y = 120 + i * 100
        tiles = -(-n // 64) * -(-m // w)
        f.t(40, y, f"(a) 27: {tiles} tiles of 64 x 16 on {sms} SMs: each cut in two along K, {2 * tiles} pieces"
            if w == 16 else f"(b) 28: {tiles} tiles of 64 x 8 on {sms} SMs: each whole, all of K", 9.5, weight="bold")
        cols = -(-n // 64)
        f.grid(40, y + 20, [[lt(HUES[(c + r) % 2], .2) for c in range(cols)] for r in range(-(-m // w))],
               920 / cols, 44 // -(-m // w))
    y = 330
    f.t(40, y, "(c) One tile, schematic: a bar's length counts k-tiles, not time (28's k-tile is half the multiply-adds)", 9.5, weight="bold")
    f.bars(300, y + 24, 600, kt + 34, ["27: first piece", "27: second piece", "28: one block"],
           [(0, 0, kt // 2, BLUE, f"k-tiles 0-{kt // 2 - 1}"), (0, kt // 2, kt // 2 + 8, GREY, "store"),
            (1, 0, kt // 2, ORANGE, f"k-tiles {kt // 2}-{kt - 1}"), (1, kt // 2, kt // 2 + 10, LIGHT, "waits", "//"),
            (1, kt // 2 + 10, kt // 2 + 34, RED, "adds, atomics"),
            (2, 0, kt, GREEN, f"k-tiles 0-{kt - 1}, 64 x 8"), (2, kt, kt + 8, GREY, "store")], 26)
    y = 470
    f.t(40, y, f"(d) The rule: C^T's tiles half as wide (8, 16 or 32) where they are more than {sms // 2} and at "
        f"most {sms}", 9.5, weight="bold")
    for j, (mm, nn, kk) in enumerate(plan):
        w, cols = short_tiles(mm, nn, sms)[0], half_width(mm, nn, sms)
        tw, th = -(-nn // 64) * -(-mm // w), -(-nn // 64) * -(-mm // (w // 2))
        why = (f"64 x {cols}, whole" if cols < w else f"64 x {w}: half the width makes no more tiles" if mm <= w // 2
               else f"64 x {w}: more than a round of 64 x {w // 2}" if th > sms else
               f"64 x {w}: 64 x {w // 2} would be cut as well")
        f.t(60, y + 22 + j * 18, f"{mm} x {nn} x {kk}: {tw} tiles of 64 x {w}, {th} of 64 x {w // 2}: {why}", 8.5,
            color=DARK if cols < w else "#777777")

FIGURES = {  # chapter folder: (drawing, height in pixels, title[, keywords for the drawing])
    "01_naive": (draw_naive, 720, "one thread per element of C; a warp reads A once and B, C in one line"),
    "02_smem_tiling": (draw_smem, 640, "TILE x TILE tiles of A and B march along K through shared memory"),
    "03_register_tiling": (draw_register, 660, "each thread owns a TM x TN microtile of C, an outer product per k"),
    "04_transposed_A": (draw_transposed, 680, "a_frag: a strided column of As becomes a contiguous row of As_T"),
    "05_swizzle": (draw_swizzle, 590, "the transposed A-tile stores of one warp, lane -> bank"),
    "06_coalesced_store": (draw_coalesced, 560, "the 128-byte lines one warp's float4 stores of C touch"),
    "07_double_buffer": (draw_double_buffer, 490, "tile t+1's global loads fly while tile t is computed"),
    "08_wmma_tensorcore": (draw_wmma, 900, "WMMA fragments on 07's two-stage register-prefetch pipeline"),
    "09_mma_sync": (draw_mma, 860, "mma.sync tiles, ldmatrix from an XOR-swizzled layout, on 08's pipeline", dict(
        copy="registers", over="Over 08: PTX mma.sync (FP16 m16n8k16, TF32 m16n8k8) instead of WMMA, its fragments "
        "loaded by ldmatrix from unpadded,\nXOR-swizzled rows instead of padded ones; 08's two-stage register-prefetch "
        "pipeline stays")),
    "10_cp_async": (draw_mma, 880, "cp.async straight into a ring of STAGES shared stages", dict(
        copy="cp.async", over="Over 09: cp.async copies global -> shared memory without registers, into a ring of "
        "STAGES stages instead of 2,\nSTAGES - 1 k-tiles in flight while one is computed (cp.async.wait_group); "
        "fragments double-buffered in registers (FRAG_BUFS)")),
    "11_wgmma": (draw_wgmma, 480, "two warpgroups run wgmma straight from 128-byte-swizzled shared memory", dict(
        copy="cp.async", over="Over 10: wgmma.mma_async (64 x {BN} x 16 per instruction, for a warpgroup of 128 threads) "
        "reads A and B\nstraight from 128-byte-swizzled shared memory: no ldmatrix, no fragments; 10's cp.async ring, "
        "interior copies unchecked")),
    "12_tma_mbarrier": (draw_wgmma, 480, "the TMA unit copies whole tiles; a \"full\" mbarrier per stage", dict(
        copy="tma", over="Over 11: thread 0 hands whole boxes (A, and B in {BN} / 64 boxes) to the TMA unit, which "
        "writes them 128-byte-swizzled;\nan mbarrier per stage, full[s], counts the bytes landing and tells every "
        "thread when to read; __syncthreads still frees the stages")),
    "13_warp_specialization": (draw_wgmma, 450, "warp specialization: a producer warpgroup, two consumers", dict(
        over="Over 12: warpgroup 0 only copies, warpgroups 1 and 2 only compute; a second mbarrier per stage, empty[s],"
        " frees it, so no\n__syncthreads in the loop and the producer runs up to STAGES k-tiles ahead; setmaxnreg "
        "moves registers to the consumers")),
    "14_persistent": (draw_wgmma, 785, "persistent blocks take their tiles GROUP rows at a time", dict(
        over="Over 13: as many blocks as fit, each looping over work units, so its ring runs on from one tile into "
        "the next; the tiles\nare taken GROUP rows at a time, down the columns (tile_of), so that the tiles in flight "
        "share A and B in L2")),
    "15_clusters": (draw_wgmma, 1090, "clusters of blocks share their B k-tiles through TMA multicast", dict(
        over="Over 14: clusters of CLUSTER blocks on vertically adjacent tiles: each producer copies 1/CLUSTER of the B"
        " k-tile, multicast\ninto every block of the cluster; empty[s] counts the consumers of the whole cluster; "
        "tile_of orders cluster tiles")),
    "16_tma_store": (draw_wgmma, 1180, "the epilogue stores C through shared memory with the TMA unit", dict(
        over="Over 15: each consumer warpgroup writes its accumulators C_CHUNK columns at a time into one of two "
        "swizzled shared buffers,\nwhich one thread hands to the TMA unit (a TMA store) while the next chunk is "
        "written")),
    "17_stream_k": (draw_stream_k, 620, "the last round of tiles shared out among all clusters by k-tiles (stream-K)"),
    "18_deferred_store": (draw_deferred, 555, "a tile's last chunks of C leave during the next tile's k-loop"),
    "19_tile_choice": (draw_tile_choice, 646, "the tile's width chosen for each shape: the fewest rounds, weighed"),
    "20_skinny": (draw_skinny, 610, "a C of few rows computed as its transpose: every row of the tile real"),
    "21_staging": (draw_staging, 592, "rows TMA cannot describe: copies at copy speed, C's rows a store each"),
    "22_tall_tiles": (draw_tall, 545, "192-row tiles where a box's rows start inside a 32-byte sector"),
    "23_beta_adds": (draw_beta, 470, "beta not 0: C scaled first, the product added in L2"),
    "24_side_by_side": (draw_pairs, 645, "a cluster's two tiles side by side, sharing the larger one"),
    "25_short_tiles": (draw_short, 600, "C^T in tiles of 64 rows: twice the tiles, fewer cut along K"),
    "26_clusters_of_four": (draw_fours, 625, "clusters of four tiles share B where rows straddle L2's lines"),
    "27_one_round": (draw_one_round, 610, "one round of 128 x 64 tiles: clusters of one, C from the registers"),
    "28_eight_columns": (draw_eight, 625, "C^T's tiles half as wide, down to 64 x 8: twice the tiles, none cut along K"),
}

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
