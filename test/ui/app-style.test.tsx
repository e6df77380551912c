import '../helpers/force-color.js';
import {stripVTControlCharacters} from 'node:util';
import {afterAll, afterEach, describe, expect, test} from 'vitest';
import {objectKey} from '../../source/model/plan-tree.js';
import {renderApp} from '../helpers/render-app.js';
import {FakeWait} from '../helpers/fake-wait.js';
import {ESC, cleanupUi} from '../helpers/ui.js';
import {kafkaRetrying, mysqlDeploy, mysqlDeployTimings, planEvent, snapshotOf, t0} from '../helpers/ui-objects.js';

afterEach(cleanupUi);
afterAll(() => {
	delete process.env['FORCE_COLOR'];
});

const mysql = mysqlDeploy();
const kafka = kafkaRetrying();
const events = new Map([[objectKey(kafka), [planEvent('Warning', 'PlanError', 'quota exceeded', 30, 'kafka')]]]);
const snapshot = () => snapshotOf({objects: [mysql, kafka], timings: new Map([[objectKey(mysql), mysqlDeployTimings()]]), events, lastEventAt: t0});
const grace = () => new FakeWait({phase: 'grace', startedAt: t0 - 600_000, deadlineAt: t0, graceEndsAt: t0 + 10_000});
// SGR colour parameters: 30-39/90-97 foreground, 40-49/100-107 background (Ink's dim/bold/inverse are not colours).
const colourSgr = /\u001B\[(?:\d+;)*(?:3\d|9[0-7]|4\d|10[0-7])(?:;\d+)*m/;

/** Visit the screens a user sees: the list, a tree with detail and events, help, the filter prompt. */
async function everyScreen(app: ReturnType<typeof renderApp>): Promise<string[]> {
	const frames: string[] = [];
	const keep = () => {
		frames.push(app.lastRawFrame());
	};

	await app.waitForFrame(f => f.includes('KIND'));
	keep();
	// The retrying kafka is listed first (what needs attention leads the list): enter opens it.
	await app.press('\r', 'e');
	await app.waitForFrame(f => f.includes('EVENTS') && f.includes('service'), {what: 'kafka tree with events'});
	keep();
	await app.press('?');
	await app.waitForFrame(f => f.includes('KEYS'));
	keep();
	await app.press('?');
	await app.waitForFrame(f => !f.includes('KEYS'), {what: 'help closed'});
	await app.press(ESC);
	await app.waitForFrame(f => !f.includes('EVENTS'), {what: 'events closed'});
	await app.press(ESC);
	await app.waitForFrame(f => f.includes('KIND'), {what: 'back in the list'});
	await app.press('/', 'k');
	await app.waitForFrame(f => f.includes('filter "k"'), {what: 'the filter prompt'});
	keep();
	return frames;
}

describe('colour and ASCII', () => {
	test('colour on: roles are coloured (so the checks below mean something)', async () => {
		const app = renderApp({snapshot: snapshot(), wait: grace()});
		const frames = await everyScreen(app);
		expect(frames.every(f => colourSgr.test(f))).toBe(true);
	});

	test('--no-color: not one colour code on any screen, and icons + words still say everything', async () => {
		const app = renderApp({snapshot: snapshot(), wait: grace(), color: false});
		const frames = await everyScreen(app);
		for (const frame of frames) {
			expect(frame).not.toMatch(colourSgr);
		}

		const [list, tree] = frames.map(f => stripVTControlCharacters(f));
		expect(list).toMatch(/↻ retrying/);
		expect(tree).toMatch(/↻ service +ERROR +retrying \(3rd time\)/);
	});

	test('--ascii: every screen is pure ASCII (icons, fold markers, cursor, separators, banner, no spinner)', async () => {
		const app = renderApp({snapshot: snapshot(), wait: grace(), ascii: true, columns: 100});
		const frames = await everyScreen(app);
		for (const frame of frames) {
			expect(frame.replaceAll(/\u001B\[[\d;]*m/g, '')).toMatch(/^[\u0000-\u007F]*$/);
		}

		const [list, tree, help] = frames.map(f => stripVTControlCharacters(f));
		// The counts (2 | 2 running) and the event age do not both fit next to the timers at 100 columns: the age gives way.
		expect(list).toMatch(/^planwatch \| kind-prod \| default \| UTC \| \* live \| 2 \| 2 running +elapsed 10:00 \| timeout reached\n/);
		// The retrying kafka leads the list, then the running mysql.
		expect(list).toMatch(/> - Instance +kafka +kafka +deploy +\[~~\] retrying/);
		expect(list).toMatch(/^ {2}- Instance +default +mysql-instance +deploy +\[\.\.\] running/m);
		// The running objects' trees, in the list.
		expect(list).toMatch(/^ {4}- \[\.\.\] deploy +serial +IN_PROGRESS/m);
		expect(list).toMatch(/^ {10}\[~~\] service +ERROR +retrying \(3rd time\)/m);
		expect(tree).toMatch(/- \[\.\.\] deploy-kafka +serial +IN_PROGRESS/);
		expect(tree).toMatch(/> +\[~~\] service +ERROR +retrying \(3rd time\) \| A transient/);
		expect(tree).toContain('[!] Timeout reached after 10m - press + to wait 5m more');
		expect(tree).toMatch(/j\/k move {2}h\/l fold {2}x all/);
		expect(help).toMatch(/up k +move up/);
	});
});
