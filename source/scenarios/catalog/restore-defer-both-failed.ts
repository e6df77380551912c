import {definitions, scenario} from '../compose.js';
import {actionSetTimeline, blueprintObject} from '../kanister-builders.js';
import {postgresBlueprint} from '../kanister-blueprints.js';
import type {Scenario} from '../scenario.js';
import {postgresRestore} from './postgres-defs.js';

export const restoreDeferBothFailed: Scenario = scenario(
	{
		name: 'restore-defer-both-failed',
		title: 'Kanister postgres restore: the restore phase fails and the deferPhase fails too',
		description:
			'RestoreFromObjectStore fails (its pod exits non-zero), then the deferPhase StartupApplication cannot scale '
			+ 'postgres back up in time and fails as well: the ActionSet is failed, runningPhase cleared, and the '
			+ 'workload is left scaled down.',
	},
	definitions(blueprintObject(postgresBlueprint)),
	actionSetTimeline(postgresRestore('restore-backup-glptq-m4k8v'), {
		at: 1000,
		phases: [
			{durationMs: 4000, output: {originalReplicaCount: 1}},
			{
				durationMs: 11_000,
				fail: '{"pod":"restore-data-q7mzt"}: Failed while waiting for Pod to complete: Pod restore-data-q7mzt failed: command ' +
					'terminated with exit code 2',
			},
		],
		deferPhase: {
			durationMs: 12_000,
			fail: 'Failed while waiting for statefulset postgres-test/my-release-postgresql to be ready: context deadline exceeded',
		},
	}),
);
