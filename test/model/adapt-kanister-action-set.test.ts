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

describe('phase outputs and action artifacts (what the next kanctl … --from reads)', () => {
	test('complete: each phase its output, the deferPhase its own, the action its rendered artifacts', () => {
		const action = only(adapt('actionset-mysql-backup-complete.yaml'));
		expect(action.children.map(c => [c.name, c.output])).toEqual([
			['dumpToObjectStore', {values: {s3path: '/mysql-backups/mysql-test/mysql-release/2025-06-02T09-56-33/dump.sql.gz'}}],
			['recordBackupCompletion', {values: {completedAt: '2025-06-02T09:57:19Z'}}],
		]);
		expect(action.artifacts).toEqual({
			values: {mysqlCloudDump: {keyValue: {s3path: '/mysql-backups/mysql-test/mysql-release/2025-06-02T09-56-33/dump.sql.gz', completedAt: '2025-06-02T09:57:19Z'}}},
			rendered: true,
		});
	});

	test('running: the artifacts are still the Blueprint\'s templates, not rendered', () => {
		const action = only(adapt('actionset-mysql-backup-running.yaml'));
		expect(action.artifacts?.rendered).toBe(false);
		expect(action.artifacts?.values['mysqlCloudDump']).toEqual({keyValue: {s3path: '{{ .Phases.dumpToObjectStore.Output.s3path }}', completedAt: '{{ .DeferPhase.Output.completedAt }}'}});
		expect(action.children.every(c => c.output === undefined)).toBe(true);
	});

	test('succeeded but not yet rendered (the deferPhase\'s complete is written before renderActionsetArtifacts)', () => {
		const raw = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml');
		const status = raw['status'] as {actions: Array<Record<string, unknown>>};
		const templated = {...raw, status: {...status, actions: [{...status.actions[0], artifacts: {dump: {keyValue: {p: '{{ .Phases.x.Output.p }}'}}}}]}};
		const action = only(adaptActionSet(templated, lookup, []));
		expect(action.state).toBe('succeeded');
		expect(action.artifacts?.rendered).toBe(false);
	});

	test('a failed action\'s artifacts are not rendered, even without a template in them', () => {
		const raw = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml');
		const status = raw['status'] as {actions: Array<{deferPhase: Record<string, unknown>}>};
		const failed = {...raw, status: {...status, state: 'failed', actions: [{...status.actions[0], deferPhase: {...status.actions[0]!.deferPhase, state: 'failed'}}]}};
		const action = only(adaptActionSet(failed, lookup, []));
		expect(action.state).toBe('failed');
		expect(action.artifacts?.rendered).toBe(false);
	});

	test.each<[string, unknown, unknown]>([
		['output an array', ['a'], {k: 'v'}],
		['output a number', 7, 'artifacts as a string'],
		['output null', null, 42],
		['artifacts an array', {o: 1}, [{keyValue: {}}]],
	])('odd shapes never crash and are left out: %s', (_name, output, artifacts) => {
		const raw = {
			metadata: {name: 'odd', namespace: 'ns'},
			spec: {actions: [{name: 'a', blueprint: 'bp'}]},
			status: {state: 'complete', actions: [{name: 'a', artifacts, phases: [{name: 'p', state: 'complete', output}], deferPhase: {name: 'd', state: 'complete', output}}]},
		};
		const action = only(adaptActionSet(raw, () => undefined, []));
		const asMap = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);
		expect(action.children[0]?.output === undefined).toBe(!asMap(output));
		expect(action.artifacts === undefined).toBe(!asMap(artifacts));
		expect(action.artifacts?.values).toEqual(asMap(artifacts) ? artifacts : undefined);
	});

	test('hostile output and artifact strings are sanitized', () => {
		const raw = {
			metadata: {name: 'x', namespace: 'ns'},
			spec: {actions: [{name: 'a', blueprint: 'bp'}]},
			status: {
				state: 'complete',
				actions: [
					{
						name: 'a',
						artifacts: {'\u001B[31mart': {keyValue: {k: 'v\u001B]52;c;cGF5bG9hZA==\u0007\n2'}}},
						phases: [{name: 'p', state: 'complete', output: {'o\u202E': '\u009B2J\u200Bx'}}],
					},
				],
			},
		};
		const o = adaptActionSet(raw, () => undefined, []);
		expect(uncleanStrings(o)).toEqual([]);
		expect(only(o).artifacts?.values).toEqual({art: {keyValue: {k: 'v ⏎ 2'}}});
		expect(only(o).children[0]?.output?.values).toEqual({o: 'x'});
	});
});

describe('what the controller could not write (its Events say so; pkg/controller/controller.go)', () => {
	const ev = (time: string, reason: string, msg: string): PlanEvent => ({
		uid: `u-${time}-${msg.length}`,
		namespace: 'ns',
		involvedKind: 'ActionSet',
		involvedName: 'x',
		type: 'Warning',
		reason,
		message: msg,
		time,
		count: 1,
	});
	const dump = (n: string): string =>
		`v1alpha1.Phase{Name:"${n}", State:"pending", Output:map[string]interface {}(nil), Progress:v1alpha1.PhaseProgress{ProgressPercent:"", LastTransitionTime:<nil>}}`;
	const raw = (status: Record<string, unknown>): KubeObject => ({
		metadata: {name: 'x', namespace: 'ns', creationTimestamp: '2026-01-01T00:00:00Z'},
		spec: {actions: [{name: 'slow', blueprint: 'bp'}]},
		status,
	});
	const running = (runningPhase: string, defer = 'pending') => raw({
		state: 'running',
		progress: {runningPhase},
		actions: [{name: 'slow', phases: [{name: 'waitLong', state: 'running'}], deferPhase: {name: 'cleanup', state: defer}}],
	});

	test('"Failed to update phase": the phase says so, and its deferPhase may run after it', () => {
		const events = [
			ev('2026-01-01T00:00:05Z', 'ActionSetFailed Action: slow', `Failed to update phase: ${dump('waitLong')}: context canceled`),
			{...ev('2026-01-01T00:00:06Z', 'Started deferPhase', 'Executing deferPhase cleanup'), type: 'Normal'},
		];
		const [phase, defer] = only(adaptActionSet(running('cleanup'), () => undefined, events)).children;
		expect(phase).toMatchObject({status: 'running', message: 'the controller could not record its result: context canceled'});
		expect(defer).toMatchObject({state: 'running', statusReason: runningPerProgress});
		// Without the warning the phase still runs as far as anyone can tell: the deferPhase cannot be running yet.
		expect(only(adaptActionSet(running('cleanup'), () => undefined, events.slice(1))).children[1]?.state).toBe('pending');
	});

	test('"Failed to update defer phase": the deferPhase runs no more, whatever its start event says', () => {
		const status = {
			state: 'running',
			actions: [{name: 'slow', phases: [{name: 'waitLong', state: 'complete'}], deferPhase: {name: 'cleanup', state: 'pending'}}],
		};
		const started = {...ev('2026-01-01T00:00:06Z', 'Started deferPhase', 'Executing deferPhase cleanup'), type: 'Normal'};
		expect(only(adaptActionSet(raw(status), () => undefined, [started])).children[1]).toMatchObject({state: 'running'});
		const failed = ev('2026-01-01T00:00:07Z', 'ActionSetFailed Action: slow', `Failed to update defer phase: ${dump('cleanup')}: gone`);
		const defer = only(adaptActionSet(raw(status), () => undefined, [started, failed])).children[1];
		expect(defer).toMatchObject({state: 'pending', message: 'the controller could not record its result: gone'});
	});

	test('a failure outside the phases with no error in the object: the action says what the event said', () => {
		const status = {state: 'failed', actions: [{name: 'slow', phases: [{name: 'waitLong', state: 'complete'}]}]};
		const render = ev('2026-01-01T00:00:07Z', 'ActionSetFailed Action: slow', 'Failed to render output artifacts template: no entry for key "dump"');
		const o = adaptActionSet(raw(status), () => undefined, [render]);
		expect(only(o)).toMatchObject({state: 'failed', message: 'template: no entry for key "dump"'});
		expect(o.summary).toBe('slow failed: template: no entry for key "dump"');
		const blueprint = ev('2026-01-01T00:00:01Z', 'Error', 'Could not get blueprint: Failed to query blueprint: not found');
		expect(adaptActionSet(raw({state: 'failed'}), () => undefined, [blueprint])).toMatchObject({
			error: 'Failed to query blueprint: not found',
			summary: 'failed to start: Failed to query blueprint: not found',
		});
	});
});
