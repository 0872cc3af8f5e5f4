#!/usr/bin/env python3
"""Renders the side-by-side rounds saved by perf_table.sh as Markdown tables.

Usage: perf_table.py RAW.tsv [--doc docs/PERFORMANCE.md] [--readme README.md] [--readme-n 80]
                     [--dry-run]

RAW.tsv holds `# key: value` lines (date, start, end, commit, cpu, family, model, cores, avx512,
mesa, adapter, warp, taichi, hooke_steps, peer_steps, and optionally load and note) and one
tab-separated line per measurement: n, round, engine, M spring-updates/s, load average at its
start. The full table replaces the text between the `<!-- perf-table:start -->` and
`<!-- perf-table:end -->` lines of the doc, the short one the same lines of the README (skipped,
with a note, where they are absent).
Standard library only.
"""
import argparse
import re
import statistics
import sys

START, END = "<!-- perf-table:start -->", "<!-- perf-table:end -->"

# (key, label, precision); {warp} and {taichi} become the versions measured.
ENGINES = [
    ("hooke_cpu_f64", "hooke `CpuWorld` (CPU reference), all cores", "f64"),
    ("warp_f64", "Warp {warp} CPU backend, 1 thread", "f64"),
    ("taichi_f64", "Taichi {taichi} CPU backend, all cores, atomics", "f64"),
    ("hooke_gpu_f32", "hooke `World` on {gpu}", "f32"),
    ("hooke_gpu_f64", "hooke `World` on {gpu}", "f64"),
    ("taichi_f32", "Taichi {taichi} CPU backend, all cores, atomics", "f32"),
]
RATIOS = [
    ("hooke_cpu_f64", "warp_f64", "`CpuWorld` f64 / Warp f64"),
    ("hooke_cpu_f64", "taichi_f64", "`CpuWorld` f64 / Taichi f64"),
    ("hooke_gpu_f32", "taichi_f32", "`World` on {gpu} f32 / Taichi f32"),
    ("hooke_gpu_f64", "taichi_f64", "`World` on {gpu} f64 / Taichi f64"),
]


def springs(n):
    """Springs of the benchmark lattice (docs/BENCHMARK_SCENE.md)."""
    return 3 * n * n * (n - 1) + 6 * n * (n - 1) ** 2 + 4 * (n - 1) ** 3


def read(path):
    """The metadata and the measurements {(n, engine): {round: rate}}, loads."""
    meta, rates, loads = {}, {}, []
    with open(path) as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            if line.startswith("#"):
                key, _, value = line[1:].partition(":")
                key, value = key.strip(), value.strip()
                if key == "adapter":  # wgpu's "(Vulkan, Cpu)" says nothing the text does not
                    value = re.sub(r" \(\w+, \w+\)$", "", value)
                meta[key] = value
                continue
            fields = line.split("\t")
            if len(fields) < 4:
                sys.exit(f"perf_table: {path}: bad line {line!r} (want n, round, engine, rate)")
            n, rnd, engine, rate = int(fields[0]), int(fields[1]), fields[2], float(fields[3])
            rates.setdefault((n, engine), {})[rnd] = rate
            if len(fields) > 4 and fields[4]:
                loads.append(float(fields[4]))
    if not rates:
        sys.exit(f"perf_table: {path} has no measurements")
    return meta, rates, loads


def springs_text(n):
    s = springs(n)
    return f"{s / 1e6:.2g} M springs" if s >= 1e6 else f"{s / 1e3:.0f} k springs"


def number(v):
    return f"{v:.0f}" if v >= 10 else f"{v:.1f}"


def spread(values, fmt):
    """Median (lowest-highest) of `values`, or the one value."""
    if len(values) == 1:
        return fmt(values[0])
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}-{fmt(max(values))})"


def gpu_name(meta):
    adapter = meta.get("adapter", "")
    return "lavapipe" if "llvmpipe" in adapter or not adapter else adapter.split(" (")[0]


def core_name(meta):
    """AMD's core generation from the CPU family and model numbers, or None."""
    if "AMD" not in meta.get("cpu", ""):
        return None
    try:
        family, model = int(meta.get("family", "")), int(meta.get("model", ""))
    except ValueError:
        return None
    if family == 26:
        return "Zen 5"
    if family == 25:  # 19h: Zen 3 and Zen 4 parts, told apart by model ranges
        zen4 = [(0x10, 0x1F), (0x60, 0x7F), (0xA0, 0xAF)]
        return "Zen 4" if any(lo <= model <= hi for lo, hi in zen4) else "Zen 3"
    if family == 23:
        return "Zen, Zen+ or Zen 2"
    return None


def cpu_name(meta):
    """`lscpu`'s model name with the core generation where it is known."""
    cpu, core = meta.get("cpu", "unknown CPU"), core_name(meta)
    return f"{cpu} ({core})" if core else cpu


def machine(meta):
    cpu = cpu_name(meta)
    detail = ", ".join(f"{k} {meta[k]}" for k in ("family", "model") if meta.get(k))
    cores = meta.get("cores", "?")
    simd = "AVX-512" if meta.get("avx512") == "yes" else "no AVX-512"
    mesa = meta.get("mesa", "unknown")
    adapter = meta.get("adapter", "")
    gpu = f"lavapipe, Mesa {mesa}" + (f", {adapter}" if adapter else "")
    cpu = f"{cpu}, {detail}" if detail else cpu
    return f"{cpu}, {cores} cores, {simd}; no GPU, so the GPU World runs on {gpu}"


def loads_text(meta, loads):
    if meta.get("load"):
        return meta["load"]
    if not loads:
        return "not recorded"
    return f"{min(loads):.1f}-{max(loads):.1f}"


def full_table(meta, rates, loads):
    sizes = sorted({n for n, _ in rates})
    names = dict(warp=meta.get("warp", "?"), taichi=meta.get("taichi", "?"), gpu=gpu_name(meta))
    rounds = sorted({len(r) for r in rates.values()})
    rounds_text = str(rounds[0]) if len(rounds) == 1 else f"{rounds[0]}-{rounds[-1]}"
    rounds_text += " round" if rounds == [1] else " rounds"
    when = meta.get("date", "?")
    if meta.get("start"):
        when += f", {meta['start']}-{meta.get('end', '?')} UTC"
    out = [
        f"Measured {when}, commit `{meta.get('commit', '?')}`, on {machine(meta)}. "
        f"{rounds_text} per size, the engines one after the other within each round; "
        f"load average (1 min) {loads_text(meta, loads)}. hooke's `throughput` timed "
        f"{meta.get('hooke_steps', '?')} steps per run, the peer scripts "
        f"{meta.get('peer_steps', '?')}. Each cell: M spring-updates/s, median of the rounds "
        "(lowest-highest); each ratio: the median of the ratios within the rounds; "
        "- where an engine gave no result." + (f" {meta['note']}" if meta.get("note") else ""),
        "",
        "| engine | precision | " + " | ".join(
            f"n = {n} ({springs_text(n)})" for n in sizes) + " |",
        "|---|---|" + "---|" * len(sizes),
    ]
    for key, label, precision in ENGINES:
        cells = [spread(list(rates[(n, key)].values()), number) if (n, key) in rates else "-"
                 for n in sizes]
        out.append(f"| {label.format(**names)} | {precision} | " + " | ".join(cells) + " |")
    out += ["", "| ratio, same round | " + " | ".join(f"n = {n}" for n in sizes) + " |",
            "|---|" + "---|" * len(sizes)]
    for a, b, label in RATIOS:
        cells = []
        for n in sizes:
            ra, rb = rates.get((n, a), {}), rates.get((n, b), {})
            ratios = [ra[r] / rb[r] for r in ra if r in rb and rb[r] > 0]
            cells.append(spread(ratios, lambda v: f"{v:.2f}") if ratios else "-")
        out.append(f"| {label.format(**names)} | " + " | ".join(cells) + " |")
    out += ["", "Regenerate with `bash scripts/perf_table.sh` (see Method)."]
    return "\n".join(out)


def short_table(meta, rates, readme_n):
    sizes = sorted({n for n, _ in rates})
    n = readme_n if readme_n in sizes else sizes[-1]
    names = dict(warp=meta.get("warp", "?"), taichi=meta.get("taichi", "?"), gpu=gpu_name(meta))
    short = {
        "hooke_cpu_f64": "hooke `CpuWorld` (CPU reference)",
        "warp_f64": "Warp {warp}, CPU backend",
        "taichi_f64": "Taichi {taichi}, CPU backend",
        "hooke_gpu_f32": "hooke `World` on {gpu}",
        "hooke_gpu_f64": "hooke `World` on {gpu}",
        "taichi_f32": "Taichi {taichi}, CPU backend",
    }
    out = [f"| benchmark lattice, n = {n} ({springs_text(n)}) | precision "
           "| M spring-updates/s |", "|---|---|---|"]
    for key, _, precision in ENGINES:
        if (n, key) in rates:
            value = number(statistics.median(rates[(n, key)].values()))
            out.append(f"| {short[key].format(**names)} | {precision} | {value} |")
    cpu = cpu_name(meta)
    simd = ", AVX-512" if meta.get("avx512") == "yes" else ""
    out += ["", f"Medians of rounds run side by side on {meta.get('date', '?')} on one machine "
            f"({cpu}, {meta.get('cores', '?')} cores{simd}, no GPU: the GPU World on lavapipe, "
            f"Mesa {meta.get('mesa', '?')}); method, other sizes and the ratios in "
            "[docs/PERFORMANCE.md](docs/PERFORMANCE.md)."]
    return "\n".join(out)


def replace(path, body, required):
    try:
        with open(path) as fh:
            text = fh.read()
    except FileNotFoundError:
        if required:
            sys.exit(f"perf_table: {path} not found")
        print(f"perf_table: {path} not found; left out", file=sys.stderr)
        return
    # The markers on lines of their own (a doc may quote them in running text).
    pattern = re.compile(r"^" + re.escape(START) + r"$.*?^" + re.escape(END) + r"$", re.S | re.M)
    if not pattern.search(text):
        if required:
            sys.exit(f"perf_table: {path} has no {START} ... {END} markers")
        print(f"perf_table: {path} has no {START} markers; left as it is", file=sys.stderr)
        return
    text = pattern.sub(lambda _: f"{START}\n{body}\n{END}", text, count=1)
    with open(path, "w") as fh:
        fh.write(text)
    print(f"perf_table: rewrote the table in {path}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw")
    ap.add_argument("--doc", default="docs/PERFORMANCE.md")
    ap.add_argument("--readme", default="README.md")
    ap.add_argument("--readme-n", type=int, default=80)
    ap.add_argument("--dry-run", action="store_true", help="print the tables, rewrite nothing")
    args = ap.parse_args()
    meta, rates, loads = read(args.raw)
    full, short = full_table(meta, rates, loads), short_table(meta, rates, args.readme_n)
    if args.dry_run:
        print(full, "", "README:", "", short, sep="\n")
        return
    replace(args.doc, full, required=True)
    replace(args.readme, short, required=False)


if __name__ == "__main__":
    main()
