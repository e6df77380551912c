/** -o plain says why and what to run next under a failed node, once each; -o json nodes carry the diagnosis. */
import {describe, expect, it} from 'vitest';
import {runStream} from '../../source/cli/run-stream.js';
import type {KubeObject} from '../../source/core/kube-object.js';
import {Store} from '../../source/state/store.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';
import {kudoInitJob} from '../helpers/kudo-workloads.js';
import {waitUntil} from '../helpers/wait-until.js';

const key = 'Instance/default/mysql-instance';

type Raw = {status: {planStatus: Record<string, {status: string; phases: Array<{status: string; steps: Array<{name: string; status: string; message?: string}>}>}>}; spec: Record<string, unknown>};

/** mysql-instance with deploy's init step in `status`. */
function instance(status: string): KubeObject {
	const o = structuredClone(loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml')) as KubeObject & Raw;
	const plan = o.status.planStatus['deploy']!;
	plan.status = status;
	plan.phases[0]!.status = status;
	plan.phases[0]!.steps[1]!.status = status;
	if (status === 'FATAL_ERROR') {
		plan.phases[0]!.steps[1]!.message = 'job "init-job" has failed terminally';
		o.spec['planExecution'] = {};
	}

	return o;
}

const job = kudoInitJob({failed: 3, conditions: [{type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit'}]});
const pod: KubeObject = {
	apiVersion: 'v1',
	kind: 'Pod',
	metadata: {name: 'init-job-x1', namespace: 'default', labels: {'controller-uid': 'c1'}},
	spec: {containers: [{name: 'init'}]},
	status: {phase: 'Failed', containerStatuses: [{name: 'init', restartCount: 0, state: {terminated: {exitCode: 1, reason: 'Error'}}}]},
};

function setup() {
	const clock = new FakeClock(Date.parse('2021-06-10T09:15:00Z'));
	const store = new Store(clock);
	store.apply({type: 'connection', state: {status: 'live'}});
	store.apply({type: 'replace', resource: 'OperatorVersion', objects: loadFixture('kudo/operatorversion-mysql.yaml')});
	store.apply({type: 'replace', resource: 'Instance', objects: [instance('IN_PROGRESS')]});
	store.apply({type: 'synced'});
	let out = '';
	const write = async (text: string) => {
		out += text;
	};

	return {clock, store, write, output: () => out};
}

const base = {ascii: false, color: false, extendMs: 300_000};

/** Plain output watching (no --wait) the Instance; `stop` interrupts it. */
function watchPlain(t: ReturnType<typeof setup>): {readonly run: ReturnType<typeof runStream>; readonly stop: () => void} {
	let stop!: () => void;
	const interrupted = new Promise<void>(resolve => {
		stop = resolve;
	});
	const options = {...base, output: 'plain', wait: false, timeoutMs: 0} as const;
	const run = runStream({store: t.store, clock: t.clock, options, targets: [key], write: t.write, interrupted, timeZone: 'UTC'});
	return {run, stop};
}

describe('a stream explains a failed step', () => {
	it('plain: why and next under the failed node, each once; interest set for the running step meanwhile', async () => {
		const t = setup();
		// Watching on (no --wait): what comes after the failure is seen too.
		const {run, stop} = watchPlain(t);
		await waitUntil(() => t.output() !== '', 'the first line');
		expect(t.store.workloads.interest()).toEqual([{kind: 'Instance', namespaces: ['default']}]);
		t.store.apply({type: 'upsert', resource: 'Job', object: job});
		t.store.apply({type: 'upsert', resource: 'Pod', object: pod});
		t.clock.advance(3000);
		t.store.apply({type: 'upsert', resource: 'Instance', object: instance('FATAL_ERROR')});
		await waitUntil(() => t.output().includes('next:'), 'the next command');
		// More changes after the failure say nothing again.
		t.store.apply({type: 'upsert', resource: 'Pod', object: {...pod, metadata: {...pod.metadata, resourceVersion: '2'}}});
		t.store.apply({type: 'log', namespace: 'default', pod: 'init-job-x1', container: 'init', previous: false, text: 'more\n'});
		await Promise.resolve();
		await new Promise(resolve => setImmediate(resolve));
		stop();
		await run;
		const lines = t.output().split('\n');
		const why = lines.filter(l => l.includes('why:'));
		const next = lines.filter(l => l.includes('next:'));
		expect(why).toEqual(['09:15:03   why: pod init-job-x1: container init failed: exit code 1 (Error)']);
		expect(next).toEqual(['09:15:03   next: kubectl logs -n default init-job-x1 -c init']);
		// Under the failed node: right after its transition line.
		const failedAt = lines.findIndex(l => l.includes('init  IN_PROGRESS → FATAL_ERROR'));
		expect(failedAt).toBeGreaterThan(-1);
		expect(lines.indexOf(why[0]!)).toBeGreaterThan(failedAt);
	});

	it('plain: the pods seen after the step failed still say why (the object itself does not change again)', async () => {
		const t = setup();
		const {run, stop} = watchPlain(t);
		await waitUntil(() => t.output() !== '', 'the first line');
		t.clock.advance(3000);
		t.store.apply({type: 'upsert', resource: 'Instance', object: instance('FATAL_ERROR')});
		await waitUntil(() => t.output().includes('FATAL_ERROR'), 'the failure');
		t.clock.advance(1000);
		t.store.apply({type: 'upsert', resource: 'Job', object: job});
		t.store.apply({type: 'upsert', resource: 'Pod', object: pod});
		await waitUntil(() => t.output().includes('why: pod init-job-x1'), 'why, from the pod seen later');
		stop();
		await run;
		expect(t.output().split('\n').filter(l => l.includes('why:'))).toEqual(['09:15:04   why: pod init-job-x1: container init failed: exit code 1 (Error)']);
	});

	it('json: the failed step carries cause, resources, pods and next', async () => {
		const t = setup();
		t.store.apply({type: 'upsert', resource: 'Job', object: job});
		t.store.apply({type: 'upsert', resource: 'Pod', object: pod});
		t.store.apply({type: 'log', namespace: 'default', pod: 'init-job-x1', container: 'init', previous: false, text: 'Error: cannot reach db\n'});
		const options = {...base, output: 'json', wait: true, timeoutMs: 0} as const;
		const run = runStream({store: t.store, clock: t.clock, options, targets: [key], write: t.write, interrupted: new Promise(() => {}), timeZone: 'UTC'});
		await waitUntil(() => t.output() !== '', 'the first line');
		t.store.apply({type: 'upsert', resource: 'Instance', object: instance('FATAL_ERROR')});
		await run;
		const snapshots = t.output().trim().split('\n').map(l => JSON.parse(l) as {type: string; objects?: Array<{tree: any[]}>}).filter(l => l.type === 'snapshot');
		const step = snapshots.at(-1)!.objects![0]!.tree.find(n => n.name === 'deploy').children[0].children.find((n: {name: string}) => n.name === 'init');
		expect(step).toMatchObject({
			state: 'failed',
			cause: 'pod init-job-x1: container init failed: exit code 1 (Error)',
			resources: [{kind: 'Job', name: 'init-job', healthy: false, terminal: true, health: 'failed (BackoffLimitExceeded): Job has reached the specified backoff limit'}],
			pods: [{name: 'init-job-x1', reason: 'exited', restarts: 0, container: 'init'}],
			logTail: {pod: 'init-job-x1', container: 'init', previous: false, lines: ['Error: cannot reach db']},
			next: 'kubectl logs -n default init-job-x1 -c init',
		});
	});

	it('plain: a failed phase and its failed deferPhase share one kanctl command: said once', async () => {
		const clock = new FakeClock(Date.parse('2021-06-10T09:15:00Z'));
		const store = new Store(clock);
		store.apply({type: 'connection', state: {status: 'live'}});
		store.apply({type: 'replace', resource: 'Blueprint', objects: loadFixture('kanister/blueprint-postgres-start-stop-defer.yaml')});
		store.apply({type: 'replace', resource: 'ActionSet', objects: loadFixture('kanister/actionset-postgres-backup-failed-defer-failed.yaml')});
		store.apply({type: 'synced'});
		let out = '';
		let stop!: () => void;
		const interrupted = new Promise<void>(resolve => {
			stop = resolve;
		});
		const options = {...base, output: 'plain', wait: false, timeoutMs: 0} as const;
		const write = async (text: string) => {
			out += text;
		};

		const run = runStream({store, clock, options, targets: ['ActionSet/kanister/backup-glptq'], write, interrupted, timeZone: 'UTC'});
		await waitUntil(() => out.includes('next:'), 'the next command');
		clock.advance(1000);
		store.apply({type: 'log', namespace: 'kanister', pod: 'p', container: 'c', previous: false, text: 'x\n'});
		await new Promise(resolve => setImmediate(resolve));
		stop();
		await run;
		const said = out.split('\n').filter(l => l.includes('next: '));
		expect(said, out).toEqual(['09:15:00   next: kanctl create actionset --action backup --from backup-glptq --namespace kanister']);
	});
});
