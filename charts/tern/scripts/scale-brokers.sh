#!/usr/bin/env bash
# Scales a Tern cluster installed with charts/tern to N brokers while it runs (docs/operations.md,
# "Scaling the cluster"; the API is docs/scaling.md's):
#
#   scale-brokers.sh [options] N
#
# Up: scales the broker StatefulSet to N pods and waits until they are ready (a broker outside the
# cluster serves nothing and is ready at once), asks the coordinator (broker 0) to make brokers 0 to
# N-1 the cluster, and follows the change until it is COMPLETED.
# Down: asks the coordinator for brokers 0 to N-1 first and follows the change until it is
# COMPLETED (the leaving brokers' replicas have moved), and only then scales the StatefulSet down.
# A replication factor change alone (same N) is the request and the wait.
# Then it asks for a rebalance, so that each partition is led by the replica the new placement
# gives the highest priority (the change sets the priorities; leaders move only when asked).
#
# Options:
#   -n, --namespace NS        the release's namespace (default: kubectl's current one)
#   --statefulset NAME        the brokers' StatefulSet (default tern-broker: release "tern")
#   --token-secret NAME       the Secret holding the management token (default: the StatefulSet's
#                             name with -broker replaced by -management, the chart's Secret)
#   --token-key KEY           its key (default token)
#   --token-file FILE         read the token from FILE instead of the Secret
#   --replication-factor R    change the replication factor too
#   --dry-run                 show the plan (?dryRun=true) and what would be scaled; change nothing
#   --no-rebalance            leave the leaders where they are after the change
#   --timeout SECONDS         give up after this long (default 3600); the change goes on in the
#                             cluster, the script says how to follow or cancel it
#   --poll SECONDS            how often to read the change's progress (default 5)
#   --local-port PORT         the local end of the port-forward to broker 0's 9600 (default 19600)
#
# Needs bash, curl and kubectl (no jq): it reaches broker 0's management port through
# `kubectl port-forward`, so the brokers' NetworkPolicy does not have to admit this machine. The
# token goes to curl in a config read from a file descriptor: never an argument (ps would show it),
# never printed. Exit status: 0 done, 1 failed or timed out (said why), 2 bad usage.
set -euo pipefail

namespace=""
statefulset=tern-broker
token_secret=""
token_key=token
token_file=""
replication_factor=""
dry_run=false
rebalance=true
timeout=3600
poll=5
local_port=19600

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//' >&2
  exit 2
}

fail() {
  echo "scale-brokers: $*" >&2
  exit 1
}

note() {
  echo "[$(date -u +%H:%M:%S)] $*"
}

number() { # NAME VALUE [MIN]: VALUE must be a whole number of at least MIN
  if ! [[ $2 =~ ^[0-9]+$ ]] || ((10#$2 < ${3:-0})); then
    echo "scale-brokers: $1 must be a whole number${3:+ of at least $3}, not '$2'" >&2
    exit 2
  fi
}

while (($# > 0)); do
  case $1 in
    -n | --namespace) namespace=${2:?$1 needs a value} && shift ;;
    --statefulset) statefulset=${2:?$1 needs a value} && shift ;;
    --token-secret) token_secret=${2:?$1 needs a value} && shift ;;
    --token-key) token_key=${2:?$1 needs a value} && shift ;;
    --token-file) token_file=${2:?$1 needs a value} && shift ;;
    --replication-factor) replication_factor=${2:?$1 needs a value} && shift ;;
    --dry-run) dry_run=true ;;
    --no-rebalance) rebalance=false ;;
    --timeout) timeout=${2:?$1 needs a value} && shift ;;
    --poll) poll=${2:?$1 needs a value} && shift ;;
    --local-port) local_port=${2:?$1 needs a value} && shift ;;
    -h | --help) usage ;;
    -*) echo "scale-brokers: unknown option $1" >&2 && usage ;;
    *) break ;;
  esac
  shift
done
(($# == 1)) || usage
brokers=$1
number "the number of brokers" "$brokers" 1
[ -z "$replication_factor" ] || number --replication-factor "$replication_factor" 1
number --timeout "$timeout" 1
number --local-port "$local_port" 1
[[ $poll =~ ^[0-9]+(\.[0-9]+)?$ ]] || fail "--poll must be a number of seconds, not '$poll'"
token_secret=${token_secret:-${statefulset%-broker}-management}
deadline=$((SECONDS + timeout))

ns=()
[ -z "$namespace" ] || ns=(-n "$namespace")
kube() {
  kubectl ${ns[@]+"${ns[@]}"} "$@"
}

# --- The management token, read once, never shown --------------------------------------------------
if [ -n "$token_file" ]; then
  token=$(<"$token_file") || fail "cannot read the token file $token_file"
else
  encoded=$(kube get secret "$token_secret" -o "jsonpath={.data.$token_key}") ||
    fail "cannot read the Secret $token_secret (--token-secret, --token-key, or --token-file)"
  token=$(printf %s "$encoded" | base64 -d) || fail "the Secret $token_secret's $token_key is not base64"
fi
token=${token%%[[:space:]]*}
[ -n "$token" ] || fail "the management token is empty (Secret $token_secret, key $token_key)"

# --- Broker 0's management port, through a port-forward ----------------------------------------
work=$(mktemp -d)
forward_pid=""
cleanup() {
  if [ -n "$forward_pid" ]; then
    kill "$forward_pid" 2>/dev/null || true
    wait "$forward_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'echo; note "interrupted: a change already requested goes on in the cluster (GET /actuator/cluster)"; exit 1' INT TERM

base="http://127.0.0.1:$local_port"

forward() {
  if [ -n "$forward_pid" ] && kill -0 "$forward_pid" 2>/dev/null; then
    return 0
  fi
  kube port-forward "pod/$statefulset-0" --address 127.0.0.1 "$local_port:9600" \
    >"$work/port-forward.log" 2>&1 &
  forward_pid=$!
  local until=$((SECONDS + 30))
  # Only once kubectl says it listens: whatever else may hold the port (another cluster's
  # port-forward) makes kubectl fail instead of answering in the cluster's place.
  while ! grep -q "Forwarding from 127.0.0.1:$local_port " "$work/port-forward.log" ||
    ! curl -sf -o /dev/null -m 5 "$base/actuator/cluster"; do
    if ! kill -0 "$forward_pid" 2>/dev/null; then
      forward_pid=""
      echo "scale-brokers: the port-forward to $statefulset-0 ended (another --local-port?): $(cat "$work/port-forward.log")" >&2
      return 1
    fi
    if ((SECONDS > until)); then
      echo "scale-brokers: $statefulset-0's management port does not answer through the port-forward" >&2
      return 1
    fi
    sleep 0.5
  done
}

# call METHOD PATH [BODY]: sets status and answer; writes carry the token, reads do not need it.
call() {
  local out
  local args=(-sS -m 30 -X "$1" -w '\n%{http_code}')
  # curl's config syntax: a backslash or quote in the token is escaped.
  local quoted=${token//\\/\\\\}
  quoted=${quoted//\"/\\\"}
  if [ "$1" != GET ]; then
    args+=(-H 'Content-Type: application/json' --data-binary "${3:-}")
  fi
  forward || return 1
  if [ "$1" = GET ]; then
    out=$(curl "${args[@]}" "$base$2") || return 1
  else
    out=$(curl "${args[@]}" -K <(printf 'header = "Authorization: Bearer %s"\n' "$quoted") "$base$2") ||
      return 1
  fi
  status=${out##*$'\n'}
  answer=${out%$'\n'*}
}

# The steps (JSON objects) of the array named $1 in the JSON $2, one a line as text.
steps() {
  local rest=${2#*\""$1"\":[}
  [ "$rest" != "$2" ] || return 0
  rest=${rest%%]*}
  grep -oE '"operation":"[A-Z_]+","brokerId":[0-9]+,"partitionId":[0-9]+' <<<"$rest" |
    sed -E 's/"operation":"([A-Z_]+)","brokerId":([0-9]+),"partitionId":([0-9]+)/\1 broker \2 partition \3/' ||
    true
}

indent() {
  local line
  while IFS= read -r line; do echo "  $line"; done <<<"$1"
}

members() { # the broker ids of a GET /actuator/cluster answer
  grep -oE '\{"id":[0-9]+,"state":"[A-Z]+","partitions"' <<<"$1" | grep -oE '[0-9]+' | tr '\n' ' ' ||
    true
}

# follow CHANGE: prints the change's progress until it is COMPLETED; fails if it ends otherwise or
# the deadline passes (the change goes on in the cluster either way).
follow() {
  local shown="" progress done_steps now total
  while :; do
    if ! call GET /actuator/cluster || [ "$status" != 200 ]; then
      note "broker 0 does not answer (${status:-no answer}); trying again"
    elif [[ $answer =~ \"pendingChange\":\{\"id\":$1, ]]; then
      done_steps=$(steps completed "$answer" | grep -c . || true)
      now=$(steps pending "$answer" | head -n 1)
      total=$((done_steps + $(steps pending "$answer" | grep -c . || true)))
      progress="$done_steps of $total steps done${now:+, now $now}"
      [ "$progress" = "$shown" ] || note "change $1: $progress"
      shown=$progress
    elif [[ $answer =~ \"lastChange\":\{\"id\":$1,\"status\":\"([A-Z_]+)\" ]]; then
      case ${BASH_REMATCH[1]} in
        COMPLETED) note "change $1 COMPLETED" && return 0 ;;
        *) fail "change $1 ended ${BASH_REMATCH[1]}: the steps done stay done, the others were dropped (GET /actuator/cluster shows the placement); the StatefulSet keeps $replicas pods" ;;
      esac
    fi
    if ((SECONDS >= deadline)); then
      fail "change $1 is still under way after ${timeout}s (${shown:-no step done}); it goes on in the cluster: run this again to follow it and finish, follow it with GET /actuator/cluster, or cancel it with POST /actuator/cluster/changes/$1/cancel. The StatefulSet was not scaled down."
    fi
    sleep "$poll"
  done
}

# --- What there is now -----------------------------------------------------------------------------
replicas=$(kube get statefulset "$statefulset" -o 'jsonpath={.spec.replicas}') ||
  fail "cannot read the StatefulSet $statefulset (--statefulset, --namespace)"
[[ $replicas =~ ^[0-9]+$ ]] || fail "the StatefulSet $statefulset has no replica count ('$replicas')"
call GET /actuator/cluster || fail "cannot reach broker 0's management port"
[ "$status" = 200 ] || fail "GET /actuator/cluster answered $status: $answer"
if [[ $answer =~ \"pendingChange\":\{\"id\":([0-9]+) ]]; then
  # A change requested before (by an interrupted run of this script, say): its end first.
  under_way=${BASH_REMATCH[1]}
  [ "$dry_run" = false ] ||
    fail "change $under_way is under way: a plan is made only once it ended (GET /actuator/cluster)"
  note "change $under_way is under way: following it to its end first (cancel: POST /actuator/cluster/changes/$under_way/cancel)"
  follow "$under_way"
  call GET /actuator/cluster || fail "cannot reach broker 0's management port"
fi
ids=$(seq -s , 0 $((brokers - 1)))
note "cluster now: brokers $(members "$answer")(StatefulSet $statefulset: replicas $replicas); wanted: brokers ${ids//,/ }${replication_factor:+, replication factor $replication_factor}"

query=""
[ -z "$replication_factor" ] || query="replicationFactor=$replication_factor"

# request DRYRUN: POSTs the new broker list; retries while the coordinator has not heard of a new
# broker yet (it announces itself once it runs) or the topology moved under it.
request() {
  local path="/actuator/cluster/brokers"
  local params=$query
  [ "$1" = false ] || params="dryRun=true${params:+&$params}"
  [ -z "$params" ] || path="$path?$params"
  while :; do
    if call POST "$path" "[$ids]"; then
      case $status in
        200 | 202) return 0 ;;
        400) [[ $answer == *"not known to the coordinator"* ]] || fail "the coordinator refused the change (400): $answer" ;;
        401 | 403) fail "the coordinator refused the management token ($status): $answer" ;;
        503) ;;
        *) fail "POST $path answered $status: $answer" ;;
      esac
      if [ "$1" = true ] && ((brokers > replicas)); then
        return 1 # a dry run cannot plan with brokers that are not running yet
      fi
    fi
    ((SECONDS < deadline)) || fail "the coordinator did not take the change within ${timeout}s: $status $answer"
    sleep "$poll"
  done
}

if [ "$dry_run" = true ]; then
  ((brokers <= replicas)) || note "would scale the StatefulSet $statefulset to $brokers pods and wait until they are ready"
  if request true; then
    planned=$(steps plannedChanges "$answer")
    if [ -z "$planned" ]; then
      note "plan: nothing to change"
    else
      note "plan ($(wc -l <<<"$planned") steps, one at a time):"
      indent "$planned"
    fi
  else
    note "no plan yet: the coordinator plans only with brokers it has heard of, and brokers $replicas to $((brokers - 1)) do not run yet ($answer)"
  fi
  ((brokers >= replicas)) || note "would then scale the StatefulSet $statefulset down to $brokers pods"
  note "dry run: nothing changed"
  exit 0
fi

# --- Up: the new pods first ------------------------------------------------------------------------
if ((brokers > replicas)); then
  note "scaling the StatefulSet $statefulset from $replicas to $brokers pods"
  kube scale statefulset "$statefulset" --replicas="$brokers" >/dev/null
  kube rollout status "statefulset/$statefulset" --timeout="$((deadline - SECONDS))s" ||
    fail "the StatefulSet's pods are not ready (kubectl ${ns[*]} get pods); the cluster is unchanged"
fi

# --- The change ------------------------------------------------------------------------------------
request false
change=""
[[ $answer =~ \"changeId\":([0-9]+) ]] && change=${BASH_REMATCH[1]}
planned=$(steps plannedChanges "$answer")
if [ -z "$planned" ]; then
  note "the cluster already has brokers ${ids//,/ }: nothing to change"
else
  total=$(wc -l <<<"$planned")
  note "change $change accepted: $total steps, one at a time"
  indent "$planned"
  follow "$change"
fi

# --- Down: the pods last ---------------------------------------------------------------------------
if ((brokers < replicas)); then
  note "scaling the StatefulSet $statefulset from $replicas to $brokers pods"
  kube scale statefulset "$statefulset" --replicas="$brokers" >/dev/null
  claims=""
  for ((i = brokers; i < replicas; i++)); do claims+=" data-$statefulset-$i"; done
  note "the removed brokers' PersistentVolumeClaims stay (a StatefulSet keeps them when it shrinks);" \
    "those brokers left every partition before they stopped. Delete the claims before scaling up" \
    "again, so that a new broker starts on an empty disk: kubectl ${ns[*]} delete pvc$claims"
fi
if [ "$rebalance" = true ] && [ -n "$planned" ]; then
  # Each partition's leader moves to its new primary; a transfer can lose to an election, which the
  # next scheduled rebalance (the chart's CronJob) mends.
  if call POST /actuator/rebalance "" && [ "$status" = 200 ]; then
    note "asked for a rebalance: each partition's leader moves to its highest-priority replica"
  else
    note "the rebalance was refused ($status: $answer): the chart's CronJob rebalances on its schedule"
  fi
fi
note "done: brokers ${ids//,/ }; set broker.replicas=$brokers in the release's values, or the next helm upgrade scales the StatefulSet back"
