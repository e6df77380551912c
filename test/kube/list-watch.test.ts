/**
 * The reflector against the in-process watch server, through the real client-node (its Watch, its request
 * machinery, undici). Time for backoff and the watchdog comes from a FakeClock the tests advance.
 */
import {setFlagsFromString} from 'node:v8';
import {runInNewContext} from 'node:vm';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {loadKubeconfig, type LoadedKubeconfig} from '../../source/kube/kubeconfig.js';
import {apiserverBookmarkPeriodMs, quietWatchLimitMs, Reflector, type ReflectorEvent, type ReflectorOptions} from '../../source/kube/list-watch.js';
import type {KubeObject} from '../../source/core/kube-object.js';
import {resourceTypes} from '../../source/kube/resources.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Recorder, waitUntil} from '../helpers/source-recorder.js';
import {actionSets, WatchServer, writeKubeconfig} from '../helpers/watch-server.js';

let server: WatchServer;
let clock: FakeClock;
let kubeconfig: LoadedKubeconfig;
let running: Reflector[] = [];

function summary(event: ReflectorEvent): string {
	switch (event.type) {
		case 'replace': {
			return `replace [${event.objects.map(o => o.metadata?.name).join(', ')}]`;
		}

		case 'upsert':
		case 'delete': {
			return `${event.type} ${event.object.metadata?.name} rv=${event.object.metadata?.resourceVersion}`;
		}

		case 'state': {
			return `state ${JSON.stringify(event.state)}`;
		}

		case 'failed': {
			return `failed ${event.failure.kind}: ${event.failure.message}`;
		}
	}
}

function names(objects: readonly KubeObject[]): string[] {
	return objects.map(o => o.metadata?.name ?? '').sort();
}

function actionSet(name: string, namespace = 'default', extra: Record<string, unknown> = {}) {
	return {metadata: {name, namespace}, spec: {actions: [{name: 'backup'}]}, ...extra};
}

async function config(spec: {token?: string} = {}): Promise<LoadedKubeconfig> {
	return loadKubeconfig({kubeconfig: await writeKubeconfig({server: server.url, ...spec}), env: {}});
}

function start(overrides: Partial<ReflectorOptions> = {}, loaded = kubeconfig): {reflector: Reflector; events: Recorder<ReflectorEvent>} {
	const events = new Recorder<ReflectorEvent>(summary);
	const reflector = new Reflector({
		kubeConfig: loaded.kubeConfig,
		resource: resourceTypes.ActionSet,
		namespace: 'default',
		clock,
		random: () => 0.5,
		...overrides,
	}, events.push);
	running.push(reflector);
	reflector.start();
	return {reflector, events};
}

const isLive = (e: ReflectorEvent) => e.type === 'state' && e.state.status === 'live';
type Reconnecting = {type: 'state'; state: {status: 'reconnecting'; attempt: number; lastError: string}};
const isReconnecting = (e: ReflectorEvent): e is Reconnecting => e.type === 'state' && e.state.status === 'reconnecting';

/** Advance fake time in steps, letting real I/O run between steps, until `predicate` holds. */
async function advanceUntil(predicate: () => boolean, describe: () => string, stepMs = 1000): Promise<void> {
	await waitUntil(() => {
		if (!predicate()) {
			clock.advance(stepMs);
		}

		return predicate();
	}, describe);
}

beforeEach(async () => {
	server = await WatchServer.start();
	clock = new FakeClock();
	kubeconfig = await config();
});

afterEach(async () => {
	await Promise.all(running.map(async r => r.stop()));
	running = [];
	await server.close();
});

describe('reflector: list then watch', () => {
	it('lists, replaces, goes live and watches from the list resourceVersion with bookmarks', async () => {
		server.put(actionSets, actionSet('a'));
		server.put(actionSets, actionSet('b'));
		server.put(actionSets, actionSet('elsewhere', 'other'));
		const listRv = server.resourceVersion;
		const {events} = start();

		await events.next('live', isLive);
		expect(events.events.map(e => summary(e))).toEqual(['state {"status":"connecting"}', 'replace [a, b]', 'state {"status":"live"}']);
		const replace = events.events.find(e => e.type === 'replace');
		expect(replace?.type === 'replace' && replace.objects[0]).toMatchObject({apiVersion: 'cr.kanister.io/v1alpha1', kind: 'ActionSet'});

		const watch = server.requests.find(r => r.watch)!;
		expect(watch.path).toBe('/apis/cr.kanister.io/v1alpha1/namespaces/default/actionsets');
		expect(watch.query).toMatchObject({watch: 'true', allowWatchBookmarks: 'true', resourceVersion: listRv});
		const timeout = Number(watch.query['timeoutSeconds']);
		expect(timeout).toBeGreaterThanOrEqual(300);
		expect(timeout).toBeLessThan(600);
	});

	it('streams adds, updates and deletes, even with lines split across chunks', async () => {
		server.splitLines = true;
		server.put(actionSets, actionSet('a'));
		const {events, reflector} = start();
		await events.next('live', isLive);
		const from = events.events.length;

		const added = server.put(actionSets, actionSet('b'));
		const updated = server.put(actionSets, actionSet('a', 'default', {status: {state: 'running'}}));
		const last = server.remove(actionSets, 'b');
		server.put(actionSets, actionSet('ignored', 'other'));

		await events.waitFor('three changes', all => all.length >= from + 3);
		expect(events.since(from).map(e => summary(e))).toEqual([
			`upsert b rv=${added.metadata.resourceVersion}`,
			`upsert a rv=${updated.metadata.resourceVersion}`,
			`delete b rv=${last.metadata.resourceVersion}`,
		]);
		const update = events.events[from + 1];
		expect(update?.type === 'upsert' && update.object['status']).toEqual({state: 'running'});
		expect(reflector.resourceVersion).toBe(last.metadata.resourceVersion);
	});

	it('uses bookmarks to resume a closed watch from the newest resourceVersion, without relisting', async () => {
		server.put(actionSets, actionSet('a'));
		const {events, reflector} = start();
		await events.next('live', isLive);

		// Changes in another namespace move the RV without any event for this watch.
		server.put(actionSets, actionSet('x', 'other'));
		server.put(actionSets, actionSet('y', 'other'));
		server.sendBookmarks();
		await waitUntil(() => reflector.resourceVersion === server.resourceVersion, () => `rv ${reflector.resourceVersion} vs ${server.resourceVersion}`);

		clock.advance(5000); // a watch that lived a while: its end is normal
		server.closeWatches();
		await waitUntil(() => server.count({watch: true}) === 2, () => JSON.stringify(server.requests));
		expect(server.requests.filter(r => r.watch)[1]?.query['resourceVersion']).toBe(server.resourceVersion);
		expect(server.count({watch: false})).toBe(1);
		expect(events.events.some(e => isReconnecting(e))).toBe(false);
	});

	it('a quiet watch closed by the server is rewatched at once, not reported as a problem', async () => {
		const {events} = start();
		await events.next('live', isLive);
		for (let i = 2; i <= 4; i++) {
			clock.advance(2000);
			server.closeWatches();
			await waitUntil(() => server.openWatchCount === 1 && server.count({watch: true}) === i, () => `${server.count({watch: true})} watches\n${events.describe()}`);
		}

		expect(events.events.some(e => isReconnecting(e))).toBe(false);
		expect(server.count({watch: false})).toBe(1);
	});

	it('client-node\'s inactivity timeout is a normal end too: immediate rewatch from the last RV', async () => {
		server.put(actionSets, actionSet('a'));
		const {events} = start({clientInactivityMs: 250});
		await events.next('live', isLive);
		await waitUntil(() => server.count({watch: true}) >= 3, () => events.describe());
		expect(events.events.some(e => isReconnecting(e))).toBe(false);
		expect(new Set(server.requests.filter(r => r.watch).map(r => r.query['resourceVersion']))).toEqual(new Set([server.resourceVersion]));
	});

	it('a quiet watch that gets the apiserver\'s bookmark once a minute keeps its one watch (the watchdog allows the period)', async () => {
		const {events, reflector} = start();
		await events.next('live', isLive);
		for (let i = 0; i < 3; i++) {
			// Bookmarks come 60–62 s apart (cacher.go's defaultBookmarkFrequency, due times bucketed by the second).
			clock.advance(apiserverBookmarkPeriodMs + 2000);
			server.put(actionSets, actionSet(`x-${i}`, 'other'));
			server.sendBookmarks();
			await waitUntil(
				() => reflector.resourceVersion === server.resourceVersion || server.count({watch: true}) > 1,
				() => `rv ${reflector.resourceVersion} vs ${server.resourceVersion}\n${events.describe()}`,
			);
			expect(server.count({watch: true})).toBe(1);
		}

		expect(quietWatchLimitMs).toBeGreaterThan(apiserverBookmarkPeriodMs + 2000);
	});

	it('the watch stream\'s own inactivity timer allows the bookmark period too once the watch is answered', async () => {
		const setTimer = globalThis.setTimeout;
		const armed: number[] = [];
		globalThis.setTimeout = ((callback: () => void, ms?: number) => {
			armed.push(ms ?? 0);
			return setTimer(callback, ms);
		}) as typeof setTimeout;
		try {
			const {events} = start();
			await events.next('live', isLive);
			// Before the answer: client-node's 30 s for the request; after it: the quiet watch limit, not 30 s again.
			expect(armed.filter(ms => ms === 30_000)).toHaveLength(1);
			expect(armed.filter(ms => ms === quietWatchLimitMs)).toHaveLength(1);
		} finally {
			globalThis.setTimeout = setTimer;
		}
	});

	it('a watch that closes as soon as it opens is retried with backoff, not in a hot loop', async () => {
		const {events} = start();
		await events.next('live', isLive);
		server.closeWatches();
		const state = await events.next('reconnecting', isReconnecting);
		expect(state).toEqual({type: 'state', state: {status: 'reconnecting', attempt: 1, lastError: 'the watch of actionsets closed as soon as it opened'}});
		expect(server.count({watch: true})).toBe(1);
		await advanceUntil(() => server.openWatchCount === 1, () => events.describe());
		await events.waitFor('live again', all => isLive(all.at(-1)!));
	});
});

describe('reflector: 410 Gone', () => {
	for (const form of ['event', 'status'] as const) {
		it(`relists on 410 (${form === 'event' ? 'ERROR event' : 'HTTP status'}); a missed delete vanishes in the replace`, async () => {
			server.expiredAs = form;
			server.put(actionSets, actionSet('a'));
			server.put(actionSets, actionSet('b'));
			const {events} = start();
			await events.next('live', isLive);
			const from = events.events.length;

			// The watch goes deaf; meanwhile b is deleted and history is compacted past our RV.
			server.stallWatches();
			server.remove(actionSets, 'b');
			server.put(actionSets, actionSet('c'));
			server.compact();
			clock.advance(5000);
			server.closeWatches();

			const replace = await events.next('relist', e => e.type === 'replace', from);
			expect(replace.type === 'replace' && names(replace.objects)).toEqual(['a', 'c']);
			expect(events.since(from).some(e => e.type === 'delete')).toBe(false);
			expect(server.count({watch: false})).toBe(2);
			expect(events.since(from).some(e => isReconnecting(e))).toBe(false);
			await waitUntil(() => server.openWatchCount === 1, () => events.describe());
			expect(server.requests.filter(r => r.watch).at(-1)?.query['resourceVersion']).toBe(server.resourceVersion);
		});
	}

	it('relists when the history window has moved past the last RV', async () => {
		await server.close();
		server = await WatchServer.start({historyLimit: 2});
		const loaded = await config();
		server.put(actionSets, actionSet('a'));
		const {events} = start({}, loaded);
		await events.next('live', isLive);
		const from = events.events.length;
		server.stallWatches();
		for (const name of ['b', 'c', 'd']) {
			server.put(actionSets, actionSet(name));
		}

		clock.advance(5000);
		server.closeWatches();
		const replace = await events.next('relist', e => e.type === 'replace', from);
		expect(replace.type === 'replace' && names(replace.objects)).toEqual(['a', 'b', 'c', 'd']);
		// The watch that got the ERROR 410 event, then a fresh one from the relist.
		await waitUntil(() => server.openWatchCount === 1 && server.count({watch: true}) === 3, () => events.describe());
	});

	it('a fresh list RV refused at once is retried with backoff instead of spinning', async () => {
		const {events} = start();
		await events.next('live', isLive);
		server.failNext({watch: true}, 410, 1000);
		clock.advance(5000);
		server.closeWatches();
		await events.next('reconnecting', e => isReconnecting(e) && e.state.lastError.includes('410'));
		const lists = server.count({watch: false});
		expect(lists).toBeLessThanOrEqual(3);
	});
});

describe('reflector: broken connections', () => {
	it('a stream cut mid-line reconnects from the last RV without losing events', async () => {
		server.put(actionSets, actionSet('a'));
		const {events} = start();
		await events.next('live', isLive);
		const from = events.events.length;

		server.cutWatches();
		const state = await events.next('reconnecting', isReconnecting, from);
		expect(state.type === 'state' && state.state.status === 'reconnecting' && state.state.lastError).toMatch(/^the connection to 127\.0\.0\.1:\d+ was lost: /);
		const missed = server.put(actionSets, actionSet('b'));
		await advanceUntil(() => events.since(from).some(e => e.type === 'upsert'), () => events.describe());

		expect(events.since(from).filter(e => e.type !== 'state').map(e => summary(e))).toEqual([`upsert b rv=${missed.metadata.resourceVersion}`]);
		expect(server.count({watch: false})).toBe(1);
		expect(events.since(from).some(e => isLive(e))).toBe(true);
	});

	it('server down: reconnecting with attempts and the reason, then live again and caught up', async () => {
		server.put(actionSets, actionSet('a'));
		const {events} = start();
		await events.next('live', isLive);
		const from = events.events.length;

		await server.stop();
		await events.next('reconnecting', isReconnecting, from);
		await advanceUntil(() => events.since(from).some(e => e.type === 'state' && e.state.status === 'reconnecting' && e.state.attempt >= 3), () => events.describe(), 500);
		const refused = events.since(from).find(e => e.type === 'state' && e.state.status === 'reconnecting' && e.state.attempt === 2);
		expect(refused).toEqual({type: 'state', state: {status: 'reconnecting', attempt: 2, lastError: `cannot reach the cluster at 127.0.0.1:${server.port}: connection refused`}});

		const missed = server.put(actionSets, actionSet('b')); // happens while we cannot see it
		await server.restart();
		await advanceUntil(() => events.since(from).some(e => e.type === 'upsert'), () => events.describe());
		expect(events.since(from).some(e => isLive(e))).toBe(true);
		expect(events.since(from).filter(e => e.type === 'upsert').map(e => summary(e))).toEqual([`upsert b rv=${missed.metadata.resourceVersion}`]);
		expect(server.count({watch: false})).toBe(1);
	});

	it('a stalled connection is abandoned by the watchdog and rewatched', async () => {
		const {events} = start({watchdogMs: 10_000});
		await events.next('live', isLive);
		const from = events.events.length;
		server.stallWatches();
		const late = server.put(actionSets, actionSet('late'));
		clock.advance(10_000);
		const upsert = await events.next('the change made during the stall', e => e.type === 'upsert', from);
		expect(summary(upsert)).toBe(`upsert late rv=${late.metadata.resourceVersion}`);
		expect(server.count({watch: true})).toBe(2);
		expect(events.since(from).some(e => isReconnecting(e))).toBe(false);
	});

	it('a busy watch keeps one watchdog timer: events note the time, they set no timer each', async () => {
		const after = clock.after.bind(clock);
		let timers = 0;
		clock.after = (ms, callback) => {
			timers++;
			return after(ms, callback);
		};

		const {events} = start({watchdogMs: 10_000});
		await events.next('live', isLive);
		const from = events.events.length;
		const before = timers;
		for (let i = 0; i < 40; i++) {
			server.put(actionSets, actionSet(`busy-${i}`));
		}

		await waitUntil(() => events.since(from).filter(e => e.type === 'upsert').length === 40, () => events.describe());
		expect(timers - before).toBe(0);
	});

	it('a busy watch stream keeps one inactivity timer: chunks note the time, they set no timer each', async () => {
		const inactivityMs = 123_457;
		const setTimer = globalThis.setTimeout;
		let timers = 0;
		globalThis.setTimeout = ((callback: () => void, ms?: number) => {
			if (ms === inactivityMs) {
				timers++;
			}

			return setTimer(callback, ms);
		}) as typeof setTimeout;
		try {
			const {events} = start({clientInactivityMs: inactivityMs});
			await events.next('live', isLive);
			const from = events.events.length;
			const before = timers;
			for (let i = 0; i < 40; i++) {
				server.put(actionSets, actionSet(`chunk-${i}`));
				await events.next(`upsert ${i}`, e => e.type === 'upsert' && e.object.metadata?.name === `chunk-${i}`, from);
			}

			expect(timers - before).toBe(0);
		} finally {
			globalThis.setTimeout = setTimer;
		}
	});

	it('an event within the watchdog\'s time keeps the watch; the timer, set again for what is left, fires after a quiet spell', async () => {
		const {events} = start({watchdogMs: 10_000});
		await events.next('live', isLive);
		const from = events.events.length;
		clock.advance(6000);
		server.put(actionSets, actionSet('kept-alive'));
		await events.next('the event', e => e.type === 'upsert', from);
		// 12 s after the watch started but 6 s after its last event: not abandoned.
		clock.advance(6000);
		await new Promise(resolve => setTimeout(resolve, 50));
		expect(server.count({watch: true})).toBe(1);
		// 10 s after the last event: abandoned and rewatched.
		server.stallWatches();
		clock.advance(4000);
		await waitUntil(() => server.count({watch: true}) === 2, () => events.describe());
		expect(events.since(from).some(e => isReconnecting(e))).toBe(false);
	});

	it('a watch request that is never answered counts as a failure, not as a quiet stream', async () => {
		const {events} = start({watchdogMs: 10_000});
		await events.next('live', isLive);
		const from = events.events.length;
		server.holdNext({watch: true});
		clock.advance(5000);
		server.closeWatches();
		await waitUntil(() => server.count({watch: true}) === 2, () => events.describe());
		clock.advance(10_000);
		const state = await events.next('reconnecting', isReconnecting, from);
		expect(state.state.lastError).toBe('the cluster did not answer a watch of actionsets');
		await advanceUntil(() => isLive(events.events.at(-1)!), () => events.describe());
	});

	it('once live, a 403 or an ERROR event is retried forever, never final', async () => {
		const {events} = start();
		await events.next('live', isLive);
		const from = events.events.length;
		server.failNext({watch: true}, 403);
		clock.advance(5000);
		server.closeWatches();
		const state = await events.next('reconnecting', isReconnecting, from);
		expect(state.type === 'state' && state.state.status === 'reconnecting' && state.state.lastError).toMatch(/^forbidden: /);
		await advanceUntil(() => isLive(events.events.at(-1)!), () => events.describe());

		const again = events.events.length;
		server.sendError(500, 'etcdserver: request timed out');
		const error = await events.next('error event', isReconnecting, again);
		expect(error.type === 'state' && error.state.status === 'reconnecting' && error.state.lastError).toBe('the cluster answered 500 Internal Server Error: etcdserver: request timed out');
		await advanceUntil(() => isLive(events.events.at(-1)!), () => events.describe());
		expect(events.events.some(e => e.type === 'failed')).toBe(false);
	});
});

describe('reflector: start-up failures', () => {
	it('401: final, one line', async () => {
		const {events} = start({}, await config({token: 'wrong'}));
		const failed = await events.next('failed', e => e.type === 'failed');
		expect(summary(failed)).toBe('failed unauthorized: credentials rejected (401): log in again, e.g. refresh your token');
	});

	it('403: final, names the user, the resource and the scope', async () => {
		server.forbid('tester', 'actionsets');
		const {events} = start();
		const failed = await events.next('failed', e => e.type === 'failed');
		expect(summary(failed)).toBe('failed forbidden: forbidden: user tester cannot list actionsets.cr.kanister.io in namespace default; planwatch needs get/list/watch on instances, ' +
			'operatorversions (kudo.dev), actionsets, blueprints (cr.kanister.io) and events');
	});

	it('404 on the collection: the CRD is not installed', async () => {
		await server.close();
		server = await WatchServer.start({resources: []});
		const {events} = start({resource: resourceTypes.Instance}, await config());
		const failed = await events.next('failed', e => e.type === 'failed');
		expect(summary(failed)).toBe('failed not-found: KUDO is not installed in this cluster: no instances.kudo.dev');
	});

	it('cannot connect at all: final', async () => {
		await server.stop();
		const {events} = start();
		const failed = await events.next('failed', e => e.type === 'failed');
		expect(summary(failed)).toBe(`failed unreachable: cannot reach the cluster at 127.0.0.1:${server.port}: connection refused`);
	});

	it('a 5xx on the first list is retried', async () => {
		server.failNext({watch: false}, 503, 2);
		server.put(actionSets, actionSet('a'));
		const {events} = start();
		await events.next('reconnecting', isReconnecting);
		await advanceUntil(() => events.events.some(e => isLive(e)), () => events.describe());
		expect(events.events.filter(e => e.type !== 'state').map(e => summary(e))).toEqual(['replace [a]']);
	});

	it('a bad selector is a bad request', async () => {
		const {events} = start({labelSelector: '=oops'});
		const failed = await events.next('failed', e => e.type === 'failed');
		expect(summary(failed)).toBe('failed bad-request: the cluster rejected the request (400): unable to parse requirement: =oops');
	});
});

describe('reflector: selectors', () => {
	it('a field selector on the name watches only that object', async () => {
		server.put(actionSets, actionSet('mine'));
		server.put(actionSets, actionSet('other'));
		const {events} = start({fieldSelector: 'metadata.name=mine'});
		await events.next('live', isLive);
		const from = events.events.length;
		server.put(actionSets, actionSet('other', 'default', {status: {state: 'running'}}));
		const mine = server.put(actionSets, actionSet('mine', 'default', {status: {state: 'running'}}));
		await events.next('update of mine', e => e.type === 'upsert', from);
		expect(events.events.filter(e => e.type !== 'state').map(e => summary(e))).toEqual(['replace [mine]', `upsert mine rv=${mine.metadata.resourceVersion}`]);
		for (const request of server.requests) {
			expect(request.query['fieldSelector']).toBe('metadata.name=mine');
		}
	});

	it('all namespaces and a label selector', async () => {
		server.put(actionSets, {metadata: {name: 'a', namespace: 'one', labels: {team: 'db'}}});
		server.put(actionSets, {metadata: {name: 'b', namespace: 'two', labels: {team: 'db'}}});
		server.put(actionSets, {metadata: {name: 'c', namespace: 'two', labels: {team: 'web'}}});
		const {events} = start({namespace: undefined, labelSelector: 'team=db'});
		await events.next('live', isLive);
		const replace = events.events.find(e => e.type === 'replace');
		expect(replace?.type === 'replace' && names(replace.objects)).toEqual(['a', 'b']);
		expect(server.requests[0]?.path).toBe('/apis/cr.kanister.io/v1alpha1/actionsets');
	});
});

describe('reflector: stop', () => {
	it('stops watching and emits nothing more', async () => {
		const {events, reflector} = start();
		await events.next('live', isLive);
		await reflector.stop();
		const count = events.events.length;
		await waitUntil(() => server.openWatchCount === 0, () => `open watches: ${server.openWatchCount}`);
		server.put(actionSets, actionSet('after'));
		clock.advance(120_000);
		expect(events.events.length).toBe(count);
	});
});

describe('reflector: memory', () => {
	it('keeps nothing of a list once it handed it on: the objects can be collected while the watch runs', async () => {
		// A real collection: the test asks V8 for one (node's --expose-gc, set at run time).
		setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as () => void;
		for (let i = 0; i < 50; i++) {
			server.put(actionSets, actionSet(`a${i}`));
		}

		let listed: WeakRef<readonly KubeObject[]> | undefined;
		let live = false;
		const reflector = new Reflector({kubeConfig: kubeconfig.kubeConfig, resource: resourceTypes.ActionSet, namespace: 'default', clock, random: () => 0.5}, event => {
			if (event.type === 'replace') {
				listed = new WeakRef(event.objects);
			} else if (isLive(event)) {
				live = true;
			}
		});
		running.push(reflector);
		reflector.start();
		await waitUntil(() => live && server.requests.some(r => r.watch), () => 'the watch to start');
		await new Promise(resolve => {
			setTimeout(resolve, 50);
		});
		// A WeakRef's target stays alive until the end of the job that made or read it: collect in a job of its own.
		let collected = false;
		for (let i = 0; i < 3 && !collected; i++) {
			await new Promise(resolve => {
				setImmediate(resolve);
			});
			gc();
			await new Promise(resolve => {
				setImmediate(resolve);
			});
			collected = listed?.deref() === undefined;
		}

		expect(listed).toBeDefined();
		expect(listed!.deref(), 'the listed objects are still reachable while the watch runs').toBeUndefined();
	});
});
