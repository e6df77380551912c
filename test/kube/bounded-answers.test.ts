/**
 * What a hostile server sends is read against limits (issue 19): a watch line that never ends, a LIST body that
 * never ends, a gzip answer that inflates far beyond its size, a continue token handed out again, paging that
 * never stops, a 401 in the middle of a watch. Each ends the request with one line naming what happened, and the
 * reflector reconnects as usual (or, for the 401 a fresh credential does not cure, stops). Small limits keep the
 * tests quick; the defaults are the same code with bigger numbers.
 */
import type http from 'node:http';
import {Readable} from 'node:stream';
import zlib from 'node:zlib';
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {loadKubeconfig, type LoadedKubeconfig} from '../../source/kube/kubeconfig.js';
import {Reflector, type ReflectorEvent, type ReflectorOptions} from '../../source/kube/list-watch.js';
import {resourceTypes} from '../../source/kube/resources.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Recorder, waitUntil} from '../helpers/source-recorder.js';
import {actionSets, WatchServer, writeKubeconfig} from '../helpers/watch-server.js';

let server: WatchServer;
let clock: FakeClock;
let kubeconfig: LoadedKubeconfig;
const running: Reflector[] = [];
const mib = 1024 * 1024;

beforeEach(async () => {
	server = await WatchServer.start();
	clock = new FakeClock();
	kubeconfig = loadKubeconfig({kubeconfig: await writeKubeconfig({server: server.url}), env: {}});
	server.put(actionSets, {metadata: {name: 'a'}});
});

afterEach(async () => {
	await Promise.all(running.splice(0).map(async r => r.stop()));
	await server.close();
});

function start(overrides: Partial<ReflectorOptions> = {}): Recorder<ReflectorEvent> {
	const events = new Recorder<ReflectorEvent>();
	const reflector = new Reflector(
		{kubeConfig: kubeconfig.kubeConfig, resource: resourceTypes.ActionSet, namespace: 'default', clock, random: () => 0.5, maxListBytes: mib, maxEventBytes: mib, ...overrides},
		events.push,
	);
	running.push(reflector);
	reflector.start();
	return events;
}

function lastError(events: Recorder<ReflectorEvent>): string {
	const state = events.events.findLast(e => e.type === 'state' && e.state.status === 'reconnecting');
	return state?.type === 'state' && state.state.status === 'reconnecting' ? state.state.lastError : '';
}

const isReconnecting = (e: ReflectorEvent) => e.type === 'state' && e.state.status === 'reconnecting';
const isLive = (e: ReflectorEvent) => e.type === 'state' && e.state.status === 'live';

/**
 * Write `first`, then `chunk` again and again as fast as the client reads, until it hangs up or `maxChunks`
 * were written (bounded either way). `written()` is how many bytes went out.
 */
function endless(
	status: number,
	first: string,
	chunk: string,
	maxChunks: number,
	headers: http.OutgoingHttpHeaders = {},
): {answer: (request: http.IncomingMessage, response: http.ServerResponse) => number; written: () => number; closed: () => boolean} {
	let written = 0;
	let closed = false;
	return {
		answer(_request, response) {
			response.writeHead(status, {'Content-Type': 'application/json', ...headers});
			response.on('close', () => {
				closed = true;
			});
			response.write(first);
			let chunks = 0;
			const pump = () => {
				while (!closed && chunks < maxChunks) {
					chunks++;
					written += chunk.length;
					if (!response.write(chunk)) {
						response.once('drain', pump);
						return;
					}
				}

				if (!closed) {
					response.end();
				}
			};

			pump();
			return status;
		},
		written: () => written,
		closed: () => closed,
	};
}

describe('a watch event that never ends', () => {
	it('drops the connection past the limit with one line and rewatches as usual', async () => {
		const events = start();
		await events.next('live', isLive);
		// 64 MiB at most, far past the 1 MiB limit: the client must hang up long before.
		const stream = endless(200, '{"type":"ADDED","object":{"metadata":{"name":"', 'x'.repeat(64 * 1024), 1024);
		server.handleNext({plural: 'actionsets', watch: true}, stream.answer);
		// End the open watch after a while (a normal end): the rewatch at once meets the endless line.
		await waitUntil(() => server.openWatchCount === 1, () => events.describe());
		clock.advance(2000);
		server.closeWatches();
		await waitUntil(() => lastError(events).startsWith('an event'), () => `${lastError(events)}\n${events.describe()}`);
		expect(lastError(events)).toBe('an event on the watch of actionsets passed 1 MiB; planwatch stopped reading it');
		await waitUntil(stream.closed, () => `the client kept the endless watch open (${stream.written()} bytes written)`);
		expect(stream.written()).toBeLessThan(32 * mib);
		// Reconnects as usual: after the backoff a normal watch is live again and delivers changes.
		const before = events.events.length;
		await waitUntil(() => {
			clock.advance(1000);
			return events.since(before).some(e => isLive(e));
		}, () => events.describe());
		server.put(actionSets, {metadata: {name: 'b'}});
		await events.next('upsert b', e => e.type === 'upsert' && e.object.metadata?.name === 'b', before);
	});

	it('an event just under the limit is delivered whole', async () => {
		const events = start();
		await events.next('live', isLive);
		server.put(actionSets, {metadata: {name: 'big'}, spec: {note: 'y'.repeat(mib - 4096)}});
		const upsert = await events.next('upsert big', e => e.type === 'upsert' && e.object.metadata?.name === 'big');
		expect(upsert.type === 'upsert' && (upsert.object as {spec?: {note?: string}}).spec?.note?.length).toBe(mib - 4096);
		expect(events.events.some(e => isReconnecting(e))).toBe(false);
	});
});

describe('a LIST answer without end', () => {
	it('a chunked body that never ends is dropped at the byte limit, named, and the list retried', async () => {
		const stream = endless(200, '{"kind":"ActionSetList","items":[', '{"metadata":{"name":"x"}},'.repeat(2000), 10_000);
		server.handleNext({plural: 'actionsets', watch: false}, stream.answer);
		const events = start();
		await events.next('reconnecting', isReconnecting);
		expect(lastError(events)).toBe('the answer to a list of actionsets passed 1 MiB; planwatch stopped reading it');
		await waitUntil(stream.closed, () => 'the client kept reading the endless list');
		expect(stream.written()).toBeLessThan(32 * mib);
		await waitUntil(() => {
			clock.advance(1000);
			return events.events.some(e => e.type === 'replace');
		}, () => events.describe());
		expect(events.events.some(e => e.type === 'failed')).toBe(false);
	});

	it('a small gzip answer that inflates past the limit is counted inflated', async () => {
		// 16 MiB of JSON-ish text, gzipped on the fly to a few KiB: the compressed size says nothing.
		let sent = 0;
		server.handleNext({plural: 'actionsets', watch: false}, (_request, response) => {
			response.writeHead(200, {'Content-Type': 'application/json', 'Content-Encoding': 'gzip'});
			let left = 256;
			const source = new Readable({
				read() {
					this.push(left-- > 0 ? ' '.repeat(64 * 1024) : null);
				},
			});
			const gzip = zlib.createGzip();
			gzip.on('data', (data: Buffer) => {
				sent += data.length;
			});
			source.pipe(gzip).pipe(response);
			return 200;
		});
		const events = start();
		await events.next('reconnecting', isReconnecting);
		expect(lastError(events)).toBe('the answer to a list of actionsets passed 1 MiB; planwatch stopped reading it');
		expect(sent).toBeLessThan(mib);
	});

	it('a list still arriving at the list timeout says so, not "did not answer"', async () => {
		// A trickle: the first bytes, then nothing more (the body neither ends nor grows past the limit).
		server.handleNext({plural: 'actionsets', watch: false}, (_request, response) => {
			response.writeHead(200, {'Content-Type': 'application/json'});
			response.write('{"kind":"ActionSetList","items":[{"metadata":{"name":"x"}},');
			return 200;
		});
		const events = start({listTimeoutMs: 5000});
		await waitUntil(() => server.count({plural: 'actionsets', watch: false}) === 1, () => events.describe());
		await new Promise(resolve => {
			setTimeout(resolve, 50);
		});
		clock.advance(5000);
		await events.next('reconnecting', isReconnecting);
		expect(lastError(events)).toMatch(/^the answer to a list of actionsets was still arriving after 5s \(\d+ bytes so far\); planwatch stopped reading it$/);
	});
});

describe('paging that does not end', () => {
	it('a continue token handed out again is caught at once, named, and backed off', async () => {
		for (let i = 0; i < 3; i++) {
			server.handleNext({plural: 'actionsets', watch: false}, (_request, response) => {
				response.writeHead(200, {'Content-Type': 'application/json'});
				response.end(JSON.stringify({
					kind: 'ActionSetList',
					apiVersion: 'cr.kanister.io/v1alpha1',
					metadata: {resourceVersion: '5', continue: 'same-token'},
					items: [{metadata: {name: 'p'}}],
				}));
				return 200;
			});
		}

		const events = start({listPageSize: 1});
		await events.next('reconnecting', isReconnecting);
		expect(lastError(events)).toBe('the cluster answered 200 OK with a continue token it had already given (page 3 of a list of actionsets would repeat an earlier one); planwatch stopped paging');
		// Two pages asked (the second repeats the first one's token), then nothing until the backoff has passed.
		expect(server.count({plural: 'actionsets', watch: false})).toBe(2);
		await Promise.resolve();
		expect(server.count({plural: 'actionsets', watch: false})).toBe(2);
		clock.advance(1000);
		await waitUntil(() => server.count({plural: 'actionsets', watch: false}) >= 3, () => events.describe());
	});

	it('ever new continue tokens stop at the page limit', async () => {
		let page = 0;
		for (let i = 0; i < 5; i++) {
			server.handleNext({plural: 'actionsets', watch: false}, (_request, response) => {
				page++;
				response.writeHead(200, {'Content-Type': 'application/json'});
				response.end(JSON.stringify({
					kind: 'ActionSetList',
					apiVersion: 'cr.kanister.io/v1alpha1',
					metadata: {resourceVersion: '5', continue: `token-${page}`},
					items: [{metadata: {name: `p${page}`}}],
				}));
				return 200;
			});
		}

		const events = start({listPageSize: 1, maxListPages: 4});
		await events.next('reconnecting', isReconnecting);
		expect(lastError(events)).toBe('the cluster answered 200 OK with page 4 of a list of actionsets and still a continue token (more than 4 pages is beyond any real cluster); ' +
			'planwatch stopped paging');
		expect(server.count({plural: 'actionsets', watch: false})).toBe(4);
	});
});

describe('a 401 or 403 in the middle of a watch, after a good list', () => {
	it('refreshes the credential once; a second 401 ends the reflector with the reason', async () => {
		let refreshed = 0;
		const events = start({refreshCredentials: () => {
			refreshed++;
		}});
		await events.next('live', isLive);
		server.setTokens({});
		// A normal end of the watch (not at once): the rewatch is made at once, and meets the 401.
		clock.advance(2000);
		server.closeWatches();
		// The first 401: credential refreshed, retried after the backoff.
		await events.next('reconnecting', isReconnecting);
		await waitUntil(() => server.count({status: 401}) >= 1, () => events.describe());
		expect(refreshed).toBe(1);
		await waitUntil(() => {
			clock.advance(1000);
			return events.events.some(e => e.type === 'failed');
		}, () => events.describe());
		const failed = events.events.find(e => e.type === 'failed');
		expect(failed?.type === 'failed' && failed.failure).toEqual({
			kind: 'unauthorized',
			statusCode: 401,
			message: 'credentials rejected (401) while watching, and again on retry: log in again, e.g. refresh your token',
		});
		expect(server.count({status: 401})).toBe(2);
		expect(refreshed).toBe(1);
	});

	it('a 401 the refresh cures is forgotten: the watch goes on', async () => {
		const events = start({refreshCredentials: () => {
			server.setTokens({'test-token': 'tester'});
		}});
		await events.next('live', isLive);
		server.setTokens({});
		// A normal end of the watch (not at once): the rewatch is made at once, and meets the 401.
		clock.advance(2000);
		server.closeWatches();
		await events.next('reconnecting', isReconnecting);
		const before = events.events.length;
		await waitUntil(() => {
			clock.advance(1000);
			return events.since(before).some(e => isLive(e));
		}, () => events.describe());
		expect(events.events.some(e => e.type === 'failed')).toBe(false);
	});

	it('a 403 on the watch after a good list: one is retried (a webhook may fail once), the second ends it', async () => {
		const events = start();
		await events.next('live', isLive);
		server.forbid('tester', 'actionsets', ['watch']);
		clock.advance(2000);
		server.closeWatches();
		await events.next('reconnecting', isReconnecting);
		await waitUntil(() => {
			clock.advance(1000);
			return events.events.some(e => e.type === 'failed');
		}, () => events.describe());
		const failed = events.events.find(e => e.type === 'failed');
		expect(failed?.type === 'failed' && failed.failure.kind).toBe('forbidden');
		expect(failed?.type === 'failed' && failed.failure.message).toMatch(/^forbidden: user tester cannot watch actionsets\.cr\.kanister\.io in namespace default; /);
		expect(server.count({watch: true, status: 403})).toBe(2);
	});
});
