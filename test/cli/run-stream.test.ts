import {describe, expect, it} from 'vitest';
import {runStream} from '../../source/cli/run-stream.js';
import type {KubeObject} from '../../source/core/kube-object.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store} from '../../source/state/store.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';
import {waitUntil} from '../helpers/wait-until.js';

const key = 'Instance/default/mysql-instance';

type Raw = {
	status: {planStatus: Record<string, {status: string; lastUpdatedTimestamp?: string; phases: Array<{status: string; steps: Array<{name: string; status: string}>}>}>};
	spec: Record<string, unknown>;
};

/** The deploying mysql-instance with the deploy plan moved on: `steps` are the statuses of deploy, init, cleanup. */
function deploy(steps: readonly [string, string, string], plan: string): KubeObject {
	const o = structuredClone(loadFixtureObject('kudo/instance-mysql-deploy-in-progress.yaml')) as KubeObject & Raw;
	const p = o.status.planStatus['deploy']!;
	p.status = plan;
	p.phases[0]!.status = plan;
	p.phases[0]!.steps.forEach((s, i) => {
		s.status = steps[i]!;
	});
	if (plan === 'COMPLETE') {
		o.spec['planExecution'] = {};
	}

	return o;
}

const base = {ascii: false, color: false, extendMs: 300_000};

function setup() {
	const clock = new FakeClock(Date.parse('2021-06-10T09:15:00Z'));
	const store = new Store(clock);
	store.apply({type: 'connection', state: {status: 'live'}});
	store.apply({type: 'replace', resource: 'OperatorVersion', objects: loadFixture('kudo/operatorversion-mysql.yaml')});
	store.apply({type: 'replace', resource: 'Instance', objects: [deploy(['COMPLETE', 'IN_PROGRESS', 'PENDING'], 'IN_PROGRESS')]});
	store.apply({type: 'synced'});
	let out = '';
	let stop!: () => void;
	const interrupted = new Promise<void>(resolve => {
		stop = resolve;
	});
	const write = async (text: string) => {
		out += text;
	};

	/** runStream over this store and clock (times in UTC), writing where `output()` reads. */
	const start = (options: Omit<Parameters<typeof runStream>[0]['options'], keyof typeof base>, targets: string[] = [key]) =>
		runStream({store, clock, options: {...base, ...options}, targets, write, interrupted, timeZone: 'UTC'});

	return {clock, store, write, interrupted, stop, start, output: () => out};
}

describe('runStream, plain', () => {
	it('logs where things stand, each status change, then the closing line and the final tree', async () => {
		const t = setup();
		const run = t.start({output: 'plain', wait: true, timeoutMs: 0});
		await waitUntil(() => t.output() !== '', 'the first line');
		t.clock.advance(41_000);
		t.store.apply({type: 'upsert', resource: 'Instance', object: deploy(['COMPLETE', 'COMPLETE', 'IN_PROGRESS'], 'IN_PROGRESS')});
		t.clock.advance(5000);
		t.store.apply({type: 'upsert', resource: 'Instance', object: deploy(['COMPLETE', 'COMPLETE', 'COMPLETE'], 'COMPLETE')});
		const result = await run;
		expect(result.exitCode).toBe(0);
		const [zone, ...lines] = t.output().split('\n');
		expect(zone).toBe('times UTC');
		expect(lines[0]).toBe('09:15:00 default/mysql-instance  IN_PROGRESS  deploy in progress: phase deploy, step init (1/3 steps)');
		// Running when first listed: only lower bounds (≥); cleanup was seen starting: its true 5s.
		expect(lines.slice(1, 7)).toEqual([
			'09:15:41 default/mysql-instance deploy › deploy › init  IN_PROGRESS → COMPLETE (≥41s)',
			'09:15:41 default/mysql-instance deploy › deploy › cleanup  PENDING → IN_PROGRESS',
			'09:15:46 default/mysql-instance  IN_PROGRESS → COMPLETE (≥46s)',
			'09:15:46 default/mysql-instance deploy  IN_PROGRESS → COMPLETE (≥46s)',
			'09:15:46 default/mysql-instance deploy › deploy  IN_PROGRESS → COMPLETE (≥46s)',
			'09:15:46 default/mysql-instance deploy › deploy › cleanup  IN_PROGRESS → COMPLETE (5s)',
		]);
		expect(lines[7]).toMatch(/^09:15:46 default\/mysql-instance deploy {2}COMPLETE in ≥\d+/);
		expect(lines[8]).toBe('');
		expect(lines[9]).toBe('Instance default/mysql-instance · mysql-5.7-0.3.0 · active plan deploy · times UTC');
		expect(t.output()).toMatch(/✔ deploy completed\n$/);
		expect(t.output()).not.toContain('\u001B');
	});

	it('logs each status change once, whatever comes after it', async () => {
		const t = setup();
		const run = t.start({output: 'plain', wait: false, timeoutMs: 0});
		await waitUntil(() => t.output() !== '', 'the first line');
		t.clock.advance(41_000);
		const moved = deploy(['COMPLETE', 'COMPLETE', 'IN_PROGRESS'], 'IN_PROGRESS');
		t.store.apply({type: 'upsert', resource: 'Instance', object: moved});
		await waitUntil(() => t.output().includes('cleanup  PENDING → IN_PROGRESS'), 'the first change');
		// Events that bring no status change (a new resourceVersion, a label) are reports with nothing new.
		for (const version of ['2', '3']) {
			t.store.apply({type: 'upsert', resource: 'Instance', object: {...moved, metadata: {...moved.metadata, resourceVersion: version, labels: {v: version}}}});
			await new Promise(resolve => setImmediate(resolve));
		}

		t.clock.advance(5000);
		t.store.apply({type: 'upsert', resource: 'Instance', object: deploy(['COMPLETE', 'COMPLETE', 'COMPLETE'], 'COMPLETE')});
		await waitUntil(() => t.output().includes('cleanup  IN_PROGRESS → COMPLETE'), 'the second change');
		t.stop();
		await run;
		const changes = t.output().split('\n').filter(line => line.includes(' → '));
		expect(changes).toEqual([...new Set(changes)]);
		expect(changes.filter(line => line.includes('cleanup  PENDING → IN_PROGRESS'))).toHaveLength(1);
	});

	it('exits 3 at once when the timeout is reached, with the state at that moment', async () => {
		const t = setup();
		const run = t.start({output: 'plain', wait: true, timeoutMs: 10_000});
		await waitUntil(() => t.output() !== '', 'the first line');
		t.clock.advance(10_000);
		const result = await run;
		expect(result.exitCode).toBe(3);
		expect(result.message).toMatch(/^timed out after 10s/);
		expect(t.output()).toContain('│     ├─ ● init');
	});

	it('watches until interrupted without --wait: 130', async () => {
		const t = setup();
		const run = t.start({output: 'plain', wait: false, timeoutMs: 0}, []);
		await waitUntil(() => t.output() !== '', 'the first line');
		t.stop();
		expect((await run).exitCode).toBe(130);
		expect(t.output()).toContain('● deploy in progress');
	});

	it('ends with the source\'s fatal error', async () => {
		const t = setup();
		const run = t.start({output: 'plain', wait: false, timeoutMs: 0}, []);
		await waitUntil(() => t.output() !== '', 'the first line');
		t.store.apply({type: 'fatal', message: 'forbidden: cannot watch instances.kudo.dev', exitCode: 4});
		expect(await run).toEqual({exitCode: 4, message: 'forbidden: cannot watch instances.kudo.dev'});
	});
});

describe('runStream, json', () => {
	it('writes NDJSON: snapshot, transitions, final snapshot, result', async () => {
		const t = setup();
		const run = t.start({output: 'json', wait: true, timeoutMs: 0});
		await waitUntil(() => t.output() !== '', 'the first snapshot');
		t.clock.advance(3000);
		t.store.apply({type: 'upsert', resource: 'Instance', object: deploy(['COMPLETE', 'COMPLETE', 'COMPLETE'], 'COMPLETE')});
		expect((await run).exitCode).toBe(0);
		const lines = t.output().trimEnd().split('\n').map(l => JSON.parse(l) as {type: string; path?: string[]; exitCode?: number; objects?: unknown[]});
		expect(lines.map(l => l.type)).toEqual(['snapshot', 'transition', 'transition', 'transition', 'transition', 'transition', 'snapshot', 'result']);
		expect(lines[0]!.objects).toHaveLength(1);
		expect(lines.at(-1)).toMatchObject({type: 'result', exitCode: 0});
	});
});

describe('runStream, connection', () => {
	it('says in the plain log when the watch was lost and when it came back', async () => {
		const t = setup();
		const run = t.start({output: 'plain', wait: true, timeoutMs: 0});
		await waitUntil(() => t.output() !== '', 'the first line');
		// The store notifies once per batch; real reconnects take seconds, so each state is seen.
		for (const state of [{status: 'reconnecting', attempt: 1, lastError: 'connection refused'}, {status: 'reconnecting', attempt: 2, lastError: 'connection refused'}, {status: 'live'}] as const) {
			t.store.apply({type: 'connection', state});
			await Promise.resolve();
		}

		await waitUntil(() => t.output().includes('connection restored'), 'the restored line');
		t.store.apply({type: 'upsert', resource: 'Instance', object: deploy(['COMPLETE', 'COMPLETE', 'COMPLETE'], 'COMPLETE')});
		expect((await run).exitCode).toBe(0);
		expect(t.output()).toContain('09:15:00 connection lost: connection refused (reconnecting)\n09:15:00 connection restored\n');
		expect(t.output().match(/connection lost/g)).toHaveLength(1);
	});
});

describe('runStream, before the first complete list', () => {
	it('logs each failed attempt and the credential plugin, then times out with 3 and what it was still trying', async () => {
		const clock = new FakeClock(Date.parse('2021-06-10T09:15:00Z'));
		const store = new Store(clock);
		let out = '';
		const run = runStream({store, clock, options: {...base, output: 'plain', wait: true, timeoutMs: 10_000}, targets: [key], write: async text => {
			out += text;
		}, interrupted: new Promise(() => {}), timeZone: 'UTC'});
		for (const state of [
			{status: 'waiting-credentials', plugin: 'kubelogin'},
			{status: 'connecting'},
			{status: 'reconnecting', attempt: 1, lastError: 'the cluster answered 503 Service Unavailable'},
			{status: 'reconnecting', attempt: 2, lastError: 'the cluster answered 503 Service Unavailable'},
		] as const) {
			store.apply({type: 'connection', state});
			await Promise.resolve();
			clock.advance(1000);
		}

		clock.advance(10_000);
		const result = await run;
		expect(result).toEqual({exitCode: 3, message: 'timed out after 10s: still connecting — the cluster answered 503 Service Unavailable (attempt 2)'});
		expect(out).toBe([
			'times UTC',
			'09:15:00 waiting for credentials from kubelogin',
			'09:15:02 cannot list yet: the cluster answered 503 Service Unavailable (attempt 1, retrying)',
			'09:15:03 cannot list yet: the cluster answered 503 Service Unavailable (attempt 2, retrying)',
			'',
		].join('\n'));
	});

	it('-o json writes nothing but the final snapshot and the result', async () => {
		const clock = new FakeClock(Date.parse('2021-06-10T09:15:00Z'));
		const store = new Store(clock);
		let out = '';
		const run = runStream({store, clock, options: {...base, output: 'json', wait: true, timeoutMs: 5000}, targets: [key], write: async text => {
			out += text;
		}, interrupted: new Promise(() => {}), timeZone: 'UTC'});
		store.apply({type: 'connection', state: {status: 'reconnecting', attempt: 1, lastError: 'x'}});
		await Promise.resolve();
		clock.advance(5000);
		expect((await run).exitCode).toBe(3);
		const lines = out.trim().split('\n').map(l => JSON.parse(l) as {type: string; exitCode?: number});
		expect(lines.map(l => l.type)).toEqual(['snapshot', 'result']);
		expect(lines[1]!.exitCode).toBe(3);
	});
});

describe('runStream, collections RBAC hides', () => {
	it('the plain log says once what is missing and why; json snapshots carry it', async () => {
		for (const output of ['plain', 'json'] as const) {
			const t = setup();
			t.store.apply({type: 'missing', resource: 'Event', message: 'events not watched: forbidden: user viewer cannot list events in namespace default'});
			const run = t.start({output, wait: true, timeoutMs: 0});
			await waitUntil(() => t.output() !== '', 'the first line');
			t.store.apply({type: 'upsert', resource: 'Instance', object: deploy(['COMPLETE', 'COMPLETE', 'COMPLETE'], 'COMPLETE')});
			expect((await run).exitCode).toBe(0);
			if (output === 'plain') {
				expect(t.output().match(/events not watched/g)).toEqual(['events not watched']);
				expect(t.output()).toContain('09:15:00 events not watched: forbidden: user viewer cannot list events in namespace default\n');
			} else {
				const first = JSON.parse(t.output().split('\n')[0]!) as {missing?: unknown};
				expect(first.missing).toEqual([{resource: 'Event', reason: 'events not watched: forbidden: user viewer cannot list events in namespace default'}]);
			}
		}
	});
});

describe('runStream, a watch that keeps creating objects', () => {
	it('past the store\'s cap: the plain log says it once, the json snapshots carry it, the wait goes on', async () => {
		for (const output of ['plain', 'json'] as const) {
			const clock = new FakeClock(Date.parse('2021-06-10T09:15:00Z'));
			const store = new Store(clock, {maxPerKind: 3});
			store.apply({type: 'connection', state: {status: 'live'}});
			store.apply({type: 'replace', resource: 'Instance', objects: [deploy(['COMPLETE', 'IN_PROGRESS', 'PENDING'], 'IN_PROGRESS')]});
			store.apply({type: 'synced'});
			let out = '';
			const run = runStream({store, clock, options: {...base, output, wait: true, timeoutMs: 0}, targets: [key], write: async text => {
				out += text;
			}, interrupted: new Promise(() => {}), timeZone: 'UTC'});
			await waitUntil(() => out !== '', 'the first line');
			for (let i = 0; i < 10; i++) {
				const extra = deploy(['COMPLETE', 'IN_PROGRESS', 'PENDING'], 'IN_PROGRESS');
				store.apply({type: 'upsert', resource: 'Instance', object: {...extra, metadata: {...(extra.metadata as object), name: `more-${i}`}}});
				await Promise.resolve();
			}

			store.apply({type: 'upsert', resource: 'Instance', object: deploy(['COMPLETE', 'COMPLETE', 'COMPLETE'], 'COMPLETE')});
			expect((await run).exitCode).toBe(0);
			const said = 'more Instances than planwatch holds (3): the ones past it are not shown';
			if (output === 'plain') {
				expect(out.split(said)).toHaveLength(2);
				expect(out).toContain(`09:15:00 ${said}\n`);
			} else {
				const last = out.trim().split('\n').map(l => JSON.parse(l) as {type: string; limited?: unknown}).findLast(l => l.type === 'snapshot');
				expect(last?.limited).toEqual([{resource: 'Instance', reason: said}]);
			}
		}
	});
});
