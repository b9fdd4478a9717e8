#!/usr/bin/env python3
"""Draws a `ccsim run --trace-out` timeline (Chrome trace-event JSON) as a PNG
with gnuplot, for slides and for machines without a browser: one row per
track (each thread's operations, each line's state in every cache and home),
spans coloured by name, and the request/answer flows as arrows.

Usage: scripts/timeline-png.py TRACE.json OUT.png [--from NS] [--to NS]
                               [--width PX] [--title TEXT]

The x axis is simulated time in ns, as the trace has it; an instant (a sync,
a mark, a state held for no time) is drawn as a thin bar. The Perfetto UI
(https://ui.perfetto.dev) shows the same file interactively; this is a still
picture of it. Only the standard library and gnuplot.
"""
import argparse
import json
import os
import subprocess
import sys

PALETTE = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#bab0ac", "#1b9e77", "#d95f02", "#7570b3", "#e7298a",
           "#66a61e", "#e6ab02", "#a6761d", "#666666", "#a6cee3", "#fb9a99", "#cab2d6",
           "#b2df8a", "#fdbf6f", "#17becf"]


def load(path):
    with open(path) as f:
        data = json.load(f)
    return data["traceEvents"] if isinstance(data, dict) else data


def names(events):
    proc, thread = {}, {}
    for e in events:
        if e.get("ph") != "M":
            continue
        if e["name"] == "process_name":
            proc[e["pid"]] = e["args"]["name"]
        elif e["name"] == "thread_name":
            thread[(e["pid"], e["tid"])] = e["args"]["name"]
    return proc, thread


def quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def script(events, args):
    proc, thread = names(events)
    lo, hi = args.from_ns / 1000.0, args.to_ns / 1000.0  # the JSON is in us
    # not the picosecond slices a message's arrow is anchored to (cat "msg")
    spans = [e for e in events if e.get("ph") == "X" and e.get("cat") != "msg"
             and e["ts"] + e.get("dur", 0) >= lo and e["ts"] <= hi]
    rows = sorted({(e["pid"], e["tid"]) for e in spans})
    if not rows:
        sys.exit("timeline-png: no spans in the window")
    row_of = {r: i for i, r in enumerate(reversed(rows))}
    colours, out = {}, []
    end = min(hi, max(e["ts"] + e.get("dur", 0) for e in spans))
    start = max(lo, min(e["ts"] for e in spans))
    if end <= start:
        sys.exit("timeline-png: the window holds one instant only")
    ns = lambda us: us * 1000.0  # simulated time, as the trace has it
    tick = (ns(end) - ns(start)) / 800  # an instant (a sync, a mark) is drawn this wide
    out.append("set terminal pngcairo size %d,%d font 'sans,9'" % (args.width, 80 + 22 * len(rows)))
    out.append("set output %s" % quote(args.out))
    out.append("set termoption noenhanced")
    out.append("set title %s" % quote(args.title or "ccsim timeline: " + args.trace))
    out.append("set xlabel 'simulated time (ns)'")
    out.append("set xrange [%g:%g]" % (ns(start), ns(end)))
    out.append("set yrange [-0.7:%g]" % (len(rows) - 0.3))
    labels = ", ".join("%s %d" % (quote(label(r, proc, thread)), row_of[r]) for r in rows)
    out.append("set ytics (%s)" % labels)
    out.append("set grid xtics")
    obj = 1
    for e in spans:
        y = row_of[(e["pid"], e["tid"])]
        c = colours.setdefault(e["name"], PALETTE[len(colours) % len(PALETTE)])
        x0, x1 = ns(max(e["ts"], start)), ns(min(e["ts"] + e.get("dur", 0), end))
        x1 = max(x1, x0 + tick)
        out.append("set object %d rect from %g,%g to %g,%g fc rgb '%s' fs solid 0.85 border lc "
                   "rgb '#ffffff'" % (obj, x0, y - 0.35, x1, y + 0.35, c))
        obj += 1
        if (x1 - x0) > (ns(end) - ns(start)) / 40:
            out.append("set label %s at %g,%g center front font 'sans,7'"
                       % (quote(e["name"]), (x0 + x1) / 2, y))
    starts = {e["id"]: e for e in events if e.get("ph") == "s"}
    for e in events:
        s = starts.get(e.get("id")) if e.get("ph") == "f" else None
        if not s or s["ts"] < start or e["ts"] > end:
            continue
        a, b = (s["pid"], s["tid"]), (e["pid"], e["tid"])
        if a in row_of and b in row_of:
            out.append("set arrow from %g,%g to %g,%g lc rgb '#555555' lw 0.6 head size "
                       "screen 0.006,20" % (ns(s["ts"]), row_of[a], ns(e["ts"]), row_of[b]))
    keys = ", ".join("NaN with boxes fc rgb '%s' fs solid title %s" % (c, quote(n))
                     for n, c in colours.items())
    out.append("set key outside right top")
    out.append("plot " + keys)
    return "\n".join(out) + "\n"


def label(row, proc, thread):
    pid, tid = row
    p = proc.get(pid, "process %d" % pid)
    return "%s: %s" % (p, thread.get(row, "%d" % tid))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--from", dest="from_ns", type=float, default=0.0)
    ap.add_argument("--to", dest="to_ns", type=float, default=float("inf"))
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--title")
    args = ap.parse_args()
    if args.from_ns >= args.to_ns:
        sys.exit("timeline-png: --from %g is not before --to %g" % (args.from_ns, args.to_ns))
    folder = os.path.dirname(args.out) or "."
    if not os.access(folder, os.W_OK):
        sys.exit("timeline-png: cannot write %s (its folder is missing or read-only)" % args.out)
    try:
        gp = script(load(args.trace), args)
    except FileNotFoundError:
        sys.exit("timeline-png: no such trace file: %s" % args.trace)
    try:  # the PNG goes to the file; gnuplot's stdout would get it only if the file failed
        subprocess.run(["gnuplot"], input=gp, text=True, check=True, stdout=subprocess.DEVNULL)
    except FileNotFoundError:
        sys.exit("timeline-png: gnuplot is not installed (scripts/setup.sh installs it)")
    except subprocess.CalledProcessError as e:
        sys.exit("timeline-png: gnuplot failed (exit %d)" % e.returncode)


if __name__ == "__main__":
    main()
