{{/* Template names are shared with the tern subchart's: every one here starts with "bench.". */}}
{{/* Benchmark objects are named <release>-<part> (starter, worker-<name>, soak, <experiment>). */}}
{{- define "bench.fullname" -}}
{{- default .Release.Name .Values.fullnameOverride | trunc 40 | trimSuffix "-" -}}
{{- end -}}

{{/* The tern subchart's base name (as its tern.fullname makes it). */}}
{{- define "bench.cluster" -}}
{{- $tern := .Values.tern | default dict -}}
{{- if $tern.fullnameOverride -}}
{{- $tern.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default "tern" $tern.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "bench.gateway" -}}
{{- if .Values.gatewayAddress -}}
{{- .Values.gatewayAddress -}}
{{- else if .Values.tern.enabled -}}
{{- printf "%s-gateway:26500" (include "bench.cluster" .) -}}
{{- else -}}
{{- fail "gatewayAddress is required when tern.enabled is false" -}}
{{- end -}}
{{- end -}}

{{/* The headless-service name of broker N of the tern subchart. */}}
{{- define "bench.brokerHost" -}}
{{- $brokers := printf "%s-broker" (include "bench.cluster" .root) | trunc 52 | trimSuffix "-" -}}
{{- printf "%s-%d.%s.%s.svc" $brokers (int .index) $brokers .root.Release.Namespace -}}
{{- end -}}

{{- define "bench.management" -}}
{{- if .Values.managementAddresses -}}
{{- .Values.managementAddresses -}}
{{- else if .Values.tern.enabled -}}
{{- $addresses := list -}}
{{- range $i := until (int .Values.tern.clusterSize) -}}
{{- $addresses = append $addresses (printf "%s:9600" (include "bench.brokerHost" (dict "root" $ "index" $i))) -}}
{{- end -}}
{{- join "," $addresses -}}
{{- else -}}
{{- fail "managementAddresses is required when tern.enabled is false" -}}
{{- end -}}
{{- end -}}

{{- define "bench.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{ include "bench.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: tern-benchmark
{{- end -}}

{{- define "bench.selectorLabels" -}}
app.kubernetes.io/name: {{ default .root.Chart.Name .root.Values.nameOverride }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* The image (global.image), refused unless a cluster can pull it: see the tern chart's tern.image. */}}
{{- define "bench.image" -}}
{{- $image := (.Values.global | default dict).image | default dict -}}
{{- $repository := $image.repository | default "" -}}
{{- if not $repository -}}
{{- fail "global.image.repository is required: the image built from docker/Dockerfile and pushed to a registry the cluster pulls from, e.g. --set global.image.repository=europe-west1-docker.pkg.dev/PROJECT/tern/tern --set global.image.tag=0.1.0 (docs/deploy.md, step 1); for an image only on the nodes (kind, podman) also set global.image.local=true" -}}
{{- end -}}
{{- if $image.local -}}
{{- printf "%s:%s" $repository (default .Chart.AppVersion ($image.tag | toString)) -}}
{{- else -}}
{{- if or (not (contains "/" $repository)) (hasPrefix "localhost/" $repository) -}}
{{- fail (printf "global.image.repository %s names no registry, so a cluster cannot pull it: push the image and name it with its registry (e.g. europe-west1-docker.pkg.dev/PROJECT/tern/tern), or set global.image.local=true for an image the nodes already have" $repository) -}}
{{- end -}}
{{- if not $image.tag -}}
{{- fail (printf "global.image.tag is required with global.image.repository %s: the tag you pushed, e.g. 0.1.0" $repository) -}}
{{- end -}}
{{- printf "%s:%s" $repository ($image.tag | toString) -}}
{{- end -}}
{{- end -}}

{{- define "bench.imagePullPolicy" -}}
{{- ((.Values.global | default dict).image | default dict).pullPolicy | default "IfNotPresent" -}}
{{- end -}}

{{/* Pod-level settings shared by every benchmark pod; pass a dict with root and component values. */}}
{{- define "bench.podSettings" -}}
automountServiceAccountToken: false
{{- with ((.root.Values.global | default dict).image | default dict).pullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.podSecurityContext }}
securityContext:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* A duration as the benchmark commands and Chaos Mesh take it: 50ms, 1.5s, 15m, 7d. */}}
{{- define "bench.checkDuration" -}}
{{- if not (regexMatch "^[0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h|d)$" (toString .value)) -}}
{{- fail (printf "%s: %q is not a duration such as 35ms, 1s or 15m" .key (toString .value)) -}}
{{- end -}}
{{- end -}}

{{/* A duration checked by bench.checkDuration, in seconds (a float). */}}
{{- define "bench.durationSeconds" -}}
{{- $value := toString . -}}
{{- $unit := regexFind "(ns|us|ms|s|m|h|d)$" $value -}}
{{- $perUnit := dict "ns" 0.000000001 "us" 0.000001 "ms" 0.001 "s" 1.0 "m" 60.0 "h" 3600.0 "d" 86400.0 -}}
{{- mulf (float64 (trimSuffix $unit $value)) (get $perUnit $unit) -}}
{{- end -}}

{{/* A Chaos Mesh selector of brokers by node id (pod names), or of every broker when none. */}}
{{- define "bench.brokerSelector" -}}
{{- if .brokers -}}
pods:
  {{ .root.Release.Namespace }}:
    {{- range .brokers }}
    - {{ printf "%s-%d" $.statefulSet (int .) }}
    {{- end }}
{{- else -}}
namespaces:
  - {{ .root.Release.Namespace }}
labelSelectors:
  app.kubernetes.io/instance: {{ .root.Release.Name }}
  app.kubernetes.io/component: broker
{{- end -}}
{{- end -}}

{{/* The benchmark commands' --oauth options, when oauth.enabled (see values.yaml). */}}
{{- define "bench.oauthArgs" -}}
{{- if .Values.oauth.enabled }}
- --oauth
- {{ required "oauth.tokenUrl is required when oauth.enabled is true" .Values.oauth.tokenUrl | quote }}
- --oauth-client-id
- {{ .Values.oauth.clientId | quote }}
- --oauth-audience
- {{ .Values.oauth.audience | quote }}
{{- end }}
{{- end -}}

{{/* The OAuth client secret from its Secret, when oauth.enabled. */}}
{{- define "bench.oauthEnv" -}}
{{- if .Values.oauth.enabled }}
env:
  - name: TERN_OAUTH_CLIENT_SECRET
    valueFrom:
      secretKeyRef:
        name: {{ required "oauth.clientSecret.secretName is required when oauth.enabled is true" .Values.oauth.clientSecret.secretName | quote }}
        key: {{ .Values.oauth.clientSecret.key | quote }}
{{- end }}
{{- end -}}

{{/*
A container that waits until every broker of the tern subchart answers ready, then puts each
partition's leader on its preferred broker (tern-rebalance --wait-ready, with the management
token); pass the root. Used by the latency experiments' wait Job and a starter with a duration.
*/}}
{{- define "bench.waitForBrokers" -}}
{{- $tern := .Values.tern | default dict -}}
{{- $tokenKey := dig "management" "token" "key" "token" $tern -}}
- name: wait-ready
  image: {{ include "bench.image" . }}
  imagePullPolicy: {{ include "bench.imagePullPolicy" . }}
  command:
    - tern-rebalance
    - --wait-ready
    {{- range $i := until (int $tern.clusterSize) }}
    - {{ printf "%s:9600" (include "bench.brokerHost" (dict "root" $ "index" $i)) }}
    {{- end }}
  env:
    - name: TERN_REBALANCE_TIMEOUT
      value: {{ include "bench.waitSeconds" . | quote }}
    - name: TERN_MANAGEMENT_SECURITY_TOKENFILE
      value: /usr/local/tern/secrets/management/{{ $tokenKey }}
  {{- with .Values.chaosMesh.waitJob.resources }}
  resources:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.securityContext }}
  securityContext:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  volumeMounts:
    - name: management-token
      mountPath: /usr/local/tern/secrets/management
      readOnly: true
    - name: tmp
      mountPath: /tmp
{{- end -}}

{{/* The management token's volume for bench.waitForBrokers; pass the root. */}}
{{- define "bench.managementTokenVolume" -}}
{{- $tern := .Values.tern | default dict -}}
{{- $tokenKey := dig "management" "token" "key" "token" $tern -}}
- name: management-token
  secret:
    secretName: {{ dig "management" "token" "existingSecret" "" $tern | default (printf "%s-management" (include "bench.cluster" .)) }}
    defaultMode: 288 # 0440: readable through the pod's fsGroup
    items:
      - key: {{ $tokenKey }}
        path: {{ $tokenKey }}
{{- end -}}

{{/* How long bench.waitForBrokers waits: the tern subchart's leaderBalancing.timeoutSeconds. */}}
{{- define "bench.waitSeconds" -}}
{{- int (dig "leaderBalancing" "timeoutSeconds" 600 (.Values.tern | default dict)) -}}
{{- end -}}
