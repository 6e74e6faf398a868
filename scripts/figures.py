#!/usr/bin/env python3
"""Each chapter's figure, drawn from its own kernel.cu.

usage: python3 scripts/figures.py [--force]   (re)draw NN_*/figure.png where stale
       python3 scripts/figures.py --check     exit 1, naming each chapter whose figure is stale;
                                              a new chapter without one yet is only a note

Every folder NN_*/ with a kernel.cu is a chapter. Its figure shows what the chapter changes, and
is drawn from the kernel's own tile parameters: the default template arguments at the bottom of
kernel.cu (`return sgemm_launch<128, 128, 8, 8, 8>(...)` inside `sgemm()` / `hgemm()`), named by
the launcher's template parameter list. Index mappings (thread -> output, tile loads, swizzle,
C columns, warp tiles) are re-implemented below, each next to the kernel.cu line it mirrors, and
the script only draws a chapter whose kernel.cu still contains those lines: the "family" of a
kernel is recognised from its code, never from its folder name. A chapter of no known family
gets no figure and a one-line note.

PNG bytes differ between matplotlib versions, so regenerating must not depend on them. For each
chapter the script computes a signature, the sha256 of a canonical JSON of everything the figure
is drawn from (family, parsed parameters, computed mappings and schedules, FIGURE_VERSION), and
keeps it in scripts/figures.json with the parameters. A PNG is rewritten only when its signature
differs from the manifest, the PNG is missing, or --force is given; otherwise nothing is written.
--check needs only the standard library: it recomputes the signatures and says, per chapter, what
changed since the committed figure (e.g. "kernel parameters changed (BK 8 -> 16)"). It exits 1 when
a chapter in the manifest has changed (parameters, mappings, FIGURE_VERSION), has lost its
figure.png, or is no longer recognised as a family, and when a manifest entry has no chapter
folder. A new chapter folder with no manifest entry yet (with or without a figure.png, e.g. one
copied from another chapter) is not a failure, so adding a chapter does not break the tests: it is
reported on stdout ("99_scratch: no figure yet; run python3 scripts/figures.py to draw one") and
--check still exits 0.
"""
import glob
import hashlib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MANIFEST = os.path.join(ROOT, "scripts", "figures.json")
FIGURE = "figure.png"
# Bump when a drawing changes in a way the data below does not capture (layout, colours, text).
FIGURE_VERSION = 2
REGEN = "run python3 scripts/figures.py"

# ---------------------------------------------------------------------------------------------
# Reading kernel.cu


def code_of(path):
    """kernel.cu without comments, whitespace collapsed to single spaces."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    src = re.sub(r"//[^\n]*", " ", src)
    return re.sub(r"\s+", " ", src)


def has(code, pattern):
    """pattern: a code fragment with single spaces; matched whitespace-insensitively."""
    parts = [re.escape(p) for p in pattern.split()]
    return re.search(r"\s*".join(parts), code) is not None


def launchers(code):
    """{entry: {param: value}} from `cudaError_t sgemm(...) { return NAME<args>(...); }` and the
    template parameter list of NAME (`template <int BM, int BN> cudaError_t NAME(`)."""
    out = {}
    for entry, name, args in re.findall(
            r"cudaError_t (sgemm|hgemm) ?\([^)]*\) ?\{ ?return (\w+) ?<([^<>]*)> ?\(", code):
        m = re.search(r"template ?<([^<>]*)> ?cudaError_t " + name + r" ?\(", code)
        if not m:
            continue
        # `int OVERLAP = 1`: a parameter with a default the call may leave out.
        decls = [p.split("=") for p in m.group(1).split(",")]
        names = [d[0].split()[-1] for d in decls]
        values = [a.strip() for a in args.split(",")]
        values += [d[1].strip() if len(d) > 1 else None for d in decls[len(values):]]
        if len(names) != len(values) or None in values:
            continue
        out[entry] = {"launcher": name,
                      **{n: int(v) if re.fullmatch(r"\d+", v) else v for n, v in zip(names, values)}}
    return out


# ---------------------------------------------------------------------------------------------
# The kernels' index mappings, in Python. Each mirrors the kernel.cu line quoted beside it; the
# families below only accept a kernel.cu that still contains that line.

WARP = 32
BANKS = 32
LINE_FLOATS = 128 // 4  # one 128-byte line of floats
SECTOR_FLOATS = 32 // 4  # one 32-byte sector


def tile_load_rc(i, BK):
    """A-tile load of float4 number i (i = tid + pass * NUM_THREADS), 03-07 sgemm_kernel:
    `const int r = i / (BK / 4), c = i % (BK / 4) * 4;` -> row r of the tile, columns c..c+3."""
    return i // (BK // 4), i % (BK // 4) * 4


def swizzle(k, m, BK):
    """05-07 `swizzle<BK>(k, m)`: `return m ^ ((k / 4) * (128 / BK));`"""
    return m ^ ((k // 4) * (128 // BK))


def thread_rc(tid, BN, TN):
    """03-07 sgemm_kernel: `thread_row = tid / (BN / TN)`, `thread_col = tid % (BN / TN)`."""
    return tid // (BN // TN), tid % (BN // TN)


def c_col_adjacent(thread_col, j, BN, TN):
    """03-05 epilogue: `const int col = block_col + thread_col * TN + j;` (minus block_col)."""
    return thread_col * TN + j


def c_col_grouped(thread_col, j, BN, TN):
    """06-07 epilogue: `const int col = block_col + thread_col * 4 + j * (BN / TN);`"""
    return thread_col * 4 + j * (BN // TN)


def warp_rc(warp_id, BN, WN):
    """08-09 gemm_kernel: `warp_row = warp_id / (BN / WN), warp_col = warp_id % (BN / WN);`"""
    return warp_id // (BN // WN), warp_id % (BN // WN)


ELEM_BYTES = {"float": 4, "__half": 2}  # sizeof(T) of 08-09's T
CHUNK = 16  # bytes: one 16-byte chunk (cp.async, ldmatrix row), 4 banks
BANK_GROUPS = BANKS * 4 // CHUNK  # the 8 groups of 4 banks a 128-byte line spreads over


def a_chunk(row, chunk, size, BK, swizzled=True):
    """09 `a_chunk<T, BK, SWIZZLE>(row, chunk)`: `constexpr int RC = BK * sizeof(T) / 16;`
    `return SWIZZLE ? chunk ^ (row / (8 / RC)) % RC : chunk;`"""
    RC = BK * size // CHUNK
    return chunk ^ (row // (8 // RC)) % RC if swizzled else chunk


def b_chunk(row, chunk, size, swizzled=True):
    """09 `b_chunk<T, SWIZZLE>(row, chunk)`: `if (!SWIZZLE) return chunk;`
    `return sizeof(T) == 2 ? chunk ^ row % 8 : chunk ^ row % 4 * 2;`"""
    if not swizzled:
        return chunk
    return chunk ^ row % 8 if size == 2 else chunk ^ row % 4 * 2


def a_at(stage, row, col, size, BM, BK, swizzled=True):
    """09 gemm_kernel's `a_at`, bytes:
    `((stage * BM + row) * BK + a_chunk<T, BK, SWIZZLE>(row, col / V) * V) * sizeof(T)`"""
    V = CHUNK // size
    return ((stage * BM + row) * BK + a_chunk(row, col // V, size, BK, swizzled) * V) * size


def b_at(stage, row, col, size, BK, BN, swizzled=True):
    """09 gemm_kernel's `b_at`, bytes:
    `((stage * BK + row) * BN + b_chunk<T, SWIZZLE>(row, col / V) * V) * sizeof(T)`"""
    V = CHUNK // size
    return ((stage * BK + row) * BN + b_chunk(row, col // V, size, swizzled) * V) * size


def ldmatrix_a(lane, q, warp_row, s, i, swizzled=True):
    """09: the row address lane gives to A's ldmatrix x4 (lanes 8p .. 8p+7: matrix p, phase p),
    `a_lane[s] = a_at(0, warp_row * WM + lane_id % 16, s * MMA_K + lane_id / 16 * V);` plus
    `i * 16 * BK * sizeof(T)` in load_frags (stage 0)."""
    size, BM, BK, WM = ELEM_BYTES[q["T"]], q["BM"], q["BK"], q["WM"]
    V = CHUNK // size
    return (a_at(0, warp_row * WM + lane % 16, s * q["MMA_K"] + lane // 16 * V, size, BM, BK,
                 swizzled) + i * 16 * BK * size)


def lds_b(lane, q, warp_col, s, j, swizzled=True):
    """09: B's fragment addresses of one lane (stage 0), per load instruction.
    FP16, ldmatrix.trans x4: `b_lane[j] = b_at(0, lane_id % 16, warp_col * WN + j * 16 +
    lane_id / 16 * 8);` plus `s * 16 * BN * sizeof(T)`.
    TF32, two ld.shared.b32: `const int col = warp_col * WN + j * 8 + lane_id / 4;
    b_lane[j] = b_at(0, lane_id % 4, col) + col % 4 * 4;` plus `s * 8 * BN * sizeof(T)` and
    `(s * 8 + 4) * BN * sizeof(T)`."""
    size, BK, BN, WN = ELEM_BYTES[q["T"]], q["BK"], q["BN"], q["WN"]
    if size == 2:
        return [b_at(0, lane % 16, warp_col * WN + j * 16 + lane // 16 * 8, size, BK, BN, swizzled)
                + s * 16 * BN * size]
    col = warp_col * WN + j * 8 + lane // 4
    base = b_at(0, lane % 4, col, size, BK, BN, swizzled) + col % 4 * 4
    return [base + s * 8 * BN * size, base + (s * 8 + 4) * BN * size]


def chunk_wavefronts(addresses):
    """Shared-memory wavefronts of one 8-lane phase of 16-byte accesses (ldmatrix reads one
    8 x 8 matrix, 8 rows of 16 bytes, per phase): the most distinct chunks in one group of 4
    banks."""
    per_group = {}
    for a in addresses:
        per_group.setdefault(a // CHUNK % BANK_GROUPS, set()).add(a // CHUNK)
    return max(len(s) for s in per_group.values())


def conflict_degree(addresses):
    """Shared-memory wavefronts of one warp-wide scalar access: the most distinct 4-byte words
    that fall in one bank (equal words are a broadcast)."""
    per_bank = {}
    for a in addresses:
        per_bank.setdefault(a % BANKS, set()).add(a)
    return max(len(s) for s in per_bank.values())


# ---------------------------------------------------------------------------------------------
# Families: recognised from kernel.cu, each with the model (the data its figure is drawn from)

REG_COMMON = [  # the 03-07 register-tiled kernel
    "const int thread_row = tid / (BN / TN);",
    "const int thread_col = tid % (BN / TN);",
    "const int i = tid + pass * NUM_THREADS;",
    "const int r = i / (BK / 4), c = i % (BK / 4) * 4;",
]
SWIZZLE_FN = "int swizzle(int k, int m) { return m ^ ((k / 4) * (128 / BK)); }"
COL_ADJACENT = "const int col = block_col + thread_col * TN + j;"
COL_GROUPED = "const int col = block_col + thread_col * 4 + j * (BN / TN);"

# 10's fixed shape, pinned by its family's code patterns below (`constexpr int BM = 128;` ...):
# the figure's two consumer warpgroups of 64 rows, 128-byte k rows and register split follow them.
WG_BM, WG_BK, WG_THREADS, WG_C_CHUNK = 128, 64, 384, 32
WG_PRODUCER_REGS, WG_CONSUMER_REGS = 40, 232

FAMILIES = [
    # (family, launcher template parameters, code that must be present, code that must be absent)
    ("naive", ["BM", "BN"],
     ["const int row = blockIdx.y * BM + threadIdx.y;",
      "const int col = blockIdx.x * BN + threadIdx.x;",
      "acc += A[row * K + k] * B[k * N + col];", "const dim3 block(BN, BM);"], []),
    ("smem_tiling", ["TILE"],
     ["As[ty][tx] = (row < M && k0 + tx < K) ? A[row * K + k0 + tx] : 0.0f;",
      "Bs[ty][tx] = (k0 + ty < K && col < N) ? B[(k0 + ty) * N + col] : 0.0f;",
      "acc += As[ty][k] * Bs[k][tx];", "const dim3 block(TILE, TILE);"], []),
    ("register_tiling", ["BM", "BN", "BK", "TM", "TN"],
     REG_COMMON + ["__shared__ float As[BM][BK];", "a_frag[i] = As[thread_row * TM + i][k];",
                   "b_frag[j] = v.x", "acc[i][j] += a_frag[i] * b_frag[j];", COL_ADJACENT],
     ["As_T"]),
    ("transposed_A", ["BM", "BN", "BK", "TM", "TN"],
     REG_COMMON + ["__shared__ float As_T[BK][BM];", "As_T[c + 0][r] = v.x;",
                   "gemm::load_float4(&As_T[k][thread_row * TM + i]);", COL_ADJACENT],
     ["swizzle"]),
    ("swizzle", ["BM", "BN", "BK", "TM", "TN"],
     REG_COMMON + [SWIZZLE_FN, "__shared__ float As_T[BK][BM];",
                   "As_T[c + 0][swizzle<BK>(c + 0, r)] = v.x;", COL_ADJACENT], []),
    ("coalesced_store", ["BM", "BN", "BK", "TM", "TN"],
     REG_COMMON + [SWIZZLE_FN, "__shared__ float As_T[BK][BM];",
                   "As_T[c + 0][swizzle<BK>(c + 0, r)] = v.x;", COL_GROUPED,
                   "gemm::load_float4(&Bs[k][thread_col * 4 + j * (BN / TN)]);"], []),
    ("double_buffer", ["BM", "BN", "BK", "TM", "TN", "OVERLAP", "SPLIT_K"],
     REG_COMMON + [SWIZZLE_FN, "__shared__ float As_T[2][BK][BM];", "__shared__ float Bs[2][BK][BN];",
                   "As_T[stage][c + 0][swizzle<BK>(c + 0, r)] = v.x;", COL_GROUPED,
                   "if (has_next) load_tile(k0 + BK);",
                   "if (has_next) store_tile(stage ^ 1); __syncthreads();",
                   "if (OVERLAP >= 1 && k == BK - 1) publish_next(has_next, stage);",
                   "if (OVERLAP == 0) publish_next(has_next, stage);"],
     []),
    ("wmma", ["T", "BM", "BN", "BK", "WM", "WN", "OVERLAP", "SPLIT_K", "PTX_LOAD"],
     ["const int warp_row = warp_id / (BN / WN), warp_col = warp_id % (BN / WN);",
      "constexpr int MMA_K = std::is_same_v<T, float> ? 8 : 16, FM = WM / 16, FN = WN / 16;",
      "constexpr int LDA = BK + 16 / sizeof(T), LDB = BN + 8;",
      "__shared__ __align__(32) T As[2][BM][LDA];", "__shared__ __align__(32) T Bs[2][BK][LDB];",
      "wmma::fragment<wmma::accumulator, 16, 16, MMA_K, float> acc[FM][FN] = {};",
      "wmma::mma_sync(acc[i][j], a_frag[buf][i], b_frag[buf][j], acc[i][j]);",
      "load_tile(k_begin); store_tile(0); __syncthreads();",
      "for (int k0 = k_begin, stage = 0; k0 < k_end; k0 += BK, stage ^= 1) {",
      "if (has_next) load_tile(k0 + BK);", "for (int k = 0; k < BK; k += MMA_K) {",
      "if (has_next) store_tile(stage ^ 1); __syncthreads();",
      "if (OVERLAP >= 1 && k == BK - MMA_K) publish_next(has_next, stage);",
      "if (OVERLAP == 0) publish_next(has_next, stage);",
      "const dim3 block((BM / WM) * (BN / WN) * 32);"],
     ["cp.async", "ldmatrix", "STAGES"]),
    ("mma_sync", ["T", "BM", "BN", "BK", "WM", "WN", "STAGES", "FRAG_BUFS", "SWIZZLE", "SPLIT_K"],
     ["const int warp_row = warp_id / (BN / WN), warp_col = warp_id % (BN / WN);",
      "constexpr int MMA_K = std::is_same_v<T, float> ? 8 : 16, FM = WM / 16, FN = WN / 8;",
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
      "mma<T>(acc[i][j], a_frag[buf][i], b_frag[buf][j]);",
      "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
      "constexpr int RC = BK * sizeof(T) / 16;",
      "return SWIZZLE ? chunk ^ (row / (8 / RC)) % RC : chunk;",
      "if (!SWIZZLE) return chunk;",
      "return sizeof(T) == 2 ? chunk ^ row % 8 : chunk ^ row % 4 * 2;",
      "return unsigned(((stage * BM + row) * BK + a_chunk<T, BK, SWIZZLE>(row, col / V) * V) * "
      "sizeof(T));",
      "return unsigned(((stage * BK + row) * BN + b_chunk<T, SWIZZLE>(row, col / V) * V) * "
      "sizeof(T));",
      "a_lane[s] = a_at(0, warp_row * WM + lane_id % 16, s * MMA_K + lane_id / 16 * V);",
      "b_lane[j] = b_at(0, lane_id % 16, warp_col * WN + j * 16 + lane_id / 16 * 8);",
      "const int col = warp_col * WN + j * 8 + lane_id / 4; "
      "b_lane[j] = b_at(0, lane_id % 4, col) + col % 4 * 4;",
      "ldmatrix_x4<false>(a_frag[buf][i], as + a_lane[s] + i * 16 * BK * sizeof(T));",
      "ldmatrix_x4<true>(r, bs + b_lane[j] + s * 16 * BN * sizeof(T));",
      "b_frag[buf][j][0] = lds32(bs + b_lane[j] + s * 8 * BN * sizeof(T));",
      "b_frag[buf][j][1] = lds32(bs + b_lane[j] + (s * 8 + 4) * BN * sizeof(T));",
      "for (int s = 0; s < STAGES - 1; ++s) { if (s < num_tiles) copy_tile(k_begin + s * BK, s); "
      "cp_async_commit(); }",
      "const int stage = tile % STAGES;", "const int next = tile + STAGES - 1;",
      "if (next < num_tiles) copy_tile(k_begin + next * BK, next % STAGES);",
      "cp_async_wait<STAGES - 2>();",
      "if (FRAG_BUFS == 2 && s + 1 == STEPS && tile + 1 < num_tiles) "
      "load_frags(0, (tile + 1) % STAGES, 0);"],
     []),
    ("wgmma_tma", ["BN", "STAGES", "CLUSTER", "PERSISTENT", "GROUP", "WAIT_PREVIOUS",
                   "RELEASE_CLUSTER", "TMA_STORE", "SPLIT_K"],
     [f"constexpr int BM = {WG_BM};", f"constexpr int BK = {WG_BK};",
      f"constexpr int THREADS = {WG_THREADS};",
      f"constexpr int C_CHUNK = {WG_C_CHUNK}, C_BUF_BYTES = 64 * C_CHUNK * 4;",
      "constexpr int A_BYTES = BM * BK * 2, B_BYTES = BK * BN * 2;",
      "const int wg = threadIdx.x / 128, wg_tid = threadIdx.x % 128;",
      "mbar_init(full + 8 * s, 1);", "mbar_init(empty + 8 * s, 2 * CLUSTER);",
      f"setmaxnreg.dec.sync.aligned.u32 {WG_PRODUCER_REGS};",
      f"setmaxnreg.inc.sync.aligned.u32 {WG_CONSUMER_REGS};",
      "if (it >= STAGES) mbar_wait(empty + 8 * s, (it / STAGES + 1) & 1);",
      "mbar_expect_bytes(full + 8 * s, A_BYTES + B_BYTES);",
      "tma_load(smem_u32(As + s * A_BYTES), &map_a, k, row, full + 8 * s);",
      "constexpr int boxes = BN / 64 / CLUSTER;",
      "for (int b = rank * boxes; b < (rank + 1) * boxes; ++b) {",
      "tma_load_multicast(dst, &map_b, col + 64 * b, k, full + 8 * s, (1 << CLUSTER) - 1);",
      "row = (row * CLUSTER + rank) * BM;",
      "mbar_wait(full + 8 * s, (it / STAGES) & 1);",
      "const unsigned a = smem_u32(As + s * A_BYTES + (wg - 1) * 64 * 128);",
      "for (int kk = 0; kk < BK / 16; ++kk) {",
      "if (WAIT_PREVIOUS) { wgmma_wait<1>(); if (k > k0) release((it - 1) % STAGES); }",
      "if ((CLUSTER > 1 || RELEASE_CLUSTER) && wg_tid < CLUSTER) "
      "mbar_arrive_cluster<RELEASE_CLUSTER>(empty + 8 * s, wg_tid);",
      "const int per_group = GROUP * cols, first = unit / per_group * GROUP;",
      "const int rows = min(unit_rows - first, GROUP), in_group = unit % per_group;",
      "row = first + in_group % rows; col = in_group / rows;",
      "const unsigned bufs = smem_u32(Cs + (wg - 1) * 2 * C_BUF_BYTES);",
      "for (int q = 0; q < BN / C_CHUNK; ++q) {",
      "const unsigned buf = bufs + (q % 2) * C_BUF_BYTES;",
      "if (wg_tid == 0) tma_store_wait_read<1>();",
      "const unsigned at = buf + r * 128 + ((x ^ (r % 8)) * 16) + (lane_id % 2) * 8;",
      "if (wg_tid == 0) tma_store(&map_c, buf, col + q * C_CHUNK, row + (wg - 1) * 64);",
      "return 1024 + std::size_t(STAGES) * (BM + BN) * BK * sizeof(__half) + "
      "(TMA_STORE ? 2 * 2 * C_BUF_BYTES : 0) + 2 * STAGES * 8;"],
     []),
]


def family_of(code, launch):
    entry = launch.get("sgemm") or launch.get("hgemm")
    if entry is None:
        return None
    names = [k for k in entry if k != "launcher"]
    for fam, params, present, absent in FAMILIES:
        if names == params and all(has(code, p) for p in present) and \
                not any(a in code for a in absent):
            return fam
    return None


def mma_k(code):
    """08-09's MMA_K per input type: `constexpr int MMA_K = std::is_same_v<T, float> ? 8 : 16`"""
    m = re.search(r"constexpr int MMA_K = std::is_same_v ?< ?T ?, ?float ?> ?\? ?(\d+) ?: ?(\d+)",
                  code)
    return {"float": int(m.group(1)), "__half": int(m.group(2))} if m else {}


# Example problem for addresses (01): any size with N and K multiples of 32 gives the same picture.
EXAMPLE_NK = 4096


def model_naive(p):
    BM, BN = p["BM"], p["BN"]
    # 01 sgemm_kernel: row = blockIdx.y * BM + threadIdx.y, col = blockIdx.x * BN + threadIdx.x,
    # block(BN, BM): linear thread id = threadIdx.y * BN + threadIdx.x, warp = id / 32.
    owner = [[[r // BM, c // BN, (r % BM * BN + c % BN) // WARP] for c in range(2 * BN)]
             for r in range(2 * BM)]
    lanes = []
    for lane in range(min(WARP, BM * BN)):  # warp 0 of block (0, 0), k = 0
        ty, tx = lane // BN, lane % BN
        row, col, k = ty, tx, 0
        lanes.append({"A": row * EXAMPLE_NK + k, "B": k * EXAMPLE_NK + col,
                      "C": row * EXAMPLE_NK + col})
    return {"owner": owner, "warp0": lanes, "nk": EXAMPLE_NK}


SHOW_K_TILES = 6  # 02: k-tiles drawn along K
SHOW_TILE = 2  # 02: the k-tile being computed


def model_smem(p):
    TILE = p["TILE"]
    k = 5 % TILE
    lanes = []
    for lane in range(min(WARP, TILE * TILE)):  # warp 0: threadIdx.y = lane / TILE
        ty, tx = lane // TILE, lane % TILE
        lanes.append({"As": ty * TILE + k, "Bs": k * TILE + tx})  # As[ty][k], Bs[k][tx]
    return {"k": k, "warp0": lanes, "k_tiles": SHOW_K_TILES, "tile": SHOW_TILE,
            "As_wavefronts": conflict_degree([l["As"] for l in lanes]),
            "Bs_wavefronts": conflict_degree([l["Bs"] for l in lanes])}


def model_register(p):
    BM, BN, TM, TN = p["BM"], p["BN"], p["TM"], p["TN"]
    threads = (BM // TM) * (BN // TN)
    grid = [[None] * (BN // TN) for _ in range(BM // TM)]
    for tid in range(threads):
        tr, tc = thread_rc(tid, BN, TN)
        grid[tr][tc] = [tid // WARP, tid % WARP]
    return {"threads": threads, "grid": grid}


def model_transposed(p):
    BM, BN, BK, TM, TN = (p[k] for k in ("BM", "BN", "BK", "TM", "TN"))
    tid = BN // TN  # the first thread of thread_row 1
    tr, _ = thread_rc(tid, BN, TN)
    k = 3 % BK
    ms = [tr * TM + i for i in range(TM)]
    # 03: a_frag[i] = As[thread_row * TM + i][k];  04: float4 loads of As_T[k][thread_row * TM + i]
    return {"tid": tid, "thread_row": tr, "k": k, "m": ms,
            "As_addr": [m * BK + k for m in ms], "As_T_addr": [k * BM + m for m in ms],
            "As_T_float4": sorted({(k * BM + m) // 4 for m in ms})}


def a_store_banks(p, swizzled):
    """Warp 0, pass 0 of the A-tile store: per lane its (m, k) and, for the four scalar stores
    As_T[c + q][...] (q = 0..3), the bank. Unswizzled is 04's `As_T[c + q][r]`, swizzled 05's
    `As_T[c + q][swizzle<BK>(c + q, r)]`."""
    BM, BK = p["BM"], p["BK"]
    lanes = []
    for tid in range(WARP):
        r, c = tile_load_rc(tid, BK)
        col = [swizzle(c + q, r, BK) if swizzled else r for q in range(4)]
        lanes.append({"m": r, "k": c, "addr": [(c + q) * BM + col[q] for q in range(4)]})
    banks = [[l["addr"][q] % BANKS for l in lanes] for q in range(4)]
    degree = [conflict_degree([l["addr"][q] for l in lanes]) for q in range(4)]
    return {"m": [l["m"] for l in lanes], "k": [l["k"] for l in lanes], "banks": banks,
            "wavefronts": degree}


def model_swizzle(p):
    return {"before": a_store_banks(p, False), "after": a_store_banks(p, True)}


def c_store_lines(p, col_of):
    """Warp 0's float4 stores of C, one per (i = 0, j): per store the (row, first column) of each
    lane in the block tile, the 128-byte lines and 32-byte sectors written, and whether every
    sector it touches is written whole."""
    BN, TM, TN = p["BN"], p["TM"], p["TN"]
    stores = []
    for j in range(0, TN, 4):
        lanes = []
        for tid in range(WARP):
            tr, tc = thread_rc(tid, BN, TN)
            lanes.append([tr * TM, col_of(tc, j, BN, TN)])  # i = 0
        floats = {(r, c + e) for r, c in lanes for e in range(4)}
        lines = {(r, c // LINE_FLOATS) for r, c in floats}
        sectors = {}
        for r, c in floats:
            sectors.setdefault((r, c // SECTOR_FLOATS), set()).add(c)
        whole = sum(len(s) == SECTOR_FLOATS for s in sectors.values())
        stores.append({"j": j, "lanes": lanes, "lines": len(lines), "sectors": len(sectors),
                       "whole_sectors": whole})
    return stores


def model_coalesced(p):
    return {"before": c_store_lines(p, c_col_adjacent), "after": c_store_lines(p, c_col_grouped)}


# 07: schematic timing, in arbitrary units: a global load's latency is fixed, the FMAs of a
# k-tile grow with BK * TM * TN; a register -> shared store and a barrier cost a little.
SHOW_K = 64  # the stretch of K drawn: SHOW_K / BK k-tiles
LOAD_LATENCY = 4.0
FMA_UNIT = 128  # FMAs per thread per unit of time
STORE_TIME = 0.6
BARRIER_TIME = 0.4


def model_double_buffer(p):
    BK, TM, TN = p["BK"], p["TM"], p["TN"]
    n = max(1, SHOW_K // BK)
    C = BK * TM * TN / FMA_UNIT
    L, S, B = LOAD_LATENCY, STORE_TIME, BARRIER_TIME
    # 06's loop: load tile (wait), store, barrier, FMAs, barrier.
    one, t = [], 0.0
    for k in range(n):
        one += [["load", k, t, t + L], ["store", k, t + L, t + L + S]]
        t += L + S
        one.append(["barrier", k, t, t + B])
        t += B
        one.append(["fma", k, t, t + C])
        t += C
        one.append(["barrier", k, t, t + B])
        t += B
    # 07's loop: load_tile(0), store_tile(0), barrier; then per tile: load_tile(t+1) issued,
    # FMAs of tile t, store_tile(other stage) once the loads have landed, one barrier. With
    # OVERLAP >= 1 the barrier comes before the FMAs of the tile's last step (`last`).
    last = C / BK if p["OVERLAP"] >= 1 else 0.0
    two = [["load", 0, 0.0, L], ["store", 0, L, L + S], ["barrier", 0, L + S, L + S + B]]
    t = L + S + B
    for k in range(n):
        two.append(["fma", k, t, t + C - last])
        end = t + C - last
        if k + 1 < n:
            two.append(["load", k + 1, t, t + L])
            end = max(end, t + L)
            two.append(["store", k + 1, end, end + S])
            end += S
        two.append(["barrier", k, end, end + B])
        t = end + B
        if last:
            two.append(["fma", k, t, t + last])
            t += last
    rnd = lambda ev: [[e[0], e[1], round(e[2], 6), round(e[3], 6)] for e in ev]
    return {"k_tiles": n, "show_k": n * BK, "one_stage": rnd(one), "two_stages": rnd(two),
            "units": {"load": L, "fma": round(C, 6), "store": S, "barrier": B}}


# 08: the k-tile loop in program order, schematic widths (not a timing): a k-step's mma_sync,
# a register -> shared store of a tile, a barrier; the prologue's first load is waited for.
PIPE_TILES = 4  # k-tiles drawn
STEP_TIME = 2.0
PIPE_STORE = 1.6
PIPE_BARRIER = 0.35
PIPE_FIRST_LOAD = 2.4


def wmma_schedule(steps, overlap, n):
    """08 gemm_kernel's loop over n k-tiles, in program order, [kind, tile, stage, start, end]
    (stage None: in registers). The prologue `load_tile(k_begin); store_tile(0); __syncthreads();`,
    then per k-tile `if (has_next) load_tile(k0 + BK);` (issued, waited for only in store_tile),
    the steps `for (int k = 0; k < BK; k += MMA_K)` of mma_sync from `stage`, and publish_next,
    `if (has_next) store_tile(stage ^ 1); __syncthreads();`, after the last step
    (`if (OVERLAP == 0) publish_next(has_next, stage);`) or before its MMAs
    (`if (OVERLAP >= 1 && k == BK - MMA_K) publish_next(has_next, stage);`)."""
    ev = [["load", 0, None, 0.0, PIPE_FIRST_LOAD],
          ["store", 0, 0, PIPE_FIRST_LOAD, PIPE_FIRST_LOAD + PIPE_STORE]]
    t = PIPE_FIRST_LOAD + PIPE_STORE
    ev.append(["barrier", None, None, t, t + PIPE_BARRIER])
    t += PIPE_BARRIER
    for k in range(n):  # stage ^= 1 per k-tile
        stage, has_next, issued = k % 2, k + 1 < n, t

        def publish(t):
            if has_next:
                ev.append(["load", k + 1, None, issued, t])
                ev.append(["store", k + 1, stage ^ 1, t, t + PIPE_STORE])
                t += PIPE_STORE
            ev.append(["barrier", None, None, t, t + PIPE_BARRIER])
            return t + PIPE_BARRIER

        for step in range(steps):
            if overlap >= 1 and step == steps - 1:
                t = publish(t)
            ev.append(["mma", k, stage, t, t + STEP_TIME])
            t += STEP_TIME
        if overlap == 0:
            t = publish(t)
    return [[e[0], e[1], e[2], round(e[3], 6), round(e[4], 6)] for e in ev]


def model_wmma(p):
    tiles = {}
    for entry in ("sgemm", "hgemm"):
        if entry not in p:
            continue
        q = p[entry]
        T, BM, BN, BK, WM, WN = (q[k] for k in ("T", "BM", "BN", "BK", "WM", "WN"))
        size, K = ELEM_BYTES[T], p["mma_k"][T]
        if BK % K or WM % 16 or WN % 16:
            raise ValueError("no whole fragments")
        # `constexpr int LDA = BK + 16 / sizeof(T), LDB = BN + 8;`
        LDA, LDB = BK + 16 // size, BN + 8
        warps = (BM // WM) * (BN // WN)
        tiles[entry] = {"warps": [list(warp_rc(w, BN, WN)) for w in range(warps)],
                        "FM": WM // 16, "FN": WN // 16, "steps": BK // K, "LDA": LDA,
                        "LDB": LDB, "smem_bytes": 2 * (BM * LDA + BK * LDB) * size,
                        "schedule": wmma_schedule(BK // K, q["OVERLAP"], PIPE_TILES)}
    return {"mma_k": p["mma_k"], "tiles": tiles}


SWIZZLE_LINES = 8  # 09: 128-byte lines of one stage of A drawn: one period of a_chunk's XOR
RING_TILES = 6  # 09: main-loop iterations drawn (K long enough that every stage is busy)


def cp_async_ring(stages, shown, num_tiles=1 << 20):
    """09 gemm_kernel's ring: the prologue `for (int s = 0; s < STAGES - 1; ++s) { if (s <
    num_tiles) copy_tile(k_begin + s * BK, s); cp_async_commit(); }`, then per iteration
    `const int stage = tile % STAGES;` is computed while `const int next = tile + STAGES - 1;
    if (next < num_tiles) copy_tile(k_begin + next * BK, next % STAGES);` is issued. Per column
    (the prologue, then iterations 0 .. shown - 1), per stage [tile held, state]: "compute",
    "issued" (this column), "flight" (issued before, not computed yet), "empty"."""
    held = [None] * stages
    cols = []
    for s in range(stages - 1):
        if s < num_tiles:
            held[s] = s
    cols.append([[h, "empty" if h is None else "issued"] for h in held])
    for tile in range(shown):
        nxt = tile + stages - 1
        if nxt < num_tiles:
            held[nxt % stages] = nxt
        cols.append([[h, "empty" if h is None else "compute" if h == tile else
                      "issued" if h == nxt else "flight" if h > tile else "done"] for h in held])
    return cols


def mma_sync_entry(q, mma_k):
    T, BM, BN, BK, WM, WN = (q[k] for k in ("T", "BM", "BN", "BK", "WM", "WN"))
    size, K = ELEM_BYTES[T], mma_k[T]
    if BK % K or WM % 16 or WN % 16 or not 32 <= BK * size <= 128 or BN * size < 128:
        raise ValueError("the kernel's static_asserts")
    q = dict(q, MMA_K=K)
    RC = BK * size // CHUNK
    warps = [list(warp_rc(w, BN, WN)) for w in range(BM // WM * (BN // WN))]
    steps, FM, FN = BK // K, WM // 16, WN // 8
    b_loads = FN // 2 if size == 2 else FN  # `B_LOADS = std::is_same_v<T, __half> ? FN / 2 : FN`
    # ldmatrix of A: 4 phases of 8 lanes; B: FP16 ldmatrix.trans (4 phases of 8 lanes), TF32 two
    # warp-wide 4-byte loads. The worst over every warp, step and fragment.
    wave = {}
    for swz in (True, False):
        a = b = 1
        for wr, wc in warps:
            for st in range(steps):
                for i in range(FM):
                    lanes = [ldmatrix_a(l, q, wr, st, i, swz) for l in range(WARP)]
                    a = max([a] + [chunk_wavefronts(lanes[8 * f:8 * f + 8]) for f in range(4)])
                for j in range(b_loads):
                    lanes = [lds_b(l, q, wc, st, j, swz) for l in range(WARP)]
                    if size == 2:
                        b = max([b] + [chunk_wavefronts([x[0] for x in lanes[8 * f:8 * f + 8]])
                                       for f in range(4)])
                    else:
                        b = max([b] + [conflict_degree([x[h] // 4 for x in lanes])
                                       for h in range(2)])
        wave["swizzled" if swz else "plain"] = {"A": a, "B": b}
    # one stage of A: the logical chunk at each physical chunk of the first rows, and the
    # (row, physical chunk) that lanes 0-7 of warp 0's first ldmatrix (step 0, i = 0) read
    row_bytes = BK * size
    layout = {}
    for swz in (True, False):
        rows = [[None] * RC for _ in range(min(SWIZZLE_LINES * BANK_GROUPS // RC, BM))]
        for r in range(len(rows)):
            for c in range(RC):
                rows[r][a_chunk(r, c, size, BK, swz)] = c
        layout["swizzled" if swz else "plain"] = rows
    phase = {}
    for swz in (True, False):
        cells = []
        for lane in range(8):
            addr = ldmatrix_a(lane, q, 0, 0, 0, swz)
            cells.append([addr // row_bytes, addr % row_bytes // CHUNK,
                          addr // CHUNK % BANK_GROUPS])
        phase["swizzled" if swz else "plain"] = cells
    return {"warps": warps, "FM": FM, "FN": FN, "steps": steps, "RC": RC, "layout": layout,
            "phase0": phase, "wavefronts": wave,
            "smem_bytes": q["STAGES"] * (BM * BK + BK * BN) * size,
            "ring": cp_async_ring(q["STAGES"], RING_TILES)}


def model_mma_sync(p):
    return {"mma_k": p["mma_k"],
            "tiles": {e: mma_sync_entry(p[e], p["mma_k"]) for e in ("sgemm", "hgemm") if e in p}}


def tile_of(unit, unit_rows, cols, group):
    """10 `tile_of<GROUP>(unit, unit_rows, cols, row, col)`: GROUP rows of cluster tiles at a
    time, down the columns (`const int per_group = GROUP * cols, first = unit / per_group *
    GROUP;` `const int rows = min(unit_rows - first, GROUP), in_group = unit % per_group;`
    `row = first + in_group % rows; col = in_group / rows;`); GROUP 0: row by row."""
    if group == 0:
        return unit // cols, unit % cols
    per_group = group * cols
    first = unit // per_group * group
    rows, in_group = min(unit_rows - first, group), unit % per_group
    return first + in_group % rows, in_group // rows


ORDER_MN = 4096  # 10: the example C (M = N) whose cluster tiles are drawn in their order
RING_ITERS = 2  # 10: rounds of the ring drawn in the parity table


def model_wgmma_tma(p, code):
    BN, S, CL, GROUP = p["BN"], p["STAGES"], p["CLUSTER"], p["GROUP"]
    BM, BK, CC = WG_BM, WG_BK, WG_C_CHUNK
    # the kernel has a wgmma<BN> only for the shapes it spells out in PTX; boxes (BN / 64 /
    # CLUSTER) must be whole or some B boxes would never be copied; panel (c) has room for two
    # blocks
    if CL not in (1, 2) or BN % (64 * CL) or BN % CC or S < 2 or GROUP < 0 or \
            not has(code, f"wgmma.mma_async.sync.aligned.m64n{BN}k16.f32.f16.f16"):
        raise ValueError("no wgmma, whole B boxes or room in (c) for these parameters")
    A_BYTES, B_BYTES = BM * BK * 2, BK * BN * 2  # `constexpr int A_BYTES = BM * BK * 2, ...`
    C_BUF_BYTES = 64 * CC * 4
    boxes = BN // 64 // CL  # `constexpr int boxes = BN / 64 / CLUSTER;`: rank r copies boxes
    owner = [b // boxes for b in range(BN // 64)]  # rank * boxes .. (rank + 1) * boxes - 1
    consumers = [[wg, wg * 128, wg * 128 + 127, (wg - 1) * 64, (wg - 1) * 64 + 63]
                 for wg in range(1, WG_THREADS // 128)]  # wg = threadIdx.x / 128
    # the ring: k-tile `it` (counted over all the block's tiles) uses stage it % STAGES; the
    # consumers wait full[s] for parity (it / STAGES) & 1, the producer (it >= STAGES) empty[s]
    # for (it / STAGES + 1) & 1
    ring = [[it, it % S, (it // S) & 1, (it // S + 1) & 1 if it >= S else None]
            for it in range(RING_ITERS * S)]
    unit_rows = -(-(-(-ORDER_MN // BM)) // CL)  # ceil(ceil(M / BM) / CLUSTER)
    cols = -(-ORDER_MN // BN)
    order = [[None] * cols for _ in range(unit_rows)]
    for unit in range(unit_rows * cols):
        r, c = tile_of(unit, unit_rows, cols, GROUP)
        order[r][c] = unit
    epilogue = None
    if p["TMA_STORE"] == "true":
        # chunk q of 32 columns goes through buffer q % 2; row r of a buffer holds logical
        # 16-byte chunk x at x ^ (r % 8) (`buf + r * 128 + ((x ^ (r % 8)) * 16)`)
        epilogue = {"chunks": [[q, q % 2, q * CC] for q in range(BN // CC)],
                    "swizzle": [[x ^ (r % 8) for x in range(128 // CHUNK)] for r in range(8)],
                    "buf_bytes": C_BUF_BYTES}
    return {"BM": BM, "BK": BK, "threads": WG_THREADS, "c_chunk": CC,
            "regs": [WG_PRODUCER_REGS, WG_CONSUMER_REGS,
                     128 * WG_PRODUCER_REGS + (WG_THREADS - 128) * WG_CONSUMER_REGS],
            "consumers": consumers, "wgmma": f"m64n{BN}k16", "wgmma_per_ktile": BK // 16,
            "acc_regs": BN // 2, "a_bytes": A_BYTES, "b_bytes": B_BYTES,
            "b_boxes": owner, "full_count": 1, "tx_bytes": A_BYTES + B_BYTES,
            "empty_count": 2 * CL, "mask": (1 << CL) - 1, "ring": ring,
            "smem_bytes": 1024 + S * (BM + BN) * BK * 2 +
            (2 * 2 * C_BUF_BYTES if p["TMA_STORE"] == "true" else 0) + 2 * S * 8,
            "order": {"M": ORDER_MN, "N": ORDER_MN, "tiles": order}, "epilogue": epilogue}


def model(family, params, code):
    p = params.get("sgemm") or params.get("hgemm")
    if family == "naive":
        return model_naive(p)
    if family == "smem_tiling":
        return model_smem(p)
    if family == "register_tiling":
        return model_register(p)
    if family == "transposed_A":
        return model_transposed(p)
    if family == "swizzle":
        return model_swizzle(p)
    if family == "coalesced_store":
        return model_coalesced(p)
    if family == "double_buffer":
        return model_double_buffer(p)
    if family == "wmma":
        return model_wmma(params)
    if family == "mma_sync":
        return model_mma_sync(params)
    if family == "wgmma_tma":
        return model_wgmma_tma(p, code)
    raise ValueError(family)


# ---------------------------------------------------------------------------------------------
# Chapters, signatures, manifest


def chapters():
    for d in sorted(glob.glob(os.path.join(ROOT, "[0-9][0-9]_*", ""))):
        if os.path.isfile(os.path.join(d, "kernel.cu")):
            yield os.path.basename(os.path.dirname(d)), d


def describe(name, d):
    """(record, note): record = everything the figure is drawn from, with its signature."""
    code = code_of(os.path.join(d, "kernel.cu"))
    launch = launchers(code)
    fam = family_of(code, launch)
    if fam is None:
        return None, f"{name}: no figure (its kernel is of no family scripts/figures.py draws)"
    params = {e: {k: v for k, v in q.items()} for e, q in sorted(launch.items())}
    if fam in ("wmma", "mma_sync"):
        params["mma_k"] = mma_k(code)
    elif fam == "wgmma_tma":
        params = {"hgemm": params["hgemm"]}
    else:
        params = {"sgemm": params["sgemm"]}
    try:
        data = model(fam, params, code)
    except (ArithmeticError, KeyError, IndexError, ValueError) as e:
        return None, (f"{name}: no figure (the {fam} figure cannot be drawn from "
                      f"{params_text(params)}: {type(e).__name__})")
    canon = json.dumps({"chapter": name, "version": FIGURE_VERSION, "family": fam,
                        "params": params, "data": data}, sort_keys=True, separators=(",", ":"))
    return {"family": fam, "params": params, "figure_version": FIGURE_VERSION,
            "signature": hashlib.sha256(canon.encode()).hexdigest(), "data": data}, None


def params_text(params):
    return ", ".join(f"{k} {v}" for k, v in flat(params).items())


def stale_family(name, old):
    return (f"{name}: kernel.cu no longer matches the {old['family']} figure (its code changed "
            f"past what scripts/figures.py recognises); update scripts/figures.py")


def manifest_entry(rec):
    return {k: rec[k] for k in ("family", "figure_version", "params", "signature")}


def read_manifest():
    try:
        with open(MANIFEST, encoding="utf-8") as f:
            return json.load(f).get("chapters", {})
    except FileNotFoundError:
        return {}


def flat(params):
    """{'BK': 8} for a single sgemm launcher, {'sgemm BK': 32, 'hgemm BK': 32, ..} otherwise."""
    out = {}
    single = list(params) == ["sgemm"]
    for entry, q in params.items():
        for k, v in q.items():
            if k != "launcher":
                out[k if single else f"{entry} {k}"] = v
    return out


def what_changed(old, new):
    if old.get("family") != new["family"]:
        return f"kernel changed (figure family {old.get('family')} -> {new['family']})"
    a, b = flat(old.get("params", {})), flat(new["params"])
    diffs = [f"{k} {a.get(k, 'none')} -> {b.get(k, 'none')}"
             for k in list(b) + [k for k in a if k not in b] if a.get(k) != b.get(k)]
    if diffs:
        return f"kernel parameters changed ({', '.join(diffs)})"
    if old.get("figure_version") != new["figure_version"]:
        return (f"scripts/figures.py draws it differently now (figure version "
                f"{old.get('figure_version')} -> {new['figure_version']})")
    return "what the figure is drawn from changed"


def check():
    committed = read_manifest()
    problems, seen, drawn, new = [], set(), 0, 0
    for name, d in chapters():
        seen.add(name)
        rec, note = describe(name, d)
        old = committed.get(name)
        if rec is None:
            if old is not None:
                problems.append(stale_family(name, old))
            else:
                print(f"figures.py: {note}")
            continue
        if old is None:  # a new chapter: a note, not a failure
            new += 1
            if os.path.isfile(os.path.join(d, FIGURE)):
                print(f"figures.py: {name}: {FIGURE} is not in scripts/figures.json yet (it may "
                      f"be another chapter's); {REGEN} to draw it")
            else:
                print(f"figures.py: {name}: no figure yet; {REGEN} to draw one")
            continue
        drawn += 1
        if old.get("signature") != rec["signature"]:
            problems.append(f"{name}: {what_changed(old, rec)}; {REGEN}")
        elif not os.path.isfile(os.path.join(d, FIGURE)):
            problems.append(f"{name}: {FIGURE} is missing; {REGEN}")
    for name in sorted(set(committed) - seen):
        problems.append(f"{name}: has a figure entry in scripts/figures.json but no chapter "
                        f"folder; {REGEN}")
    for p in problems:
        print(p)
    if not problems:
        print(f"figures.py: every figure matches its kernel ({drawn} chapters with a figure"
              + (f"; {new} new without one yet)" if new else ")"))
    return 1 if problems else 0


def write(force):
    committed = read_manifest()
    entries, wrote, failed = {}, [], False
    for name, d in chapters():
        rec, note = describe(name, d)
        if rec is None:
            if name in committed:  # it had a figure: keep the entry, so --check keeps failing
                print(stale_family(name, committed[name]), file=sys.stderr)
                entries[name] = committed[name]
                failed = True
            else:
                print(f"figures.py: {note}")
            continue
        entries[name] = manifest_entry(rec)
        png = os.path.join(d, FIGURE)
        old = committed.get(name, {})
        if force or old.get("signature") != rec["signature"] or not os.path.isfile(png):
            draw(name, rec, png)
            wrote.append(os.path.relpath(png, ROOT))
    text = json.dumps({"about": "written by scripts/figures.py: per chapter, the parameters "
                                "and the signature of what its figure.png was drawn from",
                       "chapters": entries}, indent=2, sort_keys=True) + "\n"
    old_text = open(MANIFEST, encoding="utf-8").read() if os.path.isfile(MANIFEST) else None
    if text != old_text:
        with open(MANIFEST, "w", encoding="utf-8") as f:
            f.write(text)
        wrote.append(os.path.relpath(MANIFEST, ROOT))
    print("figures.py: wrote " + ", ".join(wrote) if wrote else "figures.py: nothing to do")
    return 1 if failed else 0


# ---------------------------------------------------------------------------------------------
# Drawing (matplotlib only from here on)

WIDTH = 10.0  # inches; at DPI 100 a figure is 1000 px wide
DPI = 100
SAVE = {"dpi": DPI, "metadata": {"Software": None}}  # no version string in the PNG
BLUE, ORANGE, GREEN, RED, PURPLE = "#4878b0", "#e49a2e", "#4f9d5a", "#c44e52", "#8172b3"
GREY, LIGHT, DARK = "#b8b8b8", "#ececec", "#333333"
BLOCK_HUES = [BLUE, ORANGE, GREEN, PURPLE]


def mpl():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("figures.py: matplotlib is not installed (pip install matplotlib); "
                 "--check works without it")
    plt.rcParams.update({"font.size": 10, "axes.titlesize": 11, "figure.titlesize": 13})
    return plt


def lighten(colour, f):
    from matplotlib.colors import to_rgb
    r, g, b = to_rgb(colour)
    return (r + (1 - r) * f, g + (1 - g) * f, b + (1 - b) * f)


def rect(ax, x, y, w, h, fc, ec="white", lw=0.6, **kw):
    from matplotlib.patches import Rectangle
    ax.add_patch(Rectangle((x, y), w, h, facecolor=fc, edgecolor=ec, linewidth=lw, **kw))


def bare(ax):
    ax.set_xticks([])
    ax.set_yticks([])
    for s in ax.spines.values():
        s.set_visible(False)


def params_line(rec):
    entries = {e: {k: v for k, v in rec["params"][e].items() if k != "launcher"}
               for e in ("sgemm", "hgemm") if e in rec["params"]}
    if len(entries) == 1:
        return "  ".join(f"{k} = {v}" for k, v in next(iter(entries.values())).items())
    keys = list(next(iter(entries.values())))
    same = [k for k in keys if len({str(q.get(k)) for q in entries.values()}) == 1]
    line = "  ".join(f"{k} = {entries['sgemm'][k]}" for k in same)
    differ = ", ".join(f"{e}: " + " ".join(f"{k} = {q.get(k)}" for k in keys if k not in same)
                       for e, q in entries.items())
    return f"{line}  ({differ})" if differ else line


def header(fig, name, title, rec, y=0.975):
    fig.suptitle(f"{name}: {title}", y=y, fontweight="bold")
    line = "drawn by scripts/figures.py from kernel.cu:  " + params_line(rec)
    if len(line) > 150 and "  (" in line:  # two launchers that differ: the differences on a
        line = line.replace("  (", "\n(", 1)  # line of their own
    elif len(line) > 150:  # one launcher of many parameters: two lines of about equal length
        gaps = [i for i in range(len(line)) if line.startswith("  ", i)]
        cut = min(gaps, key=lambda i: abs(i - len(line) / 2))
        line = line[:cut] + "\n" + line[cut + 2:]
    fig.text(0.5, y - 0.04, line, ha="center", va="top", fontsize=9, color="#555555")


def lane_map(ax, y, addrs, ld, matrix, verdict, colour):
    """The lanes on top, the 128-byte lines they touch below (up to 4), a line per lane.
    Returns the width drawn, in floats."""
    lines = sorted({a // LINE_FLOATS for a in addrs})[:4]
    gap = 3
    width = len(lines) * LINE_FLOATS + (len(lines) - 1) * gap
    cell_x = {}
    for n, ln in enumerate(lines):
        x0 = n * (LINE_FLOATS + gap)
        for e in range(LINE_FLOATS):
            a = ln * LINE_FLOATS + e
            cell_x[a] = x0 + e
            rect(ax, x0 + e, y, 1, 1, colour if a in addrs else LIGHT, ec="white")
        rect(ax, x0, y, LINE_FLOATS, 1, "none", ec=DARK, lw=1.2)
        first = ln * LINE_FLOATS
        ax.text(x0 + LINE_FLOATS / 2, y - 0.25,
                f"{matrix}[{first // ld}][{first % ld}..{first % ld + LINE_FLOATS - 1}]"
                + ("  (one 128-byte line)" if len(lines) == 1 else ""),
                ha="center", va="top", fontsize=8.5)
    scale = width / len(addrs)
    for lane, a in enumerate(addrs):
        lx = (lane + 0.5) * scale
        rect(ax, lx - scale / 2, y + 3, scale, 1, lighten(colour, 0.55), ec="white")
        if lane % 4 == 0 or lane == len(addrs) - 1:
            ax.text(lx, y + 4.1, str(lane), ha="center", va="bottom", fontsize=7.5)
        if a in cell_x:
            ax.plot([lx, cell_x[a] + 0.5], [y + 3, y + 1], color=colour, lw=0.7)
    ax.text(-1.5, y + 3.5, "lane", ha="right", va="center", fontsize=8.5)
    ax.text(-1.5, y + 0.5, matrix, ha="right", va="center", fontsize=10, fontweight="bold")
    ax.text(1.03, y + 2, verdict, ha="left", va="center", fontsize=9.5,
            transform=ax.get_yaxis_transform())
    return width


def draw_naive(name, rec, plt):
    p, d = rec["params"]["sgemm"], rec["data"]
    BM, BN = p["BM"], p["BN"]
    owner = d["owner"]
    fig = plt.figure(figsize=(WIDTH, 7.2))
    header(fig, name, "one thread per element of C; a warp reads A once and B, C in one line",
           rec)
    ax = fig.add_axes([0.06, 0.58, 0.64, 0.27])
    rows, cols = len(owner), len(owner[0])
    for r in range(rows):
        for c in range(cols):
            by, bx, w = owner[r][c]
            hue = BLOCK_HUES[(by * 2 + bx) % len(BLOCK_HUES)]
            rect(ax, c, r, 1, 1, lighten(hue, 0.35 if w % 2 == 0 else 0.65), ec="white", lw=0.3)
    for by in range(2):
        for bx in range(2):
            rect(ax, bx * BN, by * BM, BN, BM, "none", ec=DARK, lw=1.5)
            ax.text(bx * BN + BN / 2, by * BM + BM / 2, f"blockIdx (x={bx}, y={by})", ha="center",
                    va="center", fontsize=9, bbox=dict(fc="white", ec="none", alpha=0.8, pad=1.5))
    w0 = [(r, c) for r in range(BM) for c in range(BN) if owner[r][c] == [0, 0, 0]]
    rmax = max(r for r, _ in w0) + 1
    rect(ax, 0, 0, max(c for _, c in w0) + 1, rmax, "none", ec=RED, lw=2.2)
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.set_xticks(range(0, cols + 1, max(1, BN // 4)))
    ax.set_yticks(range(0, rows + 1, max(1, BM // 2)))
    ax.tick_params(labelsize=8)
    ax.set_xlabel("column of C = blockIdx.x * BN + threadIdx.x;   "
                  "row of C = blockIdx.y * BM + threadIdx.y", fontsize=9)
    ax.set_ylabel("row of C", fontsize=9)
    ax.set_title(f"Who computes which C[row][col]: 2 x 2 blocks of BN x BM = {BN} x {BM} "
                 f"threads", fontsize=10)
    # legend as text on the right
    lx = 0.73
    fig.text(lx, 0.855, "each cell: one thread, one C element", fontsize=9, va="top")
    fig.text(lx, 0.81, "colour: its block; alternating\nshades: its warp (32 consecutive\n"
             "ids threadIdx.y * BN + threadIdx.x)", fontsize=9, va="top")
    fig.text(lx, 0.715,
             "red outline: warp 0 of\nblockIdx (x=0, y=0), whose\naddresses are drawn below",
             fontsize=9, va="top", color=RED)
    warp_rows = sorted({r for r, _ in w0})
    fig.text(lx, 0.625, f"a warp: {len(warp_rows)} row{'s' if len(warp_rows) > 1 else ''} x "
             f"{len(w0) // len(warp_rows)} columns of C", fontsize=9, va="top")

    ax2 = fig.add_axes([0.08, 0.02, 0.58, 0.44])
    lanes = d["warp0"]
    k = 0
    specs = [("A", d["nk"], BLUE), ("B", d["nk"], ORANGE), ("C", d["nk"], GREEN)]
    width = LINE_FLOATS
    for n, (mat, ld, colour) in enumerate(specs):
        addrs = [l[mat] for l in lanes]
        distinct = len(set(addrs))
        nlines = len({a // LINE_FLOATS for a in addrs})
        if distinct == 1:
            verdict = f"1 address for all\n{len(addrs)} lanes: a broadcast"
        elif distinct == 1 + max(addrs) - min(addrs):
            verdict = (f"{distinct} consecutive floats:\n{nlines} x 128-byte line"
                       f"{'s' if nlines > 1 else ''}, coalesced")
        else:
            verdict = (f"{distinct} different floats\nin {nlines} x 128-byte line"
                       f"{'s' if nlines > 1 else ''}")
        width = max(width, lane_map(ax2, (2 - n) * 7.5, addrs, ld, mat, verdict, colour))
    ax2.set_xlim(-6, width + 1)
    ax2.set_ylim(-1.5, 3 * 7.5 - 1.5)
    bare(ax2)
    ax2.set_title(f"Warp 0's addresses at k = {k} (M = N = K = {d['nk']}): A[row][k], "
                  f"B[k][col], C[row][col]", fontsize=10)
    return fig


def draw_smem(name, rec, plt):
    p, d = rec["params"]["sgemm"], rec["data"]
    TILE = p["TILE"]
    n, t = d["k_tiles"], d["tile"]
    fig = plt.figure(figsize=(WIDTH, 6.4))
    header(fig, name, f"TILE x TILE tiles of A and B march along K through shared memory", rec)
    ax = fig.add_axes([0.03, 0.05, 0.5, 0.78])
    bare(ax)
    # A's block row: 1 tile high, n tiles long; B's block column above C; C at the crossing.
    cx, cy = n + 0.6, 0.0  # C block
    for i in range(n):
        state = RED if i == t else (GREY if i < t else LIGHT)
        rect(ax, i, cy, 1, 1, state, ec="white", lw=1.5)
        rect(ax, cx, cy + 1.6 + (n - 1 - i), 1, 1, state, ec="white", lw=1.5)
        ax.text(i + 0.5, cy - 0.12, f"{i}", ha="center", va="top", fontsize=8.5)
        ax.text(cx + 1.12, cy + 1.6 + (n - 1 - i) + 0.5, f"{i}", ha="left", va="center",
                fontsize=8.5)
    rect(ax, 0, cy, n, 1, "none", ec=DARK, lw=1.2)
    rect(ax, cx, cy + 1.6, 1, n, "none", ec=DARK, lw=1.2)
    rect(ax, cx, cy, 1, 1, lighten(GREEN, 0.3), ec=DARK, lw=1.2)
    ax.text(cx + 0.5, cy + 0.5, "C\nblock", ha="center", va="center", fontsize=9)
    ax.text(t + 0.5, cy + 0.5, "As", ha="center", va="center", color="white", fontweight="bold")
    ax.text(cx + 0.5, cy + 1.6 + (n - 1 - t) + 0.5, "Bs", ha="center", va="center",
            color="white", fontweight="bold")
    ax.text(n / 2, cy - 0.55, f"A: the block's {TILE} rows, K along x, k-tile number below",
            ha="center", va="top", fontsize=9)
    ax.text(cx - 0.15, cy + 1.6 + n / 2, f"B: the block's {TILE}\ncolumns, K down,\n"
            f"k-tile number right", ha="right", va="center", fontsize=9)
    ax.annotate("", xy=(n - 0.1, cy + 1.25), xytext=(0.1, cy + 1.25),
                arrowprops=dict(arrowstyle="->", color=DARK))
    ax.text(n / 2 - 0.8, cy + 1.35, f"k0 = 0, {TILE}, {2 * TILE}, ...", ha="center",
            va="bottom", fontsize=9)
    ax.set_xlim(-0.6, cx + 1.6)
    ax.set_ylim(cy - 1.4, cy + 1.6 + n + 0.2)
    ax.set_aspect("equal")
    from matplotlib.patches import Patch
    ax.legend(handles=[Patch(fc=GREY, label="k-tiles done"),
                       Patch(fc=RED, label=f"k-tile {t}: in As, Bs now"),
                       Patch(fc=LIGHT, ec=GREY, label="k-tiles to come")],
              loc="upper left", fontsize=9, frameon=False, bbox_to_anchor=(0.0, 1.0))
    ax.set_title(f"The block's loop over K: {TILE} x {TILE} tiles, each loaded once",
                 fontsize=10)

    ax2 = fig.add_axes([0.56, 0.06, 0.41, 0.73])
    bare(ax2)
    lanes, k = d["warp0"], d["k"]

    def banks(y, key, colour, label, wavefronts):
        for b in range(BANKS):
            used = any(l[key] % BANKS == b for l in lanes)
            rect(ax2, b, y, 1, 1, colour if used else LIGHT, ec="white")
        rect(ax2, 0, y, BANKS, 1, "none", ec=DARK, lw=1)
        for lane, l in enumerate(lanes):
            rect(ax2, lane, y + 3, 1, 1, lighten(colour, 0.55), ec="white")
            ax2.plot([lane + 0.5, l[key] % BANKS + 0.5], [y + 3, y + 1], color=colour, lw=0.7)
        for b in range(0, BANKS, 8):
            ax2.text(b + 0.5, y - 0.15, str(b), ha="center", va="top", fontsize=7.5)
        ax2.text(BANKS - 0.5, y - 0.15, str(BANKS - 1), ha="center", va="top", fontsize=7.5)
        ax2.text(-0.5, y + 3.5, "lane", ha="right", va="center", fontsize=8.5)
        ax2.text(-0.5, y + 0.5, "bank", ha="right", va="center", fontsize=8.5)
        distinct = len({l[key] for l in lanes})
        how = ("one word, broadcast to every lane" if distinct == 1 else
               f"{distinct} words in {len({l[key] % BANKS for l in lanes})} banks")
        ax2.text(BANKS / 2, y + 4.3, f"{label}: {how}", ha="center", va="bottom", fontsize=9.5)
        ax2.text(BANKS / 2, y - 1.0, f"{wavefronts} wavefront{'s' if wavefronts > 1 else ''}"
                 f" ({'no conflict' if wavefronts == 1 else f'{wavefronts}-way conflict'})",
                 ha="center", va="top", fontsize=9)

    banks(8.5, "As", BLUE, f"As[ty][k]", d["As_wavefronts"])
    banks(0.5, "Bs", ORANGE, f"Bs[k][tx]", d["Bs_wavefronts"])
    ax2.set_xlim(-3.5, BANKS + 0.5)
    ax2.set_ylim(-1.5, 14.5)
    ax2.set_title(f"In the source each FMA reads 2 values from shared memory,\n"
                  f"As[ty][k] and Bs[k][tx] (ptxas merges 4 As reads\n"
                  f"into one LDS.128). Warp 0, k = {k}: the bank each lane reads",
                  fontsize=9.5)
    fig.text(0.765, 0.03, f"global loads per FMA: 2 / TILE = {2 / TILE:g}", ha="center",
             fontsize=9.5)
    return fig


def draw_register(name, rec, plt):
    p, d = rec["params"]["sgemm"], rec["data"]
    BM, BN, BK, TM, TN = (p[k] for k in ("BM", "BN", "BK", "TM", "TN"))
    grid = d["grid"]
    R, Cn = len(grid), len(grid[0])
    fig = plt.figure(figsize=(WIDTH, 6.6))
    header(fig, name, "each thread owns a TM x TN microtile of C, an outer product per k", rec)
    ax = fig.add_axes([0.07, 0.09, 0.5, 0.73])
    for r in range(R):
        for c in range(Cn):
            w, lane = grid[r][c]
            fc = lighten(BLUE, 0.1 + 0.25 * (lane % 2)) if w == 0 else \
                lighten(GREY, 0.25 if w % 2 else 0.6)
            rect(ax, c * TN, r * TM, TN, TM, fc, ec="white", lw=0.8)
            if w == 0:
                ax.text(c * TN + TN / 2, r * TM + TM / 2, str(lane), ha="center", va="center",
                        fontsize=7.5, color="white")
    warp_rows = {}
    for r in range(R):
        for c in range(Cn):
            warp_rows.setdefault(grid[r][c][0], set()).add(r)
    for w, rs in sorted(warp_rows.items()):
        if w > 0:
            cols = {c for r in range(R) for c in range(Cn) if grid[r][c][0] == w}
            ax.text((min(cols) + max(cols) + 1) / 2 * TN, (min(rs) + max(rs) + 1) / 2 * TM,
                    f"warp {w}", ha="center", va="center", fontsize=8.5, color=DARK)
    rect(ax, 0, 0, BN, BM, "none", ec=DARK, lw=1.2)
    rect(ax, 0, 0, TN, TM, "none", ec=RED, lw=2.2)
    ax.set_xlim(0, BN)
    ax.set_ylim(BM, 0)
    ax.set_aspect("equal")
    ax.set_xticks(range(0, BN + 1, max(TN, BN // 8)))
    ax.set_yticks(range(0, BM + 1, max(TM, BM // 8)))
    ax.tick_params(labelsize=8)
    ax.set_xlabel(f"column in the block tile (thread_col * TN + j)", fontsize=9)
    ax.set_ylabel(f"row (thread_row * TM + i)", fontsize=9)
    w0 = sorted(warp_rows[0])
    ax.set_title(f"Block tile {BM} x {BN} = {R} x {Cn} microtiles of {TM} x {TN}; "
                 f"warp 0 (blue,\nlane numbers) is {len(w0)} row{'s' if len(w0) > 1 else ''} x {Cn} threads", fontsize=10)

    ax2 = fig.add_axes([0.61, 0.09, 0.38, 0.73])
    bare(ax2)
    s = 0.9  # cell size
    x0, y0 = 2.2, 3.0
    for i in range(TM):
        rect(ax2, 0.4, y0 + i * s, s, s, lighten(ORANGE, 0.2), ec="white")
    for j in range(TN):
        rect(ax2, x0 + j * s, 0.4, s, s, lighten(GREEN, 0.2), ec="white")
    for i in range(TM):
        for j in range(TN):
            rect(ax2, x0 + j * s, y0 + i * s, s, s, lighten(BLUE, 0.35), ec="white")
    rect(ax2, x0, y0, TN * s, TM * s, "none", ec=RED, lw=2.2)
    ax2.text(0.4, y0 + TM * s + 0.3, f"a_frag[i] = As[thread_row*TM + i][k],  i < TM = {TM}",
             ha="left", va="top", fontsize=8.5, color="#a0621a")
    ax2.text(0.4, 0.4 - 0.25, f"b_frag[j] = Bs[k][thread_col*TN + j],  j < TN = {TN}",
             ha="left", va="bottom", fontsize=8.5, color="#2f6b39")
    ax2.text(x0 + TN * s / 2, y0 + TM * s / 2, f"acc\n{TM} x {TN}", ha="center", va="center",
             fontsize=11, color="white", fontweight="bold")
    ax2.text(x0 - 0.4, y0 - 0.4, "x", ha="center", va="center", fontsize=14)
    loads, fmas = TM + TN, TM * TN
    # values, as the source counts them; instructions: B's row is TN/4 float4 loads, and ptxas
    # reads A's column four k at a time (As[m][k..k+3] is contiguous), TM/4 per k
    insts = (f"; with float4 loads,\n{loads // 4} instructions (LDS.128)"
             if TM % 4 == 0 and TN % 4 == 0 else "")
    ax2.text((x0 + TN * s) / 2 + 0.3, y0 + TM * s + 1.6,
             f"per k: acc[i][j] += a_frag[i] * b_frag[j]\n{loads} values loaded from shared "
             f"memory feed {fmas} FMAs:\n{loads / fmas:g} values per FMA (02: 2){insts}",
             ha="center", va="top", fontsize=9.5)
    ax2.set_xlim(0, x0 + TN * s + 0.6)
    ax2.set_ylim(y0 + TM * s + 3.6, -0.8)
    ax2.set_aspect("equal")
    ax2.set_title("Thread 0's microtile (red outline): for each k < BK,\nthe outer product "
                  "of a_frag and b_frag", fontsize=10)
    return fig


def draw_transposed(name, rec, plt):
    p, d = rec["params"]["sgemm"], rec["data"]
    BM, BK, TM = p["BM"], p["BK"], p["TM"]
    k, ms = d["k"], d["m"]
    nf4 = len(d["As_T_float4"])
    fig = plt.figure(figsize=(WIDTH, 6.8))
    header(fig, name, "a_frag: a strided column of As becomes a contiguous row of As_T", rec)
    fig.text(0.5, 0.895, f"Thread {d['tid']} (thread_row {d['thread_row']}) at k = {k}: its "
             f"a_frag, A[m][{k}] for m = {ms[0]}..{ms[-1]}, in red", ha="center", va="top",
             fontsize=9.5)
    # 03: As[BM][BK], tall
    ax = fig.add_axes([0.07, 0.09, 0.11, 0.70])
    for m in range(BM):
        for kk in range(BK):
            hit = kk == k and m in ms
            rect(ax, kk, m, 1, 1, RED if hit else (LIGHT if m % 2 else "#f6f6f6"), ec="none")
    rect(ax, 0, 0, BK, BM, "none", ec=DARK, lw=1)
    ax.set_xlim(0, BK)
    ax.set_ylim(BM, 0)
    ax.set_xticks([0.5, k + 0.5, BK - 0.5], ["0", str(k), str(BK - 1)])
    ax.set_yticks(range(0, BM + 1, BM // 8))
    ax.tick_params(labelsize=8)
    ax.set_xlabel("k", fontsize=9)
    ax.set_ylabel("m (row of the A tile)", fontsize=9)
    ax.set_title(f"03: As[BM][BK]\n= As[{BM}][{BK}]", fontsize=10)
    ax.annotate(f"03: a_frag is\na column of As:\n{TM} floats,\n{BK} words apart", xy=(k + 1, ms[TM // 2]),
                xytext=(0.205, 0.72), textcoords="figure fraction", fontsize=9, va="top",
                arrowprops=dict(arrowstyle="->", color=RED))
    # 04: As_T[BK][BM], wide
    ax2 = fig.add_axes([0.39, 0.49, 0.57, 0.25])
    for kk in range(BK):
        for m in range(BM):
            hit = kk == k and m in ms
            rect(ax2, m, kk, 1, 1, RED if hit else (LIGHT if kk % 2 else "#f6f6f6"), ec="none")
    for q in d["As_T_float4"]:
        rect(ax2, q * 4 - k * BM, k, 4, 1, "none", ec=DARK, lw=1.3)
    rect(ax2, 0, 0, BM, BK, "none", ec=DARK, lw=1)
    ax2.set_xlim(0, BM)
    ax2.set_ylim(BK, 0)
    ax2.set_xticks(range(0, BM + 1, BM // 8))
    ax2.set_yticks([0.5, k + 0.5, BK - 0.5], ["0", str(k), str(BK - 1)])
    ax2.tick_params(labelsize=8)
    ax2.set_xlabel("m", fontsize=9, labelpad=1)
    ax2.set_ylabel("k", fontsize=9)
    ax2.set_title(f"04: As_T[BK][BM] = As_T[{BK}][{BM}],  As_T[k][m] = A[m][k]", fontsize=10)
    ax2.annotate(f"04: a row of As_T,\n{TM} consecutive floats", xy=(ms[-1] + 1, k + 0.5),
                 xytext=(ms[-1] + BM * 0.1, BK * 0.55), fontsize=9, va="center",
                 arrowprops=dict(arrowstyle="->", color=RED))
    # the same eight floats as shared-memory words, in address order
    ax3 = fig.add_axes([0.39, 0.06, 0.57, 0.27])
    bare(ax3)
    span = 128
    for n, (label, addrs, boxes, how) in enumerate([
            ("As", d["As_addr"], [], f"stride {BK} words ({BK * 4} B): {TM} scalar loads "
                                     f"(in the source)"),
            ("As_T", d["As_T_addr"], d["As_T_float4"],
             f"{TM} consecutive words: {nf4} aligned float4 loads")]):
        y = (1 - n) * 3.2
        base = addrs[0] // span * span
        for e in range(span):
            rect(ax3, e, y, 1, 1, RED if base + e in addrs else LIGHT, ec="white", lw=0.3)
        for q in boxes:
            rect(ax3, q * 4 - base, y, 4, 1, "none", ec=DARK, lw=1.3)
        rect(ax3, 0, y, span, 1, "none", ec=DARK, lw=0.8)
        ax3.text(-1, y + 0.5, label, ha="right", va="center", fontsize=10, fontweight="bold")
        ax3.text(0, y - 0.2, str(base), ha="left", va="top", fontsize=8)
        ax3.text(span, y - 0.2, str(base + span - 1), ha="right", va="top", fontsize=8)
        ax3.text(span / 2, y - 0.2, f"word {addrs[0]}, ..., {addrs[-1]}: {how}", ha="center",
                 va="top", fontsize=9)
    ax3.set_xlim(-9, span)
    ax3.set_ylim(-1.6, 5.0)
    ax3.set_title(f"The same a_frag as shared-memory words (a stretch of {span} words)",
                  fontsize=10)
    return fig


def draw_swizzle(name, rec, plt):
    p, d = rec["params"]["sgemm"], rec["data"]
    BM, BK = p["BM"], p["BK"]
    import colorsys
    # one colour per bank; the golden-ratio hue step makes neighbouring banks differ
    bank_colour = [colorsys.hsv_to_rgb((b * 0.381966) % 1.0, 0.45 + 0.2 * (b % 2), 0.95)
                   for b in range(BANKS)]
    fig = plt.figure(figsize=(WIDTH, 7.0))
    header(fig, name, "the transposed A-tile stores of one warp, lane -> bank", rec)
    for n, (key, title) in enumerate([
            ("before", f"04: As_T[k][m], bank = m % 32"),
            ("after", f"05: As_T[k][swizzle(k, m)], swizzle = m ^ ((k / 4) * (128 / BK)) "
                      f"= m ^ ((k / 4) * {128 // BK})")]):
        s = d[key]
        ax = fig.add_axes([0.1, 0.495 - n * 0.43, 0.7, 0.29])
        for q in range(4):
            for lane in range(WARP):
                b = s["banks"][q][lane]
                rect(ax, lane, q, 1, 1, bank_colour[b], ec="white", lw=0.5)
                ax.text(lane + 0.5, q + 0.5, str(b), ha="center", va="center", fontsize=7.5)
            wf = s["wavefronts"][q]
            used = len(set(s["banks"][q]))
            ax.text(WARP + 0.4, q + 0.5, f"{used} banks: "
                    + ("no conflict" if wf == 1 else f"{wf}-way conflict"),
                    ha="left", va="center", fontsize=9, color=RED if wf > 1 else GREEN,
                    fontweight="bold")
        ax.set_xlim(0, WARP)
        ax.set_ylim(4, -1.6)
        ax.set_yticks([q + 0.5 for q in range(4)],
                      [f"As_T[c+{q}]" for q in range(4)], fontsize=8.5)
        ax.set_xticks([l + 0.5 for l in range(WARP)], [str(l) for l in range(WARP)],
                      fontsize=7)
        ax.tick_params(length=0)
        for lane in range(WARP):
            ax.text(lane + 0.5, -0.55, str(s["m"][lane]), ha="center", va="center",
                    fontsize=7)
            ax.text(lane + 0.5, -1.15, str(s["k"][lane]), ha="center", va="center",
                    fontsize=7)
        ax.text(-0.3, -0.55, "m = r", ha="right", va="center", fontsize=8)
        ax.text(-0.3, -1.15, "k = c", ha="right", va="center", fontsize=8)
        for sp in ax.spines.values():
            sp.set_visible(False)
        ax.set_xlabel("lane of warp 0", fontsize=9, labelpad=2)
        ax.set_title(title, fontsize=10, loc="left")
    fig.text(0.5, 0.895, f"Lane i stores A[r][c..c+3] with r = i / (BK/4) = i / {BK // 4}, "
             f"c = i % {BK // 4} * 4 (BK = {BK}) as four scalar stores As_T[c+q][...]. "
             f"Cell: the bank\n(word address % 32, BM = {BM}); one colour per bank. "
             f"A bank hit by n different words costs n wavefronts.", ha="center", va="top",
             fontsize=9)
    return fig


def draw_coalesced(name, rec, plt):
    p, d = rec["params"]["sgemm"], rec["data"]
    BN, TM, TN = p["BN"], p["TM"], p["TN"]
    colours = [BLUE, ORANGE, GREEN, PURPLE, RED]
    fig = plt.figure(figsize=(WIDTH, 6.6))
    header(fig, name, "the 128-byte lines one warp's float4 stores of C touch", rec)
    after = d["after"]
    # lane 0's first columns in stores j and j + 4: 06 steps j by 4, so 4 * (BN / TN) apart
    gap = after[1]["lanes"][0][1] - after[0]["lanes"][0][1] if len(after) > 1 else None
    for n, (key, title) in enumerate([
            ("before", "05: store j writes columns thread_col*TN + j .. +3  "
                       f"(a thread's TN = {TN} columns adjacent)"),
            ("after", "06: store j writes columns thread_col*4 + j*(BN/TN) .. +3  "
                      + (f"(j = 0, 4, ..: a thread's groups 4*(BN/TN) = {gap} columns apart)"
                         if gap is not None else "(one float4 group per thread)"))]):
        stores = d[key]
        rows = sorted({r for s in stores for r, _ in s["lanes"]})
        ax = fig.add_axes([0.09, 0.49 - n * 0.41, 0.62, 0.25])
        for ri, row in enumerate(rows):
            y = ri * 2.2
            for c in range(BN):
                rect(ax, c, y, 1, 1, LIGHT, ec="none")
            for si, s in enumerate(stores):
                for lane, (r, c) in enumerate(s["lanes"]):
                    if r == row:
                        rect(ax, c, y, 4, 1, colours[si % len(colours)], ec="none")
                        ax.text(c + 2, y + 0.5, str(lane), ha="center", va="center",
                                fontsize=6.5, color="white")
            for c in range(0, BN + 1, SECTOR_FLOATS):
                ax.plot([c, c], [y, y + 1], color="white" if c % LINE_FLOATS else DARK,
                        lw=0.8 if c % LINE_FLOATS else 1.8)
            rect(ax, 0, y, BN, 1, "none", ec=DARK, lw=1.2)
            ax.text(-1, y + 0.5, f"row {row}", ha="right", va="center", fontsize=9)
        for ln in range(BN // LINE_FLOATS):
            ax.text((ln + 0.5) * LINE_FLOATS, -0.25, f"line {ln} (128 B)", ha="center",
                    va="bottom", fontsize=8.5)
        ax.set_xlim(0, BN)
        ax.set_ylim(len(rows) * 2.2 - 1.2 + 0.1, -1.3)
        ax.set_xticks(range(0, BN + 1, SECTOR_FLOATS * 2))
        ax.tick_params(labelsize=8)
        ax.set_yticks([])
        for sp in ("left", "right", "top"):
            ax.spines[sp].set_visible(False)
        ax.set_xlabel(f"column of the block tile (one row of C is {BN} floats; "
                      f"white ticks: 32-byte sectors)", fontsize=8.5)
        ax.set_title(title, fontsize=10, loc="left")
        for si, s in enumerate(stores):
            whole = s["whole_sectors"] == s["sectors"]
            fig.text(0.73, 0.70 - n * 0.41 - si * 0.085,
                     f"store j = {s['j']}: {s['lines']} lines,\n{s['sectors']} sectors, "
                     + ("all written whole" if whole else
                        "none written whole" if s["whole_sectors"] == 0 else
                        f"{s['sectors'] - s['whole_sectors']} in part"),
                     color=colours[si % len(colours)], fontsize=9.5, va="top",
                     fontweight="bold")
    fig.text(0.5, 0.885, f"Warp 0's float4 stores of C for i = 0: lanes 0-{BN // TN - 1} "
             f"write row 0, the next {BN // TN} row {TM} (lane numbers in the cells); "
             f"one colour per store instruction (j).",
             ha="center", va="top", fontsize=9)
    return fig


def draw_double_buffer(name, rec, plt):
    p, d = rec["params"]["sgemm"], rec["data"]
    BK = p["BK"]
    colour = {"load": BLUE, "store": GREEN, "fma": ORANGE}
    fig = plt.figure(figsize=(WIDTH, 5.6))
    header(fig, name, "tile t+1's global loads fly while tile t is computed", rec)
    end = max(e[3] for e in d["one_stage"] + d["two_stages"])
    lane_y = {"load": 1.0, "store": 1.0, "fma": 0.0}
    for n, (key, title) in enumerate([
            ("one_stage", f"one stage (06's loop, at 07's BK = {BK}): load, store, barrier, "
                          "FMAs, barrier: the load latency is waited for every k-tile"),
            ("two_stages", "two stages (07): load of tile t+1 issued, FMAs of tile t, store "
                           "into the other stage, one barrier"
                           + (" before the last step's FMAs" if p["OVERLAP"] >= 1 else ""))]):
        ax = fig.add_axes([0.14, 0.46 - n * 0.36, 0.82, 0.24])
        ev = d[key]
        for kind, t, a, b in ev:
            if kind == "barrier":
                ax.axvspan(a, b, color=DARK, alpha=0.85, lw=0)
                continue
            y = lane_y[kind]
            rect(ax, a, y - 0.35, b - a, 0.7 if kind != "store" else 0.35, colour[kind],
                 ec="white", lw=0.8)
            if kind != "store" and b - a > 0.5:
                ax.text((a + b) / 2, y, str(t), ha="center", va="center", color="white",
                        fontsize=8.5, fontweight="bold")
            if kind == "fma" and key == "two_stages" and b - a > 0.5:
                ax.text((a + b) / 2, y - 0.42, f"stage {t % 2}", ha="center", va="top",
                        fontsize=7.5)
        fin = max(e[3] for e in ev)
        ax.axvline(fin, color=RED, lw=1.2, ls="--")
        ax.text(fin + 0.3, 0.5, f"done\n{fin:g}", color=RED, fontsize=8.5, va="center")
        ax.set_xlim(0, end * 1.06)
        ax.set_ylim(-0.75, 1.6)
        ax.set_yticks([1.0, 0.0], ["global loads\n(+ store to smem)", "FMAs"], fontsize=8.5)
        ax.tick_params(axis="x", labelsize=8)
        for sp in ("right", "top"):
            ax.spines[sp].set_visible(False)
        ax.set_title(title, fontsize=9.5, loc="left")
    fig.axes[-1].set_xlabel("time (schematic units)", fontsize=9)
    from matplotlib.patches import Patch
    u = d["units"]
    fig.legend(handles=[Patch(fc=BLUE, label=f"global load in flight ({u['load']:g})"),
                        Patch(fc=GREEN, label=f"register -> shared store ({u['store']:g})"),
                        Patch(fc=ORANGE, label=f"FMAs of a k-tile ({u['fma']:g})"),
                        Patch(fc=DARK, label=f"__syncthreads ({u['barrier']:g})")],
               loc="upper center", bbox_to_anchor=(0.5, 0.9), ncol=4, fontsize=8.5,
               frameon=False)
    fig.text(0.5, 0.825, f"Schematic timing, not measured: K = {d['show_k']} shown = "
             f"{d['k_tiles']} k-tiles of BK = {BK} (numbers in the bars); a load's latency is "
             f"fixed, the FMAs grow with BK * TM * TN.", ha="center", va="top", fontsize=8.5)
    return fig


WARP_COLOURS = [BLUE, ORANGE, GREEN, PURPLE, RED, "#937860", "#da8bc3", "#8c8c8c"]


def warp_map(ax, tiles, BM, BN, WM, WN, fh, fw, px):
    """A block tile, warps in colour, each warp tile split into fh x fw MMA tiles; warp 0's
    labelled acc[i][j] when they have room. Returns whether they were labelled."""
    FM, FN = WM // fh, WN // fw
    labels = fw * px >= 30 and fh * px >= 30  # room for "acc [i][j]"
    for wi, (wr, wc) in enumerate(tiles["warps"]):
        col = WARP_COLOURS[wi % len(WARP_COLOURS)]
        for i in range(FM):
            for j in range(FN):
                rect(ax, wc * WN + j * fw, wr * WM + i * fh, fw, fh,
                     lighten(col, 0.25 if (i + j) % 2 else 0.45), ec="white", lw=1)
                if wi == 0 and labels:
                    ax.text(wc * WN + j * fw + fw / 2, wr * WM + i * fh + fh / 2,
                            f"acc\n[{i}][{j}]", ha="center", va="center", fontsize=7.5)
        rect(ax, wc * WN, wr * WM, WN, WM, "none", ec=DARK, lw=1.8)
        if wi != 0 or not labels:
            ax.text(wc * WN + WN / 2, wr * WM + WM / 2, f"warp {wi}", ha="center",
                    va="center", fontsize=11 if WN * px >= 90 else 8, fontweight="bold",
                    bbox=dict(fc="white", ec="none", alpha=0.85, pad=2))
    if labels:
        ax.text(WN / 2, -1.5, "warp 0", ha="center", va="bottom", fontsize=9.5,
                fontweight="bold")
    ax.set_xlim(0, BN)
    ax.set_ylim(BM, 0)
    step = 16 if BN * px >= 400 and BN <= 128 else 32
    ax.set_xticks(range(0, BN + 1, step))
    ax.set_yticks(range(0, BM + 1, step))
    ax.tick_params(labelsize=7.5)
    return labels


def draw_wmma(name, rec, plt):
    d = rec["data"]
    params = rec["params"]
    entries = [e for e in ("sgemm", "hgemm") if e in d["tiles"]]
    # one block-tile map per distinct tiling (sgemm and hgemm usually share one)
    maps = []
    for e in entries:
        q = params[e]
        key = (q["BM"], q["BN"], q["WM"], q["WN"])
        for m in maps:
            if m[0] == key:
                m[1].append(e)
                break
        else:
            maps.append((key, [e]))
    H = 9.4
    fig = plt.figure(figsize=(WIDTH, H))
    header(fig, name, "WMMA fragments on 07's two-stage register-prefetch pipeline", rec)
    # the maps side by side in the left half of the upper part, one scale for all
    top = 0.825
    avail_w, avail_h = 0.50 * WIDTH * DPI, 0.36 * H * DPI  # pixels
    total_bn = sum(k[1] for k, _ in maps)
    px = min((avail_w - 50 * (len(maps) - 1)) / total_bn, avail_h / max(k[0] for k, _ in maps))
    x = 0.06
    for n, (key, ents) in enumerate(maps):
        BM, BN, WM, WN = key
        tiles = d["tiles"][ents[0]]
        FM, FN = tiles["FM"], tiles["FN"]
        w, h = BN * px / (WIDTH * DPI), BM * px / (H * DPI)
        ax = fig.add_axes([x, (top if len(maps) == 1 else top - 0.05) - h, w, h])
        x += w + 50 / (WIDTH * DPI)
        warp_map(ax, tiles, BM, BN, WM, WN, 16, 16, px)
        sep = "\n" if len(maps) > 1 else " "
        ax.set_title(f"{' and '.join(ents)}: block tile {BM} x {BN},\n"
                     f"{len(tiles['warps'])} warps of {WM} x {WN} ={sep}{FM} x {FN} fragments "
                     f"of 16 x 16", fontsize=10 if len(maps) == 1 else 9, pad=20)
    # fragment shapes to scale
    ax2 = fig.add_axes([0.59, 0.45, 0.38, top - 0.45])
    bare(ax2)
    kinds = []
    names = {"float": "TF32 (float inputs)", "__half": "FP16 inputs"}
    for t, e in (("float", "sgemm"), ("__half", "hgemm")):
        if t in d["mma_k"] and e in d["tiles"]:
            kinds.append((names[t], d["mma_k"][t], params[e]["BK"], d["tiles"][e]))
    y = 0
    s = 0.18
    for label, K, BK, tiles in kinds:
        ax2.text(0, y, f"{label}: m16n16k{K}", fontsize=10, fontweight="bold", va="top")
        yy = y + 1.0
        xa = 0.0
        for what, h, w, col in (("A", 16, K, BLUE), ("B", K, 16, ORANGE), ("acc", 16, 16, GREEN)):
            for i in range(h):
                for j in range(w):
                    rect(ax2, xa + j * s, yy + i * s, s, s, lighten(col, 0.3), ec="white",
                         lw=0.3)
            ax2.text(xa + w * s / 2, yy + h * s + 0.15, f"{what} {h} x {w}", ha="center",
                     va="top", fontsize=9)
            xa += w * s + 0.9
            if what == "A":
                ax2.text(xa - 0.45, yy + 8 * s, "x", ha="center", va="center", fontsize=12)
            if what == "B":
                ax2.text(xa - 0.45, yy + 8 * s, "+=", ha="center", va="center", fontsize=11)
        ax2.text(0, yy + 16 * s + 0.75, f"{tiles['FM'] * tiles['FN']} mma_sync per warp per "
                 f"k-step;\nBK = {BK}: {tiles['steps']} k-steps per k-tile", fontsize=8.5,
                 va="top")
        y = yy + 16 * s + 2.1
    ax2.set_xlim(-0.1, 3 * 16 * s + 2.2)
    ax2.set_ylim(y, -0.3)
    ax2.set_aspect("equal")
    ax2.set_title("Fragment shapes per precision\n(one cell = one element)", fontsize=10, pad=14)

    # the pipeline: one schedule per distinct one (sgemm and hgemm usually share it)
    scheds = []
    for e in entries:
        sc = d["tiles"][e]["schedule"]
        for m in scheds:
            if m[0] == sc:
                m[1].append(e)
                break
        else:
            scheds.append((sc, [e]))
    sc, ents = scheds[0]
    q, tiles = params[ents[0]], d["tiles"][ents[0]]
    ax3 = fig.add_axes([0.17, 0.10, 0.78, 0.21])
    colour = {"load": BLUE, "store": GREEN, "mma": ORANGE}
    row = {"load": 2.0, "store": 1.0, "mma": 0.0}
    for kind, tile, stage, a, b in sc:
        if kind == "barrier":
            ax3.axvspan(a, b, color=DARK, alpha=0.85, lw=0)
            continue
        y = row[kind]
        fc = colour[kind] if kind != "mma" or stage == 0 else lighten(colour[kind], 0.35)
        if kind == "load" and tile > 0:  # in flight while the MMAs run
            rect(ax3, a, y - 0.3, b - a, 0.6, lighten(BLUE, 0.55), ec="white", lw=0.8,
                 hatch="///")
            ax3.text((a + b) / 2, y, f"tile {tile} -> registers" if b - a >= 2 * STEP_TIME
                     else f"tile {tile}", ha="center", va="center", fontsize=8,
                     bbox=dict(fc="white", ec="none", alpha=0.8, pad=1))
            continue
        rect(ax3, a, y - 0.3, b - a, 0.6, fc, ec="white", lw=0.8)
        text = {"load": f"tile {tile}", "store": f"tile {tile}\n-> st. {stage}",
                "mma": f"tile {tile}\nstage {stage}"}[kind]
        ax3.text((a + b) / 2, y, text, ha="center", va="center", fontsize=7.5,
                 color="white" if kind != "mma" else DARK, fontweight="bold")
    end = max(e[4] for e in sc)
    ax3.set_xlim(0, end * 1.01)
    ax3.set_ylim(-0.5, 2.5)
    ax3.set_yticks([2.0, 1.0, 0.0], ["global -> registers\n(a_next, b_next)",
                                    "registers -> shared\n(store_tile)",
                                    "mma_sync from\nshared stage"], fontsize=8.5)
    ax3.set_xticks([])
    for sp in ("right", "top"):
        ax3.spines[sp].set_visible(False)
    ax3.set_xlabel("program order of one block (schematic widths, not measured)", fontsize=8.5)
    where = ("after its last k-step" if q["OVERLAP"] == 0 else
             "before its last k-step's MMAs")
    steps = {tiles["steps"] for tiles in d["tiles"].values()}
    steps = (f"{steps.pop()} k-steps" if len(steps) == 1 else "k-steps") + " per k-tile (" + \
        ", ".join(f"{e} {params[e]['BK']} / {d['mma_k'][params[e]['T']]}" for e in entries) + ")"
    fig.text(0.5, 0.43, f"The k-tile loop ({' and '.join(ents)}, OVERLAP = {q['OVERLAP']}): "
             f"tile k+1 is loaded into registers while tile k is computed\nfrom its shared "
             f"stage, then stored into the other stage; one __syncthreads per k-tile, {where}."
             f"\nBK / MMA_K = {steps}: one mma_sync bar each.", ha="center", va="top",
             fontsize=9.5)
    from matplotlib.patches import Patch
    fig.legend(handles=[Patch(fc=lighten(BLUE, 0.55), hatch="///", label="global loads in flight"),
                        Patch(fc=GREEN, label="register -> shared store"),
                        Patch(fc=ORANGE, label="mma_sync of stage 0"),
                        Patch(fc=lighten(ORANGE, 0.35), label="... of stage 1"),
                        Patch(fc=DARK, label="__syncthreads")],
               loc="upper center", bbox_to_anchor=(0.5, 0.36), ncol=5, fontsize=8.5,
               frameon=False)
    lda = ", ".join(f"{e} {d['tiles'][e]['LDA']}" for e in entries)
    kb = {d["tiles"][e]["smem_bytes"] for e in entries}
    kb = (f"{kb.pop() / 1024:g} KB" if len(kb) == 1 else
          ", ".join(f"{e} {d['tiles'][e]['smem_bytes'] / 1024:g} KB" for e in entries))
    ldb = {d["tiles"][e]["LDB"] for e in entries}
    ldb = (f"{ldb.pop()}" if len(ldb) == 1 else
           ", ".join(f"{e} {d['tiles'][e]['LDB']}" for e in entries))
    fig.text(0.5, 0.03, f"Shared memory: As[2][BM][LDA], Bs[2][BK][LDB], two stages of padded "
             f"rows:" + ("\n" if len(lda + ldb + kb) > 40 else " ") + f"LDA = BK + 16 / "
             f"sizeof(T) ({lda}), LDB = BN + 8 ({ldb}); {kb}",
             ha="center", va="bottom", fontsize=8.5)
    return fig


CHUNK_COLOURS = [BLUE, ORANGE, GREEN, PURPLE, "#937860", "#da8bc3", "#8c8c8c", "#ccb974"]


def draw_mma_sync(name, rec, plt):
    d, params = rec["data"], rec["params"]
    ring_colour = {"compute": ORANGE, "issued": BLUE, "flight": lighten(BLUE, 0.55),
                   "done": GREY, "empty": LIGHT}
    entries = [e for e in ("sgemm", "hgemm") if e in d["tiles"]]
    main = "hgemm" if "hgemm" in entries else entries[0]  # the FP16 default, when there is one
    other = [e for e in entries if e != main]
    q, m = params[main], d["tiles"][main]
    BM, BN, BK, WM, WN, S = (q[k] for k in ("BM", "BN", "BK", "WM", "WN", "STAGES"))
    size = ELEM_BYTES[q["T"]]
    prec = {"__half": "FP16", "float": "TF32"}
    shape = {t: f"m16n8k{k}" for t, k in d["mma_k"].items()}
    H = 9.4
    fig = plt.figure(figsize=(WIDTH, H))
    header(fig, name, "mma.sync tiles, ldmatrix from an XOR-swizzled layout, a cp.async ring",
           rec)
    fig.text(0.5, 0.885, "Over 08: PTX mma.sync (" + ", ".join(
        f"{prec[t]} {shape[t]}" for t in ("__half", "float") if t in shape) + ") instead of "
        "WMMA; ldmatrix from unpadded, XOR-swizzled rows instead of padded ones;\ncp.async "
        "straight into a ring of STAGES shared stages instead of registers -> 2 stages; "
        "fragments double-buffered in registers (FRAG_BUFS)", ha="center", va="top",
        fontsize=9, color=DARK)

    # (a) the warp tiling of the block tile
    FM, FN = m["FM"], m["FN"]
    px = min(0.50 * WIDTH * DPI / BN, 0.26 * H * DPI / BM)
    w, h = BN * px / (WIDTH * DPI), BM * px / (H * DPI)
    ax = fig.add_axes([0.06, 0.79 - h, w, h])
    warp_map(ax, m, BM, BN, WM, WN, 16, 8, px)
    ax.set_title(f"(a) {main} ({prec[q['T']]}): block tile {BM} x {BN}, "
                 f"{len(m['warps'])} warps of {WM} x {WN},\neach {FM} x {FN} mma tiles of "
                 f"16 x 8 ({shape[q['T']]}: {FM * FN} mma.sync per k-step)", fontsize=9.5,
                 loc="left")
    for e in other:
        o, t = params[e], d["tiles"][e]
        ax.text(0, BM + 0.14 * BM, f"{e} ({prec[o['T']]}): {o['BM']} x {o['BN']}, "
                f"{len(t['warps'])} warps of {o['WM']} x {o['WN']} = {t['FM']} x {t['FN']} "
                f"tiles of {shape[o['T']]}", ha="left", va="top", fontsize=8.5)

    # (c) the cp.async ring
    ring = m["ring"]
    ax3 = fig.add_axes([0.645, 0.585, 0.33, 0.185])
    bare(ax3)
    cw, ch = 1.0, 0.8
    for col, stages in enumerate(ring):
        for st, (tile, state) in enumerate(stages):
            rect(ax3, col * cw, st * ch, cw, ch, ring_colour[state], ec="white", lw=1.5)
            if tile is not None:
                ax3.text(col * cw + cw / 2, st * ch + ch / 2, f"tile {tile}", ha="center",
                         va="center", fontsize=8,
                         color="white" if state in ("compute", "issued") else DARK)
        ax3.text(col * cw + cw / 2, -0.12, "prologue" if col == 0 else f"t={col - 1}",
                 ha="center", va="bottom", fontsize=8)
    for st in range(S):
        ax3.text(-0.1, st * ch + ch / 2, f"stage {st}", ha="right", va="center", fontsize=8)
    ax3.set_xlim(-0.95, len(ring) * cw + 0.05)
    ax3.set_ylim(S * ch + 0.05, -0.55)
    ax3.set_title(f"(c) {main}'s cp.async ring, STAGES = {S}"
                  + "".join(f" ({e}: {params[e]['STAGES']})" for e in other)
                  + f":\niteration t computes tile t and issues\ntile t + {S - 1} into the "
                  f"stage tile t - 1 left", fontsize=9.5, loc="left")
    from matplotlib.patches import Patch
    ax3.legend(handles=[Patch(fc=ring_colour["compute"], label="ldmatrix + mma.sync now"),
                        Patch(fc=ring_colour["issued"], label="cp.async issued now"),
                        Patch(fc=ring_colour["flight"], label="in flight / landed"),
                        Patch(fc=ring_colour["empty"], ec=GREY, label="empty")],
               loc="upper left", bbox_to_anchor=(-0.02, 0.0), ncol=2, fontsize=8,
               frameon=False)
    fig.text(0.625, 0.505, f"One __syncthreads per k-tile, after cp.async.wait_group\n"
             f"STAGES - 2 = {S - 2} (tile t + 1 has landed), before the last\nk-step's MMAs"
             + (f". FRAG_BUFS = 2: step s + 1's fragments are\nloaded (ldmatrix) while step s's "
                f"MMAs run." if q["FRAG_BUFS"] == 2 else "."), ha="left", va="top",
             fontsize=8.5)

    # (b) one stage of A in shared memory, in 128-byte lines of 8 bank groups
    RC = m["RC"]
    rows_per_line = BANK_GROUPS // RC
    cell = 1.0
    ax2 = fig.add_axes([0.02, 0.03, 0.96, 0.38], anchor="W")
    bare(ax2)
    gap = BANK_GROUPS + 3.4
    for n, key in enumerate(("swizzled", "plain")):
        x0 = n * gap
        layout, phase = m["layout"][key], m["phase0"][key]
        reads = {(r, p): lane for lane, (r, p, _) in enumerate(phase)}
        for r, chunks in enumerate(layout):
            line, part = r // rows_per_line, r % rows_per_line
            for p, c in enumerate(chunks):
                x = x0 + (part * RC + p) * cell
                rect(ax2, x, line * cell, cell, cell, lighten(CHUNK_COLOURS[c % 8], 0.3),
                     ec="white", lw=1)
                lane = reads.get((r, p))
                ax2.text(x + cell / 2, line * cell + cell / 2,
                         str(c) if lane is None else f"L{lane}", ha="center", va="center",
                         fontsize=8, fontweight="bold" if lane is not None else "normal")
                if lane is not None:
                    rect(ax2, x + 0.06, line * cell + 0.06, cell - 0.12, cell - 0.12, "none",
                         ec=RED, lw=2)
            if part == 0:
                rows = f"{r}" if rows_per_line == 1 else f"{r}-{r + rows_per_line - 1}"
                ax2.text(x0 - 0.15, line * cell + cell / 2, f"rows {rows}" if rows_per_line > 1
                         else f"row {rows}", ha="right", va="center", fontsize=8)
        lines = len(layout) // rows_per_line
        for part in range(1, rows_per_line):
            ax2.plot([x0 + part * RC, x0 + part * RC], [0, lines], color=DARK, lw=1.2)
        rect(ax2, x0, 0, BANK_GROUPS, lines, "none", ec=DARK, lw=1.2)
        for g in range(BANK_GROUPS):
            ax2.text(x0 + g + 0.5, -0.12, str(g), ha="center", va="bottom", fontsize=8)
        groups = len({g for _, _, g in phase})
        wf = m["wavefronts"][key]["A"]
        ax2.text(x0 + BANK_GROUPS / 2, -0.75,
                 ("XOR-swizzled (09):\nchunk ^ (row / %d) %% %d" % (8 // RC, RC))
                 if key == "swizzled" else "plain (SWIZZLE = false):\nchunk as is",
                 ha="center", va="bottom", fontsize=9, fontweight="bold")
        ax2.text(x0 + BANK_GROUPS / 2, lines + 0.2,
                 f"L0-L7: {groups} bank group{'s' if groups > 1 else ''}\n{wf} wavefront"
                 + ("s" if wf > 1 else "") + (", no conflict" if wf == 1 else
                                              f" ({wf}-way conflict)"),
                 ha="center", va="top", fontsize=9, color=GREEN if wf == 1 else RED,
                 fontweight="bold")
    # the words
    xt = 2 * gap - 2.0
    wave = m["wavefronts"]
    e0 = 16 // size
    text = (f"One stage of A, As[{BM}][{BK}] ({prec[q['T']]}):\nrows of {RC} x 16-byte chunks, "
            f"{rows_per_line} row{'s' if rows_per_line > 1 else ''}\nper 128-byte line of 32 "
            f"banks = 8 bank\ngroups (column numbers). Rows 0-"
            f"{len(m['layout']['swizzled']) - 1} of {BM}\n(the pattern repeats). Colour and "
            f"number:\nthe logical chunk c (k = {e0}c .. {e0}c + {e0 - 1}).\n\n"
            f"ldmatrix x4 reads four 8 x 8 matrices,\none per phase: L0-L7 = lanes 0-7 give\n"
            f"the 8 rows of warp 0's first matrix\n(rows 0-7, chunk 0).\n\n"
            f"Worst phase of any warp, {main}:\n  A, ldmatrix: {wave['swizzled']['A']} "
            f"wavefront (plain {wave['plain']['A']})\n  B, "
            f"{'ldmatrix.trans' if size == 2 else 'word loads'}: {wave['swizzled']['B']} "
            f"(plain {wave['plain']['B']})")
    for e in other:
        w2 = d["tiles"][e]["wavefronts"]
        text += (f"\n{e}: A {w2['swizzled']['A']} (plain {w2['plain']['A']}), "
                 f"B {w2['swizzled']['B']} (plain {w2['plain']['B']})")
    ax2.text(xt, -0.75, text, ha="left", va="top", fontsize=8.5)
    ax2.set_xlim(-2.6, xt + 12.5)
    ax2.set_ylim(max(len(mm) // rows_per_line for mm in m["layout"].values()) + 1.6, -1.6)
    ax2.set_aspect("equal")
    ax2.text(-2.6, -2.3, f"(b) {main}: one stage of A in shared memory, by 128-byte line "
             f"(x: bank group of 4 banks)", fontsize=9.5, ha="left", va="bottom")
    return fig


RANK_COLOURS = [PURPLE, RED, "#937860", "#8c8c8c"]  # 10: the block of the cluster that copies
A_SLOT = "#9aa9b8"  # 10: a stage's A tile (each block's own rows)
SWIZZLE_ROWS = 8  # 10: rows of a C buffer drawn, one period of the 128-byte swizzle


def draw_wgmma_tma(name, rec, plt):
    p, d = rec["params"]["hgemm"], rec["data"]
    BN, S, CL, GROUP = p["BN"], p["STAGES"], p["CLUSTER"], p["GROUP"]
    BM, BK, CC = d["BM"], d["BK"], d["c_chunk"]
    kb = lambda n: f"{n / 1024:g} KB"
    nb = len(d["b_boxes"])
    per_rank = nb // CL
    H = 11.0
    fig = plt.figure(figsize=(WIDTH, H))
    header(fig, name, "TMA copies into an mbarrier ring, wgmma from shared memory, clusters",
           rec)
    # one axes over the whole figure in pixels from the top left, shared by the panels
    ax = fig.add_axes([0, 0, 1, 1])
    ax.set_xlim(0, WIDTH * DPI)
    ax.set_ylim(H * DPI, 0)
    bare(ax)
    ax.patch.set_alpha(0)
    text = lambda x, y, s, **kw: ax.text(x, y, s, **{"fontsize": 8.5, "va": "top", **kw})
    title = lambda x, y, s: text(x, y, s, fontsize=9.5)
    bold = dict(color="white", fontweight="bold", ha="center", va="center", fontsize=8)

    def arrow(x0, y0, x1, y1, colour=DARK, lw=1.2, **kw):
        ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                    arrowprops=dict(arrowstyle="-|>", color=colour, lw=lw, shrinkA=0,
                                    shrinkB=0, mutation_scale=9, **kw))

    text(500, 112, "Over 09: the TMA unit moves whole tiles into 128-byte-swizzled "
         "shared memory, and mbarriers replace __syncthreads; wgmma.mma_async\nreads A and B "
         "straight from shared memory (no ldmatrix); warp-specialised warpgroups; persistent "
         "blocks in clusters that share B through multicast", ha="center", fontsize=9,
         color=DARK)

    # (a) the block: a producer warpgroup, two consumer warpgroups, the C tile in halves
    cons = d["consumers"]
    P, Cn = d["regs"][0], d["regs"][1]
    rows_per = cons[0][4] - cons[0][3] + 1
    title(20, 152, f"(a) One block: {d['threads']} threads = {d['threads'] // 128} warpgroups "
          f"of 128;\nits C tile, {BM} x {BN}, is a {rows_per}-row half per consumer")
    x0, x1 = 30, 485
    rect(ax, x0, 192, x1 - x0, 44, lighten(BLUE, 0.45), ec=DARK, lw=1.2)
    text(x0 + 8, 198, f"warpgroup 0 (threads 0-127): the producer, setmaxnreg.dec to {P}\n"
         f"thread 0 issues every TMA copy of A and B; the other 127 idle")
    text(x0, 243, f"C tile: {BM} rows x BN = {BN} columns (FP32)", fontsize=8, color=DARK)
    y, h = 258, 76
    for n, (wg, t0, t1, r0, r1) in enumerate(cons):
        rect(ax, x0, y + n * h, x1 - x0, h, lighten([ORANGE, GREEN][n % 2], 0.5), ec=DARK,
             lw=1.2)
        text(x0 + 8, y + n * h + 6,
             f"warpgroup {wg} (threads {t0}-{t1}): C rows {r0}-{r1}, setmaxnreg.inc to {Cn}\n"
             f"accumulators {r1 - r0 + 1} x {BN} FP32 in registers: {d['acc_regs']} per thread"
             f"\nper k-tile: {d['wgmma_per_ktile']} x wgmma {d['wgmma']} (k = 16 each), A rows"
             f" {r0}-{r1}\nand all of B, both straight from the stage in shared memory")
    text(x0, y + len(cons) * h + 8, f"Registers: 128 x {P} + {d['threads'] - 128} x {Cn} = "
         f"{d['regs'][2]:,} of 65,536 per SM")

    # (b) the ring of stages and its two barriers per stage
    title(520, 152, f"(b) The ring: STAGES = {S} stages of {kb(d['tx_bytes'])} (A "
          f"{kb(d['a_bytes'])} + B {kb(d['b_bytes'])});\nk-tile it uses stage it % {S}; "
          f"two mbarriers per stage:")
    cw = 38  # pixels per 8 KB: a 64 x 64 box of halves
    fx, fw = 530, 100
    axx = fx + fw + 8
    aw = cw * d["a_bytes"] // 8192
    bx = axx + aw + 6
    ex = bx + nb * cw + 8
    ew = 990 - ex
    hy = 190
    text(fx + fw / 2, hy, "full[s]: the producer\narrives (expect_tx),\nthe TMA bytes land;\n"
         "the consumers wait", ha="center", fontsize=8, color=BLUE)
    text(axx + aw / 2, hy + 28, f"A\n{BM} x {BK}", ha="center", fontsize=8)
    text(bx + nb * cw / 2, hy, f"B: {nb} boxes of\n{BK} k x 64 n; colour:\nthe block that\n"
         f"copies it (c)", ha="center", fontsize=8)
    text(ex + ew / 2, hy, "empty[s]: every\nconsumer warpgroup\nof the "
         + ("cluster" if CL > 1 else "block") + " arrives;\nthe producer waits", ha="center",
         fontsize=8, color="#a0621a")
    pitch = min(30, 120 / S)
    ry = hy + 60
    for s in range(S):
        yy, rh = ry + s * pitch, pitch - 5
        rect(ax, fx, yy, fw, rh, lighten(BLUE, 0.75), ec=BLUE, lw=1)
        text(fx + fw / 2, yy + rh / 2, f"{d['full_count']} arrival, {kb(d['tx_bytes'])}",
             ha="center", va="center", fontsize=8)
        rect(ax, axx, yy, aw, rh, A_SLOT, ec="white", lw=1)
        text(axx + aw / 2, yy + rh / 2, kb(d["a_bytes"]), **bold)
        for b, r in enumerate(d["b_boxes"]):
            rect(ax, bx + b * cw, yy, cw, rh, lighten(RANK_COLOURS[r], 0.2), ec="white", lw=1)
            text(bx + (b + 0.5) * cw, yy + rh / 2, f"B{b}", **bold)
        rect(ax, ex, yy, ew, rh, lighten(ORANGE, 0.7), ec=ORANGE, lw=1)
        text(ex + ew / 2, yy + rh / 2, f"{d['empty_count']} arrivals", ha="center",
             va="center", fontsize=8)
        text(fx - 4, yy + rh / 2, f"s={s}" if s == 0 else str(s), ha="right", va="center",
             fontsize=8)
    # which phase (parity) each side waits for, per k-tile
    ty = ry + S * pitch + 4
    ring = d["ring"]
    tw = (990 - 700) / len(ring)
    rows = [("k-tile it", [str(e[0]) for e in ring]),
            (f"stage it % {S}", [str(e[1]) for e in ring]),
            ("consumers wait full[s], parity", [str(e[2]) for e in ring]),
            ("producer waits empty[s], parity", ["-" if e[3] is None else str(e[3])
                                                  for e in ring])]
    for n, (label, cells) in enumerate(rows):
        yy = ty + n * 15
        text(696, yy + 7.5, label, ha="right", va="center", fontsize=8)
        for i, c in enumerate(cells):
            rect(ax, 700 + i * tw, yy, tw, 15, LIGHT if n == 0 else "white", ec=GREY, lw=0.6)
            text(700 + (i + 0.5) * tw, yy + 7.5, c, ha="center", va="center", fontsize=8)
    wait = ("WAIT_PREVIOUS = true: a consumer frees\nk-tile it - 1's stage once only k-tile "
            "it's wgmmas still run (wgmma.wait_group 1)." if p["WAIT_PREVIOUS"] == "true" else
            f"WAIT_PREVIOUS = false: a consumer\nfrees a stage once its wgmmas are done "
            f"(wgmma.wait_group 0).")
    text(520, ty + 4 * 15 + 5, f"-: the first round waits for nothing. {wait}\nShared memory:"
         f" {S} x {kb(d['tx_bytes'])}"
         + (f" + {kb(4 * d['epilogue']['buf_bytes'])} of C buffers" if d["epilogue"] else "")
         + f" + alignment, barriers = {d['smem_bytes'] / 1024:.1f} KB", fontsize=8)

    # (c) the cluster: own A rows, a share of B multicast into every block
    cy = 512
    if CL > 1:
        title(20, cy, f"(c) The cluster: CLUSTER = {CL} blocks (an SM each) take vertically "
              f"adjacent {BM}-row tiles of C, which need the same B k-tiles.\nEach producer "
              f"copies its block's A rows and 1/{CL} of the B k-tile, multicast (mask "
              f"{d['mask']:#0{CL + 2}b}) into the same stage of every block,\nso empty[s] "
              f"counts the consumers of all {CL} blocks (2 x {CL} = {d['empty_count']} "
              f"arrivals) before a producer refills stage s.")
    else:
        title(20, cy, f"(c) No cluster (CLUSTER = 1): each block's producer copies its own A "
              f"rows and the whole B k-tile with plain TMA copies\n(no multicast); empty[s] "
              f"counts its {d['empty_count']} consumer warpgroups.")
    # the cluster's part of C with its A rows and B k-tile, to scale
    top, bot = cy + 68, 742
    f = min((bot - top + 4) / (BK + 6 + CL * BM), 250 / (BK + 6 + BN))
    gx, gy = 44, top - 4
    cx0, cy0 = gx + (BK + 6) * f, gy + (BK + 6) * f
    for r in range(CL):
        rect(ax, gx, cy0 + r * BM * f, BK * f, BM * f, lighten(RANK_COLOURS[r], 0.25),
             ec="white", lw=1)
        text(gx + BK * f / 2, cy0 + (r + 0.5) * BM * f, f"A\nrank\n{r}",
             **dict(bold, fontsize=7.5))
        rect(ax, cx0, cy0 + r * BM * f, BN * f, BM * f, lighten(RANK_COLOURS[r], 0.8),
             ec=DARK, lw=1)
        text(cx0 + BN * f / 2, cy0 + (r + 0.5) * BM * f,
             f"C rows of\nblock rank {r}" if BN * f > 80 else f"C rows\nrank {r}",
             ha="center", va="center", fontsize=8)
    for b, r in enumerate(d["b_boxes"]):
        rect(ax, cx0 + b * 64 * f, gy, 64 * f, BK * f, lighten(RANK_COLOURS[r], 0.2),
             ec="white", lw=1)
        text(cx0 + (b + 0.5) * 64 * f, gy + BK * f / 2, f"B{b}", **dict(bold, fontsize=7.5))
    text(gx - 4, cy0 + CL * BM * f / 2, f"A k-tiles, {BM} x {BK} each", rotation=90,
         ha="right", va="center", fontsize=7.5)
    text(cx0 + BN * f, gy + BK * f / 2, f" B k-tile\n {BK} x {BN}", ha="left", va="center",
         fontsize=7.5)
    # what each block's producer copies (left) into which block's stage s (right)
    sx, sw = max(330, cx0 + BN * f + 60), 150  # clear of the B k-tile's label
    src = [("A", r, f"rank {r}: A rows, {kb(d['a_bytes'])}") for r in range(CL)]
    for r in range(CL):
        bs = [b for b, o in enumerate(d["b_boxes"]) if o == r]
        src.append(("B", r, f"rank {r}: B{bs[0]}" + (f"-B{bs[-1]}" if len(bs) > 1 else "")
                    + f", {kb(len(bs) * 8192)}"))
    half = (CL + 1) // 2  # the A rows of the upper blocks above the B boxes, the rest below
    order = [s for s in src if s[0] == "A" and s[1] < half] + \
        [s for s in src if s[0] == "B"] + [s for s in src if s[0] == "A" and s[1] >= half]
    sh = min(26, (bot - top) / len(order) - 6)
    spitch = (bot - top - sh) / max(1, len(order) - 1)
    src_y = {}
    for n, (kind, r, label) in enumerate(order):
        yy = top + n * spitch
        rect(ax, sx, yy, sw, sh, lighten(RANK_COLOURS[r], 0.2 if kind == "B" else 0.45),
             ec="white", lw=1)
        text(sx + sw / 2, yy + sh / 2, label, **bold)
        src_y[(kind, r)] = yy + sh / 2
    text(sx + sw / 2, top - 4, "copied by (global -> shared)", ha="center", va="bottom",
         fontsize=8)
    # the blocks, stacked; their B slots face the gap where the multicast arrows come in
    kx, bh = 580, 62
    bgap = (bot - top - CL * bh) / max(1, CL - 1)
    for r in range(CL):
        yy = top + r * (bh + bgap) if CL > 1 else top + (bot - top - bh) / 2
        rect(ax, kx, yy, 410, bh, lighten(RANK_COLOURS[r], 0.88), ec=RANK_COLOURS[r], lw=1.4)
        up = r < half  # the block's label on the side away from the arrows
        sy = yy + (30 if up else 4)
        text(kx + 8, yy + (6 if up else bh - 22), f"block rank {r}: stage s of its shared "
             f"memory; full[s] counts {kb(d['tx_bytes'])}", fontsize=8)
        rect(ax, kx + 8, sy, aw, 28, A_SLOT, ec="white", lw=1)
        text(kx + 8 + aw / 2, sy + 14, "A", **bold)
        arrow(sx + sw, src_y[("A", r)], kx + 8, sy + 14, colour=RANK_COLOURS[r])
        b0 = kx + 8 + aw + 6
        for b, o in enumerate(d["b_boxes"]):
            rect(ax, b0 + b * cw, sy, cw, 28, lighten(RANK_COLOURS[o], 0.2), ec="white", lw=1)
            text(b0 + (b + 0.5) * cw, sy + 14, f"B{b}", **bold)
        for o in range(CL):
            arrow(sx + sw, src_y[("B", o)], b0 + (o + 0.5) * per_rank * cw,
                  sy + (28 if up else 0), colour=RANK_COLOURS[o], lw=1.0)
        text(b0 + nb * cw + 8, sy + 14, ("tma_load_multicast" if CL > 1 else "tma_load")
             + "\ncompletes full[s]", va="center", fontsize=7.5, color=DARK)

    # (d) the epilogue
    ey = 772
    epi = d["epilogue"]
    lo = cons[0][3]
    if epi:
        nq = len(epi["chunks"])
        title(20, ey, f"(d) The epilogue (TMA_STORE = true): each consumer warpgroup sends its "
              f"{rows_per} x {BN}\naccumulators to C {CC} columns at a time, through two "
              f"{rows_per} x {CC} FP32 buffers")
        qw = 256 / nq
        ax0, ay0 = 30, ey + 66
        text(ax0, ay0 - 4, f"warpgroup {cons[0][0]}'s accumulators ({rows_per} x {BN}, in "
             f"registers)", va="bottom", fontsize=8)
        bufc = [lighten(ORANGE, 0.1), lighten(ORANGE, 0.6)]
        for q, buf, c0 in epi["chunks"]:
            rect(ax, ax0 + q * qw, ay0, qw, 64, bufc[buf], ec="white", lw=1)
            text(ax0 + (q + 0.5) * qw, ay0 + 32, f"q={q}\ncol.\n{c0}", ha="center",
                 va="center", fontsize=7 if qw < 36 else 8)
        rect(ax, ax0, ay0, 256, 64, "none", ec=DARK, lw=1.2)
        # the two buffers: rows of 16-byte chunks, each at its swizzled place
        nx = len(epi["swizzle"][0])
        bw, rh = 9.0, 8.0
        bxs = [350, 350 + nx * bw + 14]
        for buf, bx0 in enumerate(bxs):
            for r in range(SWIZZLE_ROWS):
                for x in range(nx):
                    rect(ax, bx0 + epi["swizzle"][r % 8][x] * bw, ay0 + r * rh, bw, rh,
                         lighten(CHUNK_COLOURS[x], 0.25), ec="white", lw=0.4)
            rect(ax, bx0, ay0, nx * bw, SWIZZLE_ROWS * rh, "none", ec=DARK, lw=1.2)
            text(bx0 + nx * bw / 2, ay0 - 4, f"buffer {buf}", ha="center", va="bottom",
                 fontsize=8, fontweight="bold", color=DARK)
            text(bx0 + nx * bw / 2, ay0 + SWIZZLE_ROWS * rh + 3, "q = " + ", ".join(
                str(q) for q, b, _ in epi["chunks"] if b == buf), ha="center", fontsize=7.5)
        arrow(ax0 + 260, ay0 + 32, bxs[0] - 4, ay0 + 32, colour="#a0621a", lw=1.4)
        text((ax0 + 256 + bxs[0]) / 2, ay0 + 28, "st.shared", ha="center", va="bottom",
             fontsize=7.5, color="#a0621a")
        bend = bxs[1] + nx * bw
        gx0 = bend + 44
        rect(ax, gx0, ay0, 640 - gx0, 64, lighten(GREEN, 0.75), ec=DARK, lw=1.2)
        text((gx0 + 640) / 2, ay0 + 32, f"C (global):\nrows row + {lo} ..\ncolumns\ncol + "
             f"{CC}q ..", ha="center", va="center", fontsize=7.5)
        arrow(bend + 4, ay0 + 32, gx0 - 2, ay0 + 32, colour=GREEN, lw=1.4)
        text((bend + gx0) / 2, ay0 + 28, "TMA\nstore", ha="center", va="bottom", fontsize=7.5,
             color=GREEN)
        text(bxs[0] - 30, ay0 + SWIZZLE_ROWS * rh + 18,
             f"rows 0-{SWIZZLE_ROWS - 1} of {rows_per} ({CC} floats = 128 bytes each); colour:"
             f" logical\n16-byte chunk x of a row, held at x ^ (r % 8) as TMA expects",
             fontsize=7.5)
        text(20, ey + 178,
             f"Per chunk q = 0 .. {nq - 1}: thread 0 waits (cp.async.bulk.wait_group.read 1) "
             f"until buffer q % 2 has been read\nby its last store; bar.sync; the 128 threads "
             f"write their {CC} columns (st.shared.v2.f32); fence.proxy.async hands them to\nthe "
             f"TMA unit; bar.sync; thread 0 issues the TMA store ({kb(epi['buf_bytes'])}), and "
             f"the warpgroup goes on to chunk\nq + 1 in the other buffer while the TMA unit "
             f"writes chunk q to C.", fontsize=8)
    else:
        title(20, ey, "(d) The epilogue (TMA_STORE = false): each lane stores its "
              "accumulators straight\nfrom the registers, column pairs of two rows "
              "(8-byte stores)")

    # (e) persistent clusters and the order of their tiles
    tiles = d["order"]["tiles"]
    R, Cc = len(tiles), len(tiles[0])
    pers = p["PERSISTENT"] == "true"
    title(660, ey, f"(e) PERSISTENT = {p['PERSISTENT']}: "
          + ("as many clusters\nas fit; cluster c takes work units\nc, c + clusters, ... "
             "in this order:" if pers else "one cluster\nper work unit, in this order:"))
    ch = CL * BM
    g = min(250 / (Cc * BN), 200 / (R * ch))
    ox, oy = 672, ey + 64
    span = GROUP * Cc if GROUP else Cc  # units per group
    for r in range(R):
        for c in range(Cc):
            u = tiles[r][c]
            shade = 0.2 + 0.65 * (u % span) / span
            rect(ax, ox + c * BN * g, oy + r * ch * g, BN * g, ch * g,
                 lighten([BLUE, ORANGE][u // span % 2], shade), ec="white", lw=0.4)
            if u < 2 * (GROUP or Cc) and BN * g >= 4 * len(str(u)) + 3 and ch * g >= 9:
                text(ox + (c + 0.5) * BN * g, oy + (r + 0.5) * ch * g, str(u), ha="center",
                     va="center", fontsize=6, color="white" if shade < 0.5 else DARK)
    pts = sorted((tiles[r][c], ox + (c + 0.5) * BN * g, oy + (r + 0.5) * ch * g)
                 for r in range(R) for c in range(Cc))
    ax.plot([q[1] for q in pts], [q[2] for q in pts], color=DARK, lw=0.5, alpha=0.6)
    rect(ax, ox, oy, Cc * BN * g, R * ch * g, "none", ec=DARK, lw=1)
    text(ox + Cc * BN * g + 6, oy, f"C, M = N\n= {d['order']['M']}:\n{R} x {Cc}\ncluster\n"
         f"tiles of\n{ch} x {BN}\n\nshade: the\norder within\n"
         + ("a group" if GROUP else "a row"), fontsize=7.5)
    text(660, oy + R * ch * g + 6,
         (f"GROUP = {GROUP}: {GROUP} rows of cluster tiles at a time,\ndown the columns (the "
          f"line), so the tiles in flight\nshare rows of A and columns of B in L2" if GROUP
          else "GROUP = 0: tiles row by row (the line)"), fontsize=8)
    return fig


DRAW = {"naive": draw_naive, "smem_tiling": draw_smem, "register_tiling": draw_register,
        "transposed_A": draw_transposed, "swizzle": draw_swizzle,
        "coalesced_store": draw_coalesced, "double_buffer": draw_double_buffer,
        "wmma": draw_wmma, "mma_sync": draw_mma_sync, "wgmma_tma": draw_wgmma_tma}


def draw(name, rec, path):
    plt = mpl()
    fig = DRAW[rec["family"]](name, rec, plt)
    fig.savefig(path, **SAVE)
    plt.close(fig)


def main(argv):
    args = argv[1:]
    if any(a not in ("--check", "--force") for a in args) or len(args) > 1:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        print("usage: python3 scripts/figures.py [--force | --check]", file=sys.stderr)
        return 2
    if "--check" in args:
        return check()
    return write("--force" in args)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
