#!/usr/bin/env bash
# Secured against plaintext, side by side: the load benchmark on local brokers, once plain and once
# with gateway TLS, cluster TLS and OAuth, alternating in rounds so that a machine's drift hits both
# alike; prints each round and the medians' ratios (secured / plain).
#
#   benchmark/secured-vs-plain.sh ISSUER SECRET_FILE [--brokers N] [--rounds R] [--audience A]
#                                 [--out DIR] [-- more load options]
#
# ISSUER is an OAuth issuer (its tokens' iss claim) with a client-credentials token endpoint at
# ISSUER/token; SECRET_FILE holds the client secret. Needs python3 for the summary.
set -euo pipefail

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ $# -ge 2 ]] || usage
issuer=$1 secret=$2; shift 2
brokers=1 rounds=5 audience=zeebe-api out=target/secured-vs-plain
while [[ $# -gt 0 ]]; do
  case $1 in
    --brokers) brokers=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --audience) audience=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown option $1" >&2; usage ;;
  esac
done
[[ -r $secret ]] || { echo "cannot read the client secret file $secret" >&2; exit 2; }
jar=$(dirname "$0")/target/tern-benchmark.jar
[[ -f $jar ]] || { echo "$jar is missing: build it with ./mvnw -pl benchmark/jar -am package -DskipTests" >&2; exit 2; }
mkdir -p "$out"

secured=(--tls --oauth "$issuer/token" --oauth-client-secret-file "$secret" --oauth-audience "$audience"
  --set gateway.security.authentication.mode=oauth
  --set "gateway.security.authentication.oauth.issuerUri=$issuer"
  --set "gateway.security.authentication.oauth.audience=$audience")

for ((r = 1; r <= rounds; r++)); do
  # Alternate which goes first, so neither always runs on a warmer or cooler machine.
  if ((r % 2)); then order=(plain secured); else order=(secured plain); fi
  for mode in "${order[@]}"; do
    extra=()
    [[ $mode == secured ]] && extra=("${secured[@]}")
    echo "round $r/$rounds: $mode, $brokers broker(s)" >&2
    # A run with failed instances still has its figures (an overloaded machine can cost a leader
    # change, and the creates caught in it): they are reported, and the rounds go on.
    rm -f "$out/$mode-$brokers-$r.json"
    java -jar "$jar" load --brokers "$brokers" --dir "$out" --out "$out/$mode-$brokers-$r.json" \
      ${extra[@]+"${extra[@]}"} "$@" > "$out/$mode-$brokers-$r.log" 2>&1 \
      || [[ -s $out/$mode-$brokers-$r.json ]] \
      || { echo "round $r ($mode) failed: see $out/$mode-$brokers-$r.log" >&2; exit 1; }
    grep 'done:' "$out/$mode-$brokers-$r.log" >&2 || true
  done
done

python3 - "$out" "$brokers" "$rounds" <<'EOF'
import json, statistics, sys
out, brokers, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
rows = {m: [json.load(open(f"{out}/{m}-{brokers}-{r}.json")) for r in range(1, rounds + 1)]
        for m in ("plain", "secured")}
def med(m, f): return statistics.median(f(d) for d in rows[m])
print(f"{brokers} broker(s), {rounds} rounds, medians")
print(f"{'':8} {'PI/s':>8} {'p50 ms':>8} {'p99 ms':>8}")
for m in ("plain", "secured"):
    print(f"{m:8} {med(m, lambda d: d['instancesPerSecond']):8.0f}"
          f" {med(m, lambda d: d['latencyMs']['p50']):8.1f} {med(m, lambda d: d['latencyMs']['p99']):8.1f}")
for m in ("plain", "secured"):
    print(f"{m} rounds PI/s: " + ", ".join(f"{d['instancesPerSecond']:.0f}" for d in rows[m])
          + "; p99 ms: " + ", ".join(f"{d['latencyMs']['p99']:.1f}" for d in rows[m])
          + "; failed instances: " + ", ".join(str(d.get('failedInstances', 0)) for d in rows[m]))
pis = med("secured", lambda d: d['instancesPerSecond']) / med("plain", lambda d: d['instancesPerSecond'])
p99 = med("secured", lambda d: d['latencyMs']['p99']) / med("plain", lambda d: d['latencyMs']['p99'])
print(f"secured/plain: PI/s {pis:.2f}x (target >= 0.90), p99 {p99:.2f}x (target <= 1.15)")
if all('cpu' in d for m in rows for d in rows[m]):
    for m in ("plain", "secured"):
        print(f"{m} rounds CPU ms/instance: " + ", ".join(f"{d['cpu']['msPerInstance']:.3f}" for d in rows[m])
              + "; JIT share: " + ", ".join(f"{100 * d['cpu']['jitShare']:.0f}%" for d in rows[m]))
    cpu = med("secured", lambda d: d['cpu']['msPerInstance']) / med("plain", lambda d: d['cpu']['msPerInstance'])
    print(f"secured/plain: CPU per instance {cpu:.2f}x")
    if max(d['cpu']['jitShare'] for m in rows for d in rows[m]) > 0.05:
        print("warning: the JIT took over 5% of a measured window's CPU: lengthen --warmup")
EOF
