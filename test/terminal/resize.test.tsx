import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {appElement} from '../helpers/app-element.js';
import {cleanupTerminals, renderInTerminal} from '../helpers/terminal.js';
import {backupEvents, backupFailed, snapshotOf} from '../helpers/ui-objects.js';

afterEach(cleanupTerminals);

const footer = /^↑↓ move {2}←→ fold/;

/** The screen holds exactly one frame: header on top, footer as the last non-blank line, nothing after it. */
function expectOneFrame(screen: string[], columns: number, rows: number): void {
	const text = screen.join('\n');
	expect(screen[0], text).toMatch(/^planwatch · kind-prod · /);
	expect(screen.filter(line => line.startsWith('planwatch · ')), text).toHaveLength(1);
	const last = screen.findLastIndex(line => line.trim() !== '');
	expect(screen[last], text).toMatch(footer);
	expect(last, text).toBeLessThanOrEqual(rows - 2);
	for (const line of screen) {
		expect([...line].length, `line wider than ${columns}: ${line}`).toBeLessThanOrEqual(columns);
	}
}

/** Lines from the last header down: the frame Ink drew last. */
function lastFrame(screen: string[]): string[] {
	return screen.slice(screen.findLastIndex(line => line.startsWith('planwatch · ')));
}

function renderBackup(columns: number, rows: number) {
	const backup = backupFailed();
	const {element} = appElement({snapshot: snapshotOf({objects: [backup], events: new Map([[objectKey(backup), backupEvents()]])}), targets: [objectKey(backup)]});
	return renderInTerminal(element, {columns, rows});
}

const bigLayout = (s: string[]) => s.some(line => line.includes('stopBackup')) && s.some(line => line.includes('pods "postgres-backup-x" not found'));
const smallLayout = (s: string[]) => s[0]!.length <= 60 && s.some(line => line.startsWith('EVENTS')) && s.some(line => line.includes('more'));

describe('resize', () => {
	test('100x30 → 60x15 re-lays out: one frame on screen, no leftover lines', async () => {
		const ui = renderBackup(100, 30);
		await ui.waitForScreen(s => s.some(line => line.includes('deferPhase')), 'the tree');
		await ui.press('e');
		let screen = await ui.waitForScreen(s => s.some(line => line.startsWith('EVENTS')), 'the events pane');
		expectOneFrame(screen, 100, 30);
		expect(screen.join('\n')).toContain('Failed to execute defer phase');

		ui.resize(60, 15);
		screen = await ui.waitForScreen(smallLayout, 'the 60x15 layout');
		expectOneFrame(screen, 60, 15);
		// The tree shrank to a window around the cursor, the events pane kept the newest events.
		expect(screen.find(line => line.startsWith('›'))).toMatch(/copyFiles/);
		expect(screen.join('\n')).toMatch(/1s {2}Warning {2}ActionSetFailed/);
		// No fragment of a wrapped 100-column line is left on screen.
		expect(screen.join('\n')).not.toMatch(/^(led too|l {2}failed|\s+elapsed)/m);
	});

	test('60x15 → 100x30 re-lays out: one frame on screen, no leftover lines', async () => {
		const ui = renderBackup(60, 15);
		await ui.waitForScreen(s => s.some(line => line.includes('copyFiles')), 'the tree');
		await ui.press('e');
		let screen = await ui.waitForScreen(smallLayout, 'the 60x15 layout');
		expectOneFrame(screen, 60, 15);
		ui.resize(100, 30);
		screen = await ui.waitForScreen(bigLayout, 'the 100x30 layout');
		expectOneFrame(screen, 100, 30);
	});

	test('any shrink or grow: the current frame is drawn whole, last, and within the new width', async () => {
		// Known limit (Ink readme, useWindowSize; Ink #711/#816): a terminal that reflows wraps the old, wider frame
		// onto more rows than Ink erases, so fragments of it can stay above the new frame (or in scrollback, from
		// where growing brings them back). The frame itself is always whole.
		const ui = renderBackup(100, 30);
		await ui.waitForScreen(s => s.some(line => line.includes('deferPhase')), 'the tree');
		for (const [columns, rows] of [
			[60, 15],
			[100, 30],
			[45, 12],
			[120, 20],
		] as const) {
			ui.resize(columns, rows);
			const screen = await ui.waitForScreen(s => {
				const frame = lastFrame(s);
				return frame[0]!.length <= columns && footer.test(frame.findLast(line => line.trim() !== '') ?? '') && frame.every(line => [...line].length <= columns);
			}, `the ${columns}x${rows} layout`);
			const frame = lastFrame(screen);
			// The name gives way before the state word and the percentage do (45 columns cut it, marked).
			expect(frame[1], screen.join('\n')).toMatch(/^ActionSet kanister\/backup-.* failed .*62%$/);
			expect(frame.filter(line => line.trim() !== '').length).toBeLessThanOrEqual(rows - 1);
			expect(frame.join('\n')).toMatch(/copyFiles/);
		}
	});
});
