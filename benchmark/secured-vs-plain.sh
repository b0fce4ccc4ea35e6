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

python3 "$(dirname "$0")/ab-summary.py" "$out" "$brokers" "$rounds" plain secured --pis-at-least 0.90 --p99-at-most 1.15 \
  | grep -v '^HALF_RATE='
