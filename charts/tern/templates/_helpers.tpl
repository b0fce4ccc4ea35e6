{{/* The chart's name, or nameOverride. */}}
{{- define "tern.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* The release's base name: the release name, suffixed with the chart's unless it holds it. */}}
{{- define "tern.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The brokers' StatefulSet, also their headless Service. */}}
{{- define "tern.broker.fullname" -}}
{{- printf "%s-broker" (include "tern.fullname" .) | trunc 52 | trimSuffix "-" -}}
{{- end -}}

{{- define "tern.gateway.fullname" -}}
{{- printf "%s-gateway" (include "tern.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "tern.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "tern.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* Labels of every object; pass a dict with root and component. */}}
{{- define "tern.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
{{ include "tern.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: tern
{{- with .root.Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "tern.selectorLabels" -}}
app.kubernetes.io/name: {{ include "tern.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/*
The image (global.image), refused unless a cluster can pull it: a repository with a registry host
or a Docker Hub namespace and an explicit tag; or global.image.local for an image that only the
nodes have. The default of a bare "tern" renders pods that stay in ImagePullBackOff on a real
cluster, so it is not a default.
*/}}
{{- define "tern.image" -}}
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

{{/* The image's pull policy and pull secrets (global.image). */}}
{{- define "tern.imagePullPolicy" -}}
{{- ((.Values.global | default dict).image | default dict).pullPolicy | default "IfNotPresent" -}}
{{- end -}}

{{- define "tern.imagePullSecrets" -}}
{{- with ((.Values.global | default dict).image | default dict).pullSecrets -}}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end -}}
{{- end -}}

{{/* The DNS name of broker N: <pod>.<headless service>.<namespace>.svc */}}
{{- define "tern.broker.host" -}}
{{- printf "%s-%d.%s.%s.svc" (include "tern.broker.fullname" .root) (int .index) (include "tern.broker.fullname" .root) .root.Release.Namespace -}}
{{- end -}}

{{/*
The brokers the StatefulSet runs: broker.replicas, else clusterSize. Not part of the brokers'
configuration, so that scaling restarts none of the running ones.
*/}}
{{- define "tern.broker.replicas" -}}
{{- $replicas := .Values.broker.replicas -}}
{{- if or (kindIs "invalid" $replicas) (eq (toString $replicas) "") -}}
{{- int .Values.clusterSize -}}
{{- else if not (regexMatch "^[1-9][0-9]*$" (toString $replicas)) -}}
{{- fail (printf "broker.replicas must be a number of brokers (1 or more), not %v" $replicas) -}}
{{- else -}}
{{- int $replicas -}}
{{- end -}}
{{- end -}}

{{/* Every broker's management address (the rebalance and backup jobs'). */}}
{{- define "tern.broker.managementAddresses" -}}
{{- range $i := until (int (include "tern.broker.replicas" .)) }}
- {{ printf "%s:9600" (include "tern.broker.host" (dict "root" $ "index" $i)) }}
{{- end -}}
{{- end -}}

{{/*
The initial brokers' command ports, the cluster's contact points. Brokers added later are not
among them (docs/scaling.md, Finding new brokers): they announce themselves to these.
*/}}
{{- define "tern.contactPoints" -}}
{{- $points := list -}}
{{- range $i := until (int .Values.clusterSize) -}}
{{- $points = append $points (printf "%s:26501" (include "tern.broker.host" (dict "root" $ "index" $i))) -}}
{{- end -}}
{{- join "," $points -}}
{{- end -}}

{{/* A Kubernetes quantity (64Gi, 512Mi, 2G, 1073741824) in MiB, rounded down. */}}
{{- define "tern.mebibytes" -}}
{{- $q := toString . -}}
{{- $digits := regexFind "^[0-9]+" $q -}}
{{- if not $digits -}}
{{- fail (printf "not a size: %s" $q) -}}
{{- end -}}
{{- $n := int64 $digits -}}
{{- $unit := trimPrefix $digits $q -}}
{{- if eq $unit "" -}}{{ div $n 1048576 }}
{{- else if eq $unit "Ki" -}}{{ div $n 1024 }}
{{- else if eq $unit "Mi" -}}{{ $n }}
{{- else if eq $unit "Gi" -}}{{ mul $n 1024 }}
{{- else if eq $unit "Ti" -}}{{ mul $n 1048576 }}
{{- else if eq $unit "k" -}}{{ div (mul $n 1000) 1048576 }}
{{- else if eq $unit "M" -}}{{ div (mul $n 1000000) 1048576 }}
{{- else if eq $unit "G" -}}{{ div (mul $n 1000000000) 1048576 }}
{{- else if eq $unit "T" -}}{{ div (mul $n 1000000000000) 1048576 }}
{{- else -}}{{ fail (printf "unsupported size unit in %s (use Ki, Mi, Gi, Ti, k, M, G or T)" $q) }}
{{- end -}}
{{- end -}}

{{/*
The broker configuration file: the chart's defaults (topology, contact points, data directories,
disk watermarks) with .Values.config layered over them, the user's keys winning.
*/}}
{{- define "tern.config" -}}
{{- $minFree := div (mul (int64 (include "tern.mebibytes" .Values.persistence.size)) (int64 .Values.persistence.minFreePercent)) 100 -}}
{{- $data := dict "directory" "/usr/local/tern/data" "disk" (dict "minFreeBytes" (printf "%dMB" (max 1 $minFree))) -}}
{{- if .Values.runtimeDirectory.tmpfs -}}
{{- $_ := set $data "runtimeDirectory" .Values.runtimeDirectory.path -}}
{{- $runtimeMinFree := div (mul (int64 (include "tern.mebibytes" .Values.runtimeDirectory.size)) (int64 .Values.runtimeDirectory.minFreePercent)) 100 -}}
{{- $_ := set $data.disk "runtimeMinFreeBytes" (printf "%dMB" (max 1 $runtimeMinFree)) -}}
{{- end -}}
{{- $defaults := dict
  "cluster" (dict
    "clusterSize" (int .Values.clusterSize)
    "partitionsCount" (int .Values.partitionsCount)
    "replicationFactor" (int .Values.replicationFactor)
    "contactPoints" (include "tern.contactPoints" .))
  "network" (dict "host" "0.0.0.0" "commandPort" 26501 "internalPort" 26502)
  "gateway" (dict "enable" (not .Values.gateway.enabled) "port" 26500)
  "management" (dict "enable" true "port" 9600)
  "data" $data -}}
{{- if .Values.injectedLatency.enabled -}}
{{- $network := dict "latency" .Values.injectedLatency.latency "jitter" .Values.injectedLatency.jitter -}}
{{- with .Values.injectedLatency.between -}}
{{- $_ := set $network "latencyBetween" . -}}
{{- end -}}
{{- $_ := set $defaults "experimental" (dict "network" $network) -}}
{{- end -}}
{{- $tls := .Values.tls -}}
{{- if $tls.cluster.enabled -}}
{{- $dir := "/usr/local/tern/tls/cluster" -}}
{{- $_ := set $defaults.network "security" (dict "enabled" true "certificateChainPath" (printf "%s/tls.crt" $dir) "privateKeyPath" (printf "%s/tls.key" $dir) "trustedCertificatesPath" (printf "%s/ca.crt" $dir)) -}}
{{- end -}}
{{- if $tls.gateway.enabled -}}
{{- $dir := "/usr/local/tern/tls/gateway" -}}
{{- $security := dict "enabled" true "certificateChainPath" (printf "%s/tls.crt" $dir) "privateKeyPath" (printf "%s/tls.key" $dir) "clientAuth" $tls.gateway.clientAuth -}}
{{- if ne $tls.gateway.clientAuth "none" -}}
{{- $_ := set $security "trustedCertificatesPath" "/usr/local/tern/tls/gateway-clients/ca.crt" -}}
{{- end -}}
{{- $_ := set $defaults.gateway "security" $security -}}
{{- end -}}
{{- if $tls.management.enabled -}}
{{- $dir := "/usr/local/tern/tls/management" -}}
{{- $_ := set $defaults.management "security" (dict "tls" (dict "enabled" true "certificateChainPath" (printf "%s/tls.crt" $dir) "privateKeyPath" (printf "%s/tls.key" $dir))) -}}
{{- end -}}
{{- $_ := set $defaults "exporting" (dict "history" (dict "enabled" .Values.exporters.history.enabled)) -}}
{{- $exporters := include "tern.exporters" . | fromYaml -}}
{{- if $exporters -}}
{{- $_ := set $defaults "exporters" $exporters -}}
{{- end -}}
{{- toYaml (mustMergeOverwrite $defaults (deepCopy .Values.config)) -}}
{{- end -}}

{{/* The built-in exporters' config (exporters.<id>), from .Values.exporters. */}}
{{- define "tern.exporters" -}}
{{- $exporters := dict -}}
{{- with .Values.exporters.history -}}
{{- if and .enabled .url -}}
{{- $args := dict "url" .url -}}
{{- with .username }}{{ $_ := set $args "username" . }}{{ end -}}
{{- with .retention }}{{ $_ := set $args "retention" . }}{{ end -}}
{{- if .passwordSecret.name }}{{ $_ := set $args "passwordFile" "/usr/local/tern/secrets/exporters/history/password" }}{{ end -}}
{{- $_ := set $exporters "history" (dict "args" $args) -}}
{{- else if and .enabled .retention (eq (int $.Values.clusterSize) 1) -}}
{{- $_ := set $exporters "history" (dict "args" (dict "retention" .retention)) -}}
{{- end -}}
{{- end -}}
{{- with .Values.exporters.opensearch -}}
{{- if .enabled -}}
{{- $args := deepCopy (.args | default dict) -}}
{{- $_ := set $args "url" .url -}}
{{- $auth := dict -}}
{{- with .username }}{{ $_ := set $auth "username" . }}{{ end -}}
{{- if .passwordSecret.name }}{{ $_ := set $auth "passwordFile" "/usr/local/tern/secrets/exporters/opensearch/password" }}{{ end -}}
{{- if $auth }}{{ $_ := set $args "authentication" $auth }}{{ end -}}
{{- $_ := set $exporters "opensearch" (dict "className" "io.tern.exporter.opensearch.OpenSearchExporter" "args" $args) -}}
{{- end -}}
{{- end -}}
{{- if $exporters }}{{ toYaml $exporters }}{{ end -}}
{{- end -}}

{{/* Checks the exporters' values; fails the render naming the value to fix. */}}
{{- define "tern.exporters.check" -}}
{{- $os := .Values.exporters.opensearch -}}
{{- if and $os.enabled (not $os.url) -}}
{{- fail "exporters.opensearch.enabled needs exporters.opensearch.url (http(s)://host:9200)" -}}
{{- end -}}
{{- if and $os.enabled $os.passwordSecret.name (not $os.username) -}}
{{- fail "exporters.opensearch.passwordSecret needs exporters.opensearch.username" -}}
{{- end -}}
{{- $history := .Values.exporters.history -}}
{{- if and $history.enabled $history.passwordSecret.name (not $history.url) -}}
{{- fail "exporters.history.passwordSecret is for a database at exporters.history.url, which is empty" -}}
{{- end -}}
{{- end -}}

{{/* The exporters' password Secrets as mounts: a directory per exporter, its file "password". */}}
{{- define "tern.exporters.mounts" -}}
{{- range $id := list "history" "opensearch" -}}
{{- $exporter := get $.Values.exporters $id -}}
{{- if and $exporter.enabled $exporter.passwordSecret.name }}
- name: exporter-{{ $id }}-password
  mountPath: /usr/local/tern/secrets/exporters/{{ $id }}
  readOnly: true
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "tern.exporters.volumes" -}}
{{- range $id := list "history" "opensearch" -}}
{{- $exporter := get $.Values.exporters $id -}}
{{- if and $exporter.enabled $exporter.passwordSecret.name }}
- name: exporter-{{ $id }}-password
  secret:
    secretName: {{ $exporter.passwordSecret.name }}
    defaultMode: 288 # 0440: owner and group (the pods' fsGroup) read
    items:
      - key: {{ $exporter.passwordSecret.key }}
        path: password
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Checks the tls values; fails the render with the value to fix. */}}
{{- define "tern.tls.check" -}}
{{- range $name := list "cluster" "gateway" "management" -}}
{{- $part := get $.Values.tls $name -}}
{{- if and $part.enabled (not $part.secretName) -}}
{{- fail (printf "tls.%s.enabled needs tls.%s.secretName: a Secret with tls.crt, tls.key and ca.crt" $name $name) -}}
{{- end -}}
{{- end -}}
{{- if not (has .Values.tls.gateway.clientAuth (list "none" "optional" "required")) -}}
{{- fail (printf "tls.gateway.clientAuth must be none, optional or required, not %s" .Values.tls.gateway.clientAuth) -}}
{{- end -}}
{{- if and .Values.tls.management.enabled .Values.leaderBalancing.enabled -}}
{{- fail "tls.management.enabled: the rebalance jobs speak plain HTTP to the management port; set leaderBalancing.enabled=false (rebalance by hand over https)" -}}
{{- end -}}
{{- end -}}

{{/* The volume mounts of the TLS Secrets; pass a dict with root and gateway (whether the pod serves the gRPC gateway). */}}
{{- define "tern.tls.mounts" -}}
{{- $tls := .root.Values.tls -}}
{{- if $tls.cluster.enabled }}
- name: tls-cluster
  mountPath: /usr/local/tern/tls/cluster
  readOnly: true
{{- end }}
{{- if and $tls.gateway.enabled .gateway }}
- name: tls-gateway
  mountPath: /usr/local/tern/tls/gateway
  readOnly: true
{{- if ne $tls.gateway.clientAuth "none" }}
- name: tls-gateway-clients
  mountPath: /usr/local/tern/tls/gateway-clients
  readOnly: true
{{- end }}
{{- end }}
{{- if $tls.management.enabled }}
- name: tls-management
  mountPath: /usr/local/tern/tls/management
  readOnly: true
{{- end }}
{{- end -}}

{{/* The TLS Secrets as volumes (whole Secrets, never subPath: a renewed Secret must reach the pod). */}}
{{- define "tern.tls.volumes" -}}
{{- $tls := .root.Values.tls -}}
{{- if $tls.cluster.enabled }}
- name: tls-cluster
  secret:
    secretName: {{ $tls.cluster.secretName }}
    defaultMode: 288 # 0440: owner and group (the pods' fsGroup) read
{{- end }}
{{- if and $tls.gateway.enabled .gateway }}
- name: tls-gateway
  secret:
    secretName: {{ $tls.gateway.secretName }}
    defaultMode: 288 # 0440: owner and group (the pods' fsGroup) read
{{- if ne $tls.gateway.clientAuth "none" }}
- name: tls-gateway-clients
  secret:
    secretName: {{ $tls.gateway.clientCaSecretName | default $tls.gateway.secretName }}
    items:
      - key: ca.crt
        path: ca.crt
{{- end }}
{{- end }}
{{- if $tls.management.enabled }}
- name: tls-management
  secret:
    secretName: {{ $tls.management.secretName }}
    defaultMode: 288 # 0440: owner and group (the pods' fsGroup) read
{{- end }}
{{- end -}}

{{/* The scheme of the management port's probes. */}}
{{- define "tern.management.scheme" -}}
{{- if .Values.tls.management.enabled }}HTTPS{{ else }}HTTP{{ end -}}
{{- end -}}

{{/* Environment shared by brokers and gateways. */}}
{{- define "tern.commonEnv" -}}
- name: TERN_CONFIG
  value: /usr/local/tern/config/tern.yaml
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* The Secret holding the management token: the chart's, or management.token.existingSecret. */}}
{{- define "tern.managementSecretName" -}}
{{- default (printf "%s-management" (include "tern.fullname" .)) .Values.management.token.existingSecret -}}
{{- end -}}

{{/* Whether the brokers get a management token (from the chart's Secret or an existing one). */}}
{{- define "tern.managementToken" -}}
{{- if or .Values.management.token.create .Values.management.token.existingSecret -}}true{{- end -}}
{{- end -}}

{{/* Where brokers and rebalance jobs read the management token. */}}
{{- define "tern.managementTokenDir" -}}/usr/local/tern/secrets/management{{- end -}}

{{/* The env var naming the token's file; pass the root. */}}
{{- define "tern.managementTokenEnv" -}}
{{- if include "tern.managementToken" . }}
- name: TERN_MANAGEMENT_SECURITY_TOKENFILE
  value: {{ include "tern.managementTokenDir" . }}/{{ .Values.management.token.key }}
{{- end }}
{{- end -}}

{{/* The token's volume mount; pass the root. */}}
{{- define "tern.managementTokenMount" -}}
{{- if include "tern.managementToken" . }}
- name: management-token
  mountPath: {{ include "tern.managementTokenDir" . }}
  readOnly: true
{{- end }}
{{- end -}}

{{/* The token's volume (only its key; 0440: root's file, readable through the pod's fsGroup). */}}
{{- define "tern.managementTokenVolume" -}}
{{- if include "tern.managementToken" . }}
- name: management-token
  secret:
    secretName: {{ include "tern.managementSecretName" . }}
    defaultMode: 288
    items:
      - key: {{ .Values.management.token.key }}
        path: {{ .Values.management.token.key }}
{{- end }}
{{- end -}}

{{/* The pod spec of the rebalance jobs; pass a dict with root, addresses and waitReady. */}}
{{- define "tern.rebalancePod" -}}
restartPolicy: Never
automountServiceAccountToken: false
{{- with include "tern.imagePullSecrets" .root }}
{{ . }}
{{- end }}
{{- with .root.Values.broker.podSecurityContext }}
securityContext:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.broker.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .root.Values.broker.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
containers:
  - name: rebalance
    image: {{ include "tern.image" .root }}
    imagePullPolicy: {{ include "tern.imagePullPolicy" .root }}
    command:
      - tern-rebalance
      {{- if .waitReady }}
      - --wait-ready
      {{- end }}
      {{- range .addresses }}
      - {{ . }}
      {{- end }}
    env:
      - name: TERN_REBALANCE_TIMEOUT
        value: {{ .root.Values.leaderBalancing.timeoutSeconds | quote }}
      {{- include "tern.managementTokenEnv" .root | nindent 6 }}
    volumeMounts:
      - name: tmp
        mountPath: /tmp
      {{- include "tern.managementTokenMount" .root | nindent 6 }}
    {{- with .root.Values.leaderBalancing.resources }}
    resources:
      {{- toYaml . | nindent 6 }}
    {{- end }}
    {{- with .root.Values.broker.securityContext }}
    securityContext:
      {{- toYaml . | nindent 6 }}
    {{- end }}
volumes:
  # The root filesystem is read-only (the brokers' securityContext).
  - name: tmp
    emptyDir: {}
  {{- include "tern.managementTokenVolume" .root | nindent 2 }}
{{- end -}}
