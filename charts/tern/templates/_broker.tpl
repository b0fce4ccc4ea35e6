{{/*
The broker's environment and volume mounts: its container's, and the restore init container's
(which must read the configuration exactly as the broker does). Pass the root.
*/}}
{{- define "tern.broker.env" -}}
- name: POD_NAME
  valueFrom:
    fieldRef:
      fieldPath: metadata.name
# The pod's ordinal is its node id (the label StatefulSets set since Kubernetes 1.28).
- name: TERN_CLUSTER_NODEID
  valueFrom:
    fieldRef:
      fieldPath: metadata.labels['apps.kubernetes.io/pod-index']
- name: TERN_NETWORK_ADVERTISEDHOST
  value: "$(POD_NAME).{{ include "tern.broker.fullname" . }}.{{ .Release.Namespace }}.svc"
{{- with .Values.broker.javaOpts }}
- name: TERN_JAVA_OPTS
  value: {{ . | quote }}
{{- end }}
{{ include "tern.commonEnv" . }}
{{- include "tern.managementTokenEnv" . }}
{{- with .Values.broker.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "tern.broker.volumeMounts" -}}
- name: config
  mountPath: /usr/local/tern/config
  readOnly: true
- name: data
  mountPath: /usr/local/tern/data
{{- if .Values.runtimeDirectory.tmpfs }}
- name: runtime
  mountPath: {{ .Values.runtimeDirectory.path }}
{{- end }}
- name: tmp
  mountPath: /tmp
{{- include "tern.tls.mounts" (dict "root" . "gateway" true) | nindent 0 }}
{{- include "tern.managementTokenMount" . | nindent 0 }}
{{- include "tern.exporters.mounts" . | nindent 0 }}
{{- with .Values.broker.extraVolumeMounts }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Whether the brokers restore a backup before they start (restore.backupId set). */}}
{{- define "tern.restore.enabled" -}}
{{- if .Values.restore.backupId }}true{{- end -}}
{{- end -}}

{{/*
The restore init container (docs/operations.md#backups): bin/restore with the broker's image,
configuration, environment and data volume fills the empty volume from backup restore.backupId
before the broker starts; run again (a pod restart) after it succeeded, it does nothing.
*/}}
{{- define "tern.restore.initContainer" -}}
{{- if include "tern.restore.enabled" . }}
{{- /* A number in a values file arrives as a float (2.0261207e+07 as text): int64 first. */}}
{{- $id := .Values.restore.backupId | int64 | toString }}
{{- if not (regexMatch "^[1-9][0-9]{0,17}$" $id) }}
{{- fail (printf "restore.backupId must be a backup's id (a positive number, GET /actuator/backups lists them), not %v" .Values.restore.backupId) }}
{{- end }}
- name: restore
  image: {{ include "tern.image" . }}
  imagePullPolicy: {{ include "tern.imagePullPolicy" . }}
  args:
    - restore
    - --backupId
    - {{ $id | quote }}
    - --skipIfRestored
  env:
    {{- include "tern.broker.env" . | nindent 4 }}
  {{- with .Values.restore.resources }}
  resources:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  {{- with .Values.broker.securityContext }}
  securityContext:
    {{- toYaml . | nindent 4 }}
  {{- end }}
  volumeMounts:
    {{- include "tern.broker.volumeMounts" . | nindent 4 }}
{{- end }}
{{- end -}}
