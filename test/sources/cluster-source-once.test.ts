/**
 * --once against a cluster that never lists: the source gives up after onceFirstListWithinMs (counted from the
 * moment credentials are in hand) with exit 4 and the last reason; without the bound it keeps retrying.
 */
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {createClusterSource, onceFirstListWithinMs} from '../../source/sources/cluster-source.js';
import {loadKubeconfig} from '../../source/kube/kubeconfig.js';
import type {ObjectSource, SourceEvent} from '../../source/state/object-source.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Recorder, waitUntil} from '../helpers/source-recorder.js';
import {actionSets, WatchServer, writeKubeconfig} from '../helpers/watch-server.js';

let server: WatchServer;
let clock: FakeClock;
const sources: ObjectSource[] = [];

beforeEach(async () => {
	server = await WatchServer.start();
	server.put(actionSets, {metadata: {name: 'a'}});
	clock = new FakeClock();
});

afterEach(async () => {
	await Promise.all(sources.splice(0).map(async s => s.stop()));
	await server.close();
});

async function start(firstListWithinMs: number | undefined): Promise<Recorder<SourceEvent>> {
	const kubeconfig = loadKubeconfig({kubeconfig: await writeKubeconfig({server: server.url}), env: {}});
	const source = createClusterSource({
		kubeconfig,
		namespace: 'default',
		clock,
		random: () => 0.5,
		targets: [{kind: 'ActionSet', name: 'a'}],
		...(firstListWithinMs === undefined ? {} : {firstListWithinMs}),
	});
	sources.push(source);
	const events = new Recorder<SourceEvent>();
	source.start(events.push);
	return events;
}

describe('the first list within a bound (--once)', () => {
	it('gives up with exit 4 and the last reason', async () => {
		expect(onceFirstListWithinMs).toBe(30_000);
		server.failNext({plural: 'actionsets', watch: false}, 503, 10_000);
		const events = await start(onceFirstListWithinMs);
		await waitUntil(() => {
			clock.advance(1000);
			return events.events.some(e => e.type === 'fatal');
		}, () => 'a fatal');
		const fatal = events.events.find(e => e.type === 'fatal');
		expect(fatal?.type === 'fatal' && fatal.exitCode).toBe(4);
		expect(fatal?.type === 'fatal' && fatal.message).toMatch(/^gave up after 30s: the cluster answered 503 Service Unavailable: injected failure 503 \(attempt \d+\)$/);
		expect(clock.now()).toBeGreaterThanOrEqual(30_000);
	});

	it('without the bound it keeps retrying (a live view waits for the cluster)', async () => {
		server.failNext({plural: 'actionsets', watch: false}, 503, 10_000);
		const events = await start(undefined);
		for (let i = 0; i < 60; i++) {
			clock.advance(1000);
			await new Promise(resolve => {
				setImmediate(resolve);
			});
		}

		expect(events.events.some(e => e.type === 'fatal')).toBe(false);
	});

	it('a list that succeeds in time is not affected', async () => {
		server.failNext({plural: 'actionsets', watch: false}, 503, 2);
		const events = await start(onceFirstListWithinMs);
		await waitUntil(() => {
			clock.advance(1000);
			return events.events.some(e => e.type === 'synced');
		}, () => 'synced');
		clock.advance(60_000);
		expect(events.events.some(e => e.type === 'fatal')).toBe(false);
	});
});
