/**
 * Nothing off screen costs a frame (issue #23): a store change to an object the screen does not show renders
 * nothing (React commits counted with a Profiler) and writes no frame (Ink's writes counted); the header's event
 * age follows on the next tick. Counted, not timed. The changes go through a real Store, as in the TUI.
 */
import {Profiler} from 'react';
import {afterEach, describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {Store} from '../../source/state/store.js';
import {App} from '../../source/ui/app.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {benchActionSet as actionSet} from '../helpers/bench-action-sets.js';
import {cleanupUi, renderUi, settle} from '../helpers/ui.js';

afterEach(cleanupUi);

const names = Array.from({length: 300}, (_, i) => `r-${String(i).padStart(3, '0')}`);

function mount(options: {targets?: string[]; fill?: (store: Store) => void; actionSets?: readonly string[]} = {}) {
	const clock = new FakeClock();
	const store = new Store(clock);
	for (const name of options.actionSets ?? names) {
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet(name, 40)});
	}

	options.fill?.(store);

	store.apply({type: 'connection', state: {status: 'live'}});
	store.apply({type: 'synced'});
	let renders = 0;
	const app = renderUi(
		<Profiler
			id="app"
			onRender={() => {
				renders++;
			}}
		>
			<App
				store={store}
				clock={clock}
				wait={new FakeWait({startedAt: clock.now()})}
				header={{context: 'kind-prod', scope: 'bench'}}
				targets={options.targets}
				ascii={false}
				color={false}
				timeZone="UTC"
				onQuit={() => {}}
			/>
		</Profiler>,
		{columns: 140, rows: 40},
	);
	return {clock, store, app, renders: () => renders, frames: () => app.stdout.frames.length};
}

describe('an update to an object off screen', () => {
	test('in the list: no React render and no Ink frame; one on screen renders', async () => {
		const {store, app, renders, frames} = mount();
		await app.waitForFrame(f => /r-000 .*40%/.test(f), {what: 'the list'});
		expect(app.lastFrame()).not.toContain('r-250');
		await settle();
		const [renders0, frames0] = [renders(), frames()];
		for (const percent of [41, 42, 43]) {
			store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-250', percent)});
			await settle();
		}

		expect([renders() - renders0, frames() - frames0]).toEqual([0, 0]);
		// On screen: drawn, and the off-screen object's latest state is what a later frame reads.
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-001', 77)});
		await app.waitForFrame(f => /r-001 .*77%/.test(f), {what: 'the on-screen update'});
		expect(renders()).toBeGreaterThan(renders0);
		expect(frames()).toBeGreaterThan(frames0);
	});

	test('moving the cursor down to it shows its latest state', async () => {
		const {store, app} = mount();
		await app.waitForFrame(f => /r-000 .*40%/.test(f), {what: 'the list'});
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-299', 88)});
		await settle();
		await app.press('G');
		await app.waitForFrame(f => /r-299 .*88%/.test(f), {what: 'the last row with the update that arrived off screen'});
	});

	test('in the tree of another object: nothing', async () => {
		const {store, app, renders, frames} = mount({targets: ['ActionSet/bench/r-000']});
		await app.waitForFrame(f => f.includes('r-000') && f.includes('dumpToObjectStore'), {what: 'the tree'});
		await settle();
		const [renders0, frames0] = [renders(), frames()];
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-001', 77)});
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-200', 77)});
		await settle();
		expect([renders() - renders0, frames() - frames0]).toEqual([0, 0]);
	});

	test("the header's event age moves on the next tick", async () => {
		const {store, app, clock, renders} = mount();
		await app.waitForFrame(f => /r-000 .*40%/.test(f), {what: 'the list'});
		clock.advance(5000);
		await app.waitForFrame(f => f.includes('event 5s ago'), {what: 'the age 5 s on'});
		const renders0 = renders();
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-250', 41)});
		await settle();
		expect(renders() - renders0).toBe(0);
		expect(app.lastFrame()).toContain('event 5s ago');
		clock.advance(1000);
		await app.waitForFrame(f => f.includes('event 1s ago'), {what: 'the age of the off-screen event'});
	});
});

/** A KUDO OperatorVersion with plans deploy (steps a, b) and backup (steps x, y). */
const operatorVersion: KubeObject = {
	apiVersion: 'kudo.dev/v1beta1',
	kind: 'OperatorVersion',
	metadata: {name: 'op-0.1.0', namespace: 'bench'},
	spec: {
		operator: {name: 'op', kind: 'Operator'},
		version: '0.1.0',
		tasks: ['a', 'b', 'x', 'y'].map(name => ({name, kind: 'Dummy', spec: {done: true}})),
		plans: {
			deploy: {strategy: 'serial', phases: [{name: 'all', strategy: 'serial', steps: [{name: 'a', tasks: ['a']}, {name: 'b', tasks: ['b']}]}]},
			backup: {strategy: 'serial', phases: [{name: 'dump', strategy: 'serial', steps: [{name: 'x', tasks: ['x']}, {name: 'y', tasks: ['y']}]}]},
		},
	},
};

/**
 * An Instance (`aa-op`: first in the list, above the ActionSets) running deploy at step b, `deployMessage` on that
 * step; its backup plan (not the active one, folded) last ran with `backupMessage` on step x.
 */
function instance(deployMessage: string, backupMessage: string): KubeObject {
	return {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: 'aa-op', namespace: 'bench', creationTimestamp: '2026-11-30T10:50:00Z'},
		spec: {operatorVersion: {name: 'op-0.1.0'}},
		status: {
			planStatus: {
				deploy: {
					name: 'deploy', status: 'IN_PROGRESS', uid: 'deploy-uid', lastUpdatedTimestamp: '2026-11-30T10:59:00Z',
					phases: [{name: 'all', strategy: 'serial', status: 'IN_PROGRESS', steps: [{name: 'a', status: 'COMPLETE'}, {name: 'b', status: 'IN_PROGRESS', message: deployMessage}]}],
				},
				backup: {
					name: 'backup', status: 'COMPLETE', uid: 'backup-uid', lastUpdatedTimestamp: '2026-11-29T10:00:00Z',
					phases: [{name: 'dump', strategy: 'serial', status: 'COMPLETE', steps: [{name: 'x', status: 'COMPLETE', message: backupMessage}, {name: 'y', status: 'COMPLETE'}]}],
				},
			},
		},
	};
}

describe('an update to a node inside a collapsed subtree of an object on screen', () => {
	const fill = (store: Store) => {
		store.apply({type: 'upsert', resource: 'OperatorVersion', object: operatorVersion});
		store.apply({type: 'upsert', resource: 'Instance', object: instance('waiting', 'dumped 1')});
	};

	test.each([
		['its tree', ['Instance/bench/aa-op']],
		['the list, its tree open in it', undefined],
	])('in %s: no React render and no Ink frame; a node on a row renders', async (_where, targets) => {
		const {store, app, renders, frames} = mount({targets, fill, actionSets: names.slice(0, 5)});
		await app.waitForFrame(f => f.includes('aa-op') && /backup/.test(f) && / b +IN_PROGRESS/.test(f), {what: 'the Instance with its deploy steps and the folded backup plan'});
		expect(app.lastFrame()).not.toContain('dumped');
		await settle();
		const [renders0, frames0] = [renders(), frames()];
		for (const n of [2, 3, 4]) {
			store.apply({type: 'upsert', resource: 'Instance', object: instance('waiting', `dumped ${n}`)});
			await settle();
		}

		expect([renders() - renders0, frames() - frames0]).toEqual([0, 0]);
		// A change on a row shows, and with it the latest state.
		store.apply({type: 'upsert', resource: 'Instance', object: instance('applying the job', 'dumped 5')});
		await app.waitForFrame(f => f.includes('applying the job'), {what: "the running step's new message"});
		expect(renders()).toBeGreaterThan(renders0);
		expect(frames()).toBeGreaterThan(frames0);
	});
});
