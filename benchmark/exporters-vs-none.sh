#!/usr/bin/env bash
# The built-in exporters against none, side by side: the load benchmark on local brokers, once with
# no exporter and once with the history store (H2) and the OpenSearch exporter, alternating in
# rounds so that a machine's drift hits both alike; prints each round, the medians' ratios
# (exporters / none) and each exporter's lag over the measured window. Then, with --lag, one more
# run with exporters at half the median no-exporter PI/s (open loop), for the lag target.
#
#   benchmark/exporters-vs-none.sh OPENSEARCH_URL [--brokers N] [--rounds R] [--lag]
#                                  [--out DIR] [-- more load options]
#
# OPENSEARCH_URL is a running OpenSearch or Elasticsearch (http://localhost:9200). With several
# brokers each writes its own H2 file (no shared database: the figure is the exporter's cost, not
# a database server's). Needs python3 for the summary.
set -euo pipefail

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ $# -ge 1 ]] || usage
search=$1; shift
brokers=1 rounds=3 lag=false out=target/exporters-vs-none
while [[ $# -gt 0 ]]; do
  case $1 in
    --brokers) brokers=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --lag) lag=true; shift ;;
    --out) out=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown option $1" >&2; usage ;;
  esac
done
jar=$(dirname "$0")/target/tern-benchmark.jar
[[ -f $jar ]] || { echo "$jar is missing: build it with ./mvnw -pl benchmark/jar -am package -DskipTests" >&2; exit 2; }
curl -fsS "$search" > /dev/null || { echo "no OpenSearch answers at $search" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

exporting() { # the exporters' settings for one run; H2 files under that run's directory
  echo --set exporting.history.enabled=true \
    --set "exporters.history.args.url=jdbc:h2:file:$1/history-{node}/history" \
    --set exporters.opensearch.className=io.tern.exporter.opensearch.OpenSearchExporter \
    --set "exporters.opensearch.args.url=$search" \
    --set "exporters.opensearch.args.index.prefix=bench-$2"
}

for ((r = 1; r <= rounds; r++)); do
  if ((r % 2)); then order=(none exporters); else order=(exporters none); fi
  for mode in "${order[@]}"; do
    extra=()
    if [[ $mode == exporters ]]; then
      read -r -a extra <<< "$(exporting "$out/run-$brokers-$r" "$brokers-$r")"
    fi
    echo "round $r/$rounds: $mode, $brokers broker(s)" >&2
    java -jar "$jar" load --brokers "$brokers" --dir "$out/run-$brokers-$r-$mode" \
      --out "$out/$mode-$brokers-$r.json" ${extra[@]+"${extra[@]}"} "$@" \
      > "$out/$mode-$brokers-$r.log" 2>&1 \
      || { echo "round $r ($mode) failed: see $out/$mode-$brokers-$r.log" >&2; exit 1; }
    grep 'done:' "$out/$mode-$brokers-$r.log" >&2 || true
  done
done

summary=$(python3 "$(dirname "$0")/ab-summary.py" "$out" "$brokers" "$rounds" none exporters \
  --pis-at-least 0.85 --lag)
echo "$summary" | grep -v '^HALF_RATE='

if [[ $lag == true ]]; then
  rate=$(echo "$summary" | sed -n 's/^HALF_RATE=//p')
  read -r -a extra <<< "$(exporting "$out/run-$brokers-lag" "$brokers-lag")"
  echo "lag run: exporters at $rate creates/s (half the median no-exporter PI/s)" >&2
  java -jar "$jar" load --brokers "$brokers" --dir "$out/run-$brokers-lag-dir" --rate "$rate" \
    --out "$out/lag-$brokers.json" "${extra[@]}" "$@" > "$out/lag-$brokers.log" 2>&1 \
    || { echo "the lag run failed: see $out/lag-$brokers.log" >&2; exit 1; }
  grep 'done:' "$out/lag-$brokers.log" >&2 || true
  python3 - "$out/lag-$brokers.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k, v in d.get("exporterLagSeconds", {}).items():
    print(f"lag at {d['ratePerSecond']:.0f}/s: {k} p50 {v['p50']:.2f} s, p99 {v['p99']:.2f} s, max {v['max']:.2f} s"
          f" ({v['samples']} samples; target p99 < 2 s)")
PY
fi
