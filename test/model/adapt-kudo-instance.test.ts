import {describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {adaptInstance, queuedNote, queuedStatus} from '../../source/model/adapt-kudo-instance.js';
import type {KudoWaitFacts, PlanNode, PlanObject} from '../../source/model/plan-tree.js';
import {fixtureText, loadFixtureObject} from '../helpers/fixtures.js';
import {uncleanStrings} from '../helpers/clean-strings.js';

function adapt(instanceFile: string, ovFile?: string): PlanObject {
	return adaptInstance(loadFixtureObject(`kudo/${instanceFile}`), ovFile ? loadFixtureObject(`kudo/${ovFile}`) : undefined);
}

function plan(o: PlanObject, name: string): PlanNode {
	const p = o.tree.find(n => n.name === name);
	if (!p) {
		throw new Error(`no plan ${name} in ${o.tree.map(n => n.name).join(', ')}`);
	}

	return p;
}

/** `name STATUS` lines of a plan's phases and steps, indented: compact to compare. */
function outline(node: PlanNode, depth = 0): string[] {
	const self = `${'  '.repeat(depth)}${node.kind} ${node.name}${node.strategy ? ` (${node.strategy})` : ''} ${node.status}/${node.state}`;
	return [self, ...node.children.flatMap(c => outline(c, depth + 1))];
}

function walk(nodes: readonly PlanNode[]): PlanNode[] {
	return nodes.flatMap(n => [n, ...walk(n.children)]);
}

function kudoFacts(o: PlanObject): KudoWaitFacts {
	if (o.wait.kind !== 'Instance') {
		throw new Error('not an Instance');
	}

	return o.wait;
}

describe('examples', () => {
	test('mysql deploy in progress', () => {
		const o = adapt('instance-mysql-deploy-in-progress.yaml', 'operatorversion-mysql.yaml');
		expect(o).toMatchObject({
			kind: 'Instance',
			namespace: 'default',
			name: 'mysql-instance',
			uid: '5f0c1a2e-6d0e-4c1b-9a55-1f0f1c8e2b71',
			resourceVersion: '184213',
			createdAt: '2021-06-10T09:14:02Z',
			version: 'mysql-5.7-0.3.0',
			active: 'deploy',
			outcome: 'running',
			state: 'running',
			status: 'IN_PROGRESS',
			steps: {done: 1, total: 3},
			percent: 33,
			updatedAt: '2021-06-10T09:14:41Z',
			summary: 'deploy in progress: phase deploy, step init (1/3 steps)',
		});
		expect(o.tree.map(p => [p.name, p.active])).toEqual([
			['backup', false],
			['deploy', true],
			['restore', false],
		]);
		expect(outline(plan(o, 'deploy'))).toEqual([
			'plan deploy (serial) IN_PROGRESS/running',
			'  phase deploy (serial) IN_PROGRESS/running',
			'    step deploy COMPLETE/succeeded',
			'    step init IN_PROGRESS/running',
			'    step cleanup PENDING/pending',
		]);
		expect(plan(o, 'deploy').updatedAt).toBe('2021-06-10T09:14:41Z');
		expect(outline(plan(o, 'backup'))[0]).toBe('plan backup (serial) NEVER_RUN/inactive');
		expect(plan(o, 'backup').note).toBeUndefined();
		expect(kudoFacts(o)).toEqual({
			kind: 'Instance',
			scheduledPlan: 'deploy',
			scheduledUid: '0b6d4c8e-1c1e-4f7e-8b52-3f7d2f9a6a10',
			planUids: {backup: '', deploy: '0b6d4c8e-1c1e-4f7e-8b52-3f7d2f9a6a10', restore: ''},
			planStatuses: {backup: 'NEVER_RUN', deploy: 'IN_PROGRESS', restore: 'NEVER_RUN'},
			activePlan: 'deploy',
			activeStatus: 'IN_PROGRESS',
			queued: false,
		});
	});

	test('mysql backup complete while idle: the latest plan is active, the others keep their last run', () => {
		const o = adapt('instance-mysql-backup-complete.yaml', 'operatorversion-mysql.yaml');
		expect(o).toMatchObject({active: 'backup', outcome: 'succeeded', state: 'succeeded', status: 'COMPLETE', summary: 'backup completed', steps: {done: 3, total: 3}, percent: 100});
		const deploy = plan(o, 'deploy');
		expect(deploy).toMatchObject({status: 'COMPLETE', state: 'succeeded', active: false, note: 'last run', updatedAt: '2021-06-10T09:16:12Z'});
		expect(plan(o, 'restore')).toMatchObject({status: 'NEVER_RUN', state: 'inactive', active: false});
		expect(kudoFacts(o)).toMatchObject({scheduledPlan: '', scheduledUid: '', activePlan: 'backup', activeStatus: 'COMPLETE', queued: false});
	});

	test('backup scheduled but not picked up: queued, the tree still shows the previous run', () => {
		const o = adapt('instance-mysql-backup-scheduled-not-picked-up.yaml', 'operatorversion-mysql.yaml');
		expect(o).toMatchObject({
			active: 'backup',
			outcome: 'running',
			state: 'pending',
			status: queuedStatus,
			summary: 'backup triggered, waiting for the controller to start it',
			steps: {done: 0, total: 3},
			percent: 0,
		});
		const backup = plan(o, 'backup');
		expect(backup).toMatchObject({status: 'QUEUED', state: 'pending', note: queuedNote, active: true, updatedAt: '2021-06-10T10:02:37Z'});
		expect(backup.children[0]?.children.map(s => s.status)).toEqual(['COMPLETE', 'COMPLETE', 'COMPLETE']);
		expect(kudoFacts(o)).toMatchObject({scheduledPlan: 'backup', scheduledUid: 'c3f2b7de-58a1-4a53-9a3e-0e5d6b7f8a91', activeStatus: 'COMPLETE', queued: true});
	});

	test('mysql restore FATAL_ERROR: the step carries the message', () => {
		const o = adapt('instance-mysql-restore-fatal-error.yaml', 'operatorversion-mysql.yaml');
		expect(o).toMatchObject({active: 'restore', outcome: 'failed', state: 'failed', status: 'FATAL_ERROR', steps: {done: 0, total: 2}});
		expect(o.summary).toBe(
			'restore failed in phase restore, step restore: Error during execution: fatal error: default/mysql-instance failed in restore.restore.restore.restore: object default/restore-job is NOT ' +
			'healthy: fatal error: HealthUtil: job "restore-job" has failed terminally: Job has reached the specified backoff limit',
		);
		expect(outline(plan(o, 'restore'))).toEqual([
			'plan restore (serial) FATAL_ERROR/failed',
			'  phase restore (serial) FATAL_ERROR/failed',
			'    step restore FATAL_ERROR/failed',
			'    step cleanup PENDING/stopped',
		]);
		expect(plan(o, 'backup')).toMatchObject({status: 'COMPLETE', active: false, note: 'last run', updatedAt: '2021-06-10T10:02:37Z'});
	});

	test('kafka deploy with a transient ERROR: retrying, not failed', () => {
		const o = adapt('instance-kafka-deploy-transient-error.yaml', 'operatorversion-kafka.yaml');
		expect(o).toMatchObject({active: 'deploy', outcome: 'running', state: 'retrying', status: 'IN_PROGRESS', steps: {done: 2, total: 7}, percent: 28});
		expect(o.summary).toMatch(/^deploy: step service retrying \(2\/7 steps\): A transient error when executing task deploy\.deploy-kafka\.service\.service\. Will retry\./);
		expect(outline(plan(o, 'deploy'))).toEqual([
			'plan deploy (serial) IN_PROGRESS/running',
			'  phase deploy-kafka (serial) IN_PROGRESS/running',
			'    step generate-tls-certificates COMPLETE/succeeded',
			'    step configuration COMPLETE/succeeded',
			'    step service ERROR/retrying',
			'    step app PENDING/pending',
			'  phase addons (parallel) PENDING/pending',
			'    step monitoring PENDING/pending',
			'    step mirror PENDING/pending',
			'    step load PENDING/pending',
		]);
		expect(o.tree).toHaveLength(9);
	});

	test('zookeeper deploy complete: phase strategies come from the same plan', () => {
		const o = adapt('instance-zookeeper-deploy-complete.yaml', 'operatorversion-zookeeper.yaml');
		expect(o.tree.map(p => p.name)).toEqual(['deploy', 'not-allowed', 'validation']);
		expect(o).toMatchObject({outcome: 'succeeded', summary: 'deploy completed', version: 'zookeeper-3.6.2-0.3.3'});
		expect(plan(o, 'deploy').children.map(p => [p.name, p.strategy])).toEqual([
			['zookeeper', 'parallel'],
			['validation', 'serial'],
		]);
	});

	test('without the OperatorVersion the tree comes from the status alone (no strategies)', () => {
		const o = adapt('instance-mysql-deploy-in-progress.yaml');
		expect(o.tree.map(p => p.name)).toEqual(['backup', 'deploy', 'restore']);
		expect(walk(o.tree).every(n => n.strategy === undefined)).toBe(true);
		expect(o.summary).toBe('deploy in progress: phase deploy, step init (1/3 steps)');
	});
});

describe('same picture as `kubectl kudo plan status`', () => {
	const cases: Array<[string, string, string]> = [
		['instance-mysql-deploy-in-progress.yaml', 'operatorversion-mysql.yaml', 'plan-status-mysql-deploy-in-progress.txt'],
		['instance-mysql-backup-complete.yaml', 'operatorversion-mysql.yaml', 'plan-status-mysql-backup-complete.txt'],
		['instance-mysql-backup-scheduled-not-picked-up.yaml', 'operatorversion-mysql.yaml', 'plan-status-mysql-backup-scheduled-not-picked-up.txt'],
		['instance-mysql-restore-fatal-error.yaml', 'operatorversion-mysql.yaml', 'plan-status-mysql-restore-fatal-error.txt'],
		['instance-kafka-deploy-transient-error.yaml', 'operatorversion-kafka.yaml', 'plan-status-kafka-deploy-transient-error.txt'],
		['instance-zookeeper-deploy-complete.yaml', 'operatorversion-zookeeper.yaml', 'plan-status-zookeeper-deploy-complete.txt'],
	];

	test.each(cases)('%s', (instanceFile, ovFile, cliFile) => {
		const o = adapt(instanceFile, ovFile);
		const text = fixtureText(`kudo/${cliFile}`);
		const root = /Operator-Version: "([^"]*)" Active-Plan: "([^"]*)"/.exec(text);
		expect([o.version, o.active]).toEqual([root?.[1], root?.[2]]);
		// The CLI prints the last executed plan from status and every other plan as NOT ACTIVE.
		const expected = [...text.matchAll(/(Plan|Phase|Step) (\S+)(?: \((\S*) strategy\))? \[([A-Z_ ]+)\]/g)].map(
			m => `${m[1]!.toLowerCase()} ${m[2]}${m[3] ? ` (${m[3]})` : ''} ${m[4]}`,
		);
		const facts = kudoFacts(o);
		const ours = o.tree.flatMap(p => {
			const label = (n: PlanNode): string => `${n.kind} ${n.name}${n.strategy ? ` (${n.strategy})` : ''}`;
			const status = (n: PlanNode): string => (p.active ? (n.status === queuedStatus ? facts.activeStatus! : n.status) : 'NOT ACTIVE');
			return walk([p]).map(n => `${label(n)} ${status(n)}`);
		});
		expect(ours).toEqual(expected);
	});
});

describe('the active plan', () => {
	const instance = (planStatus: Record<string, unknown>, planExecution: unknown = {}): KubeObject => ({
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: 'i', namespace: 'n'},
		spec: {planExecution},
		status: {planStatus},
	});

	test('a running plan wins over a later-updated finished one (old controllers had no planExecution)', () => {
		const o = adaptInstance(
			instance({
				backup: {status: 'COMPLETE', lastUpdatedTimestamp: '2021-06-10T12:00:00Z'},
				deploy: {status: 'IN_PROGRESS', lastUpdatedTimestamp: '2021-06-10T11:00:00Z'},
			}),
		);
		expect(o.active).toBe('deploy');
		expect(o.tree.find(p => p.name === 'deploy')?.active).toBe(true);
	});

	test('among finished plans, the latest lastUpdatedTimestamp', () => {
		const o = adaptInstance(
			instance({
				a: {status: 'FATAL_ERROR', lastUpdatedTimestamp: '2021-06-10T12:00:00Z'},
				b: {status: 'COMPLETE', lastUpdatedTimestamp: '2021-06-10T11:00:00Z'},
				c: {status: 'NEVER_RUN'},
			}),
		);
		expect(o).toMatchObject({active: 'a', outcome: 'failed', summary: 'a failed'});
	});

	test('nothing ever ran', () => {
		const o = adaptInstance(instance({deploy: {status: 'NEVER_RUN'}, backup: {status: 'NEVER_RUN'}}));
		expect(o).toMatchObject({outcome: 'unknown', state: 'inactive', status: 'NEVER_RUN', summary: 'no plan has run yet'});
		expect(o.active).toBeUndefined();
		expect(o.steps).toBeUndefined();
		expect(o.tree.every(p => p.active === false)).toBe(true);
	});

	test('a plan error (not a step error) retries with the plan message', () => {
		const o = adaptInstance(
			instance(
				{deploy: {status: 'ERROR', message: 'missing phase status', uid: 'u1', phases: [{name: 'p', status: 'IN_PROGRESS', steps: [{name: 's', status: 'IN_PROGRESS'}]}]}},
				{planName: 'deploy', uid: 'u1'},
			),
		);
		expect(o).toMatchObject({outcome: 'running', state: 'retrying', summary: 'deploy retrying (0/1 steps): missing phase status'});
	});

	test('scheduled and taken by the controller but still NEVER_RUN: waiting to start', () => {
		const o = adaptInstance(instance({deploy: {status: 'NEVER_RUN', uid: 'u1'}}, {planName: 'deploy', uid: 'u1'}));
		expect(o).toMatchObject({outcome: 'running', state: 'pending', summary: 'deploy scheduled, waiting to start'});
	});

	test('PENDING and between-steps summaries', () => {
		const pending = adaptInstance(instance({d: {status: 'PENDING', uid: 'u', phases: [{name: 'p', status: 'PENDING', steps: [{name: 's', status: 'PENDING'}]}]}}, {planName: 'd', uid: 'u'}));
		expect(pending.summary).toBe('d pending (0/1 steps)');
		const between = adaptInstance(
			instance(
				{
					d: {
						status: 'IN_PROGRESS',
						uid: 'u',
						phases: [
							{name: 'one', status: 'COMPLETE', steps: [{name: 'a', status: 'COMPLETE'}]},
							{name: 'two', status: 'PENDING', steps: [{name: 'b', status: 'PENDING'}]},
						],
					},
				},
				{planName: 'd', uid: 'u'},
			),
		);
		expect(between.summary).toBe('d in progress: phase two (1/2 steps)');
		const parallel = adaptInstance(
			instance(
				{d: {status: 'IN_PROGRESS', uid: 'u', phases: [{name: 'p', status: 'IN_PROGRESS', steps: [{name: 'a', status: 'IN_PROGRESS'}, {name: 'b', status: 'IN_PROGRESS'}]}]}},
				{planName: 'd', uid: 'u'},
			),
		);
		expect(parallel.summary).toBe('d in progress: phase p, step a (+1 more) (0/2 steps)');
	});
});

describe('edge cases and hostile input', () => {
	test('a brand-new Instance: the scheduled plan has no status entry yet', () => {
		const withOv = adapt('instance-new-queued.yaml', 'operatorversion-mysql.yaml');
		expect(withOv).toMatchObject({active: 'deploy', outcome: 'running', status: 'QUEUED', state: 'pending', steps: {done: 0, total: 3}});
		expect(outline(plan(withOv, 'deploy'))).toEqual([
			'plan deploy (serial) QUEUED/pending',
			'  phase deploy (serial) NEVER_RUN/inactive',
			'    step deploy NEVER_RUN/inactive',
			'    step init NEVER_RUN/inactive',
			'    step cleanup NEVER_RUN/inactive',
		]);
		expect(kudoFacts(withOv)).toMatchObject({queued: true, activeStatus: 'NEVER_RUN', planUids: {}});
		const alone = adapt('instance-new-queued.yaml');
		expect(alone.tree.map(p => [p.name, p.status, p.children.length])).toEqual([['deploy', 'QUEUED', 0]]);
		expect(alone.steps).toBeUndefined();
	});

	test('missing spec and status', () => {
		const o = adapt('instance-missing-status.yaml');
		expect(o).toMatchObject({name: 'bare-instance', namespace: 'default', outcome: 'unknown', summary: 'no plan has run yet', tree: []});
		expect(kudoFacts(o)).toEqual({kind: 'Instance', scheduledPlan: '', scheduledUid: '', planUids: {}, planStatuses: {}, queued: false});
		const withOv = adaptInstance(loadFixtureObject('kudo/instance-missing-status.yaml'), loadFixtureObject('kudo/operatorversion-mysql.yaml'));
		expect(withOv.tree.map(p => `${p.name} ${p.status}`)).toEqual(['backup NEVER_RUN', 'deploy NEVER_RUN', 'restore NEVER_RUN']);
		expect(() => adaptInstance({})).not.toThrow();
		expect(adaptInstance({}).name).toBe('');
		expect(() => adaptInstance({spec: null, status: 'x', metadata: [] as unknown as KubeObject['metadata']})).not.toThrow();
	});

	test('unknown status words stay visible with state unknown', () => {
		const o = adapt('instance-unknown-status.yaml');
		expect(o).toMatchObject({active: 'deploy', outcome: 'unknown', state: 'unknown', status: 'SUSPENDED', summary: 'deploy has unknown status SUSPENDED', version: '42'});
		expect(outline(plan(o, 'deploy'))).toEqual([
			'plan deploy SUSPENDED/unknown',
			'  phase deploy SUSPENDED/unknown',
			'    step deploy COMPLETE/succeeded',
			'    step init /unknown',
			'    step 7 /unknown',
		]);
		expect(plan(o, 'backup')).toMatchObject({status: '', state: 'unknown', children: []});
		expect(plan(o, 'restore')).toMatchObject({status: 'COMPLETE', note: 'previous run', children: []});
		expect(plan(o, 'restore').updatedAt).toBeUndefined();
	});

	test('escape sequences, bidi and zero-width characters never get through', () => {
		const o = adapt('instance-hostile-escapes.yaml');
		expect(uncleanStrings(o)).toEqual([]);
		expect(JSON.stringify(o)).not.toMatch(/\\u001b|\\u009b|\\u202e/i);
		expect(o).toMatchObject({name: 'evilinstance', namespace: 'default', uid: 'uid', version: 'ov-1.0', active: 'deploy', status: 'IN_PROGRESS'});
		expect(o.tree.map(p => p.name)).toEqual(['deploy', 'other']);
		const step = plan(o, 'deploy').children[0]!.children[0]!;
		expect(step.name).toBe('stepFAKE OK');
		expect(step.message).toBe('retry click here gone ⏎ second line');
		expect(plan(o, 'deploy').children[0]!.name).toBe('phase');
		expect(plan(o, 'deploy').children[0]!.children[1]!.name).toBe('hidden');
		expect(o.summary).toBe('deploy: step stepFAKE OK retrying (0/2 steps): retry click here gone ⏎ second line');
	});

	test('a 300-step plan adapts in full', () => {
		const o = adapt('instance-300-steps.yaml');
		expect(o).toMatchObject({steps: {done: 150, total: 300}, percent: 50, summary: 'deploy in progress: phase phase-2, step step-151 (150/300 steps)'});
		const ids = walk(o.tree).map(n => n.id);
		expect(ids).toHaveLength(304);
		expect(new Set(ids).size).toBe(ids.length);
	});

	test('node ids: path of kind:name segments, "/" escaped, repeated names numbered', () => {
		const o = adaptInstance({
			kind: 'Instance',
			metadata: {name: 'i', namespace: 'n'},
			status: {
				planStatus: {
					'a/b': {
						status: 'COMPLETE',
						phases: [{name: 'p', status: 'COMPLETE', steps: [{name: 's', status: 'COMPLETE'}, {name: 's', status: 'COMPLETE'}, {name: '50%#x', status: 'COMPLETE'}]}],
					},
				},
			},
		});
		expect(walk(o.tree).map(n => n.id)).toEqual([
			'plan:a%2Fb',
			'plan:a%2Fb/phase:p',
			'plan:a%2Fb/phase:p/step:s',
			'plan:a%2Fb/phase:p/step:s#2',
			'plan:a%2Fb/phase:p/step:50%25%23x',
		]);
	});

	test('an OperatorVersion of another name is ignored', () => {
		const o = adaptInstance(loadFixtureObject('kudo/instance-zookeeper-deploy-complete.yaml'), loadFixtureObject('kudo/operatorversion-mysql.yaml'));
		expect(o.tree.map(p => p.name)).toEqual(['deploy', 'not-allowed', 'validation']);
	});

	test('plans only the OperatorVersion knows are NEVER_RUN with its phases and steps', () => {
		const inst = loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml');
		const status = inst['status'] as {planStatus: Record<string, unknown>};
		const trimmed = {...inst, status: {planStatus: {deploy: status.planStatus['deploy']}}};
		const o = adaptInstance(trimmed, loadFixtureObject('kudo/operatorversion-mysql.yaml'));
		expect(outline(plan(o, 'restore'))).toEqual([
			'plan restore (serial) NEVER_RUN/inactive',
			'  phase restore (serial) NEVER_RUN/inactive',
			'    step restore NEVER_RUN/inactive',
			'    step cleanup NEVER_RUN/inactive',
		]);
	});
});
