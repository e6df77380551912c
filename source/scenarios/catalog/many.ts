import {definitions, scenario} from '../compose.js';
import {suffixFor, uuidFor} from '../ids.js';
import {actionSetTimeline, blueprintObject, objectRef, type PhaseRun} from '../kanister-builders.js';
import {mysqlBlueprint, postgresBlueprint} from '../kanister-blueprints.js';
import {
	fatalError,
	KudoInstanceTimeline,
	operatorVersionObject,
	plannedFrames,
	transientError,
	type KudoPackage,
	type RunPlan,
} from '../kudo-builders.js';
import {mysqlPackage, zookeeperPackage} from '../kudo-packages.js';
import type {Scenario, ScenarioStep} from '../scenario.js';
import {postgresObject, postgresProfile, postgresRestore} from './postgres-defs.js';
import {seededRandom} from '../seeded-random.js';

const teams = [
	'orders', 'billing', 'catalog', 'search', 'ledger', 'audit', 'inventory', 'payments', 'reviews', 'shipping', 'profiles', 'metrics',
];

/** The `index`-th Instance (0..11). */
function instanceSteps(index: number, rnd: () => number): ScenarioStep[] {
	const zookeeper = index % 3 === 2;
	const pkg: KudoPackage = zookeeper ? zookeeperPackage : mysqlPackage;
	const name = `${zookeeper ? 'zk' : 'mysql'}-${teams[index]!}`;
	const start = Math.floor(rnd() * 25_000);
	const durations: Record<string, number> = {};
	for (const phase of pkg.plans['deploy']!.phases) {
		for (const step of phase.steps) {
			durations[`${phase.name}.${step.name}`] = 2000 + Math.floor(rnd() * 9000);
		}
	}

	const run: RunPlan = {
		durations,
		...(index === 4
			? {errors: {'deploy.init': {
				afterMs: 2000,
				forMs: 7000,
				message: transientError('deploy.deploy.init.init', 'Internal error occurred: resource quota evaluation timed out'),
			}}}
			: {}),
		...(index === 7
			? {fatal: {
				step: 'deploy.init',
				afterMs: 6000,
				message: fatalError(name, 'deploy.deploy.init.init', ns =>
					`object ${ns}/deploy-job is NOT healthy: fatal error: HealthUtil: job "deploy-job" has failed terminally: Job has ` +
					'reached the specified backoff limit'),
			}}
			: {}),
	};
	return new KudoInstanceTimeline({name, pkg})
		.install(start, uuidFor(`many/${name}`))
		.run(plannedFrames(pkg, 'deploy', start + 1000, run), {heartbeatMs: 3000})
		.steps;
}

function actionSetSteps(index: number, rnd: () => number): ScenarioStep[] {
	const start = Math.floor(rnd() * 25_000);
	const suffix = suffixFor(`many/${index}`);
	const duration = () => 2000 + Math.floor(rnd() * 7000);
	switch (index % 3) {
		case 0: {
			return actionSetTimeline(
				{
					name: `backup-${suffix}`,
					blueprint: mysqlBlueprint,
					action: 'backup',
					object: objectRef('statefulset', 'mysql-test', `mysql-${teams[index % teams.length]!}`),
					profile: objectRef('', 'mysql-test', 's3-profile-drnw9'),
				},
				{
					at: start,
					phases: [{durationMs: 6000 + duration(), output: {s3path: `/mysql-backups/mysql-test/${suffix}/dump.sql.gz`}}],
					deferPhase: {durationMs: duration(), output: ctx => ({completedAt: ctx.now()})},
					renderedArtifacts: ctx => ({mysqlCloudDump: {keyValue: {
						s3path: `/mysql-backups/mysql-test/${suffix}/dump.sql.gz`,
						completedAt: ctx.now(),
					}}}),
				},
			);
		}

		case 1: {
			const deferFails = index % 4 === 1;
			const phases: PhaseRun[] = [
				{durationMs: duration()},
				{durationMs: duration()},
				{durationMs: duration()},
				{durationMs: 5000 + duration()},
				{durationMs: duration()},
			];
			return actionSetTimeline(
				{
					name: `backup-${suffix}`,
					blueprint: postgresBlueprint,
					action: 'backup',
					object: postgresObject,
					profile: postgresProfile,
				},
				{
					at: start,
					phases,
					deferPhase: deferFails
						? {durationMs: 1500, fail: `pods "postgres-backup-session${suffix}" not found`}
						: {durationMs: 1500},
					renderedArtifacts: {cloudObject: {keyValue: {
						backupArtifactLocation: 's3-bucket/path/artifactPrefix',
						backupID: suffix,
						backupTag: `t${suffix}`,
						pvc: 'data-my-release-postgresql-0',
					}}},
				},
			);
		}

		default: {
			const fails = index % 4 === 2;
			return actionSetTimeline(postgresRestore(`restore-backup-glptq-${suffix}`), {
				at: start,
				phases: fails
					? [
						{durationMs: duration(), output: {originalReplicaCount: 1}},
						{durationMs: duration(), fail: 'null: Failed to restore backup: command terminated with exit code 1'},
					]
					: [{durationMs: duration(), output: {originalReplicaCount: 1}}, {durationMs: 6000 + duration()}],
				deferPhase: {durationMs: duration(), output: {originalReplicaCount: 0}},
			});
		}
	}
}

function manySteps(): ScenarioStep[][] {
	// Seeded, so `many` is the same every time.
	const rnd = seededRandom(20_261_130);
	const lists: ScenarioStep[][] = [];
	let instances = 0;
	for (let i = 0; i < 30; i++) {
		// Two Instances for every three ActionSets.
		lists.push(i % 5 < 2 ? instanceSteps(instances++, rnd) : actionSetSteps(i, rnd));
	}

	return lists;
}

export const many: Scenario = scenario(
	{
		name: 'many',
		title: 'Thirty objects at once: KUDO installs and Kanister backups/restores, mixed outcomes',
		description:
			'Twelve KUDO Instances (mysql and zookeeper installs; one retries a transient ERROR, one ends in FATAL_ERROR) '
			+ 'and eighteen Kanister ActionSets (mysql and postgres backups, postgres restores; some fail, some deferPhases '
			+ 'fail) start within 25 seconds of each other. For the list view, filters and sorting.',
	},
	definitions(
		operatorVersionObject(mysqlPackage),
		operatorVersionObject(zookeeperPackage),
		blueprintObject(mysqlBlueprint),
		blueprintObject(postgresBlueprint),
	),
	...manySteps(),
);
