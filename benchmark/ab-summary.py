#!/usr/bin/env python3
"""The summary of an A/B series of load benchmark runs (the *-vs-*.sh drivers): each side's
medians, its rounds, CPU per instance and the JIT's share of the measured window, and B/A.

  ab-summary.py OUT BROKERS ROUNDS A B [--pis-at-least X] [--p99-at-most Y] [--lag]

reads OUT/{A,B}-BROKERS-{1..ROUNDS}.json; prints HALF_RATE=<A's median PI/s / 2> last.
"""
import argparse, json, statistics

p = argparse.ArgumentParser()
p.add_argument("out"); p.add_argument("brokers"); p.add_argument("rounds", type=int)
p.add_argument("a"); p.add_argument("b")
p.add_argument("--pis-at-least", type=float)
p.add_argument("--p99-at-most", type=float)
p.add_argument("--lag", action="store_true", help="print B's exporter lags per round")
args = p.parse_args()
sides = (args.a, args.b)
rows = {m: [json.load(open(f"{args.out}/{m}-{args.brokers}-{r}.json"))
            for r in range(1, args.rounds + 1)] for m in sides}

def med(m, f):
    return statistics.median(f(d) for d in rows[m])

def pis(d): return d["instancesPerSecond"]
def p50(d): return d["latencyMs"]["p50"]
def p99(d): return d["latencyMs"]["p99"]

width = max(len(m) for m in sides) + 2
print(f"{args.brokers} broker(s), {args.rounds} rounds, medians")
print(f"{'':{width}} {'PI/s':>8} {'p50 ms':>8} {'p99 ms':>8}")
for m in sides:
    print(f"{m:{width}} {med(m, pis):8.0f} {med(m, p50):8.1f} {med(m, p99):8.1f}")
for m in sides:
    print(f"{m} rounds PI/s: " + ", ".join(f"{pis(d):.0f}" for d in rows[m])
          + "; p99 ms: " + ", ".join(f"{p99(d):.1f}" for d in rows[m])
          + "; failed instances: " + ", ".join(str(d.get("failedInstances", 0)) for d in rows[m]))
if args.lag:
    for d in rows[args.b]:
        print("exporter lag (s): " + "; ".join(
            f"{k} p50 {v['p50']:.2f} p99 {v['p99']:.2f} max {v['max']:.2f}"
            for k, v in d.get("exporterLagSeconds", {}).items()))

pis_ratio = med(args.b, pis) / med(args.a, pis)
p99_ratio = med(args.b, p99) / med(args.a, p99)
line = f"{args.b}/{args.a}: PI/s {pis_ratio:.2f}x"
if args.pis_at_least is not None:
    line += f" (target >= {args.pis_at_least:.2f})"
line += f", p99 {p99_ratio:.2f}x"
if args.p99_at_most is not None:
    line += f" (target <= {args.p99_at_most:.2f})"
print(line)

# CPU per instance tells the sides apart where throughput moves with the machine; the JIT's share
# says whether the warmup reached a steady state (a side that loads more code compiles for longer).
if all("cpu" in d for m in sides for d in rows[m]):
    for m in sides:
        print(f"{m} rounds CPU ms/instance: "
              + ", ".join(f"{d['cpu']['msPerInstance']:.3f}" for d in rows[m])
              + "; JIT share: " + ", ".join(f"{100 * d['cpu']['jitShare']:.0f}%" for d in rows[m]))
    cpu = med(args.b, lambda d: d["cpu"]["msPerInstance"]) / med(args.a, lambda d: d["cpu"]["msPerInstance"])
    print(f"{args.b}/{args.a}: CPU per instance {cpu:.2f}x")
    if max(d["cpu"]["jitShare"] for m in sides for d in rows[m]) > 0.05:
        print("warning: the JIT took over 5% of a measured window's CPU: lengthen --warmup")
print(f"HALF_RATE={med(args.a, pis) / 2:.0f}")
