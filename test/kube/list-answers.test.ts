/**
 * Answers to the first LIST that are not a list (a proxy's 503 page, a 429, `[]`, invalid or cut-off JSON): each
 * is one clear line in the reconnecting state, retried, and the reflector lists once the server behaves. Also
 * LIST paging with limit/continue, and a continue token the server has expired (410: start over).
 */
import {afterEach, beforeEach, describe, expect, it} from 'vitest';
import {loadKubeconfig, type LoadedKubeconfig} from '../../source/kube/kubeconfig.js';
import {Reflector, type ReflectorEvent} from '../../source/kube/list-watch.js';
import {resourceTypes} from '../../source/kube/resources.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Recorder, waitUntil} from '../helpers/source-recorder.js';
import {actionSets, WatchServer, writeKubeconfig, type RawAnswer} from '../helpers/watch-server.js';

let server: WatchServer;
let clock: FakeClock;
let kubeconfig: LoadedKubeconfig;
const running: Reflector[] = [];

beforeEach(async () => {
	server = await WatchServer.start();
	clock = new FakeClock();
	kubeconfig = loadKubeconfig({kubeconfig: await writeKubeconfig({server: server.url}), env: {}});
});

afterEach(async () => {
	await Promise.all(running.splice(0).map(async r => r.stop()));
	await server.close();
});

function start(listPageSize?: number): Recorder<ReflectorEvent> {
	const events = new Recorder<ReflectorEvent>();
	const reflector = new Reflector(
		{kubeConfig: kubeconfig.kubeConfig, resource: resourceTypes.ActionSet, namespace: 'default', clock, random: () => 0.5, ...(listPageSize === undefined ? {} : {listPageSize})},
		events.push,
	);
	running.push(reflector);
	reflector.start();
	return events;
}

const html = '<!DOCTYPE html><html><head><title>503 Service Temporarily Unavailable</title></head><body><center>nginx</center></body></html>';

describe('answers to the first LIST that are not a list', () => {
	it.each<[string, RawAnswer, string]>([
		['a 503 HTML page', {status: 503, body: html, contentType: 'text/html'}, 'the cluster answered 503 Service Unavailable with an HTML page ("503 Service Temporarily Unavailable")'],
		[
			'a 429 Status',
			{status: 429, body: JSON.stringify({kind: 'Status', code: 429, message: 'too many requests, please try again later'})},
			'the cluster answered 429 Too Many Requests: too many requests, please try again later',
		],
		['a 200 HTML page', {status: 200, body: html, contentType: 'text/html'}, 'the cluster answered 200 OK with an HTML page ("503 Service Temporarily Unavailable"), not a list of actionsets'],
		['a 200 []', {status: 200, body: '[]'}, 'the cluster answered 200 OK with a JSON array, not a list of actionsets'],
		[
			'a 200 with invalid JSON',
			{status: 200, body: '{"kind":"ActionSetList","items":[{"metadata":'},
			'the cluster answered 200 OK with a truncated or invalid JSON document, not a list of actionsets',
		],
		['a 200 body cut off mid-way', {status: 200, body: '{"kind":"ActionSetList","items":[', truncate: true}, 'the cluster answered 200 OK with a body that was cut off'],
	])('%s: one line, retried, then listed', async (_name, answer, message) => {
		server.put(actionSets, {metadata: {name: 'a'}});
		server.answerNext({plural: 'actionsets', watch: false}, answer);
		const events = start();
		const state = await events.next('reconnecting', e => e.type === 'state' && e.state.status === 'reconnecting');
		const lastError = state.type === 'state' && state.state.status === 'reconnecting' ? state.state.lastError : '';
		expect(lastError.startsWith(message), lastError).toBe(true);
		expect(lastError).not.toMatch(/502|<|\n/);
		await waitUntil(() => {
			clock.advance(1000);
			return events.events.some(e => e.type === 'replace');
		}, () => 'a replace after the retry');
		expect(events.events.some(e => e.type === 'failed')).toBe(false);
	});
});

describe('LIST pages', () => {
	it('lists in pages of the page size with limit/continue and hands over every object once', async () => {
		for (let i = 0; i < 12; i++) {
			server.put(actionSets, {metadata: {name: `a${String(i).padStart(2, '0')}`}});
		}

		const events = start(5);
		const replace = await events.next('replace', e => e.type === 'replace');
		expect(replace.type === 'replace' && replace.objects.map(o => o.metadata?.name)).toEqual(Array.from({length: 12}, (_, i) => `a${String(i).padStart(2, '0')}`));
		const lists = server.requests.filter(r => r.plural === 'actionsets' && !r.watch);
		expect(lists.map(r => [r.query['limit'], r.query['continue'] ?? ''])).toEqual([['5', ''], ['5', 'page:5'], ['5', 'page:10']]);
	});

	it('a continue token the server has expired (410) starts the list over from scratch', async () => {
		for (let i = 0; i < 7; i++) {
			server.put(actionSets, {metadata: {name: `b${i}`}});
		}

		server.failNext({plural: 'actionsets', watch: false, continued: true}, 410);
		const events = start(5);
		const replace = await events.next('replace', e => e.type === 'replace');
		expect(replace.type === 'replace' && replace.objects.length).toBe(7);
		const lists = server.requests.filter(r => r.plural === 'actionsets' && !r.watch);
		expect(lists.map(r => [r.query['continue'] ?? '', r.status])).toEqual([['', 200], ['page:5', 410], ['', 200], ['page:5', 200]]);
		expect(events.events.some(e => e.type === 'state' && e.state.status === 'reconnecting')).toBe(false);
	});
});
