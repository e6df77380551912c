/**
 * The cluster source end to end against the in-process watch server: which collections it watches for
 * which targets, how it merges them, which start-up failures are fatal, and the connection state.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {createClusterSource, type ClusterSourceOptions} from '../../source/sources/cluster-source.js';
import {loadKubeconfig, type LoadedKubeconfig} from '../../source/kube/kubeconfig.js';
import {Reflector} from '../../source/kube/list-watch.js';
import {resourceTypes} from '../../source/kube/resources.js';
import type {ObjectSource, SourceEvent} from '../../source/state/object-source.js';
import type {Target} from '../../source/model/targets.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Recorder, waitUntil} from '../helpers/source-recorder.js';
import {actionSets, blueprints, events as eventsResource, instances, operatorVersions, WatchServer, writeKubeconfig, type KubeconfigSpec, type ResourceDef} from '../helpers/watch-server.js';

let server: WatchServer;
let clock: FakeClock;
let sources: ObjectSource[] = [];

function summary(event: SourceEvent): string {
	switch (event.type) {
		case 'replace': {
			return `replace ${event.resource}${event.namespace === undefined ? '' : ` ns=${event.namespace}`} [${event.objects.map(o => o.metadata?.name).sort().join(', ')}]`;
		}

		case 'upsert':
		case 'delete': {
			return `${event.type} ${event.resource} ${event.object.metadata?.namespace}/${event.object.metadata?.name}`;
		}

		case 'synced': {
			return 'synced';
		}

		case 'connection': {
			return `connection ${JSON.stringify(event.state)}`;
		}

		case 'fatal': {
			return `fatal ${event.exitCode}: ${event.message}`;
		}

		case 'missing': {
			return `missing ${event.resource}: ${event.message}`;
		}

		case 'log': {
			return `log ${event.namespace}/${event.pod}/${event.container}${event.previous ? ' previous' : ''}: ${event.error ?? event.text}`;
		}
	}
}

async function kubeconfig(spec: Partial<KubeconfigSpec> = {}): Promise<LoadedKubeconfig> {
	return loadKubeconfig({kubeconfig: await writeKubeconfig({server: server.url, ...spec}), env: {}});
}

async function start(options: Partial<ClusterSourceOptions> & {targets?: Target[]} = {}): Promise<Recorder<SourceEvent>> {
	const events = new Recorder<SourceEvent>(summary);
	const source = createClusterSource({
		kubeconfig: options.kubeconfig ?? await kubeconfig(),
		namespace: 'default',
		clock,
		random: () => 0.5,
		...options,
		targets: options.targets ?? [],
	});
	sources.push(source);
	source.start(events.push);
	return events;
}

const isFatal = (e: SourceEvent): e is Extract<SourceEvent, {type: 'fatal'}> => e.type === 'fatal';
const isSynced = (e: SourceEvent) => e.type === 'synced';

async function fatalOf(events: Recorder<SourceEvent>): Promise<string> {
	return summary(await events.next('fatal', isFatal));
}

/** The fatal line, with the fake clock moving meanwhile (a supporting kind's failure waits on the clock). */
/** Moves the clock on by `stepMs` every 10 ms of real time while `work` runs, so that retries and backoffs come due. */
async function whileTicking<T>(work: () => Promise<T>, stepMs: number): Promise<T> {
	const ticker = setInterval(() => {
		clock.advance(stepMs);
	}, 10);
	try {
		return await work();
	} finally {
		clearInterval(ticker);
	}
}

async function fatalWhileTicking(events: Recorder<SourceEvent>): Promise<string> {
	return whileTicking(async () => fatalOf(events), 100);
}

function watchedPaths(): string[] {
	return [...new Set(server.requests.map(r => `${r.path}${r.query['fieldSelector'] ? `?${r.query['fieldSelector']}` : ''}`))].sort();
}

function object(def: ResourceDef, name: string, namespace = 'default', extra: Record<string, unknown> = {}) {
	return server.put(def, {metadata: {name, namespace}, ...extra});
}

beforeEach(async () => {
	server = await WatchServer.start();
	clock = new FakeClock();
});

afterEach(async () => {
	await Promise.all(sources.map(async s => s.stop()));
	sources = [];
	await server.close();
});

describe('cluster source: what it watches', () => {
	it('no targets: every Instance and ActionSet in scope, plus OperatorVersions, Blueprints and Events; then synced and live', async () => {
		object(instances, 'mysql-instance');
		object(operatorVersions, 'mysql-5.7-0.3.0');
		object(actionSets, 'backup-glptq');
		object(blueprints, 'postgres-bp');
		object(eventsResource, 'ev1', 'default', {involvedObject: {kind: 'ActionSet', name: 'backup-glptq', namespace: 'default'}});
		object(actionSets, 'not-in-scope', 'other');

		const events = await start();
		await events.waitFor('synced and live', all => all.some(e => isSynced(e)) && all.some(e => e.type === 'connection' && e.state.status === 'live'));
		const replaces = events.events.filter(e => e.type === 'replace').map(e => summary(e)).sort();
		expect(replaces).toEqual([
			'replace ActionSet ns=default [backup-glptq]',
			'replace Blueprint ns=default [postgres-bp]',
			'replace Event ns=default [ev1]',
			'replace Instance ns=default [mysql-instance]',
			'replace OperatorVersion ns=default [mysql-5.7-0.3.0]',
		]);
		// synced comes after every replace.
		const syncedAt = events.events.findIndex(e => isSynced(e));
		expect(events.events.slice(syncedAt).some(e => e.type === 'replace')).toBe(false);
		expect(events.events[0]).toEqual({type: 'connection', state: {status: 'connecting'}});
		expect(watchedPaths()).toEqual([
			'/api/v1/namespaces/default/events',
			'/apis/cr.kanister.io/v1alpha1/namespaces/default/actionsets',
			'/apis/cr.kanister.io/v1alpha1/namespaces/default/blueprints',
			'/apis/kudo.dev/v1beta1/namespaces/default/instances',
			'/apis/kudo.dev/v1beta1/namespaces/default/operatorversions',
		]);

		const from = events.events.length;
		object(actionSets, 'backup-glptq', 'default', {status: {state: 'running'}});
		server.remove(instances, 'mysql-instance');
		await events.waitFor('changes', all => all.length >= from + 2);
		expect(events.since(from).map(e => summary(e))).toEqual(['upsert ActionSet default/backup-glptq', 'delete Instance default/mysql-instance']);
	});

	it('objects are kept without managedFields and the last-applied annotation (listed and watched)', async () => {
		const heavy = {managedFields: [{manager: 'kubectl', fieldsV1: {'f:spec': {}}}], annotations: {'kubectl.kubernetes.io/last-applied-configuration': '{}', team: 'a'}};
		server.put(actionSets, {metadata: {name: 'listed', namespace: 'default', ...heavy}});
		const events = await start();
		await events.waitFor('synced', all => all.some(e => isSynced(e)));
		const from = events.events.length;
		server.put(actionSets, {metadata: {name: 'watched', namespace: 'default', ...heavy}});
		await events.waitFor('the upsert', all => all.slice(from).some(e => e.type === 'upsert'));
		const kept = events.events.flatMap(e => (e.type === 'replace' && e.resource === 'ActionSet' ? e.objects : e.type === 'upsert' ? [e.object] : []));
		expect(kept.map(o => o.metadata?.name)).toEqual(['listed', 'watched']);
		for (const o of kept) {
			expect(o.metadata?.['managedFields']).toBeUndefined();
			expect(o.metadata?.['annotations']).toEqual({team: 'a'});
		}
	});

	it('one ActionSet target: a field selector on its name (and on its events), no KUDO requests', async () => {
		object(actionSets, 'backup-glptq');
		object(actionSets, 'other');
		const events = await start({targets: [{kind: 'ActionSet', name: 'backup-glptq'}]});
		await events.next('synced', isSynced);
		expect(watchedPaths()).toEqual([
			'/api/v1/namespaces/default/events?involvedObject.name=backup-glptq',
			'/apis/cr.kanister.io/v1alpha1/namespaces/default/actionsets?metadata.name=backup-glptq',
			'/apis/cr.kanister.io/v1alpha1/namespaces/default/blueprints',
		]);
		expect(events.events.filter(e => e.type === 'replace' && e.resource === 'ActionSet').map(e => summary(e))).toEqual(['replace ActionSet ns=default [backup-glptq]']);
	});

	it('several targets of one kind: the store gets their union, and a relist of one keeps the other', async () => {
		object(instances, 'kafka');
		object(instances, 'zookeeper');
		object(instances, 'unrelated');
		const events = await start({targets: [{kind: 'Instance', name: 'kafka'}, {kind: 'Instance', name: 'zookeeper'}, {kind: 'Instance', name: 'kafka'}]});
		await events.waitFor('synced and live', all => all.some(e => isSynced(e)) && all.some(e => e.type === 'connection' && e.state.status === 'live'));
		expect(summary(events.events.filter(e => e.type === 'replace' && e.resource === 'Instance').at(-1)!)).toBe('replace Instance ns=default [kafka, zookeeper]');
		expect(server.count({plural: 'instances', watch: false})).toBe(2);
		expect(watchedPaths()).toContain('/api/v1/namespaces/default/events');

		// Force relists: the kafka reflector's replace must still carry zookeeper.
		const from = events.events.length;
		server.compact();
		server.expiredAs = 'status';
		object(operatorVersions, 'bump'); // move the RV past every watch
		server.compact();
		clock.advance(5000);
		server.closeWatches('instances');
		await events.waitFor('two relists', all => all.slice(from).filter(e => e.type === 'replace' && e.resource === 'Instance').length >= 2);
		for (const replace of events.since(from).filter(e => e.type === 'replace' && e.resource === 'Instance')) {
			expect(summary(replace)).toBe('replace Instance ns=default [kafka, zookeeper]');
		}
	});

	it('all namespaces: collections without a namespace, replace without one', async () => {
		object(actionSets, 'a', 'one');
		object(instances, 'b', 'two');
		const events = await start({namespace: undefined, selector: 'team=db'});
		await events.next('synced', isSynced);
		expect(watchedPaths()).toEqual([
			'/api/v1/events',
			'/apis/cr.kanister.io/v1alpha1/actionsets',
			'/apis/cr.kanister.io/v1alpha1/blueprints',
			'/apis/kudo.dev/v1beta1/instances',
			'/apis/kudo.dev/v1beta1/operatorversions',
		]);
		expect(events.events.filter(e => e.type === 'replace').every(e => e.type === 'replace' && e.namespace === undefined)).toBe(true);
		const selectors = server.requests.filter(r => r.plural === 'actionsets' || r.plural === 'instances').map(r => r.query['labelSelector']);
		expect(new Set(selectors)).toEqual(new Set(['team=db']));
		expect(server.requests.filter(r => r.plural === 'events').every(r => r.query['labelSelector'] === undefined)).toBe(true);
	});
});

describe('cluster source: CRDs that are not installed', () => {
	it('KUDO missing and nothing named: Kanister alone is fine', async () => {
		await server.close();
		server = await WatchServer.start({resources: [actionSets, blueprints, eventsResource]});
		object(actionSets, 'backup');
		const events = await start();
		await events.next('synced', isSynced);
		expect(events.events.some(e => isFatal(e))).toBe(false);
		await events.waitFor('live', all => all.some(e => e.type === 'connection' && e.state.status === 'live'));
		expect(events.events.filter(e => e.type === 'replace').map(e => e.type === 'replace' && e.resource).sort()).toEqual(['ActionSet', 'Blueprint', 'Event']);
	});

	it('KUDO missing and an Instance named: fatal', async () => {
		await server.close();
		server = await WatchServer.start({resources: [actionSets, blueprints, eventsResource]});
		const events = await start({targets: [{kind: 'Instance', name: 'mysql'}]});
		expect(await fatalOf(events)).toBe('fatal 4: KUDO is not installed in this cluster: no instances.kudo.dev');
	});

	it('Kanister missing and an ActionSet named: fatal', async () => {
		await server.close();
		server = await WatchServer.start({resources: [instances, operatorVersions, eventsResource]});
		const events = await start({targets: [{kind: 'ActionSet', name: 'backup'}]});
		expect(await fatalOf(events)).toBe('fatal 4: Kanister is not installed in this cluster: no actionsets.cr.kanister.io');
	});

	it('neither installed: fatal', async () => {
		await server.close();
		server = await WatchServer.start({resources: [eventsResource]});
		const events = await start();
		expect(await fatalOf(events)).toBe('fatal 4: neither KUDO nor Kanister is installed in this cluster: no instances.kudo.dev, no actionsets.cr.kanister.io');
		expect(events.events.filter(e => isFatal(e))).toHaveLength(1);
	});
});

describe('cluster source: named objects that do not exist', () => {
	it('suggests the generated name that was meant', async () => {
		object(actionSets, 'foo-x7k2q');
		object(actionSets, 'bar');
		const events = await start({targets: [{kind: 'ActionSet', name: 'foo'}]});
		expect(await fatalOf(events)).toBe('fatal 4: actionset default/foo not found (did you mean foo-x7k2q?)');
		expect(events.events.some(e => isSynced(e))).toBe(false);
	});

	it('points at the namespace where it does exist', async () => {
		object(instances, 'mysql-instance', 'databases');
		const events = await start({targets: [{kind: 'Instance', name: 'mysql-instance'}]});
		expect(await fatalOf(events)).toBe('fatal 4: instance default/mysql-instance not found (it exists in namespace databases: use -n databases)');
	});

	it('without a near miss, just not found', async () => {
		const events = await start({targets: [{kind: 'Instance', name: 'mysql-instance'}]});
		expect(await fatalOf(events)).toBe('fatal 4: instance default/mysql-instance not found');
	});
});

describe('cluster source: start-up failures are one fatal line', () => {
	it('a 403 on events degrades: the targets are watched without them, and the source says what is missing and why', async () => {
		server.forbid('tester', 'events');
		server.put(actionSets, {metadata: {name: 'backup-x'}, spec: {actions: [{name: 'backup'}]}});
		const events = await start({targets: [{kind: 'ActionSet', name: 'backup-x'}]});
		await events.next('synced', isSynced);
		expect(events.events.filter(e => e.type === 'missing').map(e => summary(e))).toEqual([
			'missing Event: events not watched: forbidden: user tester cannot list events in namespace default; planwatch needs get/list/watch on instances, operatorversions (kudo.dev), ' +
			'actionsets, blueprints (cr.kanister.io) and events',
		]);
		clock.advance(5000);
		expect(events.events.some(e => e.type === 'fatal')).toBe(false);
		// The targets keep being watched.
		server.put(actionSets, {metadata: {name: 'backup-x'}, spec: {actions: [{name: 'backup'}]}, status: {state: 'running'}});
		await events.next('the update', e => e.type === 'upsert' && e.resource === 'ActionSet');
	});

	it('a 403 on blueprints and operatorversions degrades too', async () => {
		server.forbid('tester', 'blueprints');
		server.forbid('tester', 'operatorversions');
		const events = await start();
		await events.next('synced', isSynced);
		expect(events.events.filter(e => e.type === 'missing').map(e => e.type === 'missing' && e.resource).sort()).toEqual(['Blueprint', 'OperatorVersion']);
		expect(events.events.some(e => e.type === 'fatal')).toBe(false);
	});

	it('a 403 on the target kind is reported rather than one on a supporting kind', async () => {
		server.forbid('tester', 'blueprints');
		server.forbid('tester', 'actionsets');
		const events = await start({targets: [{kind: 'ActionSet', name: 'backup-x'}]});
		expect(await fatalWhileTicking(events)).toMatch(/^fatal 4: forbidden: user tester cannot list actionsets\.cr\.kanister\.io/);
	});

	it('a Kanister-only user watching everything: Instances skipped with a note, the ActionSets drawn', async () => {
		server.forbid('tester', 'instances');
		server.forbid('tester', 'operatorversions');
		object(actionSets, 'backup-x');
		const events = await start();
		await events.next('synced', isSynced);
		expect(events.events.filter(e => e.type === 'missing').map(e => summary(e))).toEqual([
			expect.stringMatching(/^missing Instance: instances\.kudo\.dev not watched: forbidden: user tester cannot list instances\.kudo\.dev in namespace default/) as string,
		]);
		clock.advance(5000);
		expect(events.events.some(e => isFatal(e))).toBe(false);
		expect(events.events.filter(e => e.type === 'replace' && e.resource === 'ActionSet').map(e => summary(e)).at(-1)).toBe('replace ActionSet ns=default [backup-x]');
	});

	it('a KUDO-only user watching everything: ActionSets skipped with a note', async () => {
		server.forbid('tester', 'actionsets');
		server.forbid('tester', 'blueprints');
		object(instances, 'mysql');
		const events = await start();
		await events.next('synced', isSynced);
		expect(events.events.filter(e => e.type === 'missing').map(e => e.type === 'missing' && e.resource)).toEqual(['ActionSet']);
		clock.advance(5000);
		expect(events.events.some(e => isFatal(e))).toBe(false);
	});

	it('a left-out product is one line even when its supporting kind\'s 403 comes first', async () => {
		server.forbid('tester', 'actionsets');
		server.forbid('tester', 'blueprints');
		// The first LIST of actionsets answers 503: the blueprints' 403 arrives while it retries.
		server.failNext({plural: 'actionsets'}, 503);
		object(instances, 'mysql');
		const events = await start();
		await whileTicking(async () => events.next('synced', isSynced), 200);

		expect(events.events.filter(e => e.type === 'missing').map(e => e.type === 'missing' && e.resource)).toEqual(['ActionSet']);
	});

	it('a supporting kind\'s 403 is said once its product\'s own kind has listed', async () => {
		server.forbid('tester', 'blueprints');
		server.failNext({plural: 'actionsets'}, 503);
		object(actionSets, 'backup-x');
		const events = await start();
		await whileTicking(async () => events.next('synced', isSynced), 200);

		const order = events.events.map(e => (e.type === 'missing' ? `missing ${e.resource}` : e.type === 'replace' ? `replace ${e.resource}` : '')).filter(Boolean);
		expect(order.filter(line => line.startsWith('missing'))).toEqual(['missing Blueprint']);
		expect(order.indexOf('missing Blueprint')).toBeGreaterThan(order.indexOf('replace ActionSet'));
	});

	it('nothing readable at all: one fatal forbidden line', async () => {
		server.forbid('tester', 'instances');
		server.forbid('tester', 'actionsets');
		const events = await start();
		expect(await fatalWhileTicking(events)).toMatch(/^fatal 4: forbidden: user tester cannot list (instances\.kudo\.dev|actionsets\.cr\.kanister\.io)/);
		expect(events.events.filter(e => isFatal(e))).toHaveLength(1);
	});

	it('Kanister forbidden and KUDO not installed: the forbidden line, exit 4', async () => {
		await server.close();
		server = await WatchServer.start({resources: [actionSets, blueprints, eventsResource]});
		server.forbid('tester', 'actionsets');
		const events = await start();
		expect(await fatalWhileTicking(events)).toMatch(/^fatal 4: forbidden: user tester cannot list actionsets\.cr\.kanister\.io/);
	});

	it('one kind asked for (planwatch actionsets): only its collections, and a 403 on it is fatal', async () => {
		object(actionSets, 'backup-x');
		object(instances, 'mysql');
		const events = await start({kinds: ['ActionSet']});
		await events.next('synced', isSynced);
		expect(new Set(server.requests.map(r => r.plural))).toEqual(new Set(['actionsets', 'blueprints', 'events']));
		server.forbid('tester', 'actionsets');
		const forbidden = await start({kinds: ['ActionSet']});
		expect(await fatalWhileTicking(forbidden)).toMatch(/^fatal 4: forbidden: user tester cannot list actionsets/);
	});

	it('401', async () => {
		const events = await start({kubeconfig: await kubeconfig({token: 'expired'})});
		expect(await fatalOf(events)).toBe('fatal 4: credentials rejected (401): log in again, e.g. refresh your token');
	});

	it('unreachable', async () => {
		const loaded = await kubeconfig();
		await server.stop();
		const events = await start({kubeconfig: loaded});
		expect(await fatalOf(events)).toBe(`fatal 4: cannot reach the cluster at 127.0.0.1:${server.port}: connection refused`);
	});

	it('a selector the server cannot parse is exit 2', async () => {
		const events = await start({selector: '=x'});
		expect(await fatalOf(events)).toBe('fatal 2: the cluster rejected the request (400): unable to parse requirement: =x');
	});
});

describe('cluster source: connection state', () => {
	it('live → reconnecting (attempt, reason) → live; never fatal once running', async () => {
		object(actionSets, 'a');
		const events = await start({targets: [{kind: 'ActionSet', name: 'a'}]});
		await events.waitFor('live', all => all.some(e => e.type === 'connection' && e.state.status === 'live'));
		const from = events.events.length;
		await server.stop();
		await events.next('reconnecting', e => e.type === 'connection' && e.state.status === 'reconnecting', from);
		await waitUntil(() => {
			clock.advance(1000);
			return events.since(from).some(e => e.type === 'connection' && e.state.status === 'reconnecting' && e.state.lastError.includes('connection refused'));
		}, () => events.describe());
		await server.restart();
		await waitUntil(() => {
			clock.advance(1000);
			return events.since(from).some(e => e.type === 'connection' && e.state.status === 'live');
		}, () => events.describe());
		expect(events.events.some(e => isFatal(e))).toBe(false);
	});
});

describe('cluster source: exec credential plugins', () => {
	let dir: string;

	beforeEach(async () => {
		dir = await fs.mkdtemp(path.join(os.tmpdir(), 'planwatch-exec-'));
	});

	afterEach(async () => {
		await fs.rm(dir, {recursive: true, force: true});
	});

	async function plugin(name: string, body: string): Promise<string> {
		const file = path.join(dir, name);
		await fs.writeFile(file, `#!/bin/sh\n${body}\n`, {mode: 0o755});
		return file;
	}

	it('shows "waiting for credentials" while the plugin runs, then connects with its token', async () => {
		const gate = path.join(dir, 'gate');
		const command = await plugin('fake-login', [
			// Stands in for a login that waits on the user; the test opens the gate.
			`while [ ! -f '${gate}' ]; do [ -d '${dir}' ] || exit 1; sleep 0.02; done`,
			'echo \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"test-token"}}\'',
		].join('\n'));
		object(actionSets, 'a');
		const events = await start({kubeconfig: await kubeconfig({exec: {command}})});
		await events.next('waiting', e => e.type === 'connection' && e.state.status === 'waiting-credentials');
		expect(events.events[0]).toEqual({type: 'connection', state: {status: 'waiting-credentials', plugin: 'fake-login', limitMs: 180_000}});
		expect(server.requests).toHaveLength(0);
		await fs.writeFile(gate, '');
		await events.next('synced', isSynced);
		await events.waitFor('live', all => all.some(e => e.type === 'connection' && e.state.status === 'live'));
		expect(events.events.some(e => isFatal(e))).toBe(false);
	});

	it('stop() does not wait for a plugin that is still prompting (source and reflector)', async () => {
		const gate = path.join(dir, 'gate');
		// Exits on its own if the test's directory goes away first, so no process outlives the test.
		const command = await plugin('slow-login', `while [ ! -f '${gate}' ]; do [ -d '${dir}' ] || exit 1; sleep 0.02; done\necho '{"status":{"token":"test-token"}}'`);
		const loaded = await kubeconfig({exec: {command}});
		try {
			const events = await start({kubeconfig: loaded});
			await events.next('waiting', e => e.type === 'connection' && e.state.status === 'waiting-credentials');
			await sources.pop()!.stop();

			const reflector = new Reflector({kubeConfig: loaded.kubeConfig, resource: resourceTypes.ActionSet, namespace: 'default', clock}, () => undefined);
			reflector.start();
			await reflector.stop();
			expect(server.requests).toHaveLength(0);
		} finally {
			await fs.writeFile(gate, '');
		}
	});

	it('a failing plugin is one fatal line with its first stderr line', async () => {
		const command = await plugin('broken-login', 'echo "error: refresh token expired" >&2\necho "details" >&2\nexit 1');
		const events = await start({kubeconfig: await kubeconfig({exec: {command}})});
		expect(await fatalOf(events)).toBe('fatal 4: credential plugin broken-login failed: error: refresh token expired');
	});

	it('a plugin that is not installed', async () => {
		const events = await start({kubeconfig: await kubeconfig({exec: {command: path.join(dir, 'no-such-login')}})});
		expect(await fatalOf(events)).toBe('fatal 4: credential plugin no-such-login not found: install it or fix users[].exec.command in the kubeconfig');
	});
});

describe('cluster source: stop', () => {
	it('emits nothing after stop', async () => {
		object(actionSets, 'a');
		const source = createClusterSource({kubeconfig: await kubeconfig(), namespace: 'default', clock, targets: []});
		const events = new Recorder<SourceEvent>(summary);
		source.start(events.push);
		await events.next('synced', isSynced);
		await source.stop();
		const count = events.events.length;
		await waitUntil(() => server.openWatchCount === 0, () => `open watches: ${server.openWatchCount}`);
		object(actionSets, 'b');
		expect(events.events).toHaveLength(count);
		expect(source.label).toBe('watch-server');
		expect(source.scope).toBe('default');
	});
});
