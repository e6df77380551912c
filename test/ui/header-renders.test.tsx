/**
 * The header costs nothing on an App render that does not change it (issue #23): counted, not timed. An update that
 * changes a row on screen renders the row but not HeaderBar; counts that change off screen (no App render) show on
 * the next 1 Hz tick; an object that comes on screen brings the counts in its own frame; a tick redraws the timers,
 * not the header line. At 80×24 and wider, one context and several. HeaderBar's renders are counted by wrapping its render function (memo or not), so a header
 * without its memo fails here.
 */
import {Profiler} from 'react';
import {afterEach, describe, expect, test, vi} from 'vitest';
import type {KubeObject} from '../../source/core/kube-object.js';
import {contextSeparator} from '../../source/model/plan-tree.js';
import {Store} from '../../source/state/store.js';
import {App} from '../../source/ui/app.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {loadFixtureObject} from '../helpers/fixtures.js';
import {cleanupUi, renderUi, settle} from '../helpers/ui.js';

const header = vi.hoisted(() => ({renders: 0}));

vi.mock('../../source/ui/components/header-bar.js', async importOriginal => {
	type Module = typeof import('../../source/ui/components/header-bar.js');
	type Render = (props: Record<string, unknown>) => unknown;
	const real = await importOriginal<Module>();
	const counted = (render: Render): Render => props => {
		header.renders++;
		return render(props);
	};

	// A memo component is {$$typeof, type, compare}: its render function is wrapped inside the memo, so a render the
	// memo skips is not counted; a plain function component is wrapped itself.
	const given = real.HeaderBar as unknown as Render | {readonly type: Render};
	const HeaderBar = typeof given === 'function' ? counted(given) : {...given, type: counted(given.type)};
	return {...real, HeaderBar};
});

afterEach(cleanupUi);

const running = loadFixtureObject('kanister/actionset-mysql-backup-running.yaml');

const complete = loadFixtureObject('kanister/actionset-mysql-backup-complete.yaml');

/** A running ActionSet `name` at `percent`, or (`done`) the same ActionSet complete. */
function actionSet(name: string, percent: number, done = false): KubeObject {
	type Progress = Record<string, unknown>;
	const o = structuredClone(done ? complete : running) as KubeObject & {
		metadata: Record<string, unknown>;
		status: {progress?: Progress; actions: Array<{phases?: Array<{progress?: Progress}>}>};
	};
	o.metadata = {...o.metadata, name, namespace: 'ns'};
	delete o.metadata['uid'];
	if (done) {
		return o;
	}

	o.status.progress = {...o.status.progress, percentCompleted: String(percent)};
	const phase = o.status.actions[0]?.phases?.[0];
	if (phase) {
		phase.progress = {...phase.progress, progressPercent: String(percent)};
	}

	return o;
}

const names = Array.from({length: 60}, (_, i) => `r-${String(i).padStart(2, '0')}`);

type Mount = {
	readonly columns: number;
	readonly rows: number;
	readonly contexts?: readonly string[];
	readonly names?: readonly string[];
	readonly targets?: string[];
};

function mount({columns, rows, contexts, names: shown = names, targets}: Mount) {
	const clock = new FakeClock();
	const store = new Store(clock);
	for (const context of contexts ?? [undefined]) {
		for (const name of shown) {
			store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet(name, 40), ...(context ? {context} : {})});
		}

		if (context) {
			store.apply({type: 'connection', state: {status: 'live'}, context});
			store.apply({type: 'synced', context});
		}
	}

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
				header={{context: contexts ? '' : 'prod', scope: 'ns'}}
				targets={targets}
				ascii={false}
				color={false}
				timeZone="UTC"
				onQuit={() => {}}
			/>
		</Profiler>,
		{columns, rows},
	);
	const headerLine = () => app.lastFrame()!.split('\n')[0]!;
	return {clock, store, app, renders: () => renders, headerLine};
}

const sizes = [[80, 24], [140, 40]] as const;
/** The header's right end: the event age where there is room, the timer. */
const right = (seconds: number) => ` +(event \\d+s ago · )?elapsed 0:0${seconds}$`;

describe.each(sizes)('at %i×%i, one context', (columns, rows) => {
	test('a change to a row on screen renders the row, not the header', async () => {
		const {store, app, renders, headerLine} = mount({columns, rows});
		await app.waitForFrame(f => /r-01 .*40%/.test(f), {what: 'the list'});
		expect(headerLine()).toMatch(new RegExp(` · 60 · 60 running${right(0)}`));
		await settle();
		const [app0, header0] = [renders(), header.renders];
		for (const percent of [41, 42, 43]) {
			store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-01', percent)});
			await app.waitForFrame(f => new RegExp(`r-01 .*${percent}%`).test(f), {what: `the row at ${percent}%`});
		}

		expect(renders() - app0).toBeGreaterThanOrEqual(3);
		expect(header.renders - header0).toBe(0);
	});

	test('a change to the open object on its tree screen renders the tree, not the header', async () => {
		const {store, app, renders} = mount({columns, rows, targets: ['ActionSet/ns/r-00']});
		await app.waitForFrame(f => f.includes('dumpToObjectStore (40%)'), {what: 'the tree'});
		await settle();
		const [app0, header0] = [renders(), header.renders];
		for (const percent of [41, 42, 43]) {
			store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-00', percent)});
			await app.waitForFrame(f => f.includes(`dumpToObjectStore (${percent}%)`), {what: `the tree at ${percent}%`});
		}

		expect(renders() - app0).toBeGreaterThanOrEqual(3);
		expect(header.renders - header0).toBe(0);
	});

	test('a tick moves the timers and the event age, not the header line', async () => {
		const {store, clock, app, headerLine} = mount({columns, rows});
		await app.waitForFrame(f => /r-01 .*40%/.test(f), {what: 'the list'});
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-01', 41)});
		await app.waitForFrame(f => /r-01 .*41%/.test(f), {what: 'the row at 41%'});
		await settle();
		const header0 = header.renders;
		for (let s = 1; s <= 3; s++) {
			clock.advance(1000);
			await app.waitForFrame(f => new RegExp(right(s), 'm').test(f.split('\n')[0]!), {what: `the header ${s}s on`});
		}

		expect(headerLine()).toMatch(new RegExp(` · 60 · 60 running${columns < 100 ? '' : ' +event 3s ago ·'}`));
		expect(header.renders - header0).toBe(0);
	});

	test('an outcome that changes off screen renders the App, and the header with its new counts in that frame', async () => {
		const {store, app, renders, headerLine} = mount({columns, rows});
		await app.waitForFrame(f => /r-01 .*40%/.test(f), {what: 'the list'});
		expect(app.lastFrame()).not.toContain('r-59');
		await settle();
		const [app0, header0] = [renders(), header.renders];
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-59', 100, true)});
		await app.waitForFrame(() => renders() > app0, {what: 'the App render for the new outcome'});
		await settle();
		expect(headerLine()).toMatch(new RegExp(` · 60 · 59 running${right(0)}`));
		expect(header.renders - header0).toBe(1);
	});

	test('counts that change without an App render (an object off its tree screen) show on the next tick', async () => {
		const {store, clock, app, renders, headerLine} = mount({columns, rows, targets: ['ActionSet/ns/r-00']});
		await app.waitForFrame(f => f.includes('r-00') && f.includes('dumpToObjectStore'), {what: 'the tree'});
		expect(headerLine()).toMatch(new RegExp(` · 60 · 60 running${right(0)}`));
		await settle();
		const [app0, header0] = [renders(), header.renders];
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-59', 100, true)});
		await settle();
		expect([renders() - app0, header.renders - header0]).toEqual([0, 0]);
		expect(headerLine()).toMatch(/ · 60 running/);
		clock.advance(1000);
		await app.waitForFrame(f => new RegExp(` · 60 · 59 running${right(1)}`, 'm').test(f.split('\n')[0]!), {what: 'the counts on the tick'});
	});

	test('an object that comes on screen brings the counts in its frame, before any tick', async () => {
		const {store, app, headerLine} = mount({columns, rows, names: ['r-00']});
		await app.waitForFrame(f => /r-00 .*40%/.test(f), {what: 'the one object'});
		// One object: no counts.
		expect(headerLine()).toMatch(new RegExp(`● live${right(0)}`));
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-01', 40)});
		await app.waitForFrame(f => /r-01 .*40%/.test(f), {what: 'the second object'});
		expect(headerLine()).toMatch(new RegExp(` · 2 · 2 running${right(0)}`));
	});
});

describe.each(sizes)('at %i×%i, two contexts', (columns, rows) => {
	const two = {columns, rows, contexts: ['prod', 'dr'], names: names.slice(0, 30)};
	/** 80 columns: the run's counts only; 140: each context's too. */
	const counted = (dr: number) => (columns < 100 ? ` · 60 · ${30 + dr} running` : `prod ✔ 30 running · dr ✔ ${dr} running · 60 · ${30 + dr} running`);

	test('a change to a row on screen renders the row, not the header', async () => {
		const {store, app, renders, headerLine} = mount(two);
		await app.waitForFrame(f => /r-01 .*40%/.test(f), {what: 'the list'});
		expect(headerLine()).toContain(counted(30));
		await settle();
		const [app0, header0] = [renders(), header.renders];
		for (const percent of [41, 42, 43]) {
			store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-01', percent), context: 'dr'});
			await app.waitForFrame(f => new RegExp(`r-01 .*${percent}%`).test(f), {what: `the row at ${percent}%`});
		}

		expect(renders() - app0).toBeGreaterThanOrEqual(3);
		expect(header.renders - header0).toBe(0);
	});

	test("an outcome that changes off screen brings the context's counts in the App's frame", async () => {
		const {store, app, renders, headerLine} = mount(two);
		await app.waitForFrame(f => /r-01 .*40%/.test(f), {what: 'the list'});
		expect(app.lastFrame()).not.toContain('r-29');
		await settle();
		const [app0, header0] = [renders(), header.renders];
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-29', 100, true), context: 'dr'});
		await app.waitForFrame(() => renders() > app0, {what: 'the App render for the new outcome'});
		await settle();
		expect(headerLine()).toContain(counted(29));
		expect(header.renders - header0).toBe(1);
	});

	test('counts that change without an App render (an object off its tree screen) show on the next tick', async () => {
		const {store, clock, app, renders, headerLine} = mount({...two, targets: [`prod${contextSeparator}ActionSet/ns/r-00`]});
		await app.waitForFrame(f => f.includes('r-00') && f.includes('dumpToObjectStore'), {what: 'the tree'});
		expect(headerLine()).toContain(counted(30));
		await settle();
		const [app0, header0] = [renders(), header.renders];
		store.apply({type: 'upsert', resource: 'ActionSet', object: actionSet('r-29', 100, true), context: 'dr'});
		await settle();
		expect([renders() - app0, header.renders - header0]).toEqual([0, 0]);
		expect(headerLine()).toContain(counted(30));
		clock.advance(1000);
		await app.waitForFrame(f => f.split('\n')[0]!.includes(counted(29)), {what: 'the counts on the tick'});
	});
});
