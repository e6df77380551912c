/**
 * A stream's cost per event: what it asks to watch and explains is kept per object, so an update to one of many
 * objects looks at that one (run-stream.ts explainFailed). Counted: the diagnoses asked of the store's workloads.
 */
import {describe, expect, it, vi} from 'vitest';
import {runStream} from '../../source/cli/run-stream.js';
import type {KubeObject} from '../../source/core/kube-object.js';
import {Store} from '../../source/state/store.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {loadFixture, loadFixtureObject} from '../helpers/fixtures.js';
import {waitUntil} from '../helpers/wait-until.js';

const objects = 200;

/** A running or a failed mysql backup named `name`; `percent` moves a running one's progress. */
function actionSet(name: string, failed: boolean, percent = 10): KubeObject {
	const o = structuredClone(loadFixtureObject(failed ? 'kanister/actionset-postgres-backup-failed-defer-failed.yaml' : 'kanister/actionset-mysql-backup-running.yaml')) as KubeObject & {
		status: {progress?: Record<string, unknown>};
	};
	o.metadata = {...o.metadata, name, namespace: 'kanister', uid: `uid-${name}`};
	if (o.status.progress) {
		o.status.progress['percentCompleted'] = String(percent);
	}

	return o;
}

function setup() {
	const clock = new FakeClock(Date.parse('2021-06-10T09:15:00Z'));
	const store = new Store(clock);
	store.apply({type: 'connection', state: {status: 'live'}});
	store.apply({type: 'replace', resource: 'Blueprint', objects: [...loadFixture('kanister/blueprint-mysql-defer.yaml'), ...loadFixture('kanister/blueprint-postgres-start-stop-defer.yaml')]});
	// Every fifth failed (a why and a next each), the rest running (their pods are watched).
	const all = Array.from({length: objects}, (_, i) => actionSet(`backup-${String(i).padStart(3, '0')}`, i % 5 === 0));
	store.apply({type: 'replace', resource: 'ActionSet', objects: all});
	store.apply({type: 'synced'});
	let out = '';
	let stop!: () => void;
	const interrupted = new Promise<void>(resolve => {
		stop = resolve;
	});
	const run = runStream({
		store,
		clock,
		options: {ascii: false, color: false, extendMs: 300_000, output: 'plain', wait: false, timeoutMs: 0},
		targets: [],
		write: async text => {
			out += text;
		},
		interrupted,
		timeZone: 'UTC',
	});
	return {store, stop, run, output: () => out};
}

const settle = async () => {
	await Promise.resolve();
	await new Promise(resolve => setImmediate(resolve));
};

describe('a stream looks again only at what changed', () => {
	it('an update to one of 200 objects diagnoses that object alone, and what is watched stays whole', async () => {
		const t = setup();
		await waitUntil(() => t.output().includes('backup-199'), 'the first lines');
		await settle();
		const interest = t.store.workloads.interest();
		expect(interest.length).toBeGreaterThan(0);
		const diagnose = vi.spyOn(t.store.workloads, 'diagnose');
		t.store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('backup-001', false, 55)});
		await settle();
		const perObject = diagnose.mock.calls.length;
		expect(perObject).toBeGreaterThan(0);
		// One object's nodes (a handful), not 200 objects' (hundreds).
		expect(perObject).toBeLessThan(10);
		expect(diagnose.mock.calls.every(([input]) => input.object.name === 'backup-001')).toBe(true);
		expect(t.store.workloads.interest()).toEqual(interest);

		// A failed one the same: its nodes only.
		diagnose.mockClear();
		t.store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('backup-000', true, 1)});
		await settle();
		expect(diagnose.mock.calls.length).toBeGreaterThan(0);
		expect(diagnose.mock.calls.every(([input]) => input.object.name === 'backup-000')).toBe(true);

		// An object gone looks at every object again, each from memory (no diagnosis); what is watched stays whole.
		diagnose.mockClear();
		t.store.apply({type: 'delete', resource: 'ActionSet', object: actionSet('backup-001', false)});
		await settle();
		expect(diagnose.mock.calls.length).toBe(0);
		expect(t.store.workloads.interest()).toEqual(interest);
		t.stop();
		await t.run;
	});
});
