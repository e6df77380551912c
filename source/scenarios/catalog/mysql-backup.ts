import {definitions, scenario} from '../compose.js';
import {actionSetTimeline, blueprintObject, objectRef, type ActionSetDef} from '../kanister-builders.js';
import {mysqlBlueprint} from '../kanister-blueprints.js';
import type {PlayContext, Scenario, ScenarioStep} from '../scenario.js';

const name = 'backup-rslmb';
const dumpPath = (ctx: PlayContext, at: number) =>
	`/mysql-backups/mysql-test/mysql-release/${ctx.at(at).slice(0, 19).replaceAll(':', '-')}/dump.sql.gz`;

/** `kanctl create actionset --action backup --blueprint mysql-blueprint-defer --statefulset mysql-test/mysql-release`. */
export const mysqlBackupActionSet: ActionSetDef = {
	name,
	blueprint: mysqlBlueprint,
	action: 'backup',
	object: objectRef('statefulset', 'mysql-test', 'mysql-release'),
	profile: objectRef('', 'mysql-test', 's3-profile-drnw9'),
};

/** The backup, created at `at` (shared with the tour). */
export function mysqlBackupSteps(at = 0): ScenarioStep[] {
	const dumpedAt = at + 2000;
	const completedAt = at + 23_000;
	return actionSetTimeline(mysqlBackupActionSet, {
		at: at + 1000,
		phases: [{durationMs: 16_000, output: ctx => ({s3path: dumpPath(ctx, dumpedAt)})}],
		deferPhase: {durationMs: 5000, output: ctx => ({completedAt: ctx.at(completedAt)})},
		renderedArtifacts: ctx => ({mysqlCloudDump: {keyValue: {s3path: dumpPath(ctx, dumpedAt), completedAt: ctx.at(completedAt)}}}),
	});
}

export const mysqlBackup: Scenario = scenario(
	{
		name: 'mysql-backup',
		title: 'Kanister mysql backup: the phase completes, then the deferPhase runs and the ActionSet completes',
		description:
			'An ActionSet runs the backup action of mysql-blueprint-defer: dumpToObjectStore streams a dump to object '
			+ 'storage, then the deferPhase recordBackupCompletion runs (its state stays pending while it runs: only '
			+ 'runningPhase and the events say so), artifacts are rendered and the state becomes complete.',
	},
	definitions(blueprintObject(mysqlBlueprint)),
	mysqlBackupSteps(),
);
