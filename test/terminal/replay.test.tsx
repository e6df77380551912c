/**
 * planwatch replay through the real path: a recording → ReplaySource on a ReplayClock → Store → App in a
 * headless terminal, keys pressed as a user would.
 */
import {afterEach, describe, expect, test} from 'vitest';
import {createReplaySource, transitionMarks} from '../../source/sources/replay-source.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {ReplayClock} from '../../source/recording/replay-clock.js';
import {Store} from '../../source/state/store.js';
import {createWaitController} from '../../source/state/wait-controller.js';
import {App} from '../../source/ui/app.js';
import {recordScenario} from '../helpers/recordings.js';
import type {Recording} from '../../source/recording/recording.js';
import type {PlanNode} from '../../source/model/plan-tree.js';
import {cleanupTerminals, renderInTerminal} from '../helpers/terminal.js';

afterEach(cleanupTerminals);

const key = 'ActionSet/default/restore-backup-glptq-6jzt4';

function setup() {
	const {recording} = recordScenario('postgres-restore-failed', [key]);
	const real = new FakeClock(Date.parse('2027-01-01T00:00:00Z'));
	const clock = new ReplayClock(real, recording.startMs, 1);
	const store = new Store(clock);
	const source = createReplaySource({recording, clock});
	source.start(store.apply);
	const wait = createWaitController({store, clock, wait: false, targets: [key], extendMs: 300_000, graceMs: 0});
	const ui = renderInTerminal(
		<App store={store} clock={clock} wait={wait} header={{context: source.label, scope: source.scope}} targets={[key]} ascii={false} color={false} replay={source.controls} onQuit={() => {}} />,
		{columns: 120, rows: 20},
	);
	return {recording, real, clock, ui, marks: transitionMarks(recording)};
}

/** `11:00:04` in the machine's zone, as the header shows it. */
function hms(ms: number): string {
	const d = new Date(ms);
	return [d.getHours(), d.getMinutes(), d.getSeconds()].map(n => String(n).padStart(2, '0')).join(':');
}

/** Whether the recording, played up to `at`, has the RestoreFromObjectStore phase failed (its own store). */
function restoreFailedAt(recording: Recording, at: number): boolean {
	const store = new Store(new FakeClock(at));
	for (const entry of recording.entries) {
		if (entry.at > at) {
			break;
		}

		if (entry.event.type !== 'end') {
			store.apply(entry.event);
		}
	}

	const failed = (nodes: readonly PlanNode[]): boolean => nodes.some(n => (n.name === 'RestoreFromObjectStore' && n.state === 'failed') || failed(n.children));
	return store.getSnapshot().objects.some(o => failed(o.tree));
}

describe('replay in the TUI', () => {
	test('the header says REPLAY and the recorded time; ] and [ step through transitions; space pauses', async () => {
		const {recording, clock, ui, marks} = setup();
		let screen = await ui.waitForScreen(s => s[0]?.includes('REPLAY') === true, 'the replay header');
		expect(screen[0]).toMatch(new RegExp(`^planwatch · REPLAY ${hms(clock.now())} · demo · default`));
		expect(ui.text()).toContain('not found: watching for it to appear');

		// Forward, one ] at a time, to the first transition at which the restore phase has failed. Two transitions
		// can fall in the same second, so the header alone does not say a frame is current: each step waits for the
		// tree the recording holds at that moment.
		const failedMark = marks.findIndex(at => restoreFailedAt(recording, at));
		expect(failedMark).toBeGreaterThan(0);
		for (let index = 0; index <= failedMark; index++) {
			await ui.press(']');
			expect(clock.now()).toBe(marks[index]);
			const failed = restoreFailedAt(recording, marks[index]!);
			await ui.waitForScreen(s => s[0]?.includes(`REPLAY ${hms(marks[index]!)}`) === true && /✖ RestoreFromObjectStore/.test(s.join('\n')) === failed, `the tree at mark ${index}`);
		}

		// One back: not failed yet.
		await ui.press('[');
		expect(clock.now()).toBe(marks[failedMark - 1]);
		await ui.waitForScreen(s => !s.join('\n').includes('✖ RestoreFromObjectStore'), 'the step before it failed');

		await ui.press(' ');
		screen = await ui.waitForScreen(s => s[0]?.includes('paused') === true, 'paused');
		expect(screen[0]).toContain(`REPLAY ${hms(clock.now())} paused`);
		expect(screen.find(line => line.includes(' q quit'))).toMatch(/space pause {2}\[ \] transitions/);
		await ui.press(' ');
		await ui.waitForScreen(s => s[0]?.includes('paused') === false, 'playing again');
	});

	test('at the end the clock stops: ended', async () => {
		const {recording, real, ui} = setup();
		real.advance(recording.entries.at(-1)!.at - recording.startMs + 1000);
		const screen = await ui.waitForScreen(s => s[0]?.includes('ended') === true, 'ended');
		expect(screen.join('\n')).toMatch(/✖ RestoreFromObjectStore/);
	});
});
