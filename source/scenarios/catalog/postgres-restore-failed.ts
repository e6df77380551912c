import {definitions, scenario} from '../compose.js';
import {actionSetTimeline, blueprintObject} from '../kanister-builders.js';
import {postgresBlueprint} from '../kanister-blueprints.js';
import type {Scenario, ScenarioStep} from '../scenario.js';
import {postgresRestore} from './postgres-defs.js';

/** The failing restore, created at `at` (shared with the tour). */
export function postgresRestoreFailedSteps(at = 0): ScenarioStep[] {
	return actionSetTimeline(postgresRestore('restore-backup-glptq-6jzt4'), {
		at: at + 1000,
		phases: [
			{durationMs: 5000, output: {originalReplicaCount: 1}},
			{durationMs: 9000, fail: 'null: Failed to restore backup: command terminated with exit code 1'},
		],
		deferPhase: {durationMs: 10_000, output: {originalReplicaCount: 0}},
	});
}

export const postgresRestoreFailed: Scenario = scenario(
	{
		name: 'postgres-restore-failed',
		title: 'Kanister postgres restore: the restore phase fails, the deferPhase still starts the app again',
		description:
			'A restore ActionSet (created with --from a backup) scales postgres down, then RestoreFromObjectStore fails: '
			+ 'the state is failed at once, yet the deferPhase StartupApplication runs afterwards and completes, '
			+ 'leaving runningPhase set. Failed, but cleaned up.',
	},
	definitions(blueprintObject(postgresBlueprint)),
	postgresRestoreFailedSteps(),
);
