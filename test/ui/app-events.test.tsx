import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {renderApp} from '../helpers/render-app.js';
import {ESC, cleanupUi} from '../helpers/ui.js';
import {backupEvents, backupFailed, planEvent, snapshotOf} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

const backup = backupFailed();
const key = objectKey(backup);

describe('events pane', () => {
	test('e shows the events of the open object, newest last, with ages; e hides them', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [backup], events: new Map([[key, backupEvents()]])}), targets: [key], columns: 120});
		await app.waitForFrame(f => f.includes('deferPhase'));
		expect(app.lastFrame()).not.toContain('EVENTS');
		await app.press('e');
		const frame = await app.waitForFrame(f => f.includes('EVENTS kanister/backup-glptq'), {what: 'the events pane'});
		const lines = frame.split('\n');
		const title = lines.indexOf('EVENTS kanister/backup-glptq');
		expect(lines.slice(title + 1, title + 5)).toEqual([
			'   58s  Normal   Started Action      Executing action backup',
			'   57s  Normal   Started Phase       Executing phase createBackupPod',
			'    3s  Normal   Started deferPhase  Executing deferPhase',
			'    1s  Warning  ActionSetFailed     Failed to execute defer phase: pods "postgres-backup-x" not found',
		]);
		// Ages move with the clock.
		app.clock.advance(3 * 60_000);
		await app.waitForFrame(f => f.includes('    3m  Warning  ActionSetFailed'), {what: 'ages after 3 minutes'});
		await app.press('e');
		await app.waitForFrame(f => !f.includes('EVENTS'), {what: 'pane hidden'});
	});

	test('esc closes the pane before anything else', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [backup], events: new Map([[key, backupEvents()]])}), targets: [key]});
		await app.waitForFrame(f => f.includes('deferPhase'));
		await app.press('e');
		await app.waitForFrame(f => f.includes('EVENTS'));
		await app.press(ESC);
		await app.waitForFrame(f => !f.includes('EVENTS'), {what: 'pane closed by esc'});
		expect(app.quits()).toBe(0);
	});

	test('many events: the newest that fit, an "earlier" line, and the frame stays within the terminal', async () => {
		const events = Array.from({length: 60}, (_, i) => planEvent('Normal', `Reason${i}`, `message ${i}`, 600 - i * 10));
		const app = renderApp({snapshot: snapshotOf({objects: [backup], events: new Map([[key, events]])}), targets: [key], rows: 20});
		await app.waitForFrame(f => f.includes('deferPhase'));
		await app.press('e');
		const frame = await app.waitForFrame(f => f.includes('EVENTS'), {what: 'the events pane'});
		expect(frame.split('\n').length).toBeLessThanOrEqual(19);
		expect(frame).toContain('message 59');
		expect(frame).not.toContain('message 0\n');
		expect(frame).toMatch(/↑ \d+ earlier/);
	});

	test('no events: says so', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [backup]}), targets: [key]});
		await app.waitForFrame(f => f.includes('deferPhase'));
		await app.press('e');
		await app.waitForFrame(f => f.includes('EVENTS kanister/backup-glptq') && f.includes('no events'));
	});

	test('in the list, the pane follows the selected row', async () => {
		const other = {...backupFailed(), name: 'other'};
		const app = renderApp({snapshot: snapshotOf({objects: [backup, other], events: new Map([[key, backupEvents()]])})});
		await app.waitForFrame(f => f.includes('KIND'));
		await app.press('e');
		await app.waitForFrame(f => f.includes('EVENTS kanister/backup-glptq') && f.includes('ActionSetFailed'));
		await app.press('j');
		await app.waitForFrame(f => f.includes('EVENTS kanister/other') && f.includes('no events'), {what: 'events of the second row'});
	});
});
