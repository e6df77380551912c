/**
 * The follower of pods and logs against the watch-server double on 127.0.0.1: what it watches follows the
 * interest (only the namespaces concerned, stopped when no node needs them), logs are read as wanted, and a 403 on
 * pods or pods/log is one `missing` / one forbidden log error while the rest goes on.
 */
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {loadKubeconfig} from '../../source/kube/kubeconfig.js';
import type {Interest, InterestFeed, SourceEvent} from '../../source/state/object-source.js';
import {WorkloadFollower, collectionsFor} from '../../source/sources/workload-follower.js';
import {Listeners} from '../../source/core/external-store.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {waitUntil} from '../helpers/source-recorder.js';
import {WatchServer, allResources, writeKubeconfig, type ResourceDef} from '../helpers/watch-server.js';

const pods: ResourceDef = {group: '', version: 'v1', plural: 'pods', kind: 'Pod'};
const deployments: ResourceDef = {group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment'};
const statefulSets: ResourceDef = {group: 'apps', version: 'v1', plural: 'statefulsets', kind: 'StatefulSet'};
const jobs: ResourceDef = {group: 'batch', version: 'v1', plural: 'jobs', kind: 'Job'};

class Feed implements InterestFeed {
	#interest: Interest[] = [];
	#logs: ReturnType<InterestFeed['wantedLogs']> = [];
	readonly #listeners = new Listeners();
	set(interest: Interest[], logs: ReturnType<InterestFeed['wantedLogs']> = []): void {
		this.#interest = interest;
		this.#logs = logs;
		this.#listeners.notify();
	}

	interest = () => this.#interest;
	wantedLogs = () => this.#logs;
	subscribe = (listener: () => void) => this.#listeners.add(listener);
}

let server: WatchServer;
let clock: FakeClock;
let follower: WorkloadFollower | undefined;
let events: SourceEvent[];
let feed: Feed;

beforeEach(async () => {
	server = await WatchServer.start({resources: [...allResources, pods, deployments, statefulSets, jobs]});
	clock = new FakeClock();
	events = [];
	feed = new Feed();
	const loaded = await loadKubeconfig({kubeconfig: await writeKubeconfig({server: server.url}), env: {}});
	follower = new WorkloadFollower({kubeConfig: loaded.kubeConfig, server: loaded.server, clock, sink: e => events.push(e), random: () => 0.5, settleMs: 100}, feed);
	follower.start();
});

afterEach(async () => {
	await follower?.stop();
	await server.close();
});

function settle(): void {
	clock.advance(100);
}

const watchedPods = () => [...new Set(server.requests.filter(r => r.plural === 'pods').map(r => `${r.namespace ?? '*'} ${r.query['labelSelector'] ?? ''}`))].sort();

describe('workload follower', () => {
	it('collections: KUDO namespaces get applied kinds and kudo pods, Kanister ones kanister pods; warning pod Events in both', () => {
		const names = collectionsFor({interest: () => [{kind: 'Instance', namespaces: ['shop']}, {kind: 'ActionSet', namespaces: ['kanister', 'shop']}]})
			.map(c => `${c.kind} ${c.namespace} ${c.labelSelector ?? c.fieldSelector ?? ''}`);
		expect(names).toEqual([
			'Deployment shop heritage=kudo',
			'StatefulSet shop heritage=kudo',
			'Job shop heritage=kudo',
			'Pod shop heritage=kudo',
			'Pod kanister createdBy=kanister',
			'Pod shop createdBy=kanister',
			'Event kanister involvedObject.kind=Pod,type=Warning',
			'Event shop involvedObject.kind=Pod,type=Warning',
		]);
	});

	it('watches nothing without interest, only the namespaces concerned with it, and stops when it goes', async () => {
		settle();
		expect(follower!.running.watches).toBe(0);
		server.put(pods, {metadata: {name: 'web-0', namespace: 'shop', labels: {heritage: 'kudo', 'kudo.dev/instance': 'i'}}});
		server.put(pods, {metadata: {name: 'other-0', namespace: 'elsewhere', labels: {heritage: 'kudo'}}});
		feed.set([{kind: 'Instance', namespaces: ['shop']}]);
		settle();
		await waitUntil(() => events.some(e => e.type === 'upsert' && e.resource === 'Pod'), () => JSON.stringify(events));
		expect(follower!.running.watches).toBe(5);
		expect(watchedPods()).toEqual(['shop heritage=kudo']);
		expect(events.filter(e => e.type === 'upsert' && e.resource === 'Pod').map(e => (e as {object: {metadata?: {name?: string}}}).object.metadata?.name)).toEqual(['web-0']);
		// Scrolled away before the settle time: nothing changes.
		feed.set([]);
		feed.set([{kind: 'Instance', namespaces: ['shop']}]);
		settle();
		expect(follower!.running.watches).toBe(5);
		feed.set([]);
		settle();
		expect(follower!.running.watches).toBe(0);
	});

	it('reads a previous log once, and says once that pods/log is forbidden', async () => {
		server.setLog('shop', 'web-0', 'app', 'line 1\nline 2\n', true);
		feed.set([{kind: 'Instance', namespaces: ['shop']}], [{namespace: 'shop', pod: 'web-0', container: 'app', previous: true}]);
		settle();
		await waitUntil(() => events.some(e => e.type === 'log'), () => JSON.stringify(events));
		const log = events.find(e => e.type === 'log') as Extract<SourceEvent, {type: 'log'}>;
		expect(log).toMatchObject({pod: 'web-0', container: 'app', previous: true, reset: true});
		expect(log.text).toContain('line 2');
		const request = server.requests.find(r => r.path.endsWith('/log'))!;
		expect(request.query).toMatchObject({container: 'app', previous: 'true', tailLines: '20', limitBytes: '65536'});
		expect(request.query['follow']).toBeUndefined();

		server.forbidLogs();
		feed.set(
			[{kind: 'Instance', namespaces: ['shop']}],
			[{namespace: 'shop', pod: 'web-1', container: 'app', previous: false}, {namespace: 'shop', pod: 'web-2', container: 'app', previous: false}],
		);
		settle();
		await waitUntil(() => events.some(e => e.type === 'log' && e.forbidden === true), () => JSON.stringify(events));
		settle();
		const forbidden = events.filter(e => e.type === 'log' && e.forbidden);
		expect(forbidden.length).toBeGreaterThanOrEqual(1);
		expect((forbidden[0] as {error?: string}).error).toBe('forbidden: cannot get pods/log in namespace shop');
	});

	it('a log read the server refuses (not 403) says the server\'s words (the kubelet\'s, through the apiserver), not a 404 "not served"', async () => {
		server.failLog('kanister', 'kanister-job-x', 'container', 400);
		feed.set([{kind: 'ActionSet', namespaces: ['kanister']}], [{namespace: 'kanister', pod: 'kanister-job-x', container: 'container', previous: false}]);
		settle();
		await waitUntil(() => events.some(e => e.type === 'log'), () => JSON.stringify(events));
		expect(events.filter(e => e.type === 'log')).toEqual([
			expect.objectContaining({pod: 'kanister-job-x', text: '', error: 'container "container" in pod "kanister-job-x" is waiting to start (400)'}),
		]);
		expect(events.some(e => e.type === 'log' && e.forbidden)).toBe(false);
	});

	it('a 403 on pods is one missing, and the applied kinds are still watched', async () => {
		server.forbid('tester', 'pods');
		feed.set([{kind: 'Instance', namespaces: ['shop']}]);
		settle();
		await waitUntil(() => events.some(e => e.type === 'missing'), () => JSON.stringify(events));
		const missing = events.filter(e => e.type === 'missing');
		expect(missing).toHaveLength(1);
		expect(missing[0]).toMatchObject({type: 'missing', resource: 'Pod'});
		expect(follower!.running.watches).toBe(4);
	});

	it('settled: pending until the change of interest is applied, every collection listed and the wanted log read', async () => {
		server.put(pods, {metadata: {name: 'web-0', namespace: 'shop', labels: {heritage: 'kudo'}}});
		server.setLog('shop', 'web-0', 'app', 'boot\n');
		let settled = 0;
		const count = () => {
			settled++;
		};

		settle();
		await follower!.settled(); // nothing asked: at once
		feed.set([{kind: 'Instance', namespaces: ['shop']}], [{namespace: 'shop', pod: 'web-0', container: 'app', previous: false}]);
		const waiting = follower!.settled().then(count);
		await new Promise(resolve => setImmediate(resolve));
		expect(settled).toBe(0); // the settle time has not passed: nothing asked yet
		settle();
		await waiting;
		expect(settled).toBe(1);
		expect(events.filter(e => e.type === 'upsert' && e.resource === 'Pod')).toHaveLength(1);
		expect(events.some(e => e.type === 'log' && e.text.includes('boot'))).toBe(true);
	});

	it('one shot (--once): a current log is read once, not followed, and not read again', async () => {
		await follower!.stop();
		follower = new WorkloadFollower({
			kubeConfig: (await loadKubeconfig({kubeconfig: await writeKubeconfig({server: server.url}), env: {}})).kubeConfig,
			server: server.url, clock, sink: e => events.push(e), random: () => 0.5, settleMs: 100, oneShot: true,
		}, feed);
		follower.start();
		server.setLog('shop', 'web-0', 'app', 'boot\n');
		feed.set([{kind: 'Instance', namespaces: ['shop']}], [{namespace: 'shop', pod: 'web-0', container: 'app', previous: false}]);
		const done = follower.settled();
		settle();
		await done;
		clock.advance(60_000);
		settle();
		await follower.settled();
		const reads = server.requests.filter(r => r.path.endsWith('/log'));
		expect(reads.map(r => r.query['follow'])).toEqual([undefined]);
		expect(follower.running.follows).toBe(1);
	});

	it('a current log whose container waits to start (400) is asked again later; one that is gone (404) is not', async () => {
		await follower!.stop();
		follower = new WorkloadFollower({
			kubeConfig: (await loadKubeconfig({kubeconfig: await writeKubeconfig({server: server.url}), env: {}})).kubeConfig,
			server: server.url, clock, sink: e => events.push(e), random: () => 0.5, settleMs: 100, refollowMs: 1000,
		}, feed);
		follower.start();
		server.failLog('shop', 'web-0', 'app', 400);
		server.failLog('shop', 'gone-0', 'app', 404);
		feed.set([{kind: 'Instance', namespaces: ['shop']}], [
			{namespace: 'shop', pod: 'web-0', container: 'app', previous: false},
			{namespace: 'shop', pod: 'gone-0', container: 'app', previous: false},
		]);
		settle();
		await follower.settled();
		const reads = (pod: string) => server.requests.filter(r => r.path.endsWith(`/${pod}/log`)).length;
		expect([reads('web-0'), reads('gone-0')]).toEqual([1, 1]);
		server.setLog('shop', 'web-0', 'app', 'started\n');
		clock.advance(1000);
		settle();
		await waitUntil(() => events.some(e => e.type === 'log' && e.pod === 'web-0' && e.text.includes('started')), () => JSON.stringify(events));
		clock.advance(1000);
		settle();
		await follower.settled();
		expect(reads('gone-0')).toBe(1);
	});
});
