import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {adaptActionSet, deferNote, runningPerProgress, skippedNote} from '../../source/model/adapt-kanister-action-set.js';
import {adaptEvent} from '../../source/model/adapt-event.js';
import type {KanisterWaitFacts, PlanEvent, PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';
import {uncleanStrings} from '../helpers/clean-strings.js';

const blueprints = new Map(
	['blueprint-mysql-defer.yaml', 'blueprint-mysql.yaml', 'blueprint-postgres-start-stop-defer.yaml', 'blueprint-time-log-defer.yaml'].map(f => {
		const bp = loadFixtureObject(`kanister/${f}`);
		return [bp.metadata?.name ?? '', bp] as const;
	}),
);
const lookup = (n: string): KubeObject | undefined => blueprints.get(n);

function events(file: string): PlanEvent[] {
	return loadFixture(`kanister/${file}`).flatMap(e => adaptEvent(e) ?? []);
}

function adapt(file: string, eventList: readonly PlanEvent[] = []): PlanObject {
	return adaptActionSet(loadFixtureObject(`kanister/${file}`), lookup, eventList);
}

function facts(o: PlanObject): KanisterWaitFacts {
	if (o.wait.kind !== 'ActionSet') {
		throw new Error('not an ActionSet');
	}

	return o.wait;
}

function outline(node: PlanNode, depth = 0): string[] {
	const extra = (node.note ? ` (${node.note})` : '') + (node.message ? `: ${node.message}` : '');
	return [`${'  '.repeat(depth)}${node.kind} ${node.name} ${node.status}/${node.state}${extra}`, ...node.children.flatMap(c => outline(c, depth + 1))];
}

function only(o: PlanObject): PlanNode {
	expect(o.tree).toHaveLength(1);
	return o.tree[0]!;
}

describe('mysql backup lifecycle (blueprint with a deferPhase)', () => {
	test('created: no status yet, phases named from the Blueprint', () => {
		const o = adapt('actionset-mysql-backup-created.yaml');
		expect(o).toMatchObject({
			kind: 'ActionSet',
			namespace: 'kanister',
			name: 'backup-rslmb',
			outcome: 'running',
			state: 'pending',
			status: 'pending',
			version: 'mysql-blueprint-defer',
			active: 'backup',
			summary: 'backup waiting for the controller to start it',
		});
		expect(outline(only(o))).toEqual([
			'action backup pending/pending',
			'  phase dumpToObjectStore pending/pending',
			`  deferPhase recordBackupCompletion pending/pending (${deferNote})`,
		]);
		expect(only(o).detail).toBe('statefulset mysql-test/mysql-release');
		expect(facts(o)).toEqual({kind: 'ActionSet', state: '', deferPending: true, deferRunning: false, runningPhase: ''});
		const withoutBlueprint = adaptActionSet(loadFixtureObject('kanister/actionset-mysql-backup-created.yaml'), () => undefined, []);
		expect(outline(only(withoutBlueprint))).toEqual(['action backup pending/pending']);
	});

	test('pending', () => {
		const o = adapt('actionset-mysql-backup-pending.yaml');
		expect(o).toMatchObject({outcome: 'running', state: 'pending', status: 'pending', summary: 'backup pending', createdAt: '2025-06-02T09:56:31Z'});
		expect(facts(o)).toMatchObject({state: 'pending', deferPending: true, deferRunning: false, lastProgressAt: '2025-06-02T09:56:31Z'});
	});

	test('running a phase', () => {
		const o = adapt('actionset-mysql-backup-running.yaml');
		expect(o).toMatchObject({outcome: 'running', state: 'running', status: 'running', percent: 0, summary: 'backup running phase dumpToObjectStore (0%)'});
		expect(outline(only(o))).toEqual([
			'action backup running/running',
			'  phase dumpToObjectStore running/running',
			`  deferPhase recordBackupCompletion pending/pending (${deferNote})`,
		]);
		expect(only(o).children[0]).toMatchObject({percent: 0, updatedAt: '2025-06-02T09:56:38Z'});
		expect(facts(o)).toMatchObject({runningPhase: 'dumpToObjectStore', lastProgressAt: '2025-06-02T09:56:38Z', deferRunning: false});
	});

	test('deferPhase running: state still pending in the object, running by runningPhase', () => {
		const o = adapt('actionset-mysql-backup-defer-running.yaml');
		expect(o).toMatchObject({outcome: 'running', state: 'running', percent: 100, summary: 'backup: all phases complete; deferPhase recordBackupCompletion running'});
		expect(outline(only(o))).toEqual([
			'action backup running/running',
			'  phase dumpToObjectStore complete/succeeded',
			`  deferPhase recordBackupCompletion pending/running (${deferNote})`,
		]);
		expect(only(o).children.at(-1)?.statusReason).toBe(runningPerProgress);
		expect(facts(o)).toMatchObject({deferPending: true, deferRunning: true});
	});

	test('complete, with phase times from the events', () => {
		const o = adapt('actionset-mysql-backup-complete.yaml', events('events-mysql-backup-complete.yaml'));
		expect(o).toMatchObject({
			outcome: 'succeeded',
			state: 'succeeded',
			status: 'complete',
			percent: 100,
			summary: 'backup completed; deferPhase recordBackupCompletion completed',
			updatedAt: '2025-06-02T09:57:19Z',
		});
		expect(o.error).toBeUndefined();
		const action = only(o);
		expect(action).toMatchObject({state: 'succeeded', startedAt: '2025-06-02T09:56:32Z', endedAt: '2025-06-02T09:57:19Z', percent: 100});
		expect(action.children[0]).toMatchObject({startedAt: '2025-06-02T09:56:32Z', endedAt: '2025-06-02T09:57:12Z'});
		expect(action.children[1]).toMatchObject({kind: 'deferPhase', id: 'action:backup/deferPhase', startedAt: '2025-06-02T09:57:12Z', endedAt: '2025-06-02T09:57:19Z'});
		expect(facts(o)).toMatchObject({state: 'complete', deferPending: false, deferRunning: false, lastProgressAt: '2025-06-02T09:57:19Z'});
	});

	test('a deferPhase that started by the events alone is running', () => {
		const all = events('events-mysql-backup-complete.yaml');
		const upToDeferStart = all.slice(0, all.findIndex(e => e.reason === 'Started deferPhase') + 1);
		const object = loadFixtureObject('kanister/actionset-mysql-backup-defer-running.yaml');
		const status = object['status'] as {progress: Record<string, unknown>};
		const withoutRunningPhase = {...object, status: {...status, progress: {...status.progress, runningPhase: ''}}};
		expect(facts(adaptActionSet(withoutRunningPhase, lookup, [])).deferRunning).toBe(false);
		expect(facts(adaptActionSet(withoutRunningPhase, lookup, upToDeferStart)).deferRunning).toBe(true);
	});
});

describe('the four deferPhase outcomes, plus running and never started', () => {
	test('phases ✔ + deferPhase ✔', () => {
		expect(adapt('actionset-mysql-backup-complete.yaml').summary).toBe('backup completed; deferPhase recordBackupCompletion completed');
	});

	test('phases ✔ + deferPhase ✖ (unnamed deferPhase)', () => {
		const o = adapt('actionset-postgres-backup-defer-failed.yaml');
		expect(o).toMatchObject({outcome: 'failed', state: 'failed', status: 'failed', error: 'pods "postgres-backup-sessionq7w4k" not found'});
		expect(o.summary).toBe('backup completed but deferPhase failed: pods "postgres-backup-sessionq7w4k" not found');
		const action = only(o);
		expect(action.detail).toBe('statefulset postgres-test/my-release-postgresql');
		expect(outline(action).at(-1)).toBe(`  deferPhase deferPhase failed/failed (${deferNote}): pods "postgres-backup-sessionq7w4k" not found`);
		expect(action.children.at(-1)?.id).toBe('action:backup/deferPhase');
		expect(facts(o)).toMatchObject({deferPending: false, deferRunning: false});
	});

	test('phases ✖ + deferPhase ✔ (cleanup ran; runningPhase left set by the controller)', () => {
		const o = adapt('actionset-postgres-restore-failed-defer-complete.yaml', events('events-postgres-restore-failed-defer.yaml'));
		expect(o).toMatchObject({outcome: 'failed', state: 'failed', status: 'failed', percent: 50});
		expect(o.summary).toBe(
			'restore failed in phase RestoreFromObjectStore: Failed to restore backup: command terminated with exit code 1; deferPhase StartupApplication completed (cleanup ran)',
		);
		expect(o.error).toBe('null: Failed to restore backup: command terminated with exit code 1');
		const [shutdown, restore, startup] = only(o).children;
		expect(shutdown).toMatchObject({startedAt: '2025-06-02T10:20:05Z', endedAt: '2025-06-02T10:20:11Z'});
		expect(restore).toMatchObject({
			state: 'failed',
			message: 'Failed to restore backup: command terminated with exit code 1',
			startedAt: '2025-06-02T10:20:11Z',
			endedAt: '2025-06-02T10:20:19Z',
		});
		expect(startup).toMatchObject({kind: 'deferPhase', state: 'succeeded', note: deferNote, startedAt: '2025-06-02T10:20:19Z', endedAt: '2025-06-02T10:20:31Z'});
		expect(facts(o)).toMatchObject({deferRunning: false, deferPending: false, runningPhase: 'StartupApplication'});
	});

	test('phases ✖ + deferPhase ✖: the core error comes from the events, the object error belongs to the deferPhase', () => {
		const o = adapt('actionset-postgres-backup-failed-defer-failed.yaml', events('events-postgres-backup-failed-defer-failed.yaml'));
		expect(o).toMatchObject({outcome: 'failed', summary: 'backup failed in phase copyFiles; deferPhase failed too, see events'});
		expect(outline(only(o))).toEqual([
			'action backup failed/failed',
			'  phase createBackupPod complete/succeeded',
			'  phase waitForPodReady complete/succeeded',
			'  phase startBackup complete/succeeded',
			'  phase copyFiles failed/failed: {"pod":"kanister-job-x8v2c"}: exit status 3: snapshot upload refused',
			`  phase stopBackup pending/pending (${skippedNote})`,
			`  deferPhase deferPhase failed/failed (${deferNote}): pods "postgres-backup-sessionq7w4k" not found`,
		]);
		const defer = only(o).children.at(-1);
		expect(defer).toMatchObject({startedAt: '2025-06-02T10:06:41Z', endedAt: '2025-06-02T10:06:43Z'});
		// Without events the core phase has no message of its own (the object only kept the deferPhase error).
		const bare = adapt('actionset-postgres-backup-failed-defer-failed.yaml');
		expect(only(bare).children[3]?.message).toBeUndefined();
		expect(bare.summary).toBe(o.summary);
	});

	test('phases ✖ + deferPhase running: not over yet', () => {
		const o = adapt('actionset-postgres-restore-failed-defer-running.yaml');
		expect(o).toMatchObject({outcome: 'running', state: 'running', status: 'failed'});
		expect(o.summary).toBe('restore: deferPhase StartupApplication running after failure in phase RestoreFromObjectStore');
		expect(outline(only(o))).toEqual([
			'action restore running/running',
			'  phase ShutdownApplication complete/succeeded',
			'  phase RestoreFromObjectStore failed/failed: Failed to restore backup: command terminated with exit code 1',
			`  deferPhase StartupApplication pending/running (${deferNote})`,
		]);
		expect(facts(o)).toMatchObject({state: 'failed', deferPending: true, deferRunning: true});
	});

	test('phases ✖ + deferPhase pending with no sign of starting: failed, deferPending for the grace period', () => {
		const o = adapt('actionset-mysql-backup-launch-failed.yaml');
		expect(o).toMatchObject({outcome: 'failed', state: 'failed'});
		expect(o.summary).toBe(
			'backup failed in phase dumpToObjectStore: Failed to render template: template: config:1:42: executing "config" at <.Profile.Location>: nil pointer evaluating *param.Profile.Location; ' +
			'deferPhase recordBackupCompletion has not started',
		);
		expect(only(o).children.at(-1)).toMatchObject({status: 'pending', state: 'pending', note: deferNote});
		expect(facts(o)).toMatchObject({state: 'failed', deferPending: true, deferRunning: false, lastProgressAt: '2025-06-02T11:10:00Z'});
	});

	test('init failed (blueprint missing): the requested action with the error, no phases', () => {
		const o = adapt('actionset-init-failed-blueprint-missing.yaml');
		expect(o).toMatchObject({
			outcome: 'failed',
			state: 'failed',
			status: 'failed',
			version: 'mysql-blueprint-typo',
			summary: 'failed to start: Failed to query blueprint: blueprints.cr.kanister.io "mysql-blueprint-typo" not found',
		});
		expect(only(o)).toMatchObject({
			name: 'backup',
			state: 'failed',
			message: 'Failed to query blueprint: blueprints.cr.kanister.io "mysql-blueprint-typo" not found',
			children: [],
		});
		expect(facts(o)).toMatchObject({deferPending: false, deferRunning: false});
	});
});

describe('events', () => {
	test('only this ActionSet’s events count: not its Blueprint’s, not an earlier namesake’s', () => {
		const all = events('events-postgres-restore-failed-defer.yaml');
		expect(all.some(e => e.involvedKind === 'Blueprint')).toBe(true);
		const stale: PlanEvent = {...all.find(e => e.reason === 'Started deferPhase')!, uid: 'old', time: '2025-06-01T00:00:00Z'};
		const object = loadFixtureObject('kanister/actionset-postgres-restore-failed-defer-running.yaml');
		const status = object['status'] as {progress: Record<string, unknown>};
		const quiet = {...object, status: {...status, progress: {...status.progress, runningPhase: ''}}};
		expect(facts(adaptActionSet(quiet, lookup, [stale])).deferRunning).toBe(false);
		const otherObject = all.map(e => ({...e, involvedName: 'someone-else'}));
		expect(facts(adaptActionSet(quiet, lookup, otherObject)).deferRunning).toBe(false);
		const inOrder = all.filter(e => e.reason !== 'Ended deferPhase');
		expect(facts(adaptActionSet(quiet, lookup, [...inOrder].reverse())).deferRunning).toBe(true);
	});
});

describe('other shapes', () => {
	test('two actions in one ActionSet, no deferPhase', () => {
		const o = adapt('actionset-multiple-actions.yaml');
		expect(o.tree.map(a => [a.id, a.detail, a.state])).toEqual([
			['action:backup', 'statefulset team-a/mysql-a', 'succeeded'],
			['action:backup#2', 'statefulset team-b/mysql-b', 'running'],
		]);
		expect(o.tree.every(a => a.children.every(c => c.kind === 'phase'))).toBe(true);
		expect(o).toMatchObject({outcome: 'running', version: 'mysql-blueprint', percent: 50, active: 'backup'});
		expect(o.summary).toBe('backup completed | backup running phase dumpToObjectStore (0%)');
		expect(facts(o)).toMatchObject({deferPending: false, deferRunning: false});
	});

	test('old two-decimal percentages parse as floats', () => {
		const object = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');
		const status = object['status'] as {progress: Record<string, unknown>};
		const o = adaptActionSet({...object, status: {...status, progress: {...status.progress, percentCompleted: '96.15'}}}, lookup, []);
		expect(o.percent).toBe(96.15);
		expect(o.summary).toBe('backup running phase dumpToObjectStore (96%)');
	});

	test('unknown state words and wrongly typed fields', () => {
		const o = adapt('actionset-unknown-state.yaml');
		expect(o).toMatchObject({
			outcome: 'unknown',
			state: 'unknown',
			status: 'attemptfailed',
			percent: 100,
			summary: "rejected by Kanister's validation (pkg/validate): Number of actions in status actions and spec must match; the controller will not run it",
		});
		expect(outline(only(o))).toEqual(['action backup completed/unknown', '  phase one completed/unknown', '  phase two /unknown']);
		expect(only(o).children[0]?.percent).toBeUndefined();
		expect(facts(o)).toMatchObject({state: 'attemptfailed', runningPhase: '7', deferPending: false});
	});

	test('missing everything', () => {
		expect(() => adaptActionSet({}, () => undefined, [])).not.toThrow();
		const o = adaptActionSet({}, () => undefined, []);
		expect(o).toMatchObject({name: '', outcome: 'running', state: 'pending', tree: [], summary: 'waiting for the controller to start it'});
		const failedEmpty = adaptActionSet({status: {state: 'failed', error: {message: 'x'}}}, () => undefined, []);
		expect(failedEmpty).toMatchObject({outcome: 'failed', summary: 'failed to start: x'});
	});

	test('escape sequences, bidi and zero-width characters never get through', () => {
		const o = adapt('actionset-hostile-escapes.yaml');
		expect(uncleanStrings(o)).toEqual([]);
		expect(o).toMatchObject({name: 'backup-x', namespace: 'kanister', version: 'bp'});
		expect(outline(only(o))).toEqual([
			'action backup failed/failed',
			'  phase dump failed/failed: boom link ⏎ line two',
			`  phase next pending/pending (${skippedNote})`,
			`  deferPhase cleanup complete/succeeded (${deferNote})`,
		]);
		expect(only(o).detail).toBe('statefulset ns/dbOK');
		expect(o.summary).toBe('backup failed in phase dump: boom link ⏎ line two; deferPhase cleanup completed (cleanup ran)');
	});
});
