import {afterEach, describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {objectKey} from '../../source/model/plan-tree.js';
import {Workloads} from '../../source/state/workloads.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {renderApp} from '../helpers/render-app.js';
import {cleanupUi} from '../helpers/ui.js';
import {mysqlDeploy, mysqlDeployTimings, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

const mysql = mysqlDeploy();
const key = objectKey(mysql);

/** What the KUDO manager applied for deploy/deploy/init (a Job), and its crash-looping pod as a kubelet writes it. */
const job: KubeObject = {
	apiVersion: 'batch/v1',
	kind: 'Job',
	metadata: {
		name: 'init-job', namespace: 'default',
		labels: {heritage: 'kudo', 'kudo.dev/instance': 'mysql-instance'},
		annotations: {'kudo.dev/plan': 'deploy', 'kudo.dev/phase': 'deploy', 'kudo.dev/step': 'init'},
	},
	spec: {selector: {matchLabels: {'controller-uid': 'c1'}}},
	status: {active: 1, failed: 0},
};
const pod: KubeObject = {
	apiVersion: 'v1',
	kind: 'Pod',
	metadata: {name: 'init-job-7xk2p', namespace: 'default', labels: {'controller-uid': 'c1', heritage: 'kudo', 'kudo.dev/instance': 'mysql-instance'}},
	spec: {containers: [{name: 'init'}]},
	status: {phase: 'Running', containerStatuses: [{name: 'init', restartCount: 3, state: {waiting: {reason: 'CrashLoopBackOff'}}, lastState: {terminated: {exitCode: 1, reason: 'Error'}}}]},
};

function workloads(): Workloads {
	const w = new Workloads(new FakeClock());
	w.apply({type: 'upsert', resource: 'Job', object: job});
	w.apply({type: 'upsert', resource: 'Pod', object: pod});
	w.apply({type: 'log', namespace: 'default', pod: 'init-job-7xk2p', container: 'init', previous: true, text: 'connecting to mysql\nERROR 2003: cannot connect\n', reset: true});
	return w;
}

describe('the tree screen says why the selected step is stuck', () => {
	test('cause, the applied Job, the last log lines and the next command under the tree', async () => {
		const w = workloads();
		const app = renderApp({snapshot: {...snapshotOf({objects: [mysql], timings: new Map([[key, mysqlDeployTimings()]]), lastEventAt: t0}), workloads: w}, targets: [key], rows: 30, columns: 140});
		const frame = await app.waitForFrame(f => f.includes('next'));
		const lines = frame.split('\n').map(l => l.trimEnd());
		expect(lines).toContain('    why  pod init-job-7xk2p: CrashLoopBackOff: container init keeps crashing, 3 restarts, last exit code 1 (Error)');
		expect(lines).toContain('objects  job init-job running: 1 active, 0 failed');
		expect(lines).toContain('    log  init-job-7xk2p/init (previous), last 2 lines');
		expect(lines).toContain('         ERROR 2003: cannot connect');
		expect(lines).toContain('   next  kubectl logs -n default init-job-7xk2p -c init --previous  (y copies)');
		expect(lines.some(l => l.includes('(current)'))).toBe(false);
	});

	test('a crash loop\'s current log too, once it has lines, under the previous one', async () => {
		const w = workloads();
		w.apply({type: 'log', namespace: 'default', pod: 'init-job-7xk2p', container: 'init', previous: false, text: 'starting init\n', reset: true});
		const app = renderApp({snapshot: {...snapshotOf({objects: [mysql], timings: new Map([[key, mysqlDeployTimings()]]), lastEventAt: t0}), workloads: w}, targets: [key], rows: 30, columns: 140});
		const frame = await app.waitForFrame(f => f.includes('(current)'));
		const lines = frame.split('\n').map(l => l.trimEnd());
		const previousAt = lines.indexOf('    log  init-job-7xk2p/init (previous), last 2 lines');
		expect(previousAt, frame).toBeGreaterThan(0);
		expect(lines.slice(previousAt + 3, previousAt + 5)).toEqual(['    now  init-job-7xk2p/init (current), last 1 line', '         starting init']);
	});

	test('the nodes on screen ask for their namespace and the log their diagnosis points at; nothing once the tree is gone', async () => {
		const w = workloads();
		const app = renderApp({snapshot: {...snapshotOf({objects: [mysql], timings: new Map([[key, mysqlDeployTimings()]]), lastEventAt: t0}), workloads: w}, targets: [key], rows: 30});
		await app.waitForFrame(f => f.includes('next'));
		expect(w.interest()).toEqual([{kind: 'Instance', namespaces: ['default']}]);
		// The crashed instance's log (read once) and the running one's (followed).
		expect(w.wantedLogs()).toEqual([
			{namespace: 'default', pod: 'init-job-7xk2p', container: 'init', previous: true},
			{namespace: 'default', pod: 'init-job-7xk2p', container: 'init', previous: false},
		]);
		app.unmount();
		expect(w.interest()).toEqual([]);
		expect(w.wantedLogs()).toEqual([]);
	});
});

describe('the list screen says why a step on screen is stuck, and watches only what is on screen', () => {
	test('the stuck step\'s row carries its one-line cause; its namespace and log are wanted; none under the help overlay', async () => {
		const w = workloads();
		const app = renderApp({snapshot: {...snapshotOf({objects: [mysql], timings: new Map([[key, mysqlDeployTimings()]]), lastEventAt: t0}), workloads: w}, rows: 30, columns: 140});
		const frame = await app.waitForFrame(f => f.includes('CrashLoopBackOff'));
		const row = frame.split('\n').find(l => /\binit\b/.test(l) && l.includes('IN_PROGRESS'));
		expect(row, frame).toMatch(/IN_PROGRESS.*CrashLoopBackOff · pod init-job-7xk2p\s*$/);
		// Only the stuck step has one: the running plan and phase rows above it do not repeat it.
		expect(frame.split('\n').filter(l => l.includes('CrashLoopBackOff'))).toHaveLength(1);
		expect(w.interest()).toEqual([{kind: 'Instance', namespaces: ['default']}]);
		// The crashed instance's log (read once) and the running one's (followed).
		expect(w.wantedLogs()).toEqual([
			{namespace: 'default', pod: 'init-job-7xk2p', container: 'init', previous: true},
			{namespace: 'default', pod: 'init-job-7xk2p', container: 'init', previous: false},
		]);
		// Nothing of the tree on screen: nothing watched.
		await app.press('?');
		await app.waitForFrame(f => !f.includes('CrashLoopBackOff'));
		expect(w.interest()).toEqual([]);
		expect(w.wantedLogs()).toEqual([]);
	});

	test('a collapsed object shows no node: nothing is watched for it', async () => {
		const w = workloads();
		const app = renderApp({snapshot: {...snapshotOf({objects: [mysql], timings: new Map([[key, mysqlDeployTimings()]]), lastEventAt: t0}), workloads: w}, rows: 30, columns: 140});
		await app.waitForFrame(f => f.includes('CrashLoopBackOff'));
		await app.press('h');
		await app.waitForFrame(f => !f.includes('CrashLoopBackOff') && f.includes('mysql-instance'));
		expect(w.interest()).toEqual([]);
	});
});
