{{/* The pod template of both replica types: the same pod for the Master and the workers. */}}
{{- define "pytorchjob.pod" -}}
metadata:
  annotations:
    sidecar.istio.io/inject: "false"
spec:
  automountServiceAccountToken: false
  containers:
    - command:
        {{- toYaml .Values.command | nindent 8 }}
      image: {{ .Values.image }}
      name: pytorch
      ports:
        - containerPort: 23456
          name: pytorchjob-port
      resources:
        limits:
          cpu: {{ .Values.cpu | quote }}
          memory: {{ .Values.memory }}
          nvidia.com/gpu: {{ .Values.gpus }}
        requests:
          cpu: {{ .Values.cpu | quote }}
          memory: {{ .Values.memory }}
          nvidia.com/gpu: {{ .Values.gpus }}
      securityContext:
        allowPrivilegeEscalation: false
        privileged: false
      volumeMounts:
        - mountPath: /dev/shm
          name: dshm
  tolerations:
    - effect: NoSchedule
      key: nvidia.com/gpu
      operator: Exists
  volumes:
    - emptyDir:
        medium: Memory
        sizeLimit: {{ .Values.sharedMemory }}
      name: dshm
{{- end -}}
