/**
 * An update to one object on the list's screen costs that object's rows: React renders its row (and its open
 * tree's rows), not the App, the list, the header or the footer. Counted from React's fiber tree after each commit
 * (test/helpers/render-count.tsx), through a real Store as in the TUI; each frame is checked against a fresh mount of
 * the same store, so a row drawn on its own is drawn as the whole App would draw it.
 */
import {afterEach, describe, expect, test} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {Store} from '../../source/state/store.js';
import {App} from '../../source/ui/app.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {benchActionSet as actionSet, completeActionSet as complete} from '../helpers/bench-action-sets.js';
import {renderCounter} from '../helpers/render-count.js';
import {ARROW_DOWN, cleanupUi, PAGE_DOWN, renderUi, settle} from '../helpers/ui.js';

afterEach(cleanupUi);

const probe = (i: number) => `a-probe-${String(i).padStart(2, '0')}`;

/** 20 running probes (the first few open their trees) above 300 finished ActionSets, as in the bench. */
function filledStore(clock: FakeClock, probes = 20, finished = 300): Store {
	const store = new Store(clock);
	for (let i = 0; i < probes; i++) {
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet(probe(i), 10)});
	}

	for (let i = 0; i < finished; i++) {
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet(`b-${String(i).padStart(3, '0')}`, 100, complete)});
	}

	store.apply({type: 'connection', state: {status: 'live'}});
	store.apply({type: 'synced'});
	return store;
}

function mount(store: Store, clock: FakeClock) {
	const counter = renderCounter();
	const app = renderUi(
		counter.wrap(
			<App
				store={store}
				clock={clock}
				wait={new FakeWait({startedAt: clock.now()})}
				header={{context: 'kind-prod', scope: 'bench'}}
				ascii={false}
				color={false}
				timeZone="UTC"
				onQuit={() => {}}
			/>,
		),
		{columns: 160, rows: 40},
	);
	return {app, counter};
}

/** The frame a fresh App draws of the same store now (its own mount, then gone). */
async function freshFrame(store: Store, clock: FakeClock, ready: RegExp): Promise<string> {
	const {app} = mount(store, clock);
	const frame = await app.waitForFrame(f => ready.test(f), {what: 'the fresh mount'});
	app.unmount();
	return frame;
}

const appParts = ['App', 'ObjectList', 'HeaderBar', 'FooterKeys', 'ListHeader'];

describe('an update to one object on the list screen', () => {
	test('renders its row and its open tree alone, drawn as the whole App draws it', async () => {
		const clock = new FakeClock();
		const store = filledStore(clock);
		const {app, counter} = mount(store, clock);
		await app.waitForFrame(f => /a-probe-03 .* 10%/.test(f), {what: 'the list'});
		await settle();
		expect(app.lastFrame()).toMatch(/a-probe-03 .*\n.*backup.*\n.*dumpToObjectStore/);
		await settle();
		for (const percent of [11, 12, 13]) {
			counter.reset();
			store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet(probe(3), percent)});
			await app.waitForFrame(f => new RegExp(`a-probe-03 .* ${percent}%`).test(f), {what: `the probe at ${percent}%`});
			await settle();
			expect(Object.fromEntries(appParts.map(name => [name, counter.rendered(name)]))).toEqual(Object.fromEntries(appParts.map(name => [name, 0])));
			expect([counter.commits.length, counter.rendered('ObjectRow'), counter.rendered('ListTreeRows')]).toEqual([1, 1, 1]);
			// Of the row only what changed: its box, its line's text with the new PROGRESS run, the MESSAGE run (each
			// run of the row a memo component); nothing of the rest of the screen.
			expect(counter.hostUpdates()).toBeLessThanOrEqual(5);
		}

		expect(app.lastFrame()).toBe(await freshFrame(store, clock, /a-probe-03 .* 13%/));
	});

	test('an update to a probe below the window (one the first screen looked at for default expansion) renders nothing', async () => {
		const clock = new FakeClock();
		const store = filledStore(clock);
		const {app, counter} = mount(store, clock);
		await app.waitForFrame(f => /a-probe-03 .* 10%/.test(f), {what: 'the list'});
		await settle();
		expect(app.lastFrame()).not.toContain('a-probe-11');
		counter.reset();
		for (const percent of [11, 12, 13]) {
			store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet(probe(11), percent)});
			await settle();
		}

		expect(counter.renderedAll()).toEqual({});
		// Its latest state is what the list shows once it is scrolled to.
		await app.press(PAGE_DOWN, PAGE_DOWN);
		await app.waitForFrame(f => /a-probe-11 .* 13%/.test(f), {what: 'the probe a page down'});
	});

	test('the next App render (a key) shows the latest of every object', async () => {
		const clock = new FakeClock();
		const store = filledStore(clock);
		const {app} = mount(store, clock);
		await app.waitForFrame(f => /a-probe-01 .* 10%/.test(f), {what: 'the list'});
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet(probe(1), 41)});
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet(probe(2), 42)});
		await app.waitForFrame(f => /a-probe-01 .* 41%/.test(f) && /a-probe-02 .* 42%/.test(f), {what: 'both probes'});
		await app.press(ARROW_DOWN);
		const frame = await app.waitForFrame(f => /\n› +▾ ● backup/.test(f), {what: 'the cursor on the first probe\'s action'});
		expect(frame).toMatch(/a-probe-01 .* 41%/);
		expect(frame).toMatch(/a-probe-02 .* 42%/);
	});

	test('a change that moves the columns renders the App', async () => {
		const clock = new FakeClock();
		const store = filledStore(clock);
		const {app, counter} = mount(store, clock);
		await app.waitForFrame(f => /a-probe-03 .* 10%/.test(f), {what: 'the list'});
		await settle();
		counter.reset();
		// 10% → 9%: the PROGRESS cell narrows (the column's width comes from every object).
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet(probe(3), 9)});
		await app.waitForFrame(f => /a-probe-03 .* 9%/.test(f), {what: 'the probe at 9%'});
		await settle();
		expect(counter.rendered('App')).toBe(1);
		// Of the rest only what changed: this object's tree rows; not the footer, the titles, the more line, other trees.
		expect(['FooterKeys', 'ColumnTitles', 'MoreLine', 'ListHeader', 'ListTreeRows'].map(name => counter.rendered(name))).toEqual([0, 0, 0, 0, 1]);
		expect(app.lastFrame()).toBe(await freshFrame(store, clock, /a-probe-03 .* 9%/));
	});

	test("a step's message in the object's open tree: its tree rows draw it, the App does not render", async () => {
		const clock = new FakeClock();
		const store = filledStore(clock, 2, 20);
		store.apply({type: 'upsert', resource: 'OperatorVersion', object: operatorVersion});
		store.apply({type: 'upsert', resource: 'Instance', object: instance('waiting 1')});
		const {app, counter} = mount(store, clock);
		await app.waitForFrame(f => f.includes('aa-op') && f.includes('waiting 1'), {what: "the Instance's running step"});
		await settle();
		counter.reset();
		store.apply({type: 'upsert', resource: 'Instance', object: instance('waiting 2')});
		await app.waitForFrame(f => f.includes('waiting 2'), {what: 'the new message'});
		await settle();
		expect([counter.rendered('App'), counter.rendered('ListTreeRows'), counter.rendered('NodeRowView') > 0]).toEqual([0, 1, true]);
		expect(app.lastFrame()).toBe(await freshFrame(store, clock, /waiting 2/));
	});
});

/** A KUDO OperatorVersion with one plan, deploy: steps a, b. */
const operatorVersion: KubeObject = {
	apiVersion: 'kudo.dev/v1beta1',
	kind: 'OperatorVersion',
	metadata: {name: 'op-0.1.0', namespace: 'bench'},
	spec: {
		operator: {name: 'op', kind: 'Operator'},
		version: '0.1.0',
		tasks: ['a', 'b'].map(name => ({name, kind: 'Dummy', spec: {done: true}})),
		plans: {deploy: {strategy: 'serial', phases: [{name: 'all', strategy: 'serial', steps: [{name: 'a', tasks: ['a']}, {name: 'b', tasks: ['b']}]}]}},
	},
};

/** An Instance (`aa-op`: first in the list) running deploy at step b, `message` on that step. */
function instance(message: string): KubeObject {
	return {
		apiVersion: 'kudo.dev/v1beta1',
		kind: 'Instance',
		metadata: {name: 'aa-op', namespace: 'bench', creationTimestamp: '2026-11-30T10:50:00Z'},
		spec: {operatorVersion: {name: 'op-0.1.0'}},
		status: {
			planStatus: {
				deploy: {
					name: 'deploy', status: 'IN_PROGRESS', uid: 'deploy-uid', lastUpdatedTimestamp: '2026-11-30T10:59:00Z',
					phases: [{name: 'all', strategy: 'serial', status: 'IN_PROGRESS', steps: [{name: 'a', status: 'COMPLETE'}, {name: 'b', status: 'IN_PROGRESS', message}]}],
				},
			},
		},
	};
}
