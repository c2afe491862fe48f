#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
"""Tables and plot of the scale benchmark's results (Benchmarks/scale/run.sh).

    report.py RESULTS.tsv PLOT.svg [BEFORE.tsv]

RESULTS.tsv: one line per run, `files run tool wall_s cpu_s rss_kib load` (tab-separated, a
header line first; load, the 1-minute load average as the run started, may be missing).
Prints two markdown tables to standard output: the measurements, and the targets of issue 17
with a verdict; where RESULTS.tsv has no lftp run at a size, BEFORE.tsv's stands in (marked).
Writes PLOT.svg: peak RSS (MiB, log scale) against files (log scale) for each
run and tool, BEFORE.tsv's runs drawn lighter beside them, and the 128 MiB target. Plain SVG
written by hand: no plotting library needed.
"""

import csv
import math
import sys

RUNS = ("first pull", "no-op pull", "adopting pull", "dry run")
SERIES = (  # (tool, run, colour, dash)
    ("ftpsync", "first pull", "#1f77b4", ""),
    ("ftpsync", "no-op pull", "#ff7f0e", ""),
    ("ftpsync", "adopting pull", "#9467bd", ""),
    ("ftpsync", "dry run", "#2ca02c", ""),
    ("lftp", "first pull", "#555555", ""),
    ("lftp", "no-op pull", "#555555", "6,4"),
)
RSS_TARGET_MIB, GROWTH_TARGET, FIRST_TARGET, NOOP_TARGET = 128, 0.25, 0.6, 0.2


def read(path):
    """The runs of a results file: {(files, run, tool): (wall s, CPU s, peak RSS MiB, load or "")}."""
    with open(path, newline="") as f:
        return {
            (int(r["files"]), r["run"], r["tool"]): (
                float(r["wall_s"]),
                float(r["cpu_s"]),
                int(r["rss_kib"]) / 1024,
                r.get("load") or "",
            )
            for r in csv.DictReader(f, delimiter="\t")
        }


def measurements(res, borrowed):
    loads = any(v[3] for v in res.values())  # a column only when the results have it
    head = "| files | run | tool | wall s | CPU s | peak RSS MiB | ftpsync / lftp (wall) |"
    print(head + (" load average |" if loads else ""))
    print("|---|---|---|---|---|---|---|" + ("---|" if loads else ""))
    for n in sorted({k[0] for k in res}):
        for run in RUNS:
            for tool in ("ftpsync", "lftp"):
                if (n, run, tool) not in res:
                    continue
                wall, cpu, rss, load = res[(n, run, tool)]
                peer = res.get((n, run, "lftp"))
                ratio = f"{wall / peer[0]:.2f}" if tool == "ftpsync" and peer and peer[0] > 0 else ""
                shown = f"{tool} (earlier run)" if (n, run, tool) in borrowed else tool
                line = f"| {n:,} | {run} | {shown} | {wall:.2f} | {cpu:.2f} | {rss:.0f} | {ratio} |"
                print(line + (f" {load} |" if loads else ""))


def verdict(ok):
    return "met" if ok else "**not met**"


def row(target, measured, judged):
    print(f"| {target} | {measured} | {judged} |")


def targets(res):
    sizes = sorted({k[0] for k in res})
    small, large = sizes[0], sizes[-1]
    print("| target | measured | verdict |")
    print("|---|---|---|")
    for run in ("first pull", "no-op pull"):
        target = f"{run}: peak RSS ≤ {RSS_TARGET_MIB} MiB at 1,000,000 files"
        at = res.get((1_000_000, run, "ftpsync"))
        if at:
            row(target, f"{at[2]:.0f} MiB", verdict(at[2] <= RSS_TARGET_MIB))
        else:
            row(target, "not measured", "—")
    for run in ("first pull", "no-op pull"):
        a, b = res.get((small, run, "ftpsync")), res.get((large, run, "ftpsync"))
        if a and b and small < large:
            growth = b[2] / a[2] - 1
            issue_sizes = (small, large) == (100_000, 1_000_000)
            row(
                f"{run}: peak RSS grows ≤ {GROWTH_TARGET:.0%} from 100,000 to 1,000,000 files",
                f"{small:,}: {a[2]:.0f} MiB → {large:,}: {b[2]:.0f} MiB, {growth:+.0%}",
                verdict(growth <= GROWTH_TARGET) if issue_sizes else "— (other sizes)",
            )
    for run, limit in (("first pull", FIRST_TARGET), ("no-op pull", NOOP_TARGET)):
        ratios = [
            (n, res[(n, run, "ftpsync")][0] / res[(n, run, "lftp")][0])
            for n in sizes
            if (n, run, "ftpsync") in res and (n, run, "lftp") in res and res[(n, run, "lftp")][0] > 0
        ]
        if ratios:
            shown = ", ".join(f"{r:.2f} × at {n:,}" for n, r in ratios)
            row(f"{run}: wall ≤ {limit} × lftp's", shown, verdict(all(r <= limit for _, r in ratios)))
    for run, what in (("adopting pull", "every file adopted"), ("dry run", "the plan must stream")):
        got = [(n, res[(n, run, "ftpsync")][2]) for n in sizes if (n, run, "ftpsync") in res]
        if got:
            shown = ", ".join(f"{rss:.0f} MiB at {n:,}" for n, rss in got)
            row(f"{run}: peak RSS (no number in the issue; {what})", shown, "—")


def plot(path, res, before):
    w, h, left, right, top, bottom = 800, 440, 70, 240, 30, 50
    points = [v[2] for v in list(res.values()) + list(before.values())] + [RSS_TARGET_MIB]
    sizes = sorted({k[0] for k in list(res) + list(before)})
    x0, x1 = math.log10(sizes[0] / 1.4), math.log10(sizes[-1] * 1.4)
    y0, y1 = math.log10(min(points) / 1.5), math.log10(max(points) * 1.5)

    def px(n):
        return left + (math.log10(n) - x0) / (x1 - x0) * (w - left - right)

    def py(mib):
        return h - bottom - (math.log10(mib) - y0) / (y1 - y0) * (h - top - bottom)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{left}" y="18" font-size="14">'
        "Peak RSS against files (1,000 per folder; vsftpd on loopback)</text>",
        f'<line x1="{left}" y1="{h - bottom}" x2="{w - right}" y2="{h - bottom}" stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{h - bottom}" stroke="black"/>',
        f'<text x="{(left + w - right) / 2}" y="{h - 12}" text-anchor="middle">files (log scale)</text>',
        f'<text x="16" y="{(top + h - bottom) / 2}" text-anchor="middle" '
        f'transform="rotate(-90 16 {(top + h - bottom) / 2})">peak RSS, MiB (log scale)</text>',
    ]
    for n in sizes:
        x = px(n)
        out.append(f'<line x1="{x:.1f}" y1="{h - bottom}" x2="{x:.1f}" y2="{h - bottom + 5}" stroke="black"/>')
        out.append(f'<text x="{x:.1f}" y="{h - bottom + 18}" text-anchor="middle">{n:,}</text>')
    for e in range(math.floor(y0), math.ceil(y1) + 1):
        for m in (1, 2, 5):
            v = m * 10**e
            if y0 <= math.log10(v) <= y1:
                y = py(v)
                out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{w - right}" y2="{y:.1f}" stroke="#e0e0e0"/>')
                out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{v:g}</text>')
    ty = py(RSS_TARGET_MIB)
    red = 'stroke="#d62728" stroke-dasharray="2,3"'
    out.append(f'<line x1="{left}" y1="{ty:.1f}" x2="{w - right}" y2="{ty:.1f}" {red}/>')
    out.append(f'<text x="{w - right - 4}" y="{ty - 5:.1f}" text-anchor="end" fill="#d62728">target: 128 MiB</text>')
    legend_y = top + 10
    for results, label, opacity in ((before, " (before)", 0.35), (res, "", 1.0)):
        for tool, run, colour, dash in SERIES:
            line = sorted((n, v[2]) for (n, r, t), v in results.items() if (r, t) == (run, tool))
            if not line:
                continue
            style = f'stroke="{colour}" stroke-opacity="{opacity}" fill="none" stroke-width="2"'
            style += f' stroke-dasharray="{dash}"' if dash else ""
            coords = " ".join(f"{px(n):.1f},{py(m):.1f}" for n, m in line)
            out.append(f"<polyline points=\"{coords}\" {style}/>")
            for n, m in line:
                dot = f'fill="{colour}" fill-opacity="{opacity}"'
                out.append(f'<circle cx="{px(n):.1f}" cy="{py(m):.1f}" r="3" {dot}/>')
            lx = w - right + 14
            out.append(f'<line x1="{lx}" y1="{legend_y}" x2="{lx + 24}" y2="{legend_y}" {style}/>')
            out.append(f'<text x="{lx + 30}" y="{legend_y + 4}">{tool} {run}{label}</text>')
            legend_y += 18
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: report.py RESULTS.tsv PLOT.svg [BEFORE.tsv]")
    res = read(sys.argv[1])
    if not res:
        sys.exit("report.py: no results in " + sys.argv[1])
    before = read(sys.argv[3]) if len(sys.argv) == 4 else {}
    # lftp's figures do not depend on ftpsync: sizes measured without lftp take the earlier run's
    sizes = {k[0] for k in res}
    borrowed = {k for k in before if k[2] == "lftp" and k[0] in sizes and k not in res}
    res.update({k: before[k] for k in borrowed})
    plot(sys.argv[2], res, before)
    measurements(res, borrowed)
    print()
    targets(res)


if __name__ == "__main__":
    main()
