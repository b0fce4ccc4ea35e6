#!/usr/bin/env bash
# Creates over REST against creates over gRPC, side by side: the load benchmark on local brokers,
# once with its creates on the gRPC port and once on the REST API (--rest; the worker stays on
# gRPC), alternating in rounds so that a machine's drift hits both alike; prints each round and the
# medians' ratios (REST / gRPC).
#
#   benchmark/rest-vs-grpc.sh [--brokers N] [--rounds R] [--out DIR] [-- more load options]
#
# Needs python3 for the summary.
set -euo pipefail

usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
brokers=1 rounds=3 out=target/rest-vs-grpc
while [[ $# -gt 0 ]]; do
  case $1 in
    --brokers) brokers=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "unknown option $1" >&2; usage ;;
  esac
done
jar=$(dirname "$0")/target/tern-benchmark.jar
[[ -f $jar ]] || { echo "$jar is missing: build it with ./mvnw -pl benchmark/jar -am package -DskipTests" >&2; exit 2; }
mkdir -p "$out"

for ((r = 1; r <= rounds; r++)); do
  # Alternate which goes first, so neither always runs on a warmer or cooler machine.
  if ((r % 2)); then order=(grpc rest); else order=(rest grpc); fi
  for api in "${order[@]}"; do
    extra=()
    [[ $api == rest ]] && extra=(--rest)
    echo "round $r/$rounds: $api, $brokers broker(s)" >&2
    java -jar "$jar" load --brokers "$brokers" --dir "$out" --out "$out/$api-$brokers-$r.json" \
      ${extra[@]+"${extra[@]}"} "$@" > "$out/$api-$brokers-$r.log" 2>&1 \
      || { echo "round $r ($api) failed: see $out/$api-$brokers-$r.log" >&2; exit 1; }
    grep 'done:' "$out/$api-$brokers-$r.log" >&2 || true
  done
done

python3 "$(dirname "$0")/ab-summary.py" "$out" "$brokers" "$rounds" grpc rest --pis-at-least 0.80 --p99-at-most 1.30 \
  | grep -v '^HALF_RATE='
