/**
 * The Kanister Blueprints the scenarios use (see shared/examples/blueprint-*.yaml). Phase names, functions and
 * artifacts are upstream's; long shell commands are shortened (the dashboard never shows them).
 */
import type {BlueprintDef} from './kanister-builders.js';

const mysqlImage = 'ghcr.io/kanisterio/mysql-sidecar:0.117.0';
const mysqlSecret = {
	mysqlSecret: {
		kind: 'Secret',
		name: '{{ index .Object.metadata.labels "app.kubernetes.io/instance" }}',
		namespace: '{{ .StatefulSet.Namespace }}',
	},
};

/** examples/mysql/mysql-blueprint.yaml plus a `recordBackupCompletion` deferPhase (assembled, see examples/README). */
export const mysqlBlueprint: BlueprintDef = {
	name: 'mysql-blueprint-defer',
	actions: {
		backup: {
			outputArtifacts: {
				mysqlCloudDump: {
					keyValue: {
						s3path: '{{ .Phases.dumpToObjectStore.Output.s3path }}',
						completedAt: '{{ .DeferPhase.Output.completedAt }}',
					},
				},
			},
			phases: [{
				name: 'dumpToObjectStore',
				func: 'KubeTask',
				objects: mysqlSecret,
				args: {
					image: mysqlImage,
					namespace: '{{ .StatefulSet.Namespace }}',
					command: [
						'bash', '-o', 'errexit', '-o', 'pipefail', '-c',
						'mysqldump --all-databases | gzip - | kando location push --path ${s3_path} -\nkando output s3path ${s3_path}\n',
					],
				},
			}],
			deferPhase: {
				name: 'recordBackupCompletion',
				func: 'KubeTask',
				args: {
					image: mysqlImage,
					namespace: '{{ .StatefulSet.Namespace }}',
					command: [
						'bash', '-o', 'errexit', '-o', 'pipefail', '-c', 'kando output completedAt "$(date -u +%Y-%m-%dT%H:%M:%SZ)"\n',
					],
				},
			},
		},
		restore: {
			inputArtifactNames: ['mysqlCloudDump'],
			phases: [{
				name: 'restoreFromBlobStore',
				func: 'KubeTask',
				objects: mysqlSecret,
				args: {
					image: mysqlImage,
					namespace: '{{ .StatefulSet.Namespace }}',
					command: [
						'bash', '-o', 'errexit', '-o', 'pipefail', '-c',
						'kando location pull --path ${s3_path} - | gunzip | mysql -u root\n',
					],
				},
			}],
		},
	},
};

const statefulSetNs = '{{ .StatefulSet.Namespace }}';
const backupPod = '{{ .Phases.createBackupPod.Output.name }}';

/** examples/postgresql/postgres-start-stop-blueprint.yaml: the backup deferPhase has no name. */
export const postgresBlueprint: BlueprintDef = {
	name: 'postgres-bp',
	actions: {
		backup: {
			kind: 'StatefulSet',
			outputArtifacts: {
				cloudObject: {
					keyValue: {
						backupArtifactLocation: '{{ .Phases.copyFiles.Output.backupArtifactLocation }}',
						backupID: '{{ .Phases.copyFiles.Output.backupID }}',
						backupTag: '{{ .Phases.copyFiles.Output.backupTag }}',
						pvc: '{{- range $key, $_ := index .StatefulSet.PersistentVolumeClaims (index .StatefulSet.Pods 0) ' +
							'-}}{{$key}}{{break}}{{end}}',
					},
				},
			},
			phases: [
				{name: 'createBackupPod', func: 'KubeOps', args: {operation: 'create', namespace: statefulSetNs}},
				{name: 'waitForPodReady', func: 'WaitV2', args: {timeout: '5m'}},
				{name: 'startBackup', func: 'KubeExec', args: {namespace: statefulSetNs, pod: backupPod}},
				{
					name: 'copyFiles',
					func: 'CopyVolumeData',
					args: {namespace: statefulSetNs, dataArtifactPrefix: 's3-bucket/path/artifactPrefix'},
				},
				{name: 'stopBackup', func: 'KubeExec', args: {namespace: statefulSetNs, pod: backupPod}},
			],
			deferPhase: {
				name: '',
				func: 'KubeOps',
				args: {
					operation: 'delete',
					objectReference: {apiVersion: 'v1', resource: 'pods', name: backupPod, namespace: statefulSetNs},
				},
			},
		},
		restore: {
			kind: 'StatefulSet',
			inputArtifactNames: ['cloudObject'],
			phases: [
				{
					name: 'ShutdownApplication',
					func: 'ScaleWorkload',
					args: {namespace: statefulSetNs, name: '{{ .StatefulSet.Name }}', kind: 'StatefulSet', replicas: 0},
				},
				{
					name: 'RestoreFromObjectStore',
					func: 'RestoreData',
					args: {
						namespace: statefulSetNs,
						image: 'ghcr.io/kanisterio/kanister-tools:0.110.0',
						backupArtifactPrefix: 's3-bucket/path/artifactPrefix',
						backupTag: '{{ .ArtifactsIn.cloudObject.KeyValue.backupTag }}',
					},
				},
			],
			deferPhase: {
				name: 'StartupApplication',
				func: 'ScaleWorkload',
				args: {
					namespace: statefulSetNs,
					name: '{{ .StatefulSet.Name }}',
					kind: 'StatefulSet',
					replicas: '{{ len .StatefulSet.Pods }}',
				},
			},
		},
	},
};
