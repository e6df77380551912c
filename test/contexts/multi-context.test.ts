/**
 * Several contexts through the real path in-process: child sources → the multi-context source → the store → the
 * wait controller. The same namespace/name in two clusters are two objects, each read with its own cluster's
 * Blueprints and Events; one context failing leaves the others running and is in the exit code.
 */
import {describe, expect, it} from 'vitest';
import type {KubeObject, ResourceKind} from '../../source/core/kube-object.js';
import {exitCodes} from '../../source/core/exit-codes.js';
import {objectKey} from '../../source/model/plan-tree.js';
import {createMultiContextSource, failedSource} from '../../source/sources/multi-context-source.js';
import type {SourceSink} from '../../source/state/object-source.js';
import {Store} from '../../source/state/store.js';
import {createWaitController} from '../../source/state/wait-controller.js';
import {drivenSource} from '../helpers/driven-source.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';

function put(sink: SourceSink, o: KubeObject): void {
	sink({type: 'upsert', resource: o.kind as ResourceKind, object: o});
}

async function flush(): Promise<void> {
	await new Promise(resolve => {
		setImmediate(resolve);
	});
}

function setup() {
	const clock = new FakeClock();
	const store = new Store(clock);
	const prod = drivenSource();
	const dr = drivenSource();
	const source = createMultiContextSource([{context: 'prod', source: prod}, {context: 'dr', source: dr}], 'kanister');
	source.start(store.apply);
	return {clock, store, prod, dr, source};
}

const running = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');
const complete = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml');
const failedRestore = loadFixtureObject('kanister/actionset-postgres-restore-failed-defer-complete.yaml');

describe('several contexts in one store', () => {
	it('the same namespace/name in two contexts are two objects, each with its context', () => {
		const {store, prod, dr} = setup();
		put(prod.sink, running);
		put(dr.sink, complete);
		const {objects} = store.getSnapshot();
		expect(objects.map(o => [o.context, o.namespace, o.name, o.outcome])).toEqual([
			['dr', running.metadata!.namespace, running.metadata!.name, 'succeeded'],
			['prod', running.metadata!.namespace, running.metadata!.name, 'running'],
		]);
		expect(complete.metadata!.name).toBe(running.metadata!.name);
	});

	it('an ActionSet reads the Blueprints of its own cluster only', () => {
		const {store, prod, dr} = setup();
		const blueprint = loadFixture('kanister/blueprint-mysql-defer.yaml')[0]!;
		put(prod.sink, running);
		put(dr.sink, running);
		const [drBefore, prodBefore] = store.getSnapshot().objects;
		put(prod.sink, blueprint);
		const [drAfter, prodAfter] = store.getSnapshot().objects;
		// A Blueprint change re-reads the ActionSets of its namespace in its own cluster, never in another.
		expect(prodAfter?.context).toBe('prod');
		expect(prodAfter).not.toBe(prodBefore);
		expect(drAfter).toBe(drBefore);
	});

	it('Events count for the object of their own cluster only', () => {
		const {store, prod, dr} = setup();
		put(prod.sink, running);
		put(dr.sink, running);
		for (const e of loadFixture('kanister/events-mysql-backup-complete.yaml')) {
			put(dr.sink, e);
		}

		const snap = store.getSnapshot();
		expect(snap.events.get(objectKey(snap.objects.find(o => o.context === 'dr')!))?.length).toBeGreaterThan(0);
		expect(snap.events.get(objectKey(snap.objects.find(o => o.context === 'prod')!))).toBeUndefined();
	});

	it('a delete or relist in one context leaves the other alone', () => {
		const {store, prod, dr} = setup();
		put(prod.sink, running);
		put(dr.sink, running);
		dr.sink({type: 'replace', resource: 'ActionSet', namespace: running.metadata!.namespace, objects: []});
		expect(store.getSnapshot().objects.map(o => o.context)).toEqual(['prod']);
		prod.sink({type: 'delete', resource: 'ActionSet', object: running});
		expect(store.getSnapshot().objects).toEqual([]);
	});

	it("each context's state is kept, in order; the run's is their fold", () => {
		const {store, prod, dr} = setup();
		expect(store.getSnapshot().contexts?.map(c => c.name)).toEqual(['prod', 'dr']);
		prod.sink({type: 'connection', state: {status: 'live'}});
		prod.sink({type: 'synced'});
		expect(store.getSnapshot().synced).toBe(false);
		dr.sink({type: 'connection', state: {status: 'reconnecting', attempt: 2, lastError: 'connection refused'}});
		const snap = store.getSnapshot();
		expect(snap.synced).toBe(true);
		expect(snap.connection).toEqual({status: 'reconnecting', attempt: 2, lastError: 'dr: connection refused'});
		expect(snap.contexts).toEqual([
			{name: 'prod', connection: {status: 'live'}, synced: true},
			{name: 'dr', connection: {status: 'reconnecting', attempt: 2, lastError: 'connection refused'}, synced: false},
		]);
	});

	it('a context that fails is its own state, not the run’s: the run fails only when every context did', () => {
		const {store, prod, dr} = setup();
		prod.sink({type: 'fatal', message: 'forbidden: cannot list actionsets', exitCode: exitCodes.cluster});
		expect(store.getSnapshot().fatal).toBeUndefined();
		expect(store.getSnapshot().contexts?.[0]?.fatal).toEqual({message: 'forbidden: cannot list actionsets', exitCode: exitCodes.cluster});
		dr.sink({type: 'fatal', message: 'credentials rejected (401)', exitCode: exitCodes.cluster});
		expect(store.getSnapshot().fatal).toEqual({exitCode: exitCodes.cluster, message: 'prod: forbidden: cannot list actionsets; dr: credentials rejected (401)'});
	});
});

describe('a wait over several contexts', () => {
	function waitFor(store: Store, clock: FakeClock, targets: string[]) {
		return createWaitController({store, clock, wait: true, targets, extendMs: 60_000, graceMs: 0});
	}

	const key = (context: string, o: KubeObject) => objectKey({kind: 'ActionSet', namespace: o.metadata!.namespace!, name: o.metadata!.name!, context});

	it("ends when every context's targets are done", async () => {
		const {store, clock, prod, dr} = setup();
		const wait = waitFor(store, clock, [key('prod', running), key('dr', running)]);
		put(prod.sink, running);
		put(dr.sink, complete);
		prod.sink({type: 'synced'});
		dr.sink({type: 'synced'});
		await flush();
		expect(wait.getSnapshot().phase).toBe('waiting');
		expect(wait.getSnapshot().waitingFor).toMatch(/^prod:/);
		put(prod.sink, complete);
		const result = await wait.done;
		expect(result.exitCode).toBe(exitCodes.ok);
		expect(result.message).toMatch(/^dr:.*\nprod:/);
	});

	it('a failure in one context ends it with 1 once the others are done', async () => {
		const {store, clock, prod, dr} = setup();
		const r = failedRestore.metadata!;
		const wait = waitFor(store, clock, [key('prod', complete), objectKey({kind: 'ActionSet', namespace: r.namespace!, name: r.name!, context: 'dr'})]);
		put(prod.sink, complete);
		put(dr.sink, failedRestore);
		prod.sink({type: 'synced'});
		dr.sink({type: 'synced'});
		expect((await wait.done).exitCode).toBe(exitCodes.failed);
	});

	it('a context that gave up: its targets are not waited for, its code is combined (worst wins)', async () => {
		const {store, clock, prod, dr} = setup();
		const wait = waitFor(store, clock, [key('prod', complete), key('dr', complete)]);
		put(prod.sink, complete);
		prod.sink({type: 'synced'});
		dr.sink({type: 'fatal', message: 'forbidden: cannot list actionsets', exitCode: exitCodes.cluster});
		const result = await wait.done;
		expect(result.exitCode).toBe(exitCodes.cluster);
		// What decided the code comes first (stderr shows the first line), then the run's own words.
		expect(result.message).toMatch(/^context dr: forbidden: cannot list actionsets\n.*complete/);
	});

	it('a target still missing in a context that is down is named with its context, readable', async () => {
		const {store, clock, prod, dr} = setup();
		const wait = waitFor(store, clock, [key('prod', complete), key('dr', complete)]);
		put(prod.sink, running);
		prod.sink({type: 'synced'});
		dr.sink({type: 'connection', state: {status: 'reconnecting', attempt: 1, lastError: 'connection refused'}});
		await flush();
		expect(wait.getSnapshot().waitingFor).toBe(`waiting for dr:ActionSet/${complete.metadata!.namespace}/${complete.metadata!.name} to appear`);
		wait.dispose();
	});

	it('no targets: a context that has not listed yet holds the end until it does', async () => {
		const {store, clock, prod, dr} = setup();
		const wait = waitFor(store, clock, []);
		put(prod.sink, complete);
		prod.sink({type: 'synced'});
		dr.sink({type: 'connection', state: {status: 'reconnecting', attempt: 2, lastError: 'connection refused'}});
		await flush();
		expect(wait.getSnapshot().phase).toBe('waiting');
		expect(wait.getSnapshot().waitingFor).toBe('context dr: still connecting — connection refused (attempt 2)');
		dr.sink({type: 'connection', state: {status: 'live'}});
		put(dr.sink, failedRestore);
		dr.sink({type: 'synced'});
		expect((await wait.done).exitCode).toBe(exitCodes.failed);
	});

	it('no targets: the timeout names the context that never listed', async () => {
		const {store, clock, prod, dr} = setup();
		const wait = createWaitController({store, clock, wait: true, targets: [], timeoutMs: 5000, extendMs: 60_000, graceMs: 0});
		put(prod.sink, complete);
		prod.sink({type: 'synced'});
		dr.sink({type: 'connection', state: {status: 'reconnecting', attempt: 2, lastError: 'connection refused'}});
		await flush();
		clock.advance(6000);
		const result = await wait.done;
		expect(result.exitCode).toBe(exitCodes.timedOut);
		expect(result.message).toMatch(/^timed out after 5s: context dr: still connecting — connection refused \(attempt 2\)/);
	});

	it('a broken kubeconfig entry fails its context alone', () => {
		const clock = new FakeClock();
		const store = new Store(clock);
		const prod = drivenSource();
		createMultiContextSource(
			[{context: 'prod', source: prod}, {context: 'dr', source: failedSource('context dr refers to user x, which is not in the kubeconfig', exitCodes.cluster, 'dr')}],
			'default',
		).start(store.apply);
		expect(store.getSnapshot().contexts?.[1]?.fatal?.message).toMatch(/refers to user x/);
		expect(store.getSnapshot().fatal).toBeUndefined();
	});
});
