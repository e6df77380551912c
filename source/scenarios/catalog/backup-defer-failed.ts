import {definitions, scenario} from '../compose.js';
import {actionSetTimeline, blueprintObject} from '../kanister-builders.js';
import {postgresBlueprint} from '../kanister-blueprints.js';
import type {Scenario} from '../scenario.js';
import {postgresObject, postgresProfile} from './postgres-defs.js';

const pod = 'postgres-backup-sessionq7w4k';

export const backupDeferFailed: Scenario = scenario(
	{
		name: 'backup-defer-failed',
		title: 'Kanister postgres backup: all five phases complete, the (unnamed) deferPhase fails',
		description:
			'The backup action of postgres-bp creates a helper pod, waits for it, starts the backup, copies the volume '
			+ 'and stops the backup; then its nameless deferPhase tries to delete the helper pod, which is already gone. '
			+ 'The ActionSet ends failed at 100% with the deferPhase failed and unrendered artifacts.',
	},
	definitions(blueprintObject(postgresBlueprint)),
	actionSetTimeline(
		{name: 'backup-glptq', blueprint: postgresBlueprint, action: 'backup', object: postgresObject, profile: postgresProfile},
		{
			at: 1000,
			phases: [
				{
					durationMs: 3000,
					output: {apiVersion: 'v1', group: '', kind: '', name: pod, namespace: 'postgres-test', resource: 'pods'},
				},
				{durationMs: 8000},
				{durationMs: 4000},
				{
					durationMs: 14_000,
					output: {
						backupArtifactLocation: 's3-bucket/path/artifactPrefix',
						backupID: '6b9c2f1e',
						backupRoot: '/mnt/vol_data/data-my-release-postgresql-0',
						backupTag: 't9xq2m7kpl',
						fileCount: '1843',
						size: '41.263 MiB',
						phySize: '12.004 MiB',
					},
				},
				{durationMs: 3000},
			],
			deferPhase: {durationMs: 2000, fail: `pods "${pod}" not found`},
		},
	),
);
