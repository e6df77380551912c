import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {keymap} from '../../source/ui/keymap.js';
import {renderApp} from '../helpers/render-app.js';
import {ESC, cleanupUi} from '../helpers/ui.js';
import {mysqlDeploy, snapshotOf} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

const mysql = mysqlDeploy();

describe('help overlay', () => {
	test('? lists every command of the keymap; ? closes it', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]}), targets: [objectKey(mysql)], rows: 40});
		await app.waitForFrame(f => f.includes('cleanup'));
		await app.press('?');
		const frame = await app.waitForFrame(f => f.includes('KEYS'), {what: 'the help overlay'});
		// Replay keys are listed only in a replay.
		for (const binding of keymap.filter(b => !b.only)) {
			expect(frame).toContain(binding.description);
		}

		expect(frame).toMatch(/↑ k +move up/);
		expect(frame).toMatch(/q ctrl\+c +quit/);
		expect(frame).not.toContain('previous transition');
		expect(frame.split('\n').at(-1)).toBe('? esc close  q quit');
		// The tree is hidden behind it, and navigation keys do nothing while it is open.
		expect(frame).not.toContain('cleanup');
		await app.press('j', 'x');
		await app.press('?');
		await app.waitForFrame(f => !f.includes('KEYS') && f.includes('cleanup'), {what: 'help closed, tree unchanged'});
	});

	test('esc closes it (and does not quit)', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]}), targets: [objectKey(mysql)]});
		await app.waitForFrame(f => f.includes('cleanup'));
		await app.press('?');
		await app.waitForFrame(f => f.includes('KEYS'));
		await app.press(ESC);
		await app.waitForFrame(f => !f.includes('KEYS'), {what: 'help closed'});
		expect(app.quits()).toBe(0);
	});

	test('in a small terminal it is cut with a "more" line and stays within the screen', async () => {
		const app = renderApp({snapshot: snapshotOf({objects: [mysql]}), targets: [objectKey(mysql)], rows: 12, columns: 60});
		await app.waitForFrame(f => f.includes('cleanup'));
		await app.press('?');
		const frame = await app.waitForFrame(f => f.includes('KEYS'));
		expect(frame.split('\n').length).toBeLessThanOrEqual(11);
		expect(frame).toMatch(/↓ \+\d+ more/);
	});
});
