/**
 * `--record` over several contexts: every line names its context and the header keeps the keys the run waited for
 * (their context separator included), so a replay rebuilds each context's objects and states apart.
 */
import {describe, expect, it} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {objectKey} from '../../source/model/plan-tree.js';
import {encodeEntry, encodeHeader, parseRecording, type RecordedEvent} from '../../source/recording/recording.js';
import {Store} from '../../source/state/store.js';
import {FakeClock} from '../helpers/fake-clock.js';

const start = Date.parse('2026-11-30T11:00:00Z');
const waitFor = [objectKey({kind: 'Instance', namespace: 'prod', name: 'mysql', context: 'east'}), objectKey({kind: 'Instance', namespace: 'prod', name: 'mysql', context: 'west'})];

function instance(status: string): KubeObject {
	return {apiVersion: 'kudo.dev/v1beta1', kind: 'Instance', metadata: {name: 'mysql', namespace: 'prod'}, status: {planStatus: {deploy: {status}}}};
}

const events: RecordedEvent[] = [
	{type: 'connection', context: 'east', state: {status: 'live'}},
	{type: 'connection', context: 'west', state: {status: 'reconnecting', attempt: 1, lastError: 'connection refused'}},
	{type: 'upsert', context: 'east', resource: 'Instance', object: instance('IN_PROGRESS')},
	{type: 'upsert', context: 'west', resource: 'Instance', object: instance('COMPLETE')},
	{type: 'fatal', context: 'west', message: 'forbidden', exitCode: 4},
	{type: 'synced'},
	{type: 'end'},
];

describe('a recording of several contexts', () => {
	const text = encodeHeader({version: '0.1.0', source: 'cluster', context: 'east, west', namespace: 'prod', targets: ['instance/mysql'], waitFor, start: new Date(start).toISOString()})
		+ events.map((e, i) => encodeEntry(start + i, e)).join('');

	it('names the context on every line that has one', () => {
		const lines = text.trim().split('\n').slice(1).map(l => JSON.parse(l) as {context?: string; type: string});
		expect(lines.map(l => l.context)).toEqual(['east', 'west', 'east', 'west', 'west', undefined, undefined]);
	});

	it('reads back the same events and wait keys; replayed into a store, each context is its own', () => {
		const recording = parseRecording(text, 'rec.ndjson');
		expect(recording.header.waitFor).toEqual(waitFor);
		expect(recording.entries.map(e => e.event)).toEqual(events);
		const store = new Store(new FakeClock());
		for (const e of recording.entries) {
			if (e.event.type !== 'end') {
				store.apply(e.event);
			}
		}

		const snap = store.getSnapshot();
		expect(snap.objects.map(o => [o.context, o.state])).toEqual([['east', 'running'], ['west', 'succeeded']]);
		expect(snap.contexts?.map(c => [c.name, c.connection.status, c.fatal?.message])).toEqual([['east', 'live', undefined], ['west', 'reconnecting', 'forbidden']]);
	});

	it('a hostile context name is sanitized on the way in and out', () => {
		const line = encodeEntry(start, {type: 'synced', context: 'x\u001B]52;c;AAAA\u0007y'});
		expect(line).not.toMatch(/\u001B|\u0007/);
		const parsed = parseRecording(
			encodeHeader({version: '1', source: 'cluster', context: 'x', namespace: 'n', targets: [], waitFor: [], start: new Date(start).toISOString()}) +
			'{"at":"2026-11-30T11:00:00.000Z","context":"a\\u001b[2Jb","type":"synced"}\n',
			'r',
		);
		expect(parsed.entries[0]!.event).toEqual({type: 'synced', context: 'ab'});
	});
});
