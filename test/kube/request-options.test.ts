/**
 * kubectl's client flags in the reflector: `-v=6` logs one line per HTTP request (method, URL, status, time), and
 * `--request-timeout` bounds each list request (0 = none) in place of planwatch's 60 s per list. On 127.0.0.1.
 */
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {loadKubeconfig, type LoadedKubeconfig} from '../../source/kube/kubeconfig.js';
import {listObjects, Reflector, type ReflectorEvent, type ReflectorOptions} from '../../source/kube/list-watch.js';
import {requestLine} from '../../source/kube/request-log.js';
import {resourceTypes} from '../../source/kube/resources.js';
import type {Clock} from '../../source/core/clock.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Recorder, waitUntil} from '../helpers/source-recorder.js';
import {actionSets, WatchServer, writeKubeconfig} from '../helpers/watch-server.js';

let server: WatchServer;
let clock: FakeClock;
let kubeconfig: LoadedKubeconfig;
const running: Reflector[] = [];

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

/** The reflector's timers as it arms them: when each is due, and whether it fired. */
type Armed = {readonly at: number; fired: boolean};
let armed: Armed[] = [];

function start(overrides: Partial<ReflectorOptions> = {}): Recorder<ReflectorEvent> {
	const events = new Recorder<ReflectorEvent>();
	armed = [];
	const tracked: Clock = {
		now: () => clock.now(),
		onTick: listener => clock.onTick(listener),
		after(ms, callback) {
			const timer: Armed = {at: clock.now() + ms, fired: false};
			armed.push(timer);
			return clock.after(ms, () => {
				timer.fired = true;
				callback();
			});
		},
	};
	const reflector = new Reflector({kubeConfig: kubeconfig.kubeConfig, resource: resourceTypes.ActionSet, namespace: 'default', clock: tracked, random: () => 0.5, ...overrides}, events.push);
	running.push(reflector);
	reflector.start();
	return events;
}

const isReconnecting = (e: ReflectorEvent) => e.type === 'state' && e.state.status === 'reconnecting';
const isLive = (e: ReflectorEvent) => e.type === 'state' && e.state.status === 'live';

function lastError(events: Recorder<ReflectorEvent>): string {
	const state = events.events.findLast(e => isReconnecting(e));
	return state?.type === 'state' && state.state.status === 'reconnecting' ? state.state.lastError : '';
}

describe('-v=6: one line per request', () => {
	it('logs the list and the watch, each with method, URL, status and milliseconds', async () => {
		const lines: string[] = [];
		const events = start({log: line => lines.push(line)});
		await events.next('live', isLive);
		const base = `${server.url}/apis/cr.kanister.io/v1alpha1/namespaces/default/actionsets`;
		expect(lines).toHaveLength(2);
		expect(lines[0]).toMatch(new RegExp(`^GET ${base.replaceAll(/[.?/]/g, '\\$&')}\\?limit=500 200 OK in \\d+ milliseconds$`));
		expect(lines[1]).toMatch(/^GET \S+\/actionsets\?watch=true&allowWatchBookmarks=true&resourceVersion=\d+&timeoutSeconds=450 200 OK in \d+ milliseconds$/);
	});

	it('logs a refused request with its status, and one that never connected with why', async () => {
		const lines: string[] = [];
		server.failNext({plural: 'actionsets', watch: false}, 503);
		const events = start({log: line => lines.push(line)});
		await events.next('reconnecting', isReconnecting);
		expect(lines).toEqual([expect.stringMatching(/\?limit=500 503 Service Unavailable in \d+ milliseconds$/)]);

		await server.stop();
		const failed: string[] = [];
		await expect(listObjects({kubeConfig: kubeconfig.kubeConfig, resource: resourceTypes.ActionSet, namespace: 'default', log: line => failed.push(line)})).rejects.toThrow();
		expect(failed).toEqual([expect.stringMatching(/^GET \S+\?limit=500 failed \(ECONNREFUSED 127\.0\.0\.1:\d+\) in \d+ milliseconds$/)]);
	});

	it('shows a hostile URL as one clean line', () => {
		expect(requestLine('GET', 'https://x/\u001B[2J?labelSelector=a\nb', {status: 200}, 3)).toBe('GET https://x/?labelSelector=a ⏎ b 200 OK in 3 milliseconds');
	});
});

describe('--request-timeout', () => {
	it('gives up on a list that does not answer within it (not the 60 s default)', async () => {
		server.holdNext({plural: 'actionsets', watch: false});
		const events = start({requestTimeoutMs: 2000});
		await waitUntil(() => server.count({plural: 'actionsets', watch: false}) === 1, () => events.describe());
		clock.advance(2000);
		await events.next('reconnecting', isReconnecting);
		expect(lastError(events)).toBe('the cluster did not answer a list of actionsets within 2s');
	});

	it('bounds each page of a long list, not the whole list', async () => {
		// The first page answers only 4 s into the list, the second never: the timeout counts from the first answer.
		let firstPage: ((body: string) => void) | undefined;
		server.handleNext({plural: 'actionsets', watch: false, continued: false}, (_request, response) => {
			firstPage = body => {
				response.writeHead(200, {'Content-Type': 'application/json'}).end(body);
			};

			return 200;
		});
		let held = false;
		server.handleNext({plural: 'actionsets', watch: false, continued: true}, () => {
			held = true;
			return 0;
		});
		const events = start({requestTimeoutMs: 5000, listPageSize: 1});
		await waitUntil(() => firstPage !== undefined, () => events.describe());
		clock.advance(4000);
		firstPage!(JSON.stringify({kind: 'ActionSetList', apiVersion: 'cr.kanister.io/v1alpha1', metadata: {resourceVersion: '5', continue: 'page:1'}, items: [{metadata: {name: 'a'}}]}));
		await waitUntil(() => held, () => events.describe());
		// 8 s after the list began (a whole-list bound of 5 s would have fired), 4 s after its second request: the
		// timeout armed when the first page answered is still ahead, none has fired.
		const began = clock.now() - 4000;
		clock.advance(4000);
		expect(armed.filter(t => t.fired)).toEqual([]);
		expect(armed.map(t => t.at - began)).toEqual([5000, 9000]);
		clock.advance(1000);
		await events.next('reconnecting', isReconnecting);
		expect(lastError(events)).toBe('the cluster did not answer page 2 of a list of actionsets within 5s');
	});

	it('0 is no timeout at all, as kubectl\'s: the list is still awaited long after 60 s', async () => {
		server.holdNext({plural: 'actionsets', watch: false});
		const zero = start({requestTimeoutMs: 0});
		await waitUntil(() => server.count({plural: 'actionsets', watch: false}) === 1, () => zero.describe());
		clock.advance(10 * 60_000);
		// The default, for comparison, gives up at 60 s on the same fake clock.
		server.holdNext({plural: 'actionsets', watch: false});
		const byDefault = start();
		await waitUntil(() => server.count({plural: 'actionsets', watch: false}) === 2, () => byDefault.describe());
		clock.advance(60_000);
		await byDefault.next('reconnecting', isReconnecting);
		expect(zero.events.some(e => isReconnecting(e))).toBe(false);
	});
});
