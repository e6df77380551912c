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
import {screenWatch, onScreenNodes} from '../../source/ui/on-screen.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {loadFixtureObject} from '../helpers/fixtures.js';
import {cleanupUi, renderUi, settle} from '../helpers/ui.js';

afterEach(cleanupUi);

const running = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');

/** A running ActionSet `name` at `percent`: the object's and its running phase's progress. */
function actionSet(name: string, percent: number): KubeObject {
	type Progress = Record<string, unknown>;
	const o = structuredClone(running) as KubeObject & {metadata: Record<string, unknown>; status: {progress: Progress; actions: Array<{phases?: Array<{progress?: Progress}>}>}};
	o.metadata = {...o.metadata, name, namespace: 'bench'};
	delete o.metadata['uid'];
	o.status.progress = {...o.status.progress, percentCompleted: String(percent)};
	const phase = o.status.actions[0]?.phases?.[0];
	if (phase) {
		phase.progress = {...phase.progress, progressPercent: String(percent)};
	}

	return o;
}

const names = Array.from({length: 300}, (_, i) => `r-${String(i).padStart(3, '0')}`);

function mount(options: {targets?: string[]} = {}) {
	const clock = new FakeClock();
	const store = new Store(clock);
	for (const name of names) {
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet(name, 40)});
	}

	store.apply({type: 'connection', state: {status: 'live'}});
	store.apply({type: 'synced'});
	let renders = 0;
	const screen = screenWatch();
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
				screen={screen}
				onQuit={() => {}}
			/>
		</Profiler>,
		{columns: 140, rows: 40},
	);
	return {clock, store, app, screen, renders: () => renders, frames: () => app.stdout.frames.length};
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

	test('what is on screen can be asked for: the rows in the window, nodes included', async () => {
		const {app, screen} = mount();
		await app.waitForFrame(f => /r-000 .*40%/.test(f), {what: 'the list'});
		await settle();
		const shown = screen.getSnapshot();
		expect(shown.screen).toBe('list');
		const keys = new Set(shown.rows.map(r => r.key));
		expect(keys.has('ActionSet/bench/r-000')).toBe(true);
		expect(keys.has('ActionSet/bench/r-250')).toBe(false);
		// The first running objects start expanded: their running nodes are on screen.
		expect(onScreenNodes(shown, r => r.node.state === 'running').length).toBeGreaterThan(0);
	});
});
