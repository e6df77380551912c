/**
 * While waiting for many objects, the line waited for changes with every update of a running one (its summary):
 * that redraws the banner, not the App (hooks/use-wait.ts useWaitLayout; components/timeout-banner.tsx reads the
 * session itself). Counted: the App's renders, by wrapping the layout's wait hook, which only the App calls. A change
 * past where the banner cuts the line redraws nothing: counted, the frames Ink writes (in debug mode, one a render).
 */
import {afterEach, describe, expect, test, vi} from 'vitest';
import {Store} from '../../source/state/store.js';
import {App} from '../../source/ui/app.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {loadFixtureObject} from '../helpers/fixtures.js';
import {cleanupUi, renderUi, settle} from '../helpers/ui.js';

const app = vi.hoisted(() => ({count: 0}));

vi.mock('../../source/ui/hooks/use-wait.js', async importOriginal => {
	const {countingCalls} = await import('../helpers/count-calls.js');
	return countingCalls(await importOriginal<typeof import('../../source/ui/hooks/use-wait.js')>(), 'useWaitLayout', app);
});

afterEach(cleanupUi);

/** The App over one running ActionSet, waiting with `waitingFor` (which starts with its 10 %), drawn and settled. */
async function waitingApp(waitingFor: string, columns: number) {
	const clock = new FakeClock();
	const store = new Store(clock);
	store.apply({type: 'upsert', resource: 'ActionSet', object: loadFixtureObject('kanister/actionset-mysql-backup-running.yaml')});
	store.apply({type: 'connection', state: {status: 'live'}});
	store.apply({type: 'synced'});
	const wait = new FakeWait({phase: 'waiting', startedAt: clock.now(), deadlineAt: clock.now() + 600_000, waitingFor});
	const ui = renderUi(
		<App store={store} clock={clock} wait={wait} header={{context: 'prod', scope: 'ns'}} ascii={false} color={false} timeZone="UTC" onQuit={() => {}}/>,
		{columns, rows: 30},
	);
	await ui.waitForFrame(f => f.includes('backup running (10%)'), {what: 'the banner'});
	await settle();
	return {clock, wait, ui};
}

describe('the line waited for', () => {
	test('a new line redraws the banner alone; a new phase redraws the App', async () => {
		const {clock, wait, ui} = await waitingApp('kanister/a: backup running (10%)', 120);
		const before = app.count;
		for (const percent of [20, 30, 40]) {
			wait.set({waitingFor: `kanister/a: backup running (${percent}%)`});
			await ui.waitForFrame(f => f.includes(`backup running (${percent}%)`), {what: `the line at ${percent}%`});
		}

		expect(app.count - before).toBe(0);
		wait.set({phase: 'grace', graceEndsAt: clock.now() + 10_000});
		await ui.waitForFrame(f => f.includes('Timeout reached'), {what: 'the grace prompt'});
		expect(app.count - before).toBeGreaterThan(0);
	});

	test('a change past the cut redraws nothing; a wider terminal then shows the line as it is now', async () => {
		const line = (far: number) => `kanister/a: backup running (10%); ${'kanister/b: restore running; '.repeat(5)}kanister/z: backup running (${far}%)`;
		const {wait, ui} = await waitingApp(line(1), 100);
		const before = ui.stdout.frames.length;
		for (const far of [2, 3, 4]) {
			wait.set({waitingFor: line(far)});
			await settle();
			await settle();
		}

		expect(ui.stdout.frames.length - before).toBe(0);
		await ui.resize(400, 30);
		await ui.waitForFrame(f => f.includes('kanister/z: backup running (4%)'), {what: 'the whole line, as it is now'});
		wait.set({waitingFor: line(5).replace('(10%)', '(11%)')});
		await ui.waitForFrame(f => f.includes('backup running (11%)'), {what: 'a change in view'});
	});
});
