#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# SPDX-FileCopyrightText: 2026 The ftpsync Authors
"""Plots Benchmarks/link.sh's results: wall time against round trip, one panel per workload,
one line per tool (and the physical floor, dashed), as an SVG written by hand (no plotting
library needed).

    Benchmarks/link-plot.py WORK/link.csv docs/benchmarks-link.svg
"""
import csv
import sys

COLORS = {"ftpsync": "#1f77b4", "lftp": "#d62728", "rclone": "#2ca02c", "floor": "#777777"}
PANEL_W, PANEL_H, MARGIN = 300, 230, 48


def load(path):
    data = {}
    with open(path, newline="") as handle:
        for row in csv.DictReader(handle):
            panel = data.setdefault(row["workload"], {})
            panel.setdefault(row["tool"], []).append((float(row["rtt_ms"]), float(row["median_s"])))
            panel.setdefault("floor", [])
            point = (float(row["rtt_ms"]), float(row["floor_s"]))
            if point not in panel["floor"]:
                panel["floor"].append(point)
    return data


def panel_svg(title, series, left):
    rtts = sorted({x for points in series.values() for x, _ in points})
    top = max(y for points in series.values() for _, y in points) * 1.1 or 1
    width, height = PANEL_W - MARGIN - 10, PANEL_H - MARGIN - 30

    def px(x):
        # round trips are spread evenly (5, 20, 80 are far apart on a linear axis)
        return left + MARGIN + (rtts.index(x) / max(1, len(rtts) - 1)) * width

    def py(y):
        return 30 + height - y / top * height

    out = [f'<text x="{left + PANEL_W / 2}" y="16" font-size="12" text-anchor="middle">{title}</text>']
    out.append(f'<line x1="{left + MARGIN}" y1="{30 + height}" x2="{left + MARGIN + width}" y2="{30 + height}" stroke="#000"/>')
    out.append(f'<line x1="{left + MARGIN}" y1="30" x2="{left + MARGIN}" y2="{30 + height}" stroke="#000"/>')
    for x in rtts:
        out.append(f'<text x="{px(x)}" y="{44 + height}" font-size="10" text-anchor="middle">{x:g} ms</text>')
    for i in range(5):
        y = top * i / 4
        out.append(f'<text x="{left + MARGIN - 4}" y="{py(y) + 3}" font-size="10" text-anchor="end">{y:.1f}</text>')
    for tool, points in sorted(series.items()):
        points = sorted(points)
        path = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in points)
        dash = ' stroke-dasharray="4,3"' if tool == "floor" else ""
        out.append(f'<polyline points="{path}" fill="none" stroke="{COLORS.get(tool, "#000")}" stroke-width="2"{dash}/>')
        for x, y in points:
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{COLORS.get(tool, "#000")}"/>')
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = load(sys.argv[1])
    panels = list(data.items())
    width = PANEL_W * len(panels)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{PANEL_H + 20}" font-family="sans-serif">']
    parts.append(f'<rect width="{width}" height="{PANEL_H + 20}" fill="#fff"/>')
    for index, (title, series) in enumerate(panels):
        parts += panel_svg(title, series, index * PANEL_W)
    legend_x = 10
    for tool in ["ftpsync", "lftp", "rclone", "floor"]:
        parts.append(f'<rect x="{legend_x}" y="{PANEL_H + 6}" width="12" height="4" fill="{COLORS[tool]}"/>')
        parts.append(f'<text x="{legend_x + 16}" y="{PANEL_H + 12}" font-size="10">{tool}</text>')
        legend_x += 80
    parts.append(f'<text x="{width - 10}" y="{PANEL_H + 12}" font-size="10" text-anchor="end">seconds (median) against round trip</text>')
    parts.append("</svg>")
    with open(sys.argv[2], "w") as out:
        out.write("\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
