/**
 * `-f FILE`: a static snapshot is a picture of one moment. The TUI says `as of <time>` where a live view has its
 * timers, shows running nodes without a spinner, and its timers do not move on with the clock.
 */
import {afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {renderApp} from '../helpers/render-app.js';
import {cleanupUi} from '../helpers/ui.js';
import {mysqlDeploy, mysqlDeployTimings, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupUi);

const mysql = mysqlDeploy();
const key = objectKey(mysql);
const spinner = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

function render(asOf?: {at: number; recorded: boolean}) {
	return renderApp({
		snapshot: snapshotOf({objects: [mysql], timings: new Map([[key, mysqlDeployTimings()]]), connection: {status: 'static', label: 'file'}}),
		targets: [key],
		...(asOf ? {asOf} : {}),
	});
}

describe('a static snapshot in the TUI', () => {
	test('the header says as of when; running nodes show their icon, no spinner; timers stand at that moment', async () => {
		const app = render({at: t0, recorded: true});
		const frame = await app.waitForFrame(f => f.includes('init'));
		const lines = frame.split('\n');
		expect(lines[0]).toBe('planwatch · kind-prod · default · UTC · as of 2026-11-30 11:00:00 · file');
		expect(frame).not.toMatch(spinner);
		expect(lines.find(l => /● init /.test(l))).toMatch(/● init +IN_PROGRESS +2:29$/);
		app.clock.advance(5000);
		await app.waitForFrame(f => f.includes('init'));
		expect(app.lastFrame()).toBe(frame);
	});

	test('files that record no time: as read', async () => {
		const app = render({at: t0, recorded: false});
		expect((await app.waitForFrame(f => f.includes('init'))).split('\n')[0]).toContain('· as read 2026-11-30 11:00:00');
	});

	test('live, the same objects spin and their timers run on (the contrast the snapshot must not show)', async () => {
		const app = render();
		const frame = await app.waitForFrame(f => f.includes('init'));
		expect(frame).toMatch(spinner);
		expect(frame).toContain('2:29');
		app.clock.advance(5000);
		expect(await app.waitForFrame(f => f.includes('2:34'))).toContain('2:34');
	});
});
